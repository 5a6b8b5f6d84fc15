"""Tests of verdicts/: the special judge and the solutions listed."""
