"""Tests of bench/: bench runs, compare, configurations, solve --all."""
