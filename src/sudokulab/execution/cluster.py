"""Work on a Dask cluster: ``--cluster tcp://host:8786`` (a running scheduler) or ``--cluster local:N``.

``connect`` returns a ``DaskExecutor``, the ``executors.Executor`` of a cluster: ``imap`` submits a
task per item with backpressure and yields each result with its item as it arrives, so memory stays
flat on both sides. When a worker dies the scheduler runs its tasks again elsewhere; each item's
result is yielded once (``retried`` counts the reruns), and a task that has killed more workers than
the scheduler allows stops the run with one line. Leaving ``imap`` early (Ctrl-C) cancels every
pending task; a ``local:N`` cluster is ours alone and shut down before the command exits. Workers
need ``sudokulab`` importable with the client's Python and dask versions, which ``connect`` checks
before any work. dask is an optional extra, imported here only; how Dask is configured for a run is
``dask_settings``.

Backpressure, faults, Ctrl-C and what workers need: docs/cluster.md.
"""

from __future__ import annotations

import contextlib
import logging
import re
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import ExitCode, SudokuError, UsageError
from . import local_workers
from .dask_settings import keep_few_messages, silence_dask_logs, warn_once, worker_timeout

if TYPE_CHECKING:
    from .executors import Executor, PoolSize

Item = TypeVar("Item")
Result = TypeVar("Result")

EXTRA = "dask"
def missing_extra() -> str:
    """The refusal when dask is not installed, with the install command that works here."""
    from ..core.install import extra_hint

    return f"--cluster needs the 'dask' extra: {extra_hint('dask')}"
CONNECT_TIMEOUT = 10.0
"""Seconds a scheduler has to answer, and to have at least one worker, before ``connect`` gives up."""
CLOSE_TIMEOUT = 5.0

_ADDRESS = re.compile(r"^(?:(tcp|tls)://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(\d{1,5})$")
_LOCAL = re.compile(r"^local:(\d+)$")


class ClusterError(SudokuError):
    """The cluster failed under the run: the scheduler went away, or a task kept killing workers."""

    exit_code = ExitCode.BAD_INPUT


def parse_address(address: str) -> tuple[str, int] | str:
    """``("local", N)`` for ``local:N``, else the scheduler address as Dask takes it (``tcp://host:port``).

    >>> parse_address("local:2"), parse_address("10.0.0.5:8786"), parse_address("tls://head:8786")
    (('local', 2), 'tcp://10.0.0.5:8786', 'tls://head:8786')
    """
    text = address.strip()
    local = _LOCAL.match(text)
    if local:
        workers = int(local[1])
        if not 1 <= workers <= 256:
            raise UsageError(f"--cluster local:N takes 1 to 256 worker processes, not {workers}")
        return "local", workers
    match = _ADDRESS.match(text)
    if not match or not 0 < int(match[3]) < 65536:
        raise UsageError(f"--cluster '{address[:80]}' is neither local:N nor a scheduler address such as "
                         "tcp://host:8786")
    return f"{match[1] or 'tcp'}://{match[2]}:{match[3]}"


def _import_distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise UsageError(missing_extra()) from None
    return distributed


