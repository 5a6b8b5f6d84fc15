"""Tests of generation/: puzzles made here."""
