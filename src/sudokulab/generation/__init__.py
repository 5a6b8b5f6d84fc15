"""Puzzles made here: random grids of any shape and rules, givens removed to a count or to a
uniqueness the oracle proves, the same puzzles for the same seed (``sudokulab generate``).

It may import ``core``, ``formats``, ``execution``, ``solvers``, ``datasets``, ``reasoning``,
``verdicts`` and ``ui``; nothing above it.

More: docs/generate.md.
"""