def connect(address: str, *, timeout: float = CONNECT_TIMEOUT, quiet: bool = True) -> DaskExecutor:
    """An executor on the cluster at ``address`` (``local:N`` starts N worker processes here).

    Refused with one line (``UsageError``): a bad address, dask not installed, no scheduler
    answering within ``timeout`` seconds, no worker joining it in that time, or a worker that cannot
    import sudokulab. ``quiet`` keeps dask's own log lines off standard error (errors are ours).
    """
    where = parse_address(address)
    distributed = _import_distributed()
    if quiet:
        silence_dask_logs()
    keep_few_messages()
    cluster = client = None
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            if isinstance(where, tuple):
                # Loopback only, random ports: no dashboard, and the HTTP routes Dask serves anyway
                # (health, metrics) bound to 127.0.0.1 instead of every interface on port 8787.
                from .executors import hangups_held

                with hangups_held(), local_workers.stopping_held():  # the tracker it starts must hold SIGHUP too
                    cluster = distributed.LocalCluster(
                        n_workers=where[1], threads_per_worker=1, processes=True, host="127.0.0.1",
                        scheduler_port=0, dashboard_address=None, worker_dashboard_address=None,
                        scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
                        silence_logs=logging.CRITICAL if quiet else logging.WARNING,
                        preload=[local_workers.__name__],  # its dask_setup: the stopping signals are this process's
                    )
                    client = distributed.Client(cluster, timeout=timeout, set_as_default=False)
            else:
                _reachable(where, timeout)
                try:
                    client = distributed.Client(where, timeout=timeout, set_as_default=False)
                except (OSError, TimeoutError) as exc:
                    raise UsageError(f"no Dask scheduler answers at {where} within {timeout:g} s "
                                     f"({type(exc).__name__})") from None
            try:
                client.wait_for_workers(1, timeout=timeout)
            except (OSError, TimeoutError):
                raise UsageError(f"the Dask scheduler at {where} has no workers (none joined within "
                                 f"{timeout:g} s)") from None
        warn_once(caught)
        executor = DaskExecutor(client, cluster, address.strip())
        cluster = client = None  # the executor owns them now
    finally:
        if client is not None:
            _quietly(client.close, timeout=CLOSE_TIMEOUT)
        if cluster is not None:
            _quietly(cluster.close, timeout=CLOSE_TIMEOUT)
    try:
        executor.check_workers()
    except BaseException:
        executor.close()
        raise
    return executor


@contextlib.contextmanager
def executor_for(cluster: str | Any) -> Iterator[Any]:
    """An executor for a ``cluster`` argument: an address or ``local:N`` is connected here and closed at
    the end; an executor (from ``connect``) is used as it is and left open for its owner."""
    if isinstance(cluster, str):
        with connect(cluster) as executor:
            yield executor
    else:
        yield cluster


def check_where(jobs: int, cluster: str | None) -> None:
    """Refuse, before any work, a run told both ``--jobs N`` and ``--cluster`` (or no job at all)."""
    if jobs < 1:
        raise UsageError(f"jobs must be a positive whole number, not {jobs}")
    if cluster is not None and jobs > 1:
        raise UsageError("--jobs is for this machine and --cluster for a cluster: give one of them")


def open_executor(jobs: int = 1, cluster: str | None = None, *, size: PoolSize | None = None,
                  note: Callable[[str], None] | None = None) -> Executor | DaskExecutor:
    """Where ``--jobs N`` or ``--cluster ADDRESS`` says the work runs: this process (``jobs`` 1, or work
    that fits it: ``size``, ``executors.pool_size``), a pool of local processes, or the Dask cluster at
    ``cluster`` (``connect``). ``note`` hears why a pool is smaller than asked. The caller closes it."""
    from .executors import local

    check_where(jobs, cluster)
    if cluster is None:
        return local(jobs, size, note)
    return connect(cluster)


def _reachable(address: str, timeout: float) -> None:
    """Refuse at once when nothing listens at the address (Dask would retry until the timeout)."""
    import socket

    host, _, port = address.partition("://")[2].rpartition(":")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as exc:
        why = "timed out" if isinstance(exc, TimeoutError) else (exc.strerror or str(exc)).lower()
        raise UsageError(f"no Dask scheduler answers at {address} within {timeout:g} s ({why})") from None


def _quietly(close: Callable[..., Any], **kwargs: Any) -> None:
    with contextlib.suppress(Exception):
        close(**kwargs)


def _probe_import() -> str:
    """Run on each worker: '' when sudokulab imports there, else why not (pickled by value, see below)."""
    try:
        import sudokulab  # noqa: F401
    except Exception as exc:  # noqa: BLE001 - any failure is the answer
        return f"{type(exc).__name__}: {exc}"
    return ""


