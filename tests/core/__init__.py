"""Tests of core/: the vocabulary, the rules as a value, the one checker."""
