"""The launcher between the judge and a program: a small Python process that sets the limits, forks
the program, and reports how it ended on a pipe of its own.

Why it exists: the kernel's peak memory of a process includes that of the process it was forked
from, so a program run straight from a large judge would report the judge's peak; the launcher is
a small process in between, and sets the limits where the judge cannot safely (no ``preexec_fn``
with threads). It is a child subreaper, so it kills and reaps every descendant of the program, by
pid, when the run ends. Where it can make a memory control group, that group holds the program's
tree to the limit; where it cannot, it samples the tree's proportional set size every
``SAMPLE_SECONDS`` and kills the tree the moment the sum passes the limit (a spike between two
samples, and files in the tmpfs, are missed). Its report is written by the script and read here
(``started``, ``ending``), so the format is stated once.

Why, the report's format and what sampling counts: docs/judge.md ("The launcher").
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

GRACE = 5.0
"""Seconds the launcher may take to start before the time limit runs anyway."""

SAMPLE_SECONDS = 0.02
"""How often the launcher sums the memory of the program's processes where no memory group holds them."""

SCRIPT = r"""
import ctypes, json, math, os, resource, select, signal, sys, time
report, settings, command = int(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3:]
# Inside bubblewrap: where INIT reports the program's true wait status, and the descriptors only
# bubblewrap needs (the filter's pipe, INIT's end of the report), which this process lets go of.
status_fd, sandbox_fds = settings.get("status_fd"), settings.get("sandbox_fds", [])
memory_slot = settings.get("memory_slot")  # where INIT finds the memory group (see isolation.Channels)
PR_SET_CHILD_SUBREAPER = 36
try:
    subreaper = ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
except (OSError, AttributeError):
    subreaper = False
me = os.getpid()

def children():
    try:
        with open("/proc/%d/task/%d/children" % (me, me)) as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []

def kill_all():
    while True:
        for pid in children():
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return

groups = []
def own_group(controller):
    # This process's control group in a cgroup v1 hierarchy, from /proc/self/cgroup ("4:memory:/a/b").
    try:
        with open("/proc/self/cgroup") as f:
            for line in f:
                _, names, path = line.rstrip("\n").split(":", 2)
                if controller in names.split(","):
                    return "/sys/fs/cgroup/%s%s" % (controller, path.rstrip("/"))
    except OSError:
        pass
    return None

def sweep(parent):
    # Groups left by launchers killed before they could remove theirs (SIGKILL): empty, and older than
    # any run's start (a group is empty only between its making and its program's start, and at the end).
    try:
        names = os.listdir(parent)
    except OSError:
        return
    for name in names:
        path = parent + "/" + name
        try:
            if not name.startswith("sudokulab-run-") or time.time() - os.stat(path).st_mtime < 600:
                continue
            with open(path + "/cgroup.procs") as f:
                if f.read().strip():
                    continue
            os.rmdir(path)
        except OSError:
            pass

def make_group(controller, limits):
    # A control group of the run's own under ours, with its limits written; None where it cannot be made.
    parent = own_group(controller)
    if parent is None:
        return None
    sweep(parent)
    path = "%s/sudokulab-run-%d-%s" % (parent, me, os.urandom(6).hex())  # pids repeat across namespaces
    try:
        os.mkdir(path)
    except OSError:
        return None
    groups.append(path)
    try:
        for name, value in limits:
            if os.path.exists(path + "/" + name):
                with open(path + "/" + name, "w") as f:
                    f.write(str(value))
    except OSError:
        release()
        return None
    return path

def release():
    for path in groups:
        try:
            os.rmdir(path)
        except OSError:
            pass
    del groups[:]

def group_value(path, name, key=None):
    # A number from one of the memory group's files (a "key value" line of it when key is given), or 0.
    try:
        with open(path + "/" + name) as f:
            for line in f:
                words = line.split()
                if key is None or (len(words) == 2 and words[0] == key):
                    return int(words[-1])
    except (OSError, ValueError, TypeError, IndexError):
        pass
    return 0

def tree(root):
    # root and every descendant, through each thread's children (an orphan's new parent is in the tree)
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        try:
            threads = os.listdir("/proc/%d/task" % pid)
        except OSError:
            continue
        for tid in threads:
            try:
                with open("/proc/%d/task/%s/children" % (pid, tid)) as f:
                    todo.extend(int(p) for p in f.read().split())
            except (OSError, ValueError):
                pass
    return found

def first_of_namespace(pid):
    # whether pid is the first process of a PID namespace below ours (the sandbox's INIT)
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("NSpid:"):
                    ids = line.split()[1:]
                    return len(ids) > 1 and ids[-1] == "1"
    except OSError:
        pass
    return False

sandbox_init = []
def program_processes(child):
    # The processes whose memory is the program's: in a sandbox, every one under INIT (not INIT nor
    # bubblewrap, as the memory group holds it); else the child and every descendant.
    if status_fd is None:
        return tree(child)
    if not sandbox_init:
        sandbox_init.extend(p for p in tree(child) if first_of_namespace(p))
    return [p for p in tree(sandbox_init[0])[1:]] if sandbox_init else []

def pss_kb(pid):
    try:
        with open("/proc/%d/smaps_rollup" % pid) as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0

def watch(child, limit_kb):
    # Until the child ends: the program's processes' memory summed every SAMPLE seconds, and the whole
    # tree killed when the sum passes the limit. Returns (the largest sum in KB, whether it passed).
    try:
        ended = os.pidfd_open(child)
    except (AttributeError, OSError):
        ended = None
    peak = 0
    while True:
        if ended is not None:
            if select.select([ended], [], [], SAMPLE)[0]:
                break
        elif os.waitid(os.P_PID, child, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
            break
        else:
            time.sleep(SAMPLE)
        used = sum(pss_kb(p) for p in program_processes(child))
        peak = max(peak, used)
        if used > limit_kb:
            for p in tree(child):
                try:
                    os.kill(p, signal.SIGKILL)
                except OSError:
                    pass
            break
    if ended is not None:
        os.close(ended)
    return peak, peak > limit_kb

def stop(signum, frame):
    kill_all()
    release()
    os._exit(128 + signum)

signal.signal(signal.SIGTERM, stop)
# SIGTERM (so the program goes too) when the judge's thread that started us dies, even by SIGKILL
PR_SET_PDEATHSIG = 1
try:
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
except (OSError, AttributeError):
    pass
if settings.get("parent") and os.getppid() != settings["parent"]:  # gone before we asked
    stop(signal.SIGTERM, None)
resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

SAMPLE = settings.get("sample_seconds") or 0.02

def cap(kind, value):
    hard = resource.getrlimit(kind)[1]
    value = value if hard == resource.RLIM_INFINITY else min(value, hard)
    resource.setrlimit(kind, (value, value))

memory = settings["memory"]
if memory:  # no RLIMIT_DATA: it counts what a runtime reserves, not what it uses (Limits.launcher_settings)
    cap(resource.RLIMIT_AS, settings["address_space"])
if settings["file_bytes"]:
    cap(resource.RLIMIT_FSIZE, settings["file_bytes"])
pids = make_group("pids", [("pids.max", settings["processes"])]) if settings["processes"] else None
mem = make_group("memory", [("memory.limit_in_bytes", memory), ("memory.memsw.limit_in_bytes", memory)]) \
    if memory else None
os.write(report, b"go ")
started = time.perf_counter()
pid = os.fork()
if not pid:
    os.close(report)
    if status_fd is not None:
        os.close(status_fd)
    # as a program started by hand has them, whoever started us (Python ignores SIGPIPE and SIGXFSZ)
    for number in (signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE, signal.SIGXFSZ):
        signal.signal(number, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, ())
    try:
        if settings.get("cpu_seconds"):
            cap(resource.RLIMIT_CPU, math.ceil(settings["cpu_seconds"]))
        for path in groups:
            if path == mem and memory_slot is not None:  # INIT moves the program in, without itself
                os.dup2(os.open(path + "/cgroup.procs", os.O_WRONLY), memory_slot)
                continue
            with open(path + "/cgroup.procs", "w") as f:
                f.write(str(os.getpid()))
        if pids is None and settings["processes"] and os.geteuid() != 0:
            cap(resource.RLIMIT_NPROC, settings["processes"] + len(os.listdir("/proc")))
        os.execvp(command[0], command)
    except OSError as exc:
        os.write(2, ("cannot run %r: %s\n" % (command[0], exc.strerror)).encode())
    os._exit(127)
for fd in sandbox_fds:
    os.close(fd)
sampled, over = watch(pid, memory >> 10) if memory and mem is None else (0, False)
_, status, usage = os.wait4(pid, 0)
seconds = time.perf_counter() - started
if status_fd is not None:  # INIT's report, written before it exited: the program's status, not bubblewrap's
    os.set_blocking(status_fd, False)
    try:
        told = os.read(status_fd, 64)
    except BlockingIOError:
        told = b""
    status = int(told) if told.isdigit() else status
signal.signal(signal.SIGTERM, signal.SIG_IGN)
kill_all()
if mem is not None:
    over = group_value(mem, "memory.oom_control", "oom_kill") > 0 or \
        group_value(mem, "memory.max_usage_in_bytes") >= memory
    sampled = group_value(mem, "memory.max_usage_in_bytes") >> 10
peak = max(usage.ru_maxrss, sampled)
release()
os.write(report, b"%d %d %.6f %d %d" % (status, peak, seconds, subreaper, over))
os._exit(0)
"""


def command(report_fd: int, settings: str) -> list[str]:
    """The launcher's command line: the script run by this Python, isolated, its report pipe and settings."""
    return [sys.executable, "-I", "-S", "-c", SCRIPT, str(report_fd), settings]


def started(report: bytes | bytearray) -> bool:
    """Whether the launcher has said "go": the program is about to start, the time limit runs from here."""
    return report.startswith(b"go ")


@dataclass(frozen=True)
class Ending:
    """How a program ended by itself, as its launcher reported it."""

    status: int
    """The program's wait status (inside bubblewrap, as the sandbox's INIT saw it)."""
    peak_kb: int
    """The largest of the peaks known: the largest process's resident memory, and the whole tree's
    (its memory group's peak, or the largest sum sampled)."""
    seconds: float
    over_memory: bool
    """Whether the tree's memory reached the limit (the group's, or a sample's), whatever the exit."""


def ending(report: bytes | bytearray) -> Ending | None:
    """How the program ended from a whole report, or None when it did not end by itself (killed at the
    time limit, or the launcher stopped first)."""
    fields = report.split()
    if len(fields) != 6:
        return None
    return Ending(int(fields[1]), int(fields[2]), float(fields[3]), fields[5] == b"1")