class DaskExecutor:
    """The ``Executor`` of a Dask cluster (see the module docstring); made by ``connect``."""

    here = False
    """Items run on the cluster's workers only."""

    def __init__(self, client: Any, cluster: Any = None, address: str = ""):
        self.client = client
        self.cluster = cluster
        self.address = address
        self.retried = 0
        self._waiting: dict[str, Any] = {}
        """Key -> future of every task submitted and not yet yielded."""
        self._lock = threading.Lock()
        self._closed = False
        self._workers = 1
        self._stranded = ""
        """Why the watchdog stopped the run (no worker for too long), once it has."""
        self._on_close: list[Callable[[], Any]] = []
        """Run on every worker of a local cluster before it is closed (``on_close``)."""
        client.subscribe_topic("all", self._on_event)

    # --- what the cluster is ---------------------------------------------------------------------

    @property
    def workers(self) -> int:
        """Threads over all workers now (the cluster may grow or shrink during a run); after ``close``,
        the last count seen."""
        if self._closed:
            return self._workers
        try:
            info = self.client.scheduler_info(n_workers=-1)
        except TypeError:  # dask releases before n_workers
            info = self.client.scheduler_info()
        except (SudokuError, KeyboardInterrupt):
            raise
        except Exception:  # noqa: BLE001 - the connection is gone: the last count seen
            return self._workers
        self._workers = max(1, sum(w.get("nthreads", 1) for w in info.get("workers", {}).values()))
        return self._workers

    def describe(self) -> str:
        """Where the work runs, in words (also after ``close``, for the report)."""
        n = self.workers
        if self.cluster is not None:
            return f"a local Dask cluster of {n} worker process{'es' if n != 1 else ''}"
        return f"the Dask cluster at {self.address} ({n} worker thread{'s' if n != 1 else ''})"

    def run_on_workers(self, fn: Callable[..., Any], *args: Any) -> dict[str, Any]:
        """``fn(*args)`` on every worker now: worker address -> result (for checks before a run)."""
        try:
            return self.client.run(fn, *args)
        except (SudokuError, KeyboardInterrupt):
            raise
        except Exception as exc:
            raise _cluster_error(exc) from None

    def on_close(self, fn: Callable[[], Any]) -> None:
        """Run ``fn``, a module-level function, on every worker before a local cluster is closed: work a
        cancelled task leaves behind is ended there (the judge's programs run in sessions of their own,
        and a task cancelled mid-batch would judge the rest of its batch first). Not on a shared
        cluster, where tasks already running finish where they are."""
        if fn not in self._on_close:
            self._on_close.append(fn)

    def check_workers(self) -> None:
        """Refuse with one line when a worker cannot import sudokulab (it could run none of our tasks)."""
        # The probe is a module-level function of this module, which the worker could not unpickle
        # without sudokulab: send a copy of its code instead.
        probe = _by_value(_probe_import)
        for worker, problem in sorted(self.run_on_workers(probe).items()):
            if problem:
                raise UsageError(f"worker {worker} cannot import sudokulab ({problem[:120]}): install it there "
                                 "with its dask extra (from a clone: pip install -e '.[dask]')")

    # --- running ---------------------------------------------------------------------------------

    def _on_event(self, event: tuple[float, Any]) -> None:
        """The scheduler's "all" topic: count our tasks that a lost worker held (they run again)."""
        _, message = event
        if not isinstance(message, dict) or message.get("action") != "remove-worker":
            return
        held = set(message.get("processing-tasks", ())) | set(message.get("lost-computed-tasks", ()))
        with self._lock:
            self.retried += sum(1 for key in held if key in self._waiting)

    def imap(self, fn: Callable[[Item], Result], items: Iterable[Item], *,
             in_flight: int | None = None) -> Iterator[tuple[Item, Result]]:
        """Each item with ``fn(item)`` as results arrive; at most ``in_flight`` tasks unfinished (default
        twice the worker threads). Leaving early (an error, Ctrl-C, ``close()`` of the generator)
        cancels every task still pending. A ``SudokuError`` raised by ``fn`` on a worker is raised
        here as it is; anything else that fails on the cluster (another exception in ``fn``, a task
        that kept killing workers, a lost scheduler) becomes one ``ClusterError`` line."""
        distributed = _import_distributed()
        bound = max(1, in_flight or 2 * self.workers)
        source = iter(items)
        # with_results: the client's event loop fetches each result as its task finishes, saving
        # this thread a round trip to the loop per task (docs/cluster.md, "How the work goes").
        done = distributed.as_completed(loop=self.client.loop, with_results=True)
        items_of: dict[str, Item] = {}
        stop_watching = threading.Event()
        watchdog = threading.Thread(target=self._watch_workers, args=(stop_watching, worker_timeout()),
                                    name="sudokulab-worker-watchdog", daemon=True)
        watchdog.start()

        def submit() -> bool:
            for item in source:
                future = self.client.submit(fn, item, pure=False)
                with self._lock:
                    self._waiting[future.key] = future
                items_of[future.key] = item
                done.add(future)
                return True
            return False

        try:
            while len(items_of) < bound and submit():
                pass
            for future, result in done:  # a task that raised raises here
                item = items_of.pop(future.key)
                with self._lock:
                    self._waiting.pop(future.key, None)
                if future.status == "cancelled":
                    raise ClusterError(self._stranded or "cluster: the scheduler dropped a task of this run "
                                       "(cancelled, or the client lost its connection)")
                future.release()
                submit()
                yield item, result
        except (SudokuError, KeyboardInterrupt, GeneratorExit, MemoryError):
            raise
        except Exception as exc:
            raise _cluster_error(exc) from None
        finally:
            stop_watching.set()
            if items_of:
                self._cancel()

    def _watch_workers(self, stop: threading.Event, seconds: float) -> None:
        """Stop the run, with one line, once the cluster has had no worker for ``seconds``: tasks
        would otherwise wait forever, silently, for a worker that may never come."""
        since: float | None = None
        while not stop.wait(0.25):
            try:
                count = len(self.client.scheduler_info().get("workers", {}))  # refreshed by the client
            except Exception:  # noqa: BLE001 - a client shutting down: the run loop reports it
                return
            if count:
                since = None
                continue
            since = since if since is not None else time.monotonic()
            if time.monotonic() - since >= seconds:
                self._stranded = (f"cluster: no worker for {seconds:g} s, so the run stopped (wait longer "
                                  f"with DASK_SUDOKULAB__WORKER_TIMEOUT=SECONDS)")
                self._cancel()
                return

    def _cancel(self) -> None:
        """Cancel every task of ours still pending on the cluster (best effort: it may be gone)."""
        with self._lock:
            futures, self._waiting = list(self._waiting.values()), {}
        if futures:
            with contextlib.suppress(Exception):
                self.client.cancel(futures, force=True)

    def close(self) -> None:
        """Cancel what is pending, close the client, and stop the local cluster if this started one."""
        if self._closed:
            return
        self._closed = True
        self._cancel()
        if self.cluster is not None:  # ours alone: nothing of anyone else's runs there
            for fn in self._on_close:
                with contextlib.suppress(Exception):
                    self.client.run(fn)
        with contextlib.suppress(Exception):
            self.client.unsubscribe_topic("all")
        _quietly(self.client.close, timeout=CLOSE_TIMEOUT)
        if self.cluster is not None:
            _quietly(self.cluster.close, timeout=CLOSE_TIMEOUT)

    def __enter__(self) -> DaskExecutor:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _cluster_error(exc: Exception) -> SudokuError:
    """What went wrong on the cluster, as one line (the exception types are dask's)."""
    name = type(exc).__name__
    if name == "KilledWorker":
        return ClusterError(f"cluster: a task was given up after it ended a worker each of the times it ran "
                            f"({' '.join(str(exc).split())[:200]})")
    if name in ("CancelledError", "FutureCancelledError", "CommClosedError") or isinstance(exc, OSError):
        return ClusterError(f"cluster: lost the connection to the scheduler or its work ({name}: "
                            f"{' '.join(str(exc).split())[:160]})")
    if isinstance(exc, ImportError):
        return UsageError(f"a worker cannot import what the task needs ({exc}): install sudokulab there")
    return ClusterError(f"cluster: a task failed on a worker: {name}: {' '.join(str(exc).split())[:200]}")


def _by_value(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A copy of a module-level function that pickles by value (its code travels, not its module's name)."""
    import types

    return types.FunctionType(fn.__code__, {"__builtins__": __builtins__}, fn.__name__)
