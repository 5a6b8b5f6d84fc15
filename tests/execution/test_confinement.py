"""The sandbox holds when root starts the judge: each way a program with root's rights got out, tried again.

Every attack is a real program (Python with ctypes, or C built with gcc) judged inside the real
bubblewrap sandbox, as root (as CI runs) and, where the machine allows, by a judge demoted to an
ordinary uid. Each program reports on stderr (one JSON line: what each attempt returned, 0 for
success or the errno) and then prints the BOJ sample's answer, so its verdict says whether the
sandbox let the attempt change anything. After each run the host is checked too: no file written,
no mount or cgroup made, no process left, ``vm.stat_interval`` as it was.
"""

from __future__ import annotations

import base64
import contextlib
import errno
import glob
import json
import os
import shutil
import site
import subprocess
import sys
import sysconfig
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from sudokulab.datasets.reading import parse_lines
from sudokulab.execution import isolation
from sudokulab.execution.sandbox import Limits, Run
from sudokulab.formats.boj import parse_puzzle
from sudokulab.judge.cases import Outcome, judge_run
from sudokulab.judge.run import judge_cases

from .test_isolation import ANSWER, SAMPLE, survivors

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(isolation.bwrap_problem() is not None,
                                 reason=f"bubblewrap cannot run here: {isolation.bwrap_problem()}")]

LIMITS = Limits(seconds=20.0)
"""BOJ's 256 MB and 64 MB of files; time to spare on a busy machine."""

STAT_INTERVAL = Path("/proc/sys/vm/stat_interval")

PRELUDE = """
import ctypes, errno, json, os, sys
libc = ctypes.CDLL(None, use_errno=True)
MARKER, FOLDER = sys.argv[1], sys.argv[2]
found = {}

def call(name, *args):
    # 0 when the C call succeeds, else its errno
    ctypes.set_errno(0)
    return 0 if getattr(libc, name)(*args) != -1 else ctypes.get_errno()

def attempt(key, action):
    try:
        action()
        found[key] = 0
    except OSError as exc:
        found[key] = exc.errno
"""

EPILOGUE = f"""
sys.stderr.write(json.dumps(found) + "\\n")
sys.stdout.write({ANSWER!r})
"""

