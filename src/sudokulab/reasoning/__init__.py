"""Reasoning a person can follow: pencil marks (``candidates``), Hall sets, the propagation ladder,
why a puzzle has no solution, the step vocabulary and the technique finders, steps certified by
SAT, explanations and difficulty ratings.

It may import the layers below it (``core`` to ``datasets``) and ``errors``; never ``verdicts``,
``ui`` or a layer above them.
"""
