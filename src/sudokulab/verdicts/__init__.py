"""Verdicts on answers: the batch form of the one checker, the oracle that counts solutions and finds
the canonical answer, the BOJ special judge for one answer, and certified (DRUP-proved) verdicts.

It may import every layer up to ``reasoning``; the runs and the command line read its verdicts.

More: docs/verify.md.
"""
