"""Exact cover: the matrix of Algorithm X and the dancing-links solver (dlx) (docs/solvers.md)."""
