"""Text in and text out: the BOJ 2580 format and its relatives, JSON and f-puzzles puzzle files, the
rule files, the JSON documents of ``--json``, output files written whole or not at all, and prose for
a person (wrapped at a terminal's width, whole in a file).

It may import ``core`` (and ``sudokulab.errors``): a format turns text into the vocabulary and back,
knowing nothing of solvers or runs.
"""
