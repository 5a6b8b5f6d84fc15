"""``sudokulab datasets``: the published benchmark sets listed, fetched (SHA-256 checked) and found.

More: docs/datasets.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...ui.console import as_text
from ...ui.tables import Column, print_table

if TYPE_CHECKING:
    from rich.console import Console

import argparse
import importlib.util
import os
import sys

from ...datasets import catalog
from ...datasets.catalog import FOLDER_ENV
from ...datasets.catalog import names as set_names
from ...errors import ExitCode
from ...formats import documents
from ...ui.console import console, prose
from ...ui.progress import download_progress
from ..options import json_argument


def configure(parser: argparse.ArgumentParser) -> None:

    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION", parser_class=type(parser))
    listed = actions.add_parser("list", help="every known set: puzzles, source, and where it is stored once fetched")
    listed.add_argument("--wide", action="store_true", help="every column, however wide the table gets")
    json_argument(listed)
    fetch = actions.add_parser("fetch", help="download sets from their public source, check their SHA-256, keep them")
    fetch.add_argument("names", nargs="+", metavar="NAME", choices=[*set_names(), "all"],
                       help=f"one or more of: {', '.join(set_names())}; or all")
    fetch.add_argument("--quiet", action="store_true", help="no progress bar (shown on a terminal only)")
    json_argument(fetch)
    where = actions.add_parser("path", help="print where a fetched set is stored")
    where.add_argument("name", metavar="NAME", choices=set_names(), help="a set's name")
    json_argument(where)


def run(args: argparse.Namespace) -> int:

    if args.action == "list":

        folder = catalog.data_folder() if _has_folder() else None
        rows = [(s, folder / s.filename if folder is not None and (folder / s.filename).is_file() else None)
                for s in catalog.SETS.values()]
        if args.json:
            documents.emit({"folder": None if folder is None else str(folder), "sets": [
                {"name": s.name, "puzzles": s.puzzles, "what": s.what, "url": s.url, "member": s.member,
                 "sha256": s.sha256, "fetched": stored is not None, "path": None if stored is None else str(stored)}
                for s, stored in rows]})
            return ExitCode.OK
        render_datasets(rows, folder, console(wide=args.wide), wide=args.wide)
        return ExitCode.OK
    if args.action == "path":
        where = catalog.path(args.name)
        if args.json:
            documents.emit({"name": args.name, "path": str(where)})
        else:
            sys.stdout.write(f"{where}\n")
        return ExitCode.OK
    names = catalog.names() if "all" in args.names else args.names

    with download_progress(enabled=not args.quiet and sys.stderr.isatty()) as bar:
        fetched = catalog.fetch(names, progress=bar)
    if args.json:
        documents.emit({"fetched": [{"name": item.name, "path": str(item.path), "downloaded": item.downloaded}
                                    for item in fetched]})
        return ExitCode.OK
    for item in fetched:
        prose(f"{item.name}: {item.path}{'' if item.downloaded else ' (already there)'}", indent="  ")
    return ExitCode.OK


def _has_folder() -> bool:
    """Whether the data folder can be named (``SUDOKULAB_DATA``, or pooch to find the cache folder)."""


    return bool(os.environ.get(FOLDER_ENV, "").strip()) or importlib.util.find_spec("pooch") is not None


def render_datasets(rows: Sequence[tuple[Any, Any]], folder: Any, out: Console, *, wide: bool = False) -> None:
    """The published sets (``catalog.PuzzleSet``, stored path or None) and the folder they go to."""
    columns = [Column("name"), Column("puzzles", "right"), Column("fetched"), Column("source", drop=1),
               Column("what", wrap=True)]
    archives: dict[str, None] = {}  # the URLs of archives, in order
    cells = []
    for puzzle_set, stored in rows:
        if puzzle_set.member:
            archives[puzzle_set.url] = None
            source = puzzle_set.member
        else:
            source = puzzle_set.url
        cells.append([puzzle_set.name, f"{puzzle_set.puzzles:,}", "yes" if stored else "no", source, puzzle_set.what])
    dropped = print_table(out, columns, cells, wide=wide)
    for url in archives if "source" not in dropped else ():
        out.print(as_text(f"data/...: members of {url}"))
    where = str(folder) if folder is not None else "the user's cache folder (needs pooch)"
    out.print(as_text(f"Fetched sets are kept in {where} (SUDOKULAB_DATA names another folder); "
                      "get one with: sudokulab datasets fetch NAME"))
