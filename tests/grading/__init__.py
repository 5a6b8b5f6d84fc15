"""Tests of grading/: the graders, forgeries, a whole class."""