MS_REMOUNT, MS_BIND = 32, 4096
ATTACKS = {
    "identity": """
fields = dict(line.split(":\\t", 1) for line in open("/proc/self/status").read().splitlines() if ":\\t" in line)
found.update(uid=os.getuid(), euid=os.geteuid(), gid=os.getgid(), groups=os.getgroups())
found.update({key: fields[key].strip() for key in ("CapEff", "CapPrm", "CapBnd", "CapAmb", "NoNewPrivs", "Seccomp")})
""",
    "remount": f"""
for target in (FOLDER, "/usr"):
    found["remount " + target] = call("mount", None, target.encode(), None, {MS_REMOUNT | MS_BIND}, None)
    attempt("write " + target, lambda: open(os.path.join(target, MARKER), "w").write("out"))
""",
    "pth": """
import site, sysconfig
for folder in sorted(set(site.getsitepackages()) | {sysconfig.get_paths()["purelib"]}):
    attempt("pth " + folder, lambda: open(os.path.join(folder, MARKER + ".pth"), "w").write("import os\\n"))
""",
    "proc_sys": """
def bump():  # at offset 0: a sysctl ignores a write past it
    value = int(open("/proc/sys/vm/stat_interval").read())
    os.write(os.open("/proc/sys/vm/stat_interval", os.O_WRONLY), b"%d" % (value + 1))
attempt("stat_interval", bump)
for name in ("/proc/sys/kernel/core_pattern", "/proc/sysrq-trigger", "/proc/self/oom_score_adj"):
    attempt(name, lambda: os.close(os.open(name, os.O_WRONLY)))  # opened for writing, nothing written
""",
    "cgroup": """
for kind, options in (("pids", b"pids"), ("memory", b"memory"), ("cgroup2", None)):
    where = "/tmp/" + kind
    os.makedirs(where, exist_ok=True)
    fstype = b"cgroup2" if options is None else b"cgroup"
    found["mount " + kind] = call("mount", fstype, where.encode(), fstype, 0, options)
    attempt("mkdir " + kind, lambda: os.mkdir(os.path.join(where, MARKER)))
attempt("pids.max", lambda: os.write(os.open("/tmp/pids/pids.max", os.O_WRONLY), b"max"))  # no O_CREAT
found["fsopen cgroup2"] = call("syscall", 430, b"cgroup2", 0)
found["sys"] = os.path.exists("/sys/fs/cgroup")
""",
    "dev_shm": """
written = 0
try:
    for number in range(4):  # 200 MB as four files: one file's limit (RLIMIT_FSIZE) alone would not stop it
        with open("/dev/shm/fill%d" % number, "wb") as stream:
            for _ in range(50):
                stream.write(b"x" * (1 << 20))
                stream.flush()
                written += 1
except OSError as exc:
    found["error"] = exc.errno
found["written_mb"] = written
found["dev"] = sorted(os.listdir("/dev"))
attempt("create in /dev", lambda: open("/dev/" + MARKER, "w").close())
""",
    "root_write": """
written = 0
for target in ("/fill", "/proc/fill", "/dev/fill", "/newdir/fill"):
    attempt("mkdir " + target, lambda: os.mkdir(os.path.dirname(target) or "/"))
    try:  # 200 MB outside /tmp: the sandbox's own root, which bubblewrap builds as a tmpfs
        with open(target, "wb") as stream:
            for _ in range(200):
                stream.write(b"x" * (1 << 20))
                stream.flush()
                written += 1
    except OSError as exc:
        found["write " + target] = exc.errno
found["written_mb"] = written
""",
    "sockets": """
import socket
for name, family in (("unix", 1), ("inet", 2), ("netlink", 16), ("packet", 17), ("bluetooth", 31), ("alg", 38),
                     ("vsock", 40), ("unknown", 99)):
    found["socket " + name] = call("socket", family, socket.SOCK_DGRAM if family == 17 else socket.SOCK_STREAM, 0)
found["socket high bits"] = call("syscall", 41, ctypes.c_long((1 << 32) | 40), 1, 0)  # vsock, upper bits set
pair = (ctypes.c_int * 2)()
for name, family in (("unix", 1), ("inet", 2), ("vsock", 40)):
    found["socketpair " + name] = call("socketpair", family, socket.SOCK_STREAM, 0, pair)
found["memfd_secret"] = call("syscall", 447, 0)
""",
    "namespaces": """
import threading
CLONE_NEWUSER, CLONE_NEWNS, SIGCHLD = 0x10000000, 0x20000, 17
found["unshare user"] = call("unshare", CLONE_NEWUSER)
found["unshare mount"] = call("unshare", CLONE_NEWNS)
child = libc.syscall(56, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0)  # clone, as the raw call
if child == 0:
    os._exit(0)
found["clone newuser"] = 0 if child > 0 else ctypes.get_errno()
found["clone3"] = call("syscall", 435, 0, 0)
found["setns"] = call("setns", 0, 0)
found["ptrace traceme"] = call("ptrace", 0, 0, None, None)
found["ptrace attach"] = call("ptrace", 16, os.getppid(), None, None)
found["process_vm_readv"] = call("syscall", 310, os.getppid(), 0, 0, 0, 0, 0)
attempt("open /proc/1/fd", lambda: [open("/proc/1/fd/" + fd, "rb") for fd in os.listdir("/proc/1/fd")])
found["open fds"] = sorted(int(fd) for fd in os.listdir("/proc/self/fd"))
thread = threading.Thread(target=lambda: found.update(thread=1))
thread.start()
thread.join()
""",
}
"""Each attack's body, between PRELUDE and EPILOGUE."""


