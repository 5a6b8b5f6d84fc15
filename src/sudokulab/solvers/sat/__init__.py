"""SAT: the CNF model of a puzzle's rules, its DIMACS text, and the solvers on PySAT's engines or any SAT program.

More: docs/sat.md.
"""
