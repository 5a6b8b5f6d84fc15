"""Tests of the repository as a whole: its layout, its documents' claims and commands, its notebooks, the suite."""
