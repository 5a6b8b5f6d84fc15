"""Text in and text out: the BOJ 2580 format and its relatives, JSON and f-puzzles puzzle files, the
rule files, the JSON documents of ``--json``, and output files written whole or not at all.

It may import ``core`` (and ``sudokulab.errors``): a format turns text into the vocabulary and back,
knowing nothing of solvers or runs.
"""
