"""Dask as sudokulab runs it: few messages kept per connection, its logs and warnings turned into ours,
and how long a run waits for a worker.

Dask's defaults suit a long-lived interactive cluster; a command that reports in one line and is
judged on its memory needs others. They are set here, apart from the executor that uses them.
"""

from __future__ import annotations

import logging
import warnings

from ..errors import UsageError
from ..formats.prose import prose

MESSAGE_LOG = 16
"""Messages each Dask connection keeps for debugging (Dask's default: 1,000)."""


def keep_few_messages() -> None:
    """Keep Dask's per-connection log of recent messages short, in this process and a local cluster's.

    Each connection keeps its last ``distributed.admin.low-level-log-length`` messages under 1 MB
    whole, and a task message holds its batch, so Dask's default of 1,000 messages held tens of
    megabytes more than needed on each side (docs/cluster.md). A scheduler started elsewhere keeps
    its own setting (see the README).
    """
    import dask

    if dask.config.get("distributed.admin.low-level-log-length", MESSAGE_LOG) > MESSAGE_LOG:
        dask.config.set({"distributed.admin.low-level-log-length": MESSAGE_LOG})


def silence_dask_logs() -> None:
    """Dask logs worker deaths, retries and shutdown at WARNING and ERROR, and its event loop (tornado,
    asyncio) logs tracebacks when a scheduler goes away: the run reports all that itself, in one line."""
    families = ("distributed", "dask", "tornado", "asyncio")
    # Dask's configuration gives some loggers a level of their own (distributed.client, ...), which a
    # parent's level does not override: each one is set.
    for name in [*families, *logging.root.manager.loggerDict]:
        if name.split(".", 1)[0] in families:
            logging.getLogger(name).setLevel(logging.CRITICAL + 1)


NO_WORKER_TIMEOUT = 60.0
"""Seconds a run waits for a worker once the cluster has none, unless Dask's configuration says
otherwise (``DASK_SUDOKULAB__WORKER_TIMEOUT=SECONDS`` in the environment, or ``sudokulab:
worker-timeout:`` in a Dask configuration file)."""


def worker_timeout() -> float:
    """The seconds a run waits with no worker before it stops (``NO_WORKER_TIMEOUT`` by default)."""
    import dask

    try:
        value = float(dask.config.get("sudokulab.worker-timeout", NO_WORKER_TIMEOUT))
    except (TypeError, ValueError):
        raise UsageError("DASK_SUDOKULAB__WORKER_TIMEOUT must be a number of seconds") from None
    if not value > 0:
        raise UsageError("DASK_SUDOKULAB__WORKER_TIMEOUT must be a positive number of seconds")
    return value


def warn_once(caught: list[warnings.WarningMessage]) -> None:
    """Dask's warnings (mismatched versions between client and workers, ...) as one line each."""

    seen = set()
    for warning in caught:
        if not issubclass(warning.category, UserWarning):
            continue  # ResourceWarnings of sockets garbage-collected meanwhile, deprecations: not the user's
        text = " ".join(str(warning.message).split())
        if text and text not in seen:
            seen.add(text)
            prose(f"sudokulab: warning: dask: {text[:300]}", stderr=True, indent="  ")
