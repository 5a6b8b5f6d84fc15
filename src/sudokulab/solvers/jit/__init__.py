"""backtrack-jit: the hand-written search compiled, by a C extension or by numba (docs/jit.md)."""
