"""Tests of reasoning/: a person's techniques, levels, explanations and ratings."""
