"""Tests of backtrack-jit: the compiled search and its two backends."""
