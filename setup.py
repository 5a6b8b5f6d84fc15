"""The optional C extensions: ``backtrack-jit``'s search (src/sudokulab/solvers/jit/_search.c) and SE's
chaining rules (src/sudokulab/reasoning/serate/_chaining.c); everything else is in pyproject.toml.
``optional=True``: where no compiler exists the build goes on without them, and the solver runs its numba
kernels instead (docs/jit.md), the SE rating its Python port (docs/rating.md)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "sudokulab.solvers.jit._search",
            ["src/sudokulab/solvers/jit/_search.c"],
            depends=["src/sudokulab/solvers/jit/_search9.h"],
            extra_compile_args=["-O3", "-std=c99"],
            optional=True,
        ),
        Extension(
            "sudokulab.reasoning.serate._chaining",
            ["src/sudokulab/reasoning/serate/_chaining.c"],
            extra_compile_args=["-O2", "-std=c99"],
            optional=True,
        ),
    ]
)
