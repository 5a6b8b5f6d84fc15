"""For teaching and grading: the solver contract as plain checks, the encoding lab, the graders of a
student's model or solver, loading a student's code, and the templates a student starts from.

It may import every layer up to ``runs``; only ``cli`` is above it.
"""
