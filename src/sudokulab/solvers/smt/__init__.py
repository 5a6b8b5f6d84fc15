"""SMT: the SMT-LIB model and the solver on z3 (docs/smt.md)."""
