"""Tests of ui/: pictures and the step viewer."""
