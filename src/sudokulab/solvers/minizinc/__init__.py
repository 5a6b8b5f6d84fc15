"""Classic CP through MiniZinc: the model, its data, and the solver that runs the minizinc program.

More: docs/minizinc.md.
"""
