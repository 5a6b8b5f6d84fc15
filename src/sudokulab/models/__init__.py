"""Models: build a problem for a paradigm's engine, solve nothing (solvers run them).

A lesson can print a model's clauses or constraints without loading any solver.
"""
