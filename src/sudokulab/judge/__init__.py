"""A program judged over a dataset as an online judge does: the program fixed and copied once, each
puzzle run in the sandbox of ``execution`` under its limits, each answer checked by the special
judge, the verdicts summed.

It may import every layer from ``core`` up to ``bench``; nothing above it (``grading``, ``cli``).

More: docs/judge.md.
"""
