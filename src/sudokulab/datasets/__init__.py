"""Puzzle sets: streamed from a file one puzzle at a time (one-line form or BOJ blocks, one bad entry
reported and skipped), and the catalogue of published benchmark sets with their checksums; in
``slices/``, the first lines of some of those sets (package data), which lessons and tests read where
the whole set is not here (``catalog.find``).

It may import ``core``, ``formats`` and ``solvers`` (a set is read into the batch arrays of
``solvers.batch``); nothing that rates, checks or runs a set.

More: docs/datasets.md.
"""