def expect_contained(name: str, found: dict) -> None:
    """What each attack must find inside the sandbox, whoever started the judge."""
    refused = (errno.EPERM, errno.EACCES, errno.EROFS)
    if name == "identity":
        assert found["uid"] == found["euid"] == found["gid"] == 65534 and found["groups"] in ([], [65534])
        assert {found[key] for key in ("CapEff", "CapPrm", "CapBnd", "CapAmb")} == {"0000000000000000"}
        assert found["NoNewPrivs"] == "1" and found["Seccomp"] == "2"
    elif name == "remount":
        assert found[f"remount {found_folder(found)}"] == errno.EPERM and found["remount /usr"] == errno.EPERM
        assert found[f"write {found_folder(found)}"] in refused and found["write /usr"] in refused
    elif name == "pth":
        assert found and all(code in (errno.ENOENT, *refused) for code in found.values()), found
    elif name == "proc_sys":
        assert found["stat_interval"] in refused and found["/proc/sys/kernel/core_pattern"] in refused
        assert found["/proc/sysrq-trigger"] in (errno.ENOENT, *refused) and found["/proc/self/oom_score_adj"] in refused
    elif name == "cgroup":
        assert [found[f"mount {kind}"] for kind in ("pids", "memory", "cgroup2")] == [errno.EPERM] * 3
        assert found["fsopen cgroup2"] == errno.EPERM and found["sys"] is False
        assert found["pids.max"] in (errno.ENOENT, *refused)
    elif name == "dev_shm":
        assert found["error"] == errno.ENOSPC and 40 <= found["written_mb"] <= 64, found
        assert found["dev"] == sorted([*isolation.DEVICES, *(link for link, _ in isolation.DEVICE_LINKS)])
        assert found["create in /dev"] in refused
    elif name == "root_write":
        assert found["written_mb"] == 0 and {found[f"write {t}"] for t in ("/fill", "/newdir/fill")} <= {
            errno.EROFS, errno.ENOENT}, found
        assert found["write /fill"] == errno.EROFS and found["mkdir /newdir/fill"] == errno.EROFS, found
        assert found["write /proc/fill"] in refused + (errno.ENOENT,) and found["write /dev/fill"] in refused, found
    elif name == "sockets":
        assert found["socket unix"] == found["socket inet"] == found["socketpair unix"] == 0, found
        for key in ("socket netlink", "socket packet", "socket bluetooth", "socket alg", "socket vsock",
                    "socket unknown", "socket high bits", "socketpair inet", "socketpair vsock"):
            assert found[key] == errno.EAFNOSUPPORT, (key, found)
        assert found["memfd_secret"] == errno.EPERM, found
    elif name == "namespaces":
        for call in ("unshare user", "unshare mount", "clone newuser", "setns", "ptrace traceme", "ptrace attach",
                     "process_vm_readv"):
            assert found[call] == errno.EPERM, (call, found)
        assert found["clone3"] == errno.ENOSYS and found["open /proc/1/fd"] in refused
        assert found["open fds"] == [0, 1, 2, 3] and found["thread"] == 1  # 3: the listing's own


def found_folder(found: dict) -> str:
    (key,) = [key for key in found if key.startswith("remount ") and key != "remount /usr"]
    return key.removeprefix("remount ")


def program_text(name: str) -> str:
    return PRELUDE + ATTACKS[name] + EPILOGUE


def site_folders() -> list[str]:
    return sorted(set(site.getsitepackages()) | {sysconfig.get_paths()["purelib"]})


def host_untouched(marker: str, folder: Path, found: dict) -> None:
    """Nothing of the attack is left on the host: no file, no cgroup, no mount, no process."""
    assert not survivors(marker)
    assert not (folder / marker).exists() and not Path("/usr", marker).exists()
    tried = [key.removeprefix("pth ") for key in found if key.startswith("pth ")]  # the interpreter's own folders
    assert not [path for path in [*site_folders(), *tried] if Path(path, marker + ".pth").exists()]
    assert not glob.glob(f"/sys/fs/cgroup/*/{marker}") and not glob.glob(f"/sys/fs/cgroup/**/{marker}", recursive=True)
    assert marker not in Path("/proc/self/mountinfo").read_text()
    assert not Path("/dev", marker).exists()


