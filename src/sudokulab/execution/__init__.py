"""Where work runs, knowing nothing of Sudoku: this process or a pool of local processes
(``executors``), a Dask cluster behind the same interface (``cluster``), and one program under time,
memory and process limits in its sandbox (``sandbox``, ``isolation``).

It may import ``core``, ``formats`` and ``errors``; the solvers above it import it to run an
outside SAT program under the same sandbox as ``judge``.
"""
