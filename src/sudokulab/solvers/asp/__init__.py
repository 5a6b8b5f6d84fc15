"""Answer set programming: the program and its instance facts, and the solver on clingo (docs/asp.md)."""