@pytest.fixture
def stat_interval():
    """The host's vm.stat_interval, put back if a run changed it (the test then fails)."""
    before = STAT_INTERVAL.read_text()
    yield before
    if STAT_INTERVAL.read_text() != before:
        STAT_INTERVAL.write_text(before)
        pytest.fail("a judged program changed the host's vm.stat_interval")


def judge_source(tmp_path: Path, source: str, limits: Limits = LIMITS, name: str = "submission.py"):
    """Judge a Python program on the BOJ sample, with a marker and a read-only folder on its command
    line: (case, marker, folder)."""
    marker = f"hostile-{uuid.uuid4().hex}"
    folder = tmp_path / "data"
    folder.mkdir(exist_ok=True)
    program = tmp_path / name
    program.write_text(source)
    entries = list(parse_lines(SAMPLE.read_text().splitlines()))
    (case,) = judge_cases(entries, [sys.executable, str(program), marker, str(folder)], limits)
    return case, marker, folder


def findings(run: Run) -> dict:
    return json.loads(run.stderr.decode().strip().splitlines()[-1])


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_each_attack_is_refused_as_root_and_changes_nothing(tmp_path, stat_interval, name):
    case, marker, folder = judge_source(tmp_path, program_text(name))
    assert case.outcome is Outcome.ACCEPTED, (case.detail, case.run and case.run.stderr[-800:])
    found = findings(case.run)
    expect_contained(name, found)
    host_untouched(marker, folder, found)
    assert STAT_INTERVAL.read_text() == stat_interval


def test_dev_shm_is_bounded_without_a_memory_limit_too(tmp_path):
    case, marker, folder = judge_source(tmp_path, program_text("dev_shm"), Limits(seconds=20.0, memory_mb=None))
    assert case.outcome is Outcome.ACCEPTED, case.detail
    found = findings(case.run)
    expect_contained("dev_shm", found)
    host_untouched(marker, folder, found)


def test_a_hidden_memory_peak_is_still_memory_limit_exceeded(tmp_path):
    """400 MB held (a shared map, which RLIMIT_DATA does not count), then every way to reset the
    peak the judge reads: the peak comes from the launcher's wait4 and the cgroup file outside."""
    source = PRELUDE + """
import mmap
held = mmap.mmap(-1, 400 << 20, flags=mmap.MAP_SHARED)
for offset in range(0, 400 << 20, 4096):
    held[offset] = 1
os.makedirs("/tmp/memory", exist_ok=True)
found["mount memory"] = call("mount", b"cgroup", b"/tmp/memory", b"cgroup", 0, b"memory")
for path in ("/tmp/memory/memory.max_usage_in_bytes", "/sys/fs/cgroup/memory/memory.max_usage_in_bytes"):
    attempt(path, lambda: open(path, "w").write("0"))
held.close()
""" + EPILOGUE
    case, marker, folder = judge_source(tmp_path, source)
    assert case.outcome is Outcome.MEMORY_LIMIT, case.detail
    if case.run.exit_code == 0:  # no cgroup here: it lived to try, and every try failed
        found = findings(case.run)
        assert found["mount memory"] == errno.EPERM and set(found.values()) <= {errno.EPERM, errno.ENOENT}
    host_untouched(marker, folder, {})


