"""The ``sudokulab`` command: the process lifecycle and exit codes, the argument parser, the renderers
of each command's results, and one module per command under ``commands/``.

It may import every layer; nothing in the package imports it except ``__main__``.
"""
