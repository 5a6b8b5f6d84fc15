"""Loading a student's own Python file into this process, and calling into it with one-line failures.

The graders (``check-encoding``, ``check-solver``) never do this in their own process: anything the
student can import, the student can patch. They run ``student_worker``, which does it inside the
sandbox and sends back data (``student_process``). ``compare --solver-class`` does it here: a class
raced beside the built-in solvers is the user's own, trusted as any script they run. A file that
does not import, lacks what the interface asks for, or raises, is one line naming the file, the
function and the line (``StudentError``, exit 2), never a traceback. Which of ``sudokulab``'s own
solvers a student's code imports is found here too, and refused where the teacher says so.

More: docs/grading.md.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from ..errors import UsageError


class StudentError(UsageError):
    """The student's file cannot be used: it does not import, lacks a function, or raised (exit 2)."""


def _where(exc: BaseException, path: Path) -> str:
    """", line N" of the deepest frame in the student's file, if the exception passed through it."""
    line = getattr(exc, "lineno", None) if isinstance(exc, SyntaxError) else None
    for frame in traceback.extract_tb(exc.__traceback__):
        if Path(frame.filename).resolve() == path:
            line = frame.lineno
    return f", line {line}" if line else ""


def load_module(path_text: str, shown: str | None = None) -> ModuleType:
    """Import a student's file by its path (its folder on ``sys.path`` meanwhile, for its own helpers);
    errors name it as ``shown`` (the path the user gave, where this is a copy of it)."""
    path = Path(path_text)
    path_text = shown or path_text
    if not path.is_file():
        raise StudentError(f"{path_text}: no such file")
    path = path.resolve()
    name = f"sudokulab_student_{path.stem}".replace("-", "_")
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise StudentError(f"{path_text}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # as an import would: dataclasses and pickling look a class's module up
    sys.path.insert(0, str(path.parent))
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # noqa: BLE001 - whatever the student's file raises, one line
        del sys.modules[name]
        raise StudentError(f"{path_text}{_where(exc, path)}: cannot import it: {type(exc).__name__}: {exc}") from None
    finally:
        sys.path.remove(str(path.parent))
    module.__sudokulab_path__ = path  # type: ignore[attr-defined]
    return module


def split_target(target: str) -> tuple[str, str, bool]:
    """``FILE.py:CLASS`` or ``module:CLASS`` as (file or module, class, whether it is a file)."""
    where, colon, class_name = target.rpartition(":")
    if not colon or not where or not class_name:
        raise StudentError(f"'{target}': expected FILE.py:CLASS or module:CLASS, e.g. student.py:StudentSolver")
    return where, class_name, where.endswith(".py") or Path(where).is_file()


def load_class(target: str, shown: str | None = None) -> type:
    """``file.py:Class`` (a student's file) or ``package.module:Class`` (an installed module); errors
    name it as ``shown`` (the target the user gave, where this file is a copy of theirs)."""
    where, class_name, is_file = split_target(target)
    if shown:
        target, (where_shown, _, _) = shown, split_target(shown)
    else:
        where_shown = where
    if is_file:
        module = load_module(where, where_shown)
    else:
        try:
            module = importlib.import_module(where)
        except ImportError as exc:
            raise StudentError(f"'{target}': cannot import module '{where}': {exc}") from None
    found = getattr(module, class_name, None)
    if not isinstance(found, type):
        raise StudentError(f"'{target}': {where_shown} defines no class {class_name}")
    return found


def function(module: ModuleType, name: str) -> Callable[..., Any] | None:
    found = getattr(module, name, None)
    return found if callable(found) else None


def call(module: ModuleType, name: str, func: Callable[..., Any], *args: Any) -> Any:
    """Call the student's function; anything it raises becomes one line naming it (StudentError)."""
    try:
        return func(*args)
    except StudentError:
        raise
    except Exception as exc:  # noqa: BLE001 - the student's code may raise anything
        raise StudentError(raised_line(module, name, exc)) from None


def raised_line(module: ModuleType | None, name: str, exc: BaseException) -> str:
    """"file.py, line N: NAME raised TYPE: message", the line of the student's file it passed through."""
    path = getattr(module, "__sudokulab_path__", None)
    where = _where(exc, path) if path else ""
    label = path.name if path else getattr(module, "__name__", "the student's code")
    return f"{label}{where}: {name} raised {type(exc).__name__}: {exc}"


def register_classes(targets: list[str], names: list[str] | None) -> list[str] | None:
    """Register student solver classes (``FILE.py:CLASS``) for this run under their ``name``, and add them
    to the names asked for (None: every installed solver, theirs now included).

    The registry takes a class as an entry (``solvers.REGISTRY[name] = cls``); this is that, with a
    clash against a built-in name refused.
    """
    from .. import solvers

    added = []
    for target in targets:
        cls = load_class(target)
        name = getattr(cls, "name", None)
        if not isinstance(name, str) or not name or name == "base":
            raise StudentError(f"'{target}': the class needs a name of its own (a class attribute name = \"...\")")
        if name in solvers.REGISTRY and solvers.REGISTRY[name] is not cls:
            raise StudentError(f"'{target}': its name '{name}' is a registered solver's; give the class another name")
        solvers.REGISTRY[name] = cls
        added.append(name)
    return None if names is None else names + [name for name in added if name not in names]


# --- sudokulab's own solvers in a student's code -----------------------------------------------------

def library_solvers() -> dict[str, Path]:
    """The built-in solvers' paradigm folders, by name (``sat``, ``exact_cover``, ...): each folder of
    ``sudokulab.solvers`` a registered solver lives in. A student's class that subclasses ``DlxSolver``
    or calls ``solvers.get("sat")`` hands in the package's work, not theirs: a teacher may want to know
    (``imported_library_solvers``), or to refuse it (the sandbox then shows these folders empty)."""
    from .. import solvers

    folder = Path(solvers.__file__).resolve().parent
    names = sorted({entry.target.split(":")[0].split(".")[2] for entry in solvers.REGISTRY.values()
                    if isinstance(entry, solvers.SolverEntry) and isinstance(entry.target, str)
                    and entry.target.startswith("sudokulab.solvers.")})
    return {name: folder / name for name in names if (folder / name).is_dir()}


def imported_library_solvers() -> list[str]:
    """The paradigm folders of ``sudokulab.solvers`` this process has imported from, by name."""
    names = library_solvers()
    return sorted({module.split(".")[2] for module in list(sys.modules)
                   if module.startswith("sudokulab.solvers.") and module.split(".")[2] in names})


class RefusedSolvers:
    """An import hook that refuses the built-in solvers' packages by name, with one line saying why
    (``--refuse-library-solvers``): the sandbox also shows their folders empty, which no code inside
    can undo; this is the readable half, and the whole refusal where there is no sandbox."""

    def __init__(self, refused: list[str]):
        self.refused = set(refused)

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        parts = name.split(".")
        if len(parts) >= 3 and parts[:2] == ["sudokulab", "solvers"] and parts[2] in self.refused:
            raise ModuleNotFoundError(f"sudokulab's own solvers ({parts[2]}) are refused here: the teacher "
                                      "gave --refuse-library-solvers", name=name)

    def install(self) -> None:
        sys.meta_path.insert(0, self)
