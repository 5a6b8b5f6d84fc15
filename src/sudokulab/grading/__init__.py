"""Students' work graded: the solver contract and the graders (check-solver, check-encoding), the
student's code in a sandboxed worker that answers over a pipe, and a whole class graded into a
gradebook that resumes where a run stopped.

It may import every layer from ``core`` up to ``judge``; only ``cli`` is above it.

More: docs/grading.md.
"""
