"""Verdicts on answers: the batch form of the one checker (``checking``), the oracle that counts
solutions and finds the canonical one (``oracle``), certified verdicts with checked DRUP proofs
(``proof``), and BOJ 2580's special judge for one answer (``verify``).

It may import the layers below it (``core`` to ``reasoning``) and ``errors``.
"""
