"""0-1 integer programming: the model (and its LP and MPS text) and the solver on OR-Tools' MIP engines.

More: docs/solvers.md.
"""
