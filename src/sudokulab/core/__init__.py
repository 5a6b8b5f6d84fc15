"""The vocabulary every layer speaks: the board (``grid``), the rules as a value (``rules``), cell
names (``cells``), the puzzle and the one checker of an answer (``puzzle``), and how this sudokulab
was installed (``install``).

The lowest layer: it may import nothing of sudokulab but ``errors``; every other layer imports it.
"""