@pytest.mark.parametrize("ending, outcome, detail", [
    ("os._exit(139)", Outcome.RUNTIME_ERROR, "exit code 139"),
    ("os.kill(os.getpid(), signal.SIGSEGV)", Outcome.RUNTIME_ERROR, "killed by signal 11 (SIGSEGV"),
    ("os._exit(137)", Outcome.RUNTIME_ERROR, "exit code 137"),
    ("os._exit(0)", Outcome.ACCEPTED, ""),
])
def test_an_exit_code_is_not_taken_for_a_signal(tmp_path, ending, outcome, detail):
    source = f"import os, signal, sys\nsys.stdout.write({ANSWER!r})\nsys.stdout.flush()\n{ending}\n"
    case, marker, _ = judge_source(tmp_path, source)
    assert (case.outcome, case.detail.split(";")[0][:len(detail)]) == (outcome, detail), case.detail
    assert not survivors(marker)


def test_the_status_report_cannot_be_forged(tmp_path):
    """INIT's report descriptor is not the program's, and /proc/1/fd is out of reach: a program that
    tries to write "exit 0" there and exits 3 is judged on its 3."""
    source = PRELUDE + """
for fd in range(3, 64):
    attempt("fd %d" % fd, lambda: os.write(fd, b"0"))
    attempt("proc fd %d" % fd, lambda: open("/proc/1/fd/%d" % fd, "wb").write(b"0"))
""" + EPILOGUE + "sys.stdout.flush()\nos._exit(3)\n"
    case, marker, _ = judge_source(tmp_path, source)
    assert case.outcome is Outcome.RUNTIME_ERROR and case.detail.startswith("exit code 3"), case.detail
    found = findings(case.run)
    assert {code for key, code in found.items() if key.startswith("fd ")} == {errno.EBADF}
    assert {code for key, code in found.items() if key.startswith("proc fd ")} <= {errno.EACCES, errno.EPERM,
                                                                                    errno.ENOENT}


GCC = shutil.which("gcc")

C_PROGRAMS = {
    # i386's getpid through int 0x80 from a 64-bit program: another architecture, the process is killed
    "int80": ("long r; __asm__ volatile(\"int $0x80\" : \"=a\"(r) : \"a\"(20L)); (void) r;",
              Outcome.RUNTIME_ERROR, "killed by signal 31 (SIGSYS"),
    "x32": ("syscall(0x40000000L | 39);", Outcome.RUNTIME_ERROR, "killed by signal 31 (SIGSYS"),
    "segv": ("fflush(stdout); *(volatile int *) 0 = 1;", Outcome.RUNTIME_ERROR, "killed by signal 11 (SIGSEGV"),
    "exit139": ("fflush(stdout); return 139;", Outcome.RUNTIME_ERROR, "exit code 139"),
    "threads": ("pthread_t t[8]; for (int i = 0; i < 8; i++) pthread_create(&t[i], 0, work, 0);"
                "for (int i = 0; i < 8; i++) pthread_join(t[i], 0); if (fork() == 0) _exit(0); wait(0);",
                Outcome.ACCEPTED, ""),
}


@pytest.mark.skipif(GCC is None, reason="no gcc to build the C attacks")
@pytest.mark.parametrize("name", sorted(C_PROGRAMS))
def test_c_programs_other_abis_threads_and_true_statuses(tmp_path, name):
    body, outcome, detail = C_PROGRAMS[name]
    source = tmp_path / "attack.c"
    source.write_text("#include <pthread.h>\n#include <stdio.h>\n#include <unistd.h>\n#include <sys/syscall.h>\n"
                      "#include <sys/wait.h>\nstatic void *work(void *p) { return p; }\n"
                      f"int main(void) {{ fputs({json.dumps(ANSWER)}, stdout); {body} return 0; }}\n")
    binary = tmp_path / "attack"
    subprocess.run([GCC, "-O1", "-pthread", str(source), "-o", str(binary)], check=True, timeout=120)
    entries = list(parse_lines(SAMPLE.read_text().splitlines()))
    (case,) = judge_cases(entries, [str(binary)], LIMITS)
    assert (case.outcome, case.detail[:len(detail)]) == (outcome, detail), case.detail


# --- the same attacks, by a judge an ordinary user started ---------------------------------------

