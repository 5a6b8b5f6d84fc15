"""Work over many solvers or puzzles: benchmark runs and what they record (``bench``, ``results``,
``configurations``, ``spread``), solvers compared on one puzzle (``compare``), generated puzzles
(``generate``) and judged programs (``judge``).

It may import the layers below it (``core`` to ``ui``) and ``errors``: it reports progress through
``ui`` and leaves the rendering of its results to ``cli``.
"""
