"""Tests of judge/: programs judged in the sandbox, in every language BOJ accepts."""