DEMOTED_JUDGE = """
import base64, json, sys
from sudokulab.execution.sandbox import Limits, run_program
folder, limits, results = sys.argv[1], Limits(seconds=20.0), {}
for name, program in json.loads(sys.argv[2]).items():
    run = run_program([sys.executable, program, "hostile-" + name, folder], b"", limits)
    results[name] = dict(stdout=base64.b64encode(run.stdout).decode(), stderr=base64.b64encode(run.stderr).decode(),
                         exit_code=run.exit_code, signal=run.signal, seconds=run.seconds, peak_rss_kb=run.peak_rss_kb,
                         timed_out=run.timed_out, output_overflow=run.output_overflow,
                         memory_exceeded=run.memory_exceeded)
print(json.dumps(results))
"""


def demoted_setup_problem() -> str | None:
    """Why a judge demoted to an ordinary uid cannot be tried here, or None."""
    if os.geteuid() != 0:
        return "the tests already run as an ordinary user"
    if not os.access("/usr/bin/python3", os.X_OK):
        return "no /usr/bin/python3 that an ordinary user can run (the test's own Python may sit under /root)"
    return None


@contextlib.contextmanager
def judged_by_an_ordinary_user(sources: dict[str, str]) -> Iterator[tuple[dict[str, Run], Path]]:
    """Each program run by a judge demoted to uid 65534 (no memory or pids group: it may make none),
    with a marker and a read-only folder on its command line: name -> its run, and that folder (kept
    until the ``with`` ends, for the host's checks). Skips where that cannot be tried."""
    why = demoted_setup_problem()
    if why:
        pytest.skip(why)
    import pyseccomp

    with tempfile.TemporaryDirectory(prefix="sudokulab-demoted-") as named:
        top = Path(named)
        os.chmod(top, 0o755)
        shutil.copytree(Path(isolation.__file__).parents[1], top / "sudokulab",
                        ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copy(pyseccomp.__file__, top)
        folder = top / "data"
        folder.mkdir()
        programs = {}
        for name, source in sources.items():
            path = top / f"{name}.py"
            path.write_text(source)
            programs[name] = str(path)
        for path in top.rglob("*"):
            os.chmod(path, 0o755 if path.is_dir() else 0o644)
        env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(top), "HOME": str(top), "LANG": "C.UTF-8"}
        done = subprocess.run(["/usr/bin/python3", "-c", DEMOTED_JUDGE, str(folder), json.dumps(programs)],
                              capture_output=True, text=True, env=env, cwd=top, timeout=300,
                              user=65534, group=65534, extra_groups=[])
        if done.returncode != 0 and "bubblewrap" in done.stderr:
            pytest.skip(f"bubblewrap cannot run for an ordinary user here: {done.stderr.strip().splitlines()[-1]}")
        assert done.returncode == 0, done.stderr[-2000:]
        yield {name: Run(**{**fields, "stdout": base64.b64decode(fields["stdout"]),
                            "stderr": base64.b64decode(fields["stderr"])})
               for name, fields in json.loads(done.stdout).items()}, folder


def test_each_attack_is_refused_when_an_ordinary_user_runs_the_judge(stat_interval):
    puzzle = parse_puzzle(SAMPLE.read_text())
    with judged_by_an_ordinary_user({name: program_text(name) for name in ATTACKS}) as (runs, folder):
        for name, run in runs.items():
            outcome, detail = judge_run(puzzle, run, LIMITS)
            assert outcome is Outcome.ACCEPTED, (name, detail, run.stderr[-800:])
            found = findings(run)
            expect_contained(name, found)
            host_untouched(f"hostile-{name}", folder, found)
    assert STAT_INTERVAL.read_text() == stat_interval


EIGHT_CHILDREN = PRELUDE + """
import time
children = []
for _ in range(8):
    child = os.fork()
    if child == 0:  # 150 MB each, held together: 1.2 GB in all, no process over 256 MB
        held = bytearray(150 << 20)
        for offset in range(0, len(held), 4096):
            held[offset] = 1
        time.sleep(3)
        os._exit(0)
    children.append(child)
for child in children:
    os.waitpid(child, 0)
""" + EPILOGUE
"""Eight processes of 150 MB each: under 256 MB one by one, 1.2 GB together."""


