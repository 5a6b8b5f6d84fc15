"""Files a student starts from: a SAT encoding, a CP-SAT model and a solver (``docs/grading.md``).

``sudokulab check-encoding --template`` (``--template cp``) and ``sudokulab check-solver --template``
print them; each is correct and graded by the command it belongs to (the tests check that).
"""

from __future__ import annotations

from importlib.resources import files

TEMPLATES = {"sat": "encoding_template.py", "cp": "cp_template.py", "solver": "solver_template.py"}


def text(kind: str) -> str:
    """The source of one template, as shipped."""
    return files(__name__).joinpath(TEMPLATES[kind]).read_text("utf-8")
