"""Tests of solvers/: the contract every solver keeps, the shared search and batches, each paradigm."""
