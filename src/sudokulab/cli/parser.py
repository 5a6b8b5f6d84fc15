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
from ..ui.console import COLORS
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
    """argparse's help, wrapped at the terminal's width (``COLUMNS``) without breaking a word: not at
    its hyphen ("anti-knight", "--time-limit" stay whole), nor a path longer than the line."""

    def __init__(self, prog: str, **kwargs: Any) -> None:
        kwargs.setdefault("width", terminal_columns() - 2)  # as argparse, without importing shutil for it
        if kwargs["width"] < 60:  # a narrow terminal: each help under its option, nearly the whole width
            kwargs.setdefault("max_help_position", 6)
        super().__init__(prog, **kwargs)

    def _split_lines(self, text: str, width: int) -> list[str]:
        import textwrap

        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False, break_long_words=False)

    def _format_action_invocation(self, action: argparse.Action) -> str:
        """``-o, --option KEY=VALUE``: the value's name once, not after each spelling (narrow terminals)."""
        if not action.option_strings or action.nargs == 0:
            return super()._format_action_invocation(action)
        value = self._format_args(action, self._get_default_metavar_for_optional(action))
        return f"{', '.join(action.option_strings)} {value}"

    def _format_usage(self, usage: Any, actions: Any, groups: Any, prefix: Any) -> str:
        """argparse's usage, flowed again where a line is wider than the terminal: argparse keeps each
        option under the command's name, which leaves no room at 40 columns; here the lines after the
        first are indented by four, an option and its value never parted."""
        text = super()._format_usage(usage, actions, groups, prefix)
        if all(len(line) <= self._width for line in text.splitlines()):
            return text
        lines = [" ".join(text.split())] if usage is None else text.rstrip("\n").splitlines()  # ours: its forms
        flowed = []
        for line in lines:
            start = line[:len(line) - len(line.lstrip())]
            row = ""
            for part in _usage_parts(line.strip()):
                if row.strip() and len(row) + 1 + len(part) > self._width:
                    flowed.append(row)
                    row = start + "    " + part
                else:
                    row = f"{row} {part}" if row.strip() else start + part
            flowed.append(row)
        return "\n".join(flowed) + "\n\n"

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        import textwrap

        return textwrap.fill(" ".join(text.split()), width, initial_indent=indent, subsequent_indent=indent,
                             break_on_hyphens=False, break_long_words=False)


