"""The ``sudokulab`` process: parse, run the command, and end with its exit code whatever happens.

What each command does is in ``commands``, its arguments in ``parser``. This module maps every
expected failure to its exit code (``errors.ExitCode``) and one line on standard error,
``sudokulab: <why>`` (with ``--json`` also the error document on standard output); a reader of
standard output that went away (``| head``) ends the run quietly with 141 at its first write, and a
standard output closed before the run (``>&-``) is the same case (``_closed_stdout_as_a_broken_pipe``);
Ctrl-C, SIGTERM and SIGHUP end a run alike (``stopping``). ``sudokulab`` alone prints the help on
standard output and exits 0. What goes where (README, "What goes where"): results on standard output; progress
bars (on a terminal), warnings and compare's table on standard error.
"""

from __future__ import annotations

import os
import signal
import sys

from ..errors import ExitCode, Stopped, SudokuError
from ..ui.plain_text import fit_streams
from . import stopping
from .parser import build_parser, command_word, split_program, top_level_parser

TYPE_CHECKING = False  # typing itself costs start-up: imported for the type checker only
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

BROKEN_PIPE = int(ExitCode.BROKEN_PIPE)
"""Exit code when the reader of standard output went away (``| head -1``): 128 + SIGPIPE, as shells report."""

STOPPED = (ExitCode.INTERRUPTED, ExitCode.HANGUP, ExitCode.TERMINATED)
"""The exit codes of a run ended by a signal (Ctrl-C, SIGHUP, SIGTERM): all end the same way."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; every expected failure becomes one line on stderr and its exit code (with
    ``--json``, also the error document on stdout, unless the command printed its own)."""
    arguments: list[str] = []
    args = None
    stopping.begin()
    _closed_stdout_as_a_broken_pipe()
    fit_streams()
    try:
        arguments, program = split_program(sys.argv[1:] if argv is None else argv)
        if not arguments and not program:  # sudokulab alone: what it can do, as --help says it
            sys.stdout.write(top_level_parser().format_help())
            _flush_stdout()
            return int(ExitCode.OK)
        command = command_word(arguments)
        parser = build_parser(command) if command else top_level_parser()
        try:
            args = parser.parse_args(arguments)
        except SystemExit as exc:  # --help, --version: argparse ends after its text, which must reach the reader
            if exc.code == 0:
                _flush_stdout()  # a reader gone (| true): BrokenPipeError, 141 below
            raise
        if program:
            args.program = program
        _use_color(args)
        _new_run()
        code = args.run(args)
        _flush_stdout()
        return int(code)
    except SudokuError as exc:
        return _fail(str(exc), exc.exit_code, arguments, args, bad_input=exc.exit_code == ExitCode.BAD_INPUT)
    except ValueError as exc:  # rules.RulesError: rules data that make no sense for the board, bad input
        from ..core.rules import RulesError

        if not isinstance(exc, RulesError):
            raise
        return _fail(f"rules: {exc}" if not str(exc).startswith("rules") else str(exc), ExitCode.BAD_INPUT,
                     arguments, args, bad_input=True)
    except KeyboardInterrupt as exc:
        return _interrupted(exc, arguments, args)
    except BrokenPipeError:
        _silence_stdout()
        return BROKEN_PIPE
    except OSError as exc:  # standard output itself failed (a full disk, a closed stream)
        _silence_stdout()
        _error(f"cannot write to standard output: {exc.strerror or exc}", bad_input=True)
        return int(ExitCode.BAD_INPUT)
    except RecursionError:
        _error("the input is nested too deeply to read", bad_input=True)
        return int(ExitCode.BAD_INPUT)
    except Exception as exc:  # noqa: BLE001 - re-raised unless a signal stands behind it
        interruption = stopping.signal_behind(exc)
        if interruption is None:
            raise
        return _interrupted(interruption, arguments, args)