def test_eight_children_of_150_mb_are_over_256_mb_with_a_memory_group(tmp_path):
    case, marker, folder = judge_source(tmp_path, EIGHT_CHILDREN)
    assert case.outcome is Outcome.MEMORY_LIMIT, case.detail
    assert "limit 256 MB, reached by its processes together" in case.detail
    host_untouched(marker, folder, {})


def test_eight_children_of_150_mb_are_over_256_mb_without_a_memory_group():
    """The judge an ordinary user starts can make no memory group: its launcher sums the tree's memory."""
    with judged_by_an_ordinary_user({"eight": EIGHT_CHILDREN}) as (runs, folder):
        run = runs["eight"]
        outcome, detail = judge_run(parse_puzzle(SAMPLE.read_text()), run, LIMITS)
        assert outcome is Outcome.MEMORY_LIMIT and run.memory_exceeded, (detail, run.stderr[-800:])
        assert run.peak_rss_kb > 256 * 1024 and "reached by its processes together" in detail
        host_untouched("hostile-eight", folder, {})


def test_judge_refuses_without_the_seccomp_bindings(tmp_path):
    """Where pyseccomp (or libseccomp) is missing, ``judge`` with bubblewrap refuses with one line
    saying what to install, as it does without bubblewrap."""
    hide = ("import sys; sys.modules['pyseccomp'] = None; sys.argv[0] = 'sudokulab'; "
            "from sudokulab.__main__ import run; run()")
    done = subprocess.run([sys.executable, "-c", hide, "judge", str(SAMPLE), "--", sys.executable, "-c", "pass"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert done.stderr.count("\n") == 1 and "pyseccomp" in done.stderr and "--isolation none" in done.stderr


def test_every_refused_name_is_known_to_this_libseccomp():
    """A typo in the list would be skipped silently (as a call of another architecture is)."""
    import pyseccomp

    from sudokulab.execution import syscall_filter

    if pyseccomp.system_arch() != pyseccomp.Arch.X86_64:
        pytest.skip("the list is checked on x86-64, where every name exists")
    unknown = [name for name in syscall_filter.REFUSED if pyseccomp.resolve_syscall(pyseccomp.Arch.NATIVE, name) < 0]
    assert unknown == []


RUNTIMES = {
    "java": ("Main.java", "public class Main { public static void main(String[] a) throws Exception {"
             " Thread t = new Thread(() -> System.out.print(ANSWER)); t.start(); t.join(); } }"),
    "node": ("main.js", "const { Worker, isMainThread } = require('worker_threads');"
             " if (isMainThread) { new Worker(__filename).on('exit', () => process.stdout.write(ANSWER)); }"),
}


@pytest.mark.parametrize("runtime", sorted(RUNTIMES))
def test_java_and_node_still_run_under_the_filter(tmp_path, runtime):
    """The JVM and V8 start threads of their own (clone, then clone3's ENOSYS fallback) and read
    /proc: both still answer."""
    if shutil.which(runtime) is None or (runtime == "java" and shutil.which("javac") is None):
        pytest.skip(f"no {runtime} here")
    name, source = RUNTIMES[runtime]
    (tmp_path / name).write_text(source.replace("ANSWER", json.dumps(ANSWER)))
    if runtime == "java":
        subprocess.run(["javac", name], cwd=tmp_path, check=True, timeout=120)
        command = ["java", "-Xmx128m", "-cp", str(tmp_path), "Main"]
    else:
        command = ["node", str(tmp_path / name)]
    entries = list(parse_lines(SAMPLE.read_text().splitlines()))
    (case,) = judge_cases(entries, command, Limits(seconds=20.0, memory_mb=None))
    assert case.outcome is Outcome.ACCEPTED, (case.detail, case.run and case.run.stderr[-800:])
