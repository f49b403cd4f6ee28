"""The system calls a bot may not make: a seccomp filter compiled by libseccomp (docs/security.md, "Bots").

bubblewrap loads a compiled filter (``--seccomp FD``) into the bot's process
just before it runs the bot, and every process the bot starts inherits it. The
filter is written here as a deny list and compiled by libseccomp, the library
systemd, Docker and Flatpak build their filters with (Debian's package
``libseccomp2``), through its C interface: libseccomp knows each machine's
system call numbers and adds the architecture checks (a 32-bit call from a
64-bit bot is killed, not let through under another number).

Refused with EPERM: every call that mounts, unmounts or changes a process's
root; new namespaces (``unshare``, ``setns``, and ``clone`` with a ``CLONE_NEW*``
flag); tracing and reading other processes' memory; BPF, the kernel keyring,
kernel modules, ``kexec``, reboot, swap, clocks, host names, accounting,
quotas, performance counters, ``userfaultfd`` and file handles. ``clone3``
answers ENOSYS, so that the C library falls back to ``clone``, whose flags
the filter can see (``clone3`` passes them in memory).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import os
from pathlib import Path

# Calls refused with EPERM. A name this machine does not have (``umount`` on x86-64) is skipped.
DENIED = (
    # the file system's shape: the bot may not undo the sandbox's mounts or make its own
    "mount",
    "umount",
    "umount2",
    "pivot_root",
    "chroot",
    "move_mount",
    "open_tree",
    "fsopen",
    "fsconfig",
    "fsmount",
    "fspick",
    "mount_setattr",
    # namespaces: none new, none joined
    "unshare",
    "setns",
    # other processes
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "kcmp",
    # the kernel
    "bpf",
    "keyctl",
    "add_key",
    "request_key",
    "init_module",
    "finit_module",
    "delete_module",
    "kexec_load",
    "kexec_file_load",
    "reboot",
    "swapon",
    "swapoff",
    "syslog",
    "acct",
    "quotactl",
    "quotactl_fd",
    "perf_event_open",
    "userfaultfd",
    "iopl",
    "ioperm",
    "open_by_handle_at",
    "name_to_handle_at",
    "lookup_dcookie",
    "nfsservctl",
    "uselib",
    "vhangup",
    # the machine's clock and names
    "settimeofday",
    "clock_settime",
    "clock_adjtime",
    "adjtimex",
    "sethostname",
    "setdomainname",
)

# clone flags that make a new namespace: a clone with any of them is refused
CLONE_NEW = {
    "CLONE_NEWNS": 0x00020000,
    "CLONE_NEWCGROUP": 0x02000000,
    "CLONE_NEWUTS": 0x04000000,
    "CLONE_NEWIPC": 0x08000000,
    "CLONE_NEWUSER": 0x10000000,
    "CLONE_NEWPID": 0x20000000,
    "CLONE_NEWNET": 0x40000000,
    "CLONE_NEWTIME": 0x00000080,
}

_ACT_ALLOW = 0x7FFF0000
_CMP_MASKED_EQ = 7  # enum scmp_compare: (argument & datum_a) == datum_b


def _act_errno(code: int) -> int:
    return 0x00050000 | (code & 0xFFFF)


class _ArgCompare(ctypes.Structure):
    """libseccomp's ``struct scmp_arg_cmp``: which argument, how compared, with what."""

    _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int), ("datum_a", ctypes.c_uint64), ("datum_b", ctypes.c_uint64)]


class SeccompUnavailable(Exception):
    """No filter can be compiled here (libseccomp is missing, or refused a rule): the message says why."""


def _library() -> ctypes.CDLL:
    name = ctypes.util.find_library("seccomp") or "libseccomp.so.2"
    try:
        library = ctypes.CDLL(name, use_errno=True)
    except OSError:
        raise SeccompUnavailable("libseccomp (Debian's package libseccomp2) is not installed") from None
    library.seccomp_init.restype = ctypes.c_void_p
    library.seccomp_init.argtypes = [ctypes.c_uint32]
    library.seccomp_syscall_resolve_name.restype = ctypes.c_int
    library.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    library.seccomp_rule_add_array.restype = ctypes.c_int
    library.seccomp_rule_add_array.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint, ctypes.POINTER(_ArgCompare)]
    library.seccomp_export_bpf.restype = ctypes.c_int
    library.seccomp_export_bpf.argtypes = [ctypes.c_void_p, ctypes.c_int]
    library.seccomp_release.restype = None
    library.seccomp_release.argtypes = [ctypes.c_void_p]
    return library


def write_filter(path: Path) -> None:
    """Compile the bots' filter to ``path`` (a new file, mode 0600): the BPF program ``bwrap --seccomp`` loads."""
    library = _library()
    context = library.seccomp_init(_ACT_ALLOW)
    if not context:
        raise SeccompUnavailable("libseccomp could not start a filter")
    try:
        rules: list[tuple[str, int, list[_ArgCompare]]] = [(name, _act_errno(errno.EPERM), []) for name in DENIED]
        rules += [("clone", _act_errno(errno.EPERM), [_ArgCompare(0, _CMP_MASKED_EQ, flag, flag)]) for flag in CLONE_NEW.values()]
        rules.append(("clone3", _act_errno(errno.ENOSYS), []))
        for name, action, compare in rules:
            number = library.seccomp_syscall_resolve_name(name.encode())
            if number < 0:  # not a call of this machine
                continue
            array = (_ArgCompare * len(compare))(*compare) if compare else None
            said = library.seccomp_rule_add_array(context, action, number, len(compare), array)
            if said < 0:
                raise SeccompUnavailable(f"libseccomp refused the rule for {name}: {os.strerror(-said)}")
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        try:
            said = library.seccomp_export_bpf(context, descriptor)
        finally:
            os.close(descriptor)
        if said < 0:
            raise SeccompUnavailable(f"libseccomp could not write the filter: {os.strerror(-said)}")
    finally:
        library.seccomp_release(context)