class _Parser(argparse.ArgumentParser):
    """argparse that reports bad arguments as one line and exit code 2, like every other error."""

    top_level = False
    """Whether this parser is the top level's alone (a command line that names no command)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        kwargs.setdefault("allow_abbrev", False)  # --solv is no option, rather than --solver by luck
        super().__init__(*args, **kwargs)

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        """argparse's, less its silence on unknown options: the innermost parser that met one names it
        and the nearest of its own options (a command's parser, not the top level, knows them)."""
        if self.top_level:
            self._refuse_unknown(list(args or ()))
        namespace, extras = super().parse_known_args(args, namespace)
        self._refuse_unknown(extras)
        return namespace, extras

    def _refuse_unknown(self, words: Sequence[str]) -> None:
        unknown = next((word for word in words if word.startswith("-") and word != "-" and word != "--"
                        and not _is_number(word) and word.split("=", 1)[0] not in self._option_string_actions),
                       None)
        if unknown is None:
            return
        from ..errors import did_you_mean

        word = unknown.split("=", 1)[0] if unknown.startswith("--") else unknown
        command = self.prog.partition(" ")[2]
        names = [name for action in self._actions for name in action.option_strings if name.startswith("--")]
        hint = did_you_mean(word, names, otherwise=f"see 'sudokulab {command + ' ' if command else ''}--help'")
        if any(name.startswith(word) for name in names) and len(word) >= 3:
            hint += " (options are written in full)"
        raise UsageError(f"{command + ': ' if command else ''}unknown option '{word}'{hint}")

    def _print_message(self, message: str, file: Any = None) -> None:
        """argparse's, less its silence on a failed write: help sent to a reader that went away ends
        the run with 141, as every other write to a closed pipe (argparse swallows the OSError)."""
        if message:
            (file or sys.stderr).write(message)

    def error(self, message: str) -> None:  # type: ignore[override]
        import re  # here: only a bad command line needs it

        from ..errors import did_you_mean

        command = self.prog.partition(" ")[2]
        choice = re.search(_INVALID_CHOICE, message)
        if choice:  # a mistyped word: the nearest names, not the whole list
            what, word = choice["what"], choice["word"].strip("'")
            names = [str(name) for name in self._choices_of(what)]
            help_hint = f"see 'sudokulab {command + ' ' if command else ''}--help'"
            if what in _WHAT:
                message = f"{message[:choice.start()]}unknown {_WHAT[what]} '{word}'" + did_you_mean(
                    word, names, otherwise=help_hint)
            else:  # an option's value: the choices are few enough to list when none is near
                message = f"{what}: unknown value '{word}'" + did_you_mean(
                    word, names, otherwise=f"choose one of: {', '.join(names)}" if names else help_hint)
        elif "arguments are required: COMMAND" in message or "arguments are required: ACTION" in message:
            sys.stderr.write(self.format_help())  # a bare command: what it takes, then the one error line
        raise UsageError(f"{command}: {message}" if command else message)

    def _choices_of(self, what: str) -> list[Any]:
        """The choices of the argument argparse names ``what`` in its message (``--amo``, ``COMMAND``)."""
        said = set(what.split("/"))  # argparse joins an option's spellings: -l/--level
        for action in self._actions:
            names = {*action.option_strings, str(action.metavar), str(action.dest)}
            if action.choices is not None and (what in names or said & names):
                return list(action.choices)
        return []


def _usage_parts(line: str) -> list[str]:
    """A usage line's parts: its words, a bracketed option with its value kept as one.

    >>> _usage_parts("usage: sudokulab solve [-h] [--box RxC] [PUZZLE ...]")
    ['usage:', 'sudokulab', 'solve', '[-h]', '[--box RxC]', '[PUZZLE ...]']
    """
    parts: list[str] = []
    depth, part = 0, ""
    for char in line:
        depth += (char in "[(") - (char in "])")
        if char == " " and depth <= 0:
            parts, part = parts + [part] if part else parts, ""
        else:
            part += char
    return parts + [part] if part else parts


def _is_number(word: str) -> bool:
    """A negative number is a value (``--time-limit -1`` is refused for its sign, not as an option)."""
    try:
        float(word)
    except ValueError:
        return False
    return True


_INVALID_CHOICE = r"argument (?P<what>[^:]+): invalid choice: (?P<word>'[^']*'|\S+) \(choose from"
"""argparse's message for a word that is none of an argument's choices: a command, an action or a set
of ``datasets``, an option's value."""
_WHAT = {"COMMAND": "command", "ACTION": "action", "NAME": "dataset"}


def exit_codes() -> str:
    """The exit codes (``errors.ExitCode``, the README's table) in a line, for ``sudokulab --help``."""
    words = {ExitCode.OK: "done", ExitCode.NO_SOLUTION: "no solution, or a wrong answer (verify, judge)",
             ExitCode.BAD_INPUT: "bad input or usage", ExitCode.TIME_LIMIT: "time limit reached",
             ExitCode.WRONG: "a bug found (a wrong answer, solvers disagree)",
             ExitCode.HANGUP: "SIGHUP", ExitCode.INTERRUPTED: "Ctrl-C",
             ExitCode.BROKEN_PIPE: "stdout gone (| head, >&-)",
             ExitCode.TERMINATED: "SIGTERM"}
    return "exit codes: " + ", ".join(f"{int(code)} {words[code]}" for code in sorted(ExitCode))


class _Versions(argparse.Action):
    """``--version``: the versions a result depends on (``core.versions``), read only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any) -> None:
        from ..core.versions import versions_text
        from ..ui.console import prose

        for line in versions_text().splitlines():  # on a narrow terminal, a line's rest indented under it
            prose(line, indent="    ")
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
    parser.top_level = True
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
            _color_argument(sub)
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


def _color_argument(parser: argparse.ArgumentParser) -> None:
    """``--color`` on a command's parser, or on each action's (``datasets list``) where it has actions:
    given to both, the action's default would overwrite what was given before the action's word."""
    actions = [action for action in parser._actions if isinstance(action, argparse._SubParsersAction)]
    if actions:
        for sub in dict.fromkeys(actions[0].choices.values()):
            _color_argument(sub)
        return
    parser.add_argument("--color", choices=COLORS, default="auto", metavar="WHEN",
                        help="colour: auto (on a terminal, unless NO_COLOR is set), never, always (files and "
                        "pipes too) (default: auto)")


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
