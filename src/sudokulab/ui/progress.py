"""Progress bars on standard error, drawn on a terminal only; a silent stand-in everywhere else.

``progress`` yields rich's Progress, or without a terminal (or with ``--quiet``) a stand-in that takes
the same calls and does nothing, so a run that shows no bar does not import rich.progress
(docs/startup.md). ``download_progress`` draws one bar per download for the published sets.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from .console import as_text, console

if TYPE_CHECKING:
    from rich.console import Console


def _stdout_shares_the_terminal() -> bool:
    """Whether standard output is a terminal too, so a live display on stderr must draw it.

    rich's live display takes over ``sys.stdout`` by default and draws what is written there
    itself, through the stderr console: right when both streams are one terminal (the text then
    scrolls above the bar instead of being overwritten by it), wrong when stdout is a file or a
    pipe (``generate > file`` left the file empty). So it does that only on a terminal.
    """
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


class _NoBar:
    """What ``progress`` yields when no bar is drawn (``--quiet``, or stderr not a terminal): the calls
    of rich's Progress that the commands make, doing nothing, without importing rich.progress;
    ``console`` still prints to stderr."""

    def __init__(self, label: str) -> None:
        self.task_ids = [0] if label else []
        self.tasks: list[Any] = []

    def add_task(self, description: str, **fields: Any) -> int:
        self.task_ids.append(len(self.task_ids))
        return self.task_ids[-1]

    def advance(self, task: int, advance: float = 1) -> None:
        pass

    def update(self, task: int, **fields: Any) -> None:
        pass

    def reset(self, task: int, **fields: Any) -> None:
        pass

    @property
    def console(self) -> Console:
        return console(stderr=True)


def bar_shown(bar: Any) -> bool:
    """Whether ``progress`` yielded a bar that is drawn (not the silent stand-in)."""
    return not isinstance(bar, _NoBar)


@contextmanager
def progress(total: int | None = None, *, enabled: bool = True, label: str = "") -> Iterator[Any]:
    """A transient progress bar on stderr (a silent stand-in off a terminal); yields rich's Progress.

    Each task may carry a ``tally`` field (``bar.update(task, tally="3 accepted")``), shown after the
    elapsed time: a count so far, or what is being worked on."""
    err = console(stderr=True) if enabled else None
    if err is None or not err.is_terminal:
        yield _NoBar(label)
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.text import Text

    class TallyColumn(TextColumn):
        """A task's ``tally`` field, empty for a task added without one (rich's format would raise)."""

        def render(self, task: Any) -> Text:
            return Text(str(task.fields.get("tally", "")))

    bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   TallyColumn(""), console=err, transient=True, redirect_stdout=_stdout_shares_the_terminal(),
                   redirect_stderr=False)
    with bar:
        if label:
            bar.add_task(label, total=total, tally="")
        yield bar


class _DownloadBar:
    """A pooch progress-bar object (``total``, ``update``, ``reset``, ``close``) drawn by rich."""

    def __init__(self, bar: Any, task: Any):
        self._bar, self._task = bar, task

    @property
    def total(self) -> float | None:
        return self._bar.tasks[0].total if self._bar.tasks else None

    @total.setter
    def total(self, value: float | None) -> None:
        self._bar.update(self._task, total=value or None)

    def update(self, advance: int) -> None:
        self._bar.update(self._task, advance=advance)

    def reset(self) -> None:
        self._bar.reset(self._task)

    def close(self) -> None:
        self._bar.update(self._task, visible=False)


@contextmanager
def download_progress(*, enabled: bool = True) -> Iterator[Callable[[str], Any]]:
    """A progress bar per download on stderr (on a terminal); yields ``catalog.fetch``'s ``progress`` hook."""
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TransferSpeedColumn

    err = console(stderr=True)
    bar = Progress(TextColumn("{task.description}"), BarColumn(), DownloadColumn(), TransferSpeedColumn(),
                   console=err, transient=True, redirect_stdout=_stdout_shares_the_terminal(),
                   redirect_stderr=False, disable=not enabled or not err.is_terminal)
    with bar:
        def start(url: str) -> _DownloadBar:
            return _DownloadBar(bar, bar.add_task(as_text(url.rsplit("/", 1)[-1]).plain, total=None))

        yield start
