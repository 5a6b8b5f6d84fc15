"""The exit codes are documented where a person looks: every ``errors.ExitCode`` in ``sudokulab --help``."""

from __future__ import annotations

from sudokulab.cli import main as cli
from sudokulab.errors import ExitCode


def test_help_lists_every_exit_code(capsys):
    epilog = " ".join(cli.build_parser().format_help().split())
    for code in ExitCode:
        assert f" {int(code)} " in epilog.partition("exit codes:")[2] + " ", code
    assert "141 stdout gone (| head, >&-)" in epilog
