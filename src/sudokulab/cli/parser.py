"""The parser of the ``sudokulab`` command line, built from the command modules.

Each command adds its own arguments (``commands.<name>.configure``), from the groups they share
(``options``). A command line builds only the parser of the command it names, the others by name
alone, and one that names no command (``sudokulab``, ``--help``, ``--version``) only the list of
commands: parsing imports none of what the commands use (docs/startup.md). Every bad argument is one
line and exit code 2, as every other error; help is wrapped at the terminal's width.
"""

from __future__ import annotations

import argparse
import os
import sys

from ..errors import ExitCode, UsageError
from .commands import COMMANDS, load

TYPE_CHECKING = False  # typing itself costs start-up: imported for the type checker only
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

DESCRIPTION = "Solve Sudoku (BOJ 2580) by several paradigms and compare them."


def terminal_columns() -> int:
    """``shutil.get_terminal_size().columns`` (``COLUMNS``, else the terminal on stdout, else 80),
    which argparse asks for every help, read without importing shutil and the archive modules it
    imports (docs/startup.md)."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80
    except (AttributeError, ValueError, OSError):
        return 80


class _Formatter(argparse.HelpFormatter):
    """argparse's help, wrapped at the terminal's width (``COLUMNS``) without breaking a name at its
    hyphen ("anti-knight", "--time-limit" stay whole)."""

    def __init__(self, prog: str, **kwargs: Any) -> None:
        kwargs.setdefault("width", terminal_columns() - 2)  # as argparse, without importing shutil for it
        super().__init__(prog, **kwargs)

    def _split_lines(self, text: str, width: int) -> list[str]:
        import textwrap

        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        import textwrap

        return textwrap.fill(" ".join(text.split()), width, initial_indent=indent, subsequent_indent=indent,
                             break_on_hyphens=False)


class _Parser(argparse.ArgumentParser):
    """argparse that reports bad arguments as one line and exit code 2, like every other error."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def _print_message(self, message: str, file: Any = None) -> None:
        """argparse's, less its silence on a failed write: help sent to a reader that went away ends
        the run with 141, as every other write to a closed pipe (argparse swallows the OSError)."""
        if message:
            (file or sys.stderr).write(message)

    def error(self, message: str) -> None:  # type: ignore[override]
        import difflib  # here: only a bad command line needs them
        import re

        command = self.prog.partition(" ")[2]
        choice = re.search(_INVALID_CHOICE, message)
        if choice:  # a mistyped word: the nearest names, not the whole list
            word, names = choice["word"], re.findall(r"'([^']*)'", choice["names"])
            near = difflib.get_close_matches(word, names, n=3, cutoff=0.6) or \
                [name for name in names if name.startswith(word[:3])][:3]
            message = f"{message[:choice.start()]}unknown {_WHAT.get(choice['what'], 'word')} '{word}'" + (
                f"; did you mean {' or '.join(repr(name) for name in near)}?" if near
                else f"; see 'sudokulab {command + ' ' if command else ''}--help'")
        elif "arguments are required: COMMAND" in message or "arguments are required: ACTION" in message:
            sys.stderr.write(self.format_help())  # a bare command: what it takes, then the one error line
        raise UsageError(f"{command}: {message}" if command else message)


_INVALID_CHOICE = r"argument (?P<what>[A-Z]+): invalid choice: '(?P<word>[^']*)' \(choose from (?P<names>.*)\)"
"""argparse's message for a word that names no command (or no action or set of ``datasets``)."""
_WHAT = {"COMMAND": "command", "ACTION": "action", "NAME": "dataset"}


def exit_codes() -> str:
    """The exit codes (``errors.ExitCode``, the README's table) in a line, for ``sudokulab --help``."""
    words = {ExitCode.OK: "done", ExitCode.NO_SOLUTION: "no solution, or a wrong answer (verify, judge)",
             ExitCode.BAD_INPUT: "bad input or usage", ExitCode.TIME_LIMIT: "time limit reached",
             ExitCode.WRONG: "a bug found (a wrong answer, solvers disagree)",
             ExitCode.HANGUP: "SIGHUP", ExitCode.INTERRUPTED: "Ctrl-C", ExitCode.BROKEN_PIPE: "stdout closed (| head)",
             ExitCode.TERMINATED: "SIGTERM"}
    return "exit codes: " + ", ".join(f"{int(code)} {words[code]}" for code in sorted(ExitCode))


