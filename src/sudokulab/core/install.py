"""How to install an extra, in a command that works for how this sudokulab was installed.

sudokulab is installed from its repository (``pip install -e .``), not from a package index, so
``pip install 'sudokulab[jit]'`` fails for most users: an editable install gets the editable
command with its own folder, read from the installation's ``direct_url.json`` (PEP 610).
"""

from __future__ import annotations

import json
import shlex
import sys
from functools import cache


@cache
def _source_folder() -> str | None:
    """The folder sudokulab was installed from, editable or from a local path; None from an index.

    Code imported from a clone's ``src/`` (an editable install, or ``PYTHONPATH=src``) names that
    clone; else the installation's ``direct_url.json`` says where it came from.
    """
    from importlib import metadata
    from pathlib import Path

    package = Path(__file__).resolve().parents[1]
    if package.parent.name == "src" and (package.parent.parent / "pyproject.toml").is_file():
        return str(package.parent.parent)

    try:
        text = metadata.distribution("sudokulab").read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return None
    if not text:
        return None
    try:
        url = json.loads(text).get("url", "")
    except ValueError:
        return None
    return url[len("file://"):] if url.startswith("file://") else None


def extra_hint(extra: str) -> str:
    """The pip command that adds an extra: ``python -m pip install -e '/path/to/sudokulab[jit]'``.

    >>> extra_hint("jit").endswith("[jit]'") or extra_hint("jit").endswith("[jit]")
    True
    """
    folder = _source_folder()
    python = shlex.quote(sys.executable)
    if folder is None:
        return f"{python} -m pip install {shlex.quote(f'sudokulab[{extra}]')}"
    return f"{python} -m pip install -e {shlex.quote(f'{folder}[{extra}]')}"
