"""The hand-written backtracking searches: the classic row-major baseline and the fast search (docs/solvers.md)."""
