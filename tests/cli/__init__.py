"""Tests of cli/: the command line as a person meets it: streams, signals, terminals, JSON, exit codes."""
