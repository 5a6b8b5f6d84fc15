"""Constraint programming with OR-Tools CP-SAT: the model and the solver (docs/cpsat.md)."""
