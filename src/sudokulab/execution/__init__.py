"""Where work runs, knowing nothing of Sudoku: this process, a pool of local processes, a Dask
cluster, and the sandbox that runs an untrusted program under limits.

It may import ``core`` and ``formats`` only. It sits below the models and solvers because the
``dimacs`` solver runs an external SAT program in the same sandbox as ``judge``.
"""
