"""For teaching: the solver contract as plain functions (``contract``), the at-most-one encodings
shown (``encoding_lab``), the grader of a student's model (``encoding_grader``), loading a
student's file (``student_code``) and the templates students start from (``templates``).

It may import every layer below it (``core`` to ``runs``) and ``errors``; never ``cli``.
"""
