"""The optional C extension of ``backtrack-jit`` (src/sudokulab/solvers/jit/_search.c); everything else is in
pyproject.toml. ``optional=True``: where no compiler exists the build goes on without it, and the solver
runs its numba kernels instead (docs/jit.md)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "sudokulab.solvers.jit._search",
            ["src/sudokulab/solvers/jit/_search.c"],
            depends=["src/sudokulab/solvers/jit/_search9.h"],
            extra_compile_args=["-O3", "-std=c99"],
            optional=True,
        )
    ]
)
