"""The commands of ``sudokulab``: one module each, found through one table (pip's ``commands_dict``).

``COMMANDS`` maps each command's word to its module and its line in ``sudokulab --help``, in the
order the help lists them; only the module of the command that runs is imported (``load``), so
``sudokulab --help`` imports none. A module holds its command whole: ``configure(parser)`` (its
arguments), ``run(args) -> int`` (its exit code, or a ``SudokuError`` that ``cli.main`` turns into
one), optionally ``DESCRIPTION`` and ``USAGE`` for its own help, and the text it prints for a
person. Adding a command is one module here and one line in the table (docs/design.md).
"""

from __future__ import annotations

from importlib import import_module

TYPE_CHECKING = False  # typing itself costs start-up: imported for the type checker only
if TYPE_CHECKING:
    from types import ModuleType


class Command:
    """A command's module (in this package) and its line in ``sudokulab --help``."""

    __slots__ = ("module", "help")

    def __init__(self, module: str, help: str) -> None:  # noqa: A002 - argparse's word for it
        self.module, self.help = module, help


COMMANDS: dict[str, Command] = {
    "solve": Command("solve", "solve one puzzle and print the BOJ answer (--all: every puzzle of datasets)"),
    "count": Command("count", "count the solutions up to a limit"),
    "export": Command("export", "write the puzzle's model for an external solver"),
    "decode": Command("decode", "turn a SAT solver's answer to an exported formula into the BOJ answer"),
    "solvers": Command("solvers", "list the solvers: paradigm, installed, capabilities, options"),
    "compare": Command("compare", "run every solver on a puzzle and check that they agree"),
    "verify": Command("verify", "judge an answer as BOJ's special judge does, with SAT as oracle"),
    "judge": Command("judge", "run a program on every puzzle of a dataset and judge it as an online judge does"),
    "bench": Command("bench", "run solvers over puzzle sets: summary table, per-puzzle CSV, plot"),
    "study": Command("study", "solvers over an instance family swept along a parameter: scatter, survival, PAR-2, "
                              "paired tests, the hardness peak"),
    "rate": Command("rate", "difficulty of puzzle sets: the hardest step each puzzle needs, its rating, the "
                            "distribution per set (docs/rating.md)"),
    "generate": Command("generate", "random puzzles of any size, in the dataset format"),
    "propagate": Command("propagate", "pencil marks after a level of reasoning, or a dataset's propagation ladder"),
    "datasets": Command("datasets", "the published benchmark sets: list them, fetch them, find them"),
    "explain": Command("explain", "the solving path as a person's steps, each with minimal premises"),
    "encoding": Command("encoding", "show the at-most-one encodings and the model sizes per encoding"),
    "check-encoding": Command("check_encoding", "grade a student's SAT or CP-SAT model of Sudoku"),
    "check-solver": Command("check_solver", "run the solver contract on a student's solver class"),
    "grade": Command("grade", "grade a whole class: every student's submission, a gradebook and a report each"),
    "solutions": Command("solutions", "list the solutions of a puzzle in BOJ form, up to a limit"),
    "completion": Command("completion", "print the shell completion script for bash or zsh"),
}
"""Every command, in the order of ``sudokulab --help``."""


def load(name: str) -> ModuleType:
    """The module of the command ``name`` (a key of ``COMMANDS``), imported now."""
    return import_module(f"{__name__}.{COMMANDS[name].module}")
