"""Solver options: one declared-and-checked path for every solver (``solvers.base.check_options``).

A bad option name or value is one ``UsageError`` line naming the solver and the option, whether the
solver is built by name (``solvers.get``, the command line's ``-o``) or directly from its class.
"""

from __future__ import annotations

import pytest

from sudokulab import solvers
from sudokulab.errors import UsageError
from sudokulab.solvers.base import Option, SolverBase

from ..conftest import EXAMPLES
from ..conftest import run_cli as run

SAMPLE = str(EXAMPLES / "boj2580-sample.txt")
BAD_TEXT = {int: "many", float: "lots", bool: "maybe"}
"""A value from the command line that no option of that type takes."""


def _installed_classes() -> list[tuple[str, type]]:
    found = []
    for name in solvers.names():
        try:
            found.append((name, solvers.solver_class(name)))
        except UsageError:  # its backend is not installed here
            continue
    return found


CASES = [(name, cls, option) for name, cls in _installed_classes() for option in cls.options]


def _bad_value(option: Option) -> str:
    """A value the option refuses: the wrong type for numbers and switches, no valid choice for words."""
    if option.type is str:
        return "no-such-choice" if option.valid_values() is not None else ""
    return BAD_TEXT[option.type]


def _build(how: str, name: str, cls: type, **options: object) -> object:
    return solvers.get(name, **options) if how == "by name" else cls(**options)


@pytest.mark.parametrize("how", ["by name", "from the class"])
@pytest.mark.parametrize(("name", "cls"), _installed_classes(), ids=lambda v: v if isinstance(v, str) else "")
def test_an_unknown_option_names_the_solver_and_its_options(name, cls, how):
    with pytest.raises(UsageError) as raised:
        _build(how, name, cls, colour="red")
    message = str(raised.value)
    assert "\n" not in message
    assert message.startswith(f"solver '{name}' takes no option 'colour'; its options: ")
    assert message.endswith(", ".join(o.name for o in cls.options) or "none")


@pytest.mark.parametrize("how", ["by name", "from the class"])
@pytest.mark.parametrize(("name", "cls", "option"), [c for c in CASES if _bad_value(c[2])],
                         ids=lambda v: v if isinstance(v, str) else getattr(v, "name", ""))
def test_a_bad_value_names_the_solver_and_the_option(name, cls, option, how):
    bad = _bad_value(option)
    with pytest.raises(UsageError) as raised:
        _build(how, name, cls, **{option.name: bad})
    message = str(raised.value)
    assert "\n" not in message
    assert message.startswith(f"solver '{name}'") and f" {option.name}" in message and bad in message


@pytest.mark.parametrize(("name", "cls", "option"), [c for c in CASES if c[2].minimum is not None],
                         ids=lambda v: v if isinstance(v, str) else getattr(v, "name", ""))
def test_a_value_below_the_minimum_is_refused(name, cls, option):
    below = option.minimum - 1
    with pytest.raises(UsageError, match=f"solver '{name}' option {option.name} must be at least"):
        cls(**{option.name: below})


def test_the_cli_refuses_a_bad_option_in_one_line(capsys):
    for solver, pair, words in (("dlx", "structure=trees", "solver 'dlx': unknown structure 'trees'"),
                                ("sat", "amo=none", "solver 'sat': unknown amo 'none'"),
                                ("backtrack-fast", "depth=3", "solver 'backtrack-fast' takes no option 'depth'")):
        code, out, err = run(capsys, "solve", SAMPLE, "--solver", solver, "-o", pair)
        assert (code, out) == (2, "")
        assert err.startswith(f"sudokulab: error: {words}") and err.count("\n") == 1


def test_text_values_convert_and_python_values_pass():
    assert solvers.parse_options("cpsat", {"workers": "2", "presolve": "off", "seed": "-3"}) == {
        "workers": 2, "presolve": False, "seed": -3}
    assert solvers.parse_options("cpsat", {"presolve": None}) == {"presolve": None}  # its default: "let it choose"
    with pytest.raises(UsageError, match="solver 'cpsat' option seed must be at most 2147483647"):
        solvers.parse_options("cpsat", {"seed": 2**31})
    with pytest.raises(UsageError, match="solver 'cpsat' option workers must be of type int, not True"):
        solvers.parse_options("cpsat", {"workers": True})


def test_a_subclass_of_solverbase_is_checked_too():
    class Tuned(SolverBase):
        name = "tuned"
        options = (Option("depth", int, 3, "how deep", minimum=1),)

        def __init__(self, depth: int = 3) -> None:
            super().__init__()
            self.depth = depth

    assert Tuned(depth="4").depth == 4  # converted from text, as from the command line
    assert Tuned(5).depth == 5  # positional arguments are options too
    with pytest.raises(UsageError, match="solver 'tuned' option depth must be at least 1, not 0"):
        Tuned(depth=0)
