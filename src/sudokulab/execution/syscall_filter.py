"""The system calls a judged program may not make: a seccomp filter built with libseccomp, given to bubblewrap.

The filter is a second wall behind the first (``isolation``): it makes refused calls fail before
the kernel code behind them runs, so a kernel bug there is out of reach, and it keeps what
capabilities do not cover (user namespaces, ``ptrace`` of a sibling, ``bpf``, io_uring). It is a
list of refusals, not an allow-list, because an allow-list must follow every runtime's needs and a
judge that refuses a correct program is wrong too; socket families are the one allow-list
(``SOCKET_FAMILIES``). It is built with libseccomp through ``pyseccomp``, never hand-written BPF, so
every call's architecture is checked, and bubblewrap's ``--seccomp FD`` installs it so every
process of the run inherits it.

Where each refused name comes from, compared with Docker, nsjail and DMOJ: docs/judge.md.
"""

from __future__ import annotations

import errno
import functools
import os
from typing import Any

REFUSED = (
    # mounts and the root: no remounting a read-only bind writable, no cgroup or proc of its own
    "mount", "umount2", "pivot_root", "chroot",
    "fsopen", "fsconfig", "fsmount", "fspick", "move_mount", "open_tree", "mount_setattr",
    # namespaces: no user namespace to gain capabilities in, no joining another
    "unshare", "setns",
    # other processes: tracing, reading or writing their memory, comparing or taking their files
    "ptrace", "process_vm_readv", "process_vm_writev", "process_madvise", "kcmp", "pidfd_getfd",
    # the kernel itself: programs, modules, keys, performance counters, logs, accounting
    "bpf", "perf_event_open", "keyctl", "add_key", "request_key",
    "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
    "reboot", "swapon", "swapoff", "acct", "quotactl", "syslog", "lookup_dcookie",
    # files by handle (past every mount), faults handled in user space (races made long)
    "open_by_handle_at", "name_to_handle_at", "userfaultfd",
    # asynchronous calls that the filter cannot see one by one
    "io_uring_setup", "io_uring_enter", "io_uring_register",
    # the machine's clock, its I/O ports, its terminals
    "settimeofday", "clock_settime", "clock_adjtime", "adjtimex", "iopl", "ioperm", "vhangup",
    # memory the kernel itself cannot read (a place to hide from every check), watching the filesystem
    "memfd_secret", "fanotify_init",
    # calls kept for old binaries only (Docker's default profile refuses them too)
    "uselib", "ustat", "sysfs", "_sysctl", "nfsservctl", "create_module", "get_kernel_syms", "query_module",
    "afs_syscall", "quotactl_fd",
)
"""Calls refused with EPERM whatever their arguments (a name this libseccomp does not know is skipped)."""

CLONE_NAMESPACES = {
    "CLONE_NEWNS": 0x00020000, "CLONE_NEWCGROUP": 0x02000000, "CLONE_NEWUTS": 0x04000000,
    "CLONE_NEWIPC": 0x08000000, "CLONE_NEWUSER": 0x10000000, "CLONE_NEWPID": 0x20000000,
    "CLONE_NEWNET": 0x40000000,
}
"""``clone`` with any of these flags (its first argument) is refused; threads and ``fork`` are not.
``CLONE_NEWTIME`` (0x80) lies in ``clone``'s exit-signal byte, so only ``unshare`` and ``clone3`` make one."""

TERMINAL_IOCTLS = {"TIOCSTI": 0x5412, "TIOCLINUX": 0x541C}
"""``ioctl`` requests that type into a terminal or drive the console: refused (there is no terminal
in the sandbox; this keeps it so should one leak in)."""

SOCKET_FAMILIES = {"AF_UNIX": 1, "AF_INET": 2, "AF_INET6": 10}
"""The socket families a program may open (``socket``; ``socketpair`` takes AF_UNIX alone): the
ones a runtime uses inside the run's own network namespace, whose loopback is down and which has no
route out. Every other family (netlink, packet, vsock, bluetooth, alg, ...) is refused with
EAFNOSUPPORT, as a kernel built without it would answer."""

LAST_FAMILY = 63
"""Families are numbered from 0 to 45 today (AF_MCTP); every number up to this one that is not
allowed is refused by name, and anything above it by one comparison, so a family added to the
kernel later is refused too."""

INSTALL_HINT = ("install libseccomp's Python bindings (pip install pyseccomp) and libseccomp itself "
                "(Debian/Ubuntu: apt-get install libseccomp2)")


def problem() -> str | None:
    """Why the filter cannot be built here (no bindings, no libseccomp), or None."""
    try:
        bpf()
    except (ImportError, RuntimeError, OSError) as exc:
        return f"the syscall filter cannot be built ({exc})"
    return None


@functools.cache
def bpf() -> bytes:
    """The compiled filter, as bubblewrap's ``--seccomp`` reads it (built once per process)."""
    import tempfile

    with tempfile.TemporaryFile() as stream:
        build().export_bpf(stream)
        stream.seek(0)
        return stream.read()


def build() -> Any:
    """The filter as a libseccomp ``SyscallFilter`` (``export_pfc`` shows it as text)."""
    try:
        import pyseccomp as seccomp
    except ImportError:
        raise ImportError("pyseccomp is not installed") from None
    refuse = seccomp.ERRNO(errno.EPERM)
    kept = seccomp.SyscallFilter(seccomp.ALLOW)
    # A call through another architecture's ABI (int 0x80 on x86-64) kills the whole process, not
    # only its thread: libseccomp's default is to kill the thread, which a threaded program survives.
    kept.set_attr(seccomp.Attr.ACT_BADARCH, seccomp.KILL_PROCESS)
    for name in REFUSED:
        if _known(seccomp, name):
            kept.add_rule(refuse, name)
    for flag in CLONE_NAMESPACES.values():
        kept.add_rule(refuse, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag))
    no_family = seccomp.ERRNO(errno.EAFNOSUPPORT)
    for call, allowed in (("socket", set(SOCKET_FAMILIES.values())), ("socketpair", {SOCKET_FAMILIES["AF_UNIX"]})):
        for family in range(LAST_FAMILY + 1):
            if family not in allowed:
                kept.add_rule(no_family, call, seccomp.Arg(0, seccomp.EQ, family))
        kept.add_rule(no_family, call, seccomp.Arg(0, seccomp.GT, LAST_FAMILY))
    for request in TERMINAL_IOCTLS.values():
        kept.add_rule(refuse, "ioctl", seccomp.Arg(1, seccomp.MASKED_EQ, 0xFFFFFFFF, request))
    if _known(seccomp, "clone3"):
        # clone3's flags sit behind a pointer the filter cannot read; "not implemented" makes glibc
        # (2.34+, which tries clone3 first for threads and fork) fall back to clone, checked above.
        kept.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    return kept


def _known(seccomp: Any, name: str) -> bool:
    """Whether this libseccomp knows the call on this machine's architecture (iopl is x86 only)."""
    return seccomp.resolve_syscall(seccomp.Arch.NATIVE, name) >= 0


def pipe_holding_filter() -> int:
    """The read end of a pipe that holds the compiled filter and is closed for writing, for
    bubblewrap's ``--seccomp FD`` (one per run: bubblewrap reads it to the end)."""
    program = bpf()
    read_end, write_end = os.pipe()
    try:
        if len(program) > 65536:  # a pipe holds 64 KiB; this filter is about 2 KiB
            raise OSError(errno.EFBIG, "the syscall filter does not fit in a pipe")
        os.write(write_end, program)
    except OSError:
        os.close(read_end)
        raise
    finally:
        os.close(write_end)
    return read_end