class _Versions(argparse.Action):
    """``--version``: the versions a result depends on (``core.versions``), read only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any) -> None:
        from ..core.versions import versions_text

        sys.stdout.write(versions_text())
        parser.exit()


def _top(parser: argparse.ArgumentParser) -> Any:
    """The top level every parser shares: ``--version`` and the commands' subparsers action."""
    parser.add_argument("--version", action=_Versions, help="show the versions of sudokulab, Python and the "
                        "libraries each paradigm runs on, and exit")
    return parser.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar="COMMAND",
                                 title="commands", description="'sudokulab COMMAND --help' tells more")


def top_level_parser() -> argparse.ArgumentParser:
    """The parser of a command line that names no command (``sudokulab``, ``--help``, ``--version``):
    the commands and their lines only, from ``COMMANDS``, so it imports nothing the commands use."""
    parser = _Parser(prog="sudokulab", description=DESCRIPTION, epilog=exit_codes())
    commands = _top(parser)
    for name, command in COMMANDS.items():  # the help's lines only, not a parser per command
        commands._choices_actions.append(commands._ChoicesPseudoAction(name, (), command.help))
        commands.choices[name] = parser  # never parsed with: this parser sees no command word
    return parser


def command_word(argv: Sequence[str]) -> str | None:
    """The command a command line names: its first word not starting with '-' (no top-level option
    takes a value); None when it names none, and the top-level parser alone answers it."""
    return next((word for word in argv if not word.startswith("-")), None)


def split_program(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """For ``judge``, everything after the first ``--`` is the program, verbatim: argparse would
    drop a later ``--`` that belongs to the program's own arguments."""
    argv = list(argv)
    if argv[:1] == ["judge"] and "--" in argv:
        cut = argv.index("--")
        return argv[:cut], argv[cut + 1 :]
    return argv, []


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole parser, or with ``command`` (a name of ``COMMANDS``) that command's parser alone beside
    the others' names: a command line builds and imports what it parses, not the option tables of
    the other commands. Each command's parser runs its module's ``run`` (``args.run``); the whole
    parser is ``args.whole_parser()`` (``completion`` needs it)."""
    only = command if command in COMMANDS else None
    parser = _Parser(prog="sudokulab", description=DESCRIPTION, epilog=exit_codes())
    parser.set_defaults(whole_parser=build_parser)
    commands = _top(parser)
    for name, command in COMMANDS.items():
        if only is None or only == name:
            module = load(name)
            sub = commands.add_parser(name, help=command.help, description=getattr(module, "DESCRIPTION", None),
                                      usage=getattr(module, "USAGE", None))
            module.configure(sub)
            sub.set_defaults(run=module.run)
    unbuilt = _Parser(prog="sudokulab", add_help=False)  # never parsed with: the command line names another
    for name, command in COMMANDS.items():  # the others by name: a help or a wrong word still lists them all
        if name not in commands.choices:
            commands._choices_actions.append(commands._ChoicesPseudoAction(name, (), command.help))
            commands.choices[name] = unbuilt
    order = {name: i for i, name in enumerate(COMMANDS)}  # as the whole parser lists them
    commands.choices = dict(sorted(commands.choices.items(), key=lambda item: order.get(item[0], len(order))))
    _complete_files(parser)
    return parser


FILE_COMPLETION = {"bash": "_shtab_compgen_files", "zsh": "_files", "tcsh": "f"}
"""What ``shtab.FILE`` is: completion by file name, set here without importing shtab for every command."""


def _complete_files(parser: argparse.ArgumentParser) -> None:
    """Mark the arguments that name files, so shell completion offers file names for them."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                _complete_files(sub)
        elif action.dest in ("puzzle", "answer", "dataset", "datasets", "output", "out", "plot", "regions",
                             "cages", "thermos") \
                and not isinstance(action, argparse._StoreTrueAction):
            action.complete = FILE_COMPLETION  # type: ignore[attr-defined]
