"""Reasoning a person can follow: pencil marks, Hall sets, the propagation ladder, the vocabulary of a
step, the technique finders, the SAT certificate of a step, explanations, conflicts and ratings.

It may import ``core``, ``formats``, ``models``, ``solvers`` and ``datasets``: a step is certified
with the CNF model, and a rating reads a whole set.
"""
