"""The vocabulary every other layer speaks: a board's Shape and Grid, the Rules a puzzle carries, cell names, the
Puzzle itself, and the one independent checker of an answer (``is_solution``).

Nothing here solves, reads files or prints; it may import only the standard library and
``sudokulab.errors``, so that every layer above can import it.
"""