def _closed_stdout_as_a_broken_pipe() -> None:
    """A standard output closed before the run (``>&-``) made the same as a pipe whose reader went
    away: the first write to it ends the run with 141 and nothing said, whoever writes (this process,
    rich, a judged program or a worker that inherits it). Python leaves ``sys.stdout`` None there,
    and the next file opened would take descriptor 1 and receive what was meant for stdout; a pipe
    with no reader takes it instead. Standard error closed (``2>&-``) gets /dev/null, for the same
    reason; so does the descriptor of a closed standard input (``<&-``), which stays closed to Python
    (reading it is refused: "cannot read <stdin>: it is closed")."""
    for fd, name in ((0, "stdin"), (1, "stdout"), (2, "stderr")):
        if getattr(sys, name) is not None:
            continue
        try:
            os.fstat(fd)
            continue  # open after all (an embedding program set sys.stdout to None itself)
        except OSError:
            pass
        try:
            if fd == 1:
                read, write = os.pipe()
                os.close(read)  # no reader, ever: every write fails with EPIPE, as after | head
                os.dup2(write, 1)
                if write != 1:
                    os.close(write)
                stream = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
            else:
                null = os.open(os.devnull, os.O_RDONLY if fd == 0 else os.O_WRONLY)
                if null != fd:
                    os.dup2(null, fd)
                    os.close(null)
                if fd == 0:
                    continue  # the descriptor taken; sys.stdin stays None: reading it is refused
                stream = open(fd, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
        except OSError:
            continue
        setattr(sys, name, stream)


def _use_color(args: Any) -> None:
    """Consoles coloured as ``--color`` says (every command's parser has it)."""
    from ..ui.console import use_color

    use_color(getattr(args, "color", None) or "auto")


def _new_run() -> None:
    """Nothing printed yet: ``documents`` remembers whether this run printed its own document, and a
    process may run many commands (the tests do). Every command prints through it, so this imports
    nothing a command would not."""
    from ..formats import documents

    documents.begin()


def _interrupted(exc: KeyboardInterrupt, arguments: Sequence[str], args: Any) -> int:
    """End a run stopped by Ctrl-C, SIGTERM or SIGHUP: its part files dropped, one line, 128 + the signal."""
    _discard_outputs()
    if isinstance(exc, Stopped):
        return _fail("terminated" if exc.signum == signal.SIGTERM else "hung up", 128 + exc.signum, arguments, args)
    return _fail("interrupted", ExitCode.INTERRUPTED, arguments, args)


def _discard_outputs() -> None:
    """Drop the part files of outputs still being written (they would be left otherwise)."""
    from ..formats.outputs import discard_all

    discard_all()


def _fail(message: str, code: int, arguments: Sequence[str], args: Any, bad_input: bool = False) -> int:
    """End a failed run: with ``--json`` the error document on stdout (``documents.emit_error``), and
    always the one line on stderr; the exit code. ``args`` is None when the arguments did not parse:
    the command never ran, so it printed nothing."""
    from ..formats.documents import asked_for_json

    if asked_for_json(arguments, args):
        if args is None:
            _new_run()
        from ..formats.documents import emit_error

        try:
            emit_error(_one_line(message), code)
        except (OSError, ValueError):
            pass
    _flush_quietly()
    _error(message, bad_input=bad_input)
    return int(code)


def _one_line(message: str) -> str:
    return " ".join(message.split()) or "error"


def _error(message: str, bad_input: bool = False) -> None:
    """One line on stderr: ``sudokulab: error: ...`` for bad input and arguments, ``sudokulab: ...``
    otherwise; on a terminal wrapped between words at its width, as all prose (``ui.console.prose``)."""
    from ..ui.console import prose

    line = f"sudokulab: {'error: ' if bad_input else ''}{_one_line(message)}"
    try:
        prose(line, stderr=True, indent="  ")
    except (OSError, ValueError):
        pass


def _flush_stdout() -> None:
    if sys.stdout is not None:
        sys.stdout.flush()


def _flush_quietly() -> None:
    try:
        _flush_stdout()
    except (OSError, ValueError):
        _silence_stdout()


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's last flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def run() -> None:
    """The console script: ``main``, then an exit that no native destructor or second Ctrl-C can spoil."""
    stopping.stop_on_signals()
    try:
        code = main()
    except KeyboardInterrupt as exc:  # a second signal while the first was being handled
        _discard_outputs()
        code = 128 + exc.signum if isinstance(exc, Stopped) else int(ExitCode.INTERRUPTED)
    if code in STOPPED:
        for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            signal.signal(signum, signal.SIG_IGN)  # nothing may interrupt the last steps
        import gc

        gc.collect()  # let finalizers of what the interrupted run left (worker pools' semaphores) run
        os._exit(code)  # then skip interpreter teardown: an engine left mid-search must not be freed
    try:
        _flush_stdout()
        sys.stderr.flush()
    except (OSError, ValueError):
        _silence_stdout()
        code = code or BROKEN_PIPE
    _exit_without_teardown(code)


def _exit_without_teardown(code: int) -> None:
    """End the process as ``sys.exit`` would, less the interpreter's teardown: the exit handlers run
    (temporary folders, open SAT solvers; the commands close their files, pools and clusters
    themselves), then the process ends without freeing every module and object one by one, a cost
    that shows beside a fast command (docs/startup.md). The streams were flushed by the caller. Under
    a profiler or a tracer (``python -m cProfile``, a debugger) the exit is the usual one, so they
    can report."""
    if sys.getprofile() is not None or sys.gettrace() is not None:
        sys.exit(code)
    import atexit

    atexit._run_exitfuncs()
    try:
        _flush_stdout()
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    os._exit(code)


if __name__ == "__main__":
    run()
