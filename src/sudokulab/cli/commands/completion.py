"""``sudokulab completion``: the shell completion script for bash or zsh (made by shtab from the parser).

More: docs/completion.md.
"""

from __future__ import annotations

import argparse
import sys

from ...errors import ExitCode, UsageError
from ...formats import documents
from ..options import json_argument


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("shell", choices=("bash", "zsh"), help="the shell to complete in")
    json_argument(parser, "one JSON document on stdout instead (shell, script)")


def run(args: argparse.Namespace) -> int:
    """The script completes every command, so it is made from the whole parser: ``args.whole_parser``
    builds it (``cli.parser`` puts it there, as this module may not import the parser that imports it)."""
    try:
        import shtab
    except ImportError:
        raise UsageError("completion needs the 'shtab' package: pip install shtab") from None

    script = shtab.complete(args.whole_parser(), shell=args.shell)
    if args.json:
        documents.emit({"shell": args.shell, "script": script})
    else:
        sys.stdout.write(script)
    return ExitCode.OK
