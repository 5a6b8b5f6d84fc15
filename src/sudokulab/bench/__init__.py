"""Solvers over puzzles: a bench run over datasets (rows, running sums, summaries, repeated runs and
their spread, the tables that report them), a study (solvers over an instance family swept along a
parameter, compared instance by instance), every paradigm on one puzzle (compare), and a dataset's
answers in input order (``solve --all``, on bench's worker).

It may import every layer from ``core`` up to ``generation``; nothing above it (``judge``,
``grading``, ``cli``).

More: docs/bench.md.
"""
