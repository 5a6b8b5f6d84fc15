"""Tests of datasets/: published sets, and files that are not what they claim."""
