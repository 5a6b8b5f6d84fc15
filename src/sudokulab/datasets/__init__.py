"""Puzzle sets: streamed from files one entry at a time, a bad line one bad entry (``reading``), and
the catalogue of published benchmark sets, downloaded, checked against their SHA-256 and cached
(``catalog``).

It may import the layers below it (``core``, ``formats``, ``execution``, ``models``, ``solvers``:
the batch arrays of ``solvers.batch``) and ``errors``.
"""
