"""Bots in a sandbox: each bot runs with nothing of the host but what it needs to run (docs/security.md, "Bots").

A bot is a program someone else wrote: in a tournament, a competitor's. The
host runs each bot inside bubblewrap (``bwrap``, the sandbox Flatpak uses;
Debian's package ``bubblewrap``), built so that nothing has to be hidden
afterwards, because nothing is there to begin with:

- **An empty root.** The bot's file system is a fresh one holding only the
  system's program and library folders (``/usr``, ``/bin``, ``/sbin``,
  ``/lib*``, read-only), the few files of ``/etc`` an interpreter reads
  (``ETC``), a ``passwd`` and ``group`` naming the sandbox's user, a minimal
  ``/dev``, a fresh ``/proc``, a private writable ``/tmp`` of bounded size
  (also its ``HOME`` and ``TMPDIR``), and read-only what its command line
  names (``needed_paths``: its program's installation, its script or the
  folder named for it) and what ``--bot-file NAME=PATH`` gives it. No host
  home, ``/root``, ``/tmp``, ``/run`` or ``/var``: no other bot's files, no
  match folder, no Unix socket to connect to.
- **No privilege.** A user namespace maps the bot to an unprivileged user
  whatever user runs the host: uid 65534 (``nobody``) on the host when the
  host is root, the host's own user otherwise. Every capability is dropped,
  ``no_new_privs`` is set, and a seccomp filter (``referee.play.seccomp``)
  refuses mount, umount, ``pivot_root``, ``ptrace``, BPF, the keyring, new
  namespaces, kernel modules and reboot.
- **Nothing shared** with the host: PID, network, IPC, UTS and cgroup
  namespaces of its own, a new session, death with the host.
- **Bounded resources** (``Limits``): memory, processes, open files, file
  size and CPU time as rlimits set inside the sandbox, its ``/tmp`` a tmpfs
  of fixed size. A bot past a limit fails or is killed, and the host treats
  it as a crashed bot.

Where no sandbox can be made (no ``bwrap``, no ``prlimit``, no libseccomp, or
user namespaces are off), ``why`` says so and the match is refused, unless
``--no-sandbox`` asks for bots run bare.
"""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import select
import shutil
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from referee.play.seccomp import SeccompUnavailable, write_filter
from referee.records import dataclass

PROBE_TIMEOUT = 10.0  # seconds for a sandboxed ``true`` to say whether a sandbox can be made here
START_TIMEOUT = 10.0  # seconds for bwrap to report its sandbox's first process (when the host maps the users)
SANDBOX_UID = 65534  # the bot's user, inside its namespace and (for a root host) on the host: nobody
SYSTEM_FOLDERS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# what of /etc a program may read: the dynamic linker's cache, alternatives' links, certificates, time zone, locale
ETC = ("alternatives", "ca-certificates", "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "locale.alias", "localtime", "nsswitch.conf", "ssl")
MIB = 1 << 20


@dataclass(frozen=True)
class Limits:
    """What one bot may use: each an rlimit of every process in its sandbox, but ``disk``, the size of its ``/tmp``
    (docs/security.md has the table; ``referee play --bot-memory`` and the others set them)."""

    memory: int = 2048 * MIB  # bytes of address space per process (RLIMIT_AS); node needs about 1 GiB to start
    processes: int = 64  # processes and threads of the sandbox's user (RLIMIT_NPROC, counted in its own namespace)
    open_files: int = 256  # open file descriptors per process (RLIMIT_NOFILE)
    file_size: int = 64 * MIB  # bytes of the largest file it may write (RLIMIT_FSIZE)
    cpu: int = 3600  # seconds of CPU time per process (RLIMIT_CPU)
    disk: int = 64 * MIB  # bytes of its private /tmp (a tmpfs of this size)

    def prlimit(self) -> list[str]:
        """The limits as ``prlimit`` options (soft and hard alike: the bot cannot raise them); no core dumps."""
        return [
            f"--as={self.memory}",
            f"--nproc={self.processes}",
            f"--nofile={self.open_files}",
            f"--fsize={self.file_size}",
            f"--cpu={self.cpu}",
            "--core=0",
        ]


class Sandbox:
    """Where the bots of one match run: bubblewrap, or bare (``active`` false: ``why`` says why when one was wanted).
    ``files`` gives, by bot name, the paths that bot may also read (``--bot-file``)."""

    def __init__(self, wanted: bool = True, limits: Limits | None = None, files: Mapping[str, Sequence[Path]] | None = None) -> None:
        self.limits = limits or Limits()
        self.files = {name: tuple(Path(os.path.abspath(path)) for path in paths) for name, paths in (files or {}).items()}
        self.privileged = os.geteuid() == 0  # root maps the bot's user itself (bwrap alone would map it to root)
        self.command: str | None = None  # bwrap's path, once a sandbox was made here
        self.why: str | None = None  # why no sandbox could be made, when one was wanted
        self.root: Path | None = None  # a private folder: the seccomp filter, the sandbox's passwd and group
        self._tools: dict[str, str] = {}
        if wanted:
            self.why = self._prepare()
            if self.why is not None:
                self.close()

    @property
    def active(self) -> bool:
        return self.command is not None

    def _prepare(self) -> str | None:
        """Find the tools, write the filter and the sandbox's user, and make one sandbox; why not, if one cannot be."""
        bwrap = shutil.which("bwrap")
        if bwrap is None:
            return "bwrap (bubblewrap) is not installed"
        for tool in ("prlimit", "setpriv") if self.privileged else ("prlimit",):
            found = _system_program(tool)
            if found is None:
                return f"{tool} (Debian's package util-linux) is not installed in {', '.join(SYSTEM_FOLDERS[:2])}"
            self._tools[tool] = found
        self.root = Path(tempfile.mkdtemp(prefix="referee-bots-"))  # 0700: nobody else reads the filter
        try:
            write_filter(self.root / "filter.bpf")
        except SeccompUnavailable as error:
            return str(error)
        (self.root / "passwd").write_text(
            f"root:x:0:0:root:/root:/usr/sbin/nologin\nbot:x:{SANDBOX_UID}:{SANDBOX_UID}:bot:/tmp:/usr/sbin/nologin\n"
        )
        (self.root / "group").write_text(f"root:x:0:\nbot:x:{SANDBOX_UID}:\n")
        self.command = bwrap
        return self._probe()

    def _probe(self) -> str | None:
        """Run ``true`` in a sandbox made as a bot's is: None when it worked, else why not."""
        try:
            process = self.popen("probe", ["true"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            _, said = process.communicate(timeout=PROBE_TIMEOUT)
        except (OSError, subprocess.TimeoutExpired) as error:
            with contextlib.suppress(UnboundLocalError, OSError):
                process.kill()
            self.command = None
            return f"bwrap cannot run: {error}"
        if process.returncode != 0:
            self.command = None
            lines = said.decode("utf-8", errors="replace").strip().splitlines()
            return f"bwrap cannot make a sandbox here: {lines[0] if lines else f'exit {process.returncode}'}"
        return None

    def popen(self, name: str, command: Sequence[str], **options: Any) -> subprocess.Popen[bytes]:
        """Start ``command`` as bot ``name``: in its sandbox, or as it is when there is none."""
        if self.command is None or self.root is None:
            return subprocess.Popen(list(command), **options)
        descriptors: list[int] = []
        seccomp = os.open(self.root / "filter.bpf", os.O_RDONLY | os.O_CLOEXEC)
        descriptors.append(seccomp)
        block_read = block_write = info_read = info_write = -1
        if self.privileged:
            block_read, block_write = os.pipe()
            info_read, info_write = os.pipe()
            descriptors += [block_read, info_write]
        try:
            arguments = self.arguments(name, command, seccomp, block_read, info_write)
            process = subprocess.Popen(arguments, pass_fds=descriptors, **options)
        except BaseException:
            for descriptor in (block_write, info_read):
                if descriptor >= 0:
                    os.close(descriptor)
            raise
        finally:
            for descriptor in descriptors:
                os.close(descriptor)
        if self.privileged:
            try:
                _map_users(process, info_read, block_write)
            except OSError:
                process.kill()
                process.wait()
                raise
            finally:
                os.close(info_read)
                os.close(block_write)
        return process

    def arguments(self, name: str, command: Sequence[str], seccomp: int, block: int = -1, info: int = -1) -> list[str]:
        """bwrap's command line for bot ``name`` (the descriptors are the filter's and, for a root host, the pipes
        through which the host maps the users)."""
        assert self.command is not None and self.root is not None
        arguments = [self.command, *_NAMESPACES, "--seccomp", str(seccomp)]
        if self.privileged:  # the host writes the maps (0 for bwrap's own set-up, the bot's user to nobody)
            arguments += ["--userns-block-fd", str(block), "--info-fd", str(info), "--cap-drop", "ALL"]
            arguments += [part for cap in ("CAP_SETUID", "CAP_SETGID", "CAP_SETPCAP") for part in ("--cap-add", cap)]  # setpriv's
            launcher = [self._tools["setpriv"], f"--reuid={SANDBOX_UID}", f"--regid={SANDBOX_UID}", "--clear-groups"]
            launcher += ["--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]
        else:  # bwrap maps the host's user to the sandbox's
            arguments += ["--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID), "--disable-userns"]
            launcher = []
        launcher += [self._tools["prlimit"], *self.limits.prlimit(), "--"]
        arguments += ["--perms", "1777", "--size", str(self.limits.disk), "--tmpfs", "/tmp"]  # first: binds below may be in it
        arguments += _system_root(self.root)
        cwd = os.getcwd()
        made: set[str] = set()
        for binding in _outermost([*needed_paths(command, cwd), *self.files.get(name, ())]):
            arguments += [*_parents(binding[-1], made), *binding]
        arguments += [*_parents(os.path.join(cwd, "-"), made), "--dir", cwd, "--chdir", cwd, "--clearenv", *_environment()]
        return [*arguments, "--", *launcher, *command]

    def close(self) -> None:
        """Remove the private folder (after every bot has stopped)."""
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)
            self.root = None


_NAMESPACES = (
    "--unshare-user",
    "--unshare-pid",
    "--unshare-net",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    "--die-with-parent",
    "--new-session",
)


def _map_users(process: subprocess.Popen[bytes], info: int, block: int) -> None:
    """For a root host: read the sandbox's first process from bwrap, map its users (0 to root for bwrap's set-up, which
    then hands over to setpriv; the bot's user to nobody), and let it go on. bwrap that failed first says nothing here:
    it has exited, and its standard error says why."""
    said = b""
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        with contextlib.suppress(ValueError):
            child = int(json.loads(said)["child-pid"])
            break
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([info], [], [], left)[0]:
            raise OSError(f"bwrap did not start its sandbox within {START_TIMEOUT:.0f} s")
        chunk = os.read(info, 4096)
        if not chunk:
            return
        said += chunk
    users = f"0 0 1\n{SANDBOX_UID} {SANDBOX_UID} 1\n"
    for map_file in ("uid_map", "gid_map"):
        with open(f"/proc/{child}/{map_file}", "w") as written:
            written.write(users)
    os.write(block, b"1")


def _system_root(private: Path) -> list[str]:
    """The sandbox's system: its program and library folders (a link, as merged /usr makes /bin, stays a link),
    the files of /etc a program reads, its user, /dev and /proc."""
    arguments: list[str] = []
    for folder in SYSTEM_FOLDERS:
        if os.path.islink(folder):
            arguments += ["--symlink", os.readlink(folder), folder]
        elif os.path.isdir(folder):
            arguments += ["--ro-bind", folder, folder]
    arguments += ["--dir", "/etc"]  # 0755: a folder bwrap makes on its own way to a file is 0700 when the host is root
    for entry in ETC:
        path = f"/etc/{entry}"
        if os.path.lexists(path):
            arguments += ["--symlink", os.readlink(path), path] if os.path.islink(path) else ["--ro-bind", path, path]
    arguments += ["--ro-bind", str(private / "passwd"), "/etc/passwd", "--ro-bind", str(private / "group"), "/etc/group"]
    return [*arguments, "--dev", "/dev", "--proc", "/proc"]


def _environment() -> list[str]:
    """What a bot keeps of the host's environment (the rest may hold the host user's credentials): where programs are,
    the language of its messages; its home and temporary folder are its private /tmp."""
    kept = [part for name in ("PATH", "LANG", "LC_ALL") if name in os.environ for part in ("--setenv", name, os.environ[name])]
    return [*kept, "--setenv", "HOME", "/tmp", "--setenv", "TMPDIR", "/tmp"]


def _in_system(path: str) -> bool:
    return any(path == folder or path.startswith(folder + "/") for folder in SYSTEM_FOLDERS)


def _system_program(name: str) -> str | None:
    """``name`` found in the system's program folders alone (where every sandbox has it)."""
    found = shutil.which(name, path=os.pathsep.join(f"{folder}/{kind}" for folder in ("/usr", "") for kind in ("bin", "sbin")))
    return os.path.abspath(found) if found is not None else None


def _homes() -> set[str]:
    """Every user's home folder: never bound whole, whatever a command names."""
    homes = {os.path.expanduser("~")}
    with contextlib.suppress(OSError):
        homes.update(entry.pw_dir for entry in pwd.getpwall())
    return {os.path.normpath(home) for home in homes}


def _installation(folder: str) -> str | None:
    """The installation a program in ``folder`` belongs to, when ``folder`` is a ``bin`` folder of one (a venv,
    pyenv's or nvm's versions, ``/opt/NAME``) or a version manager's ``shims`` (pyenv's, which run its own scripts):
    the folder above it, unless that is a top folder or someone's home."""
    if os.path.basename(folder) not in ("bin", "shims"):
        return None
    above = os.path.dirname(folder)
    if len(Path(above).parts) <= 2 or above in _homes():
        return None
    return above


Binding = tuple[str, ...]  # bwrap options: --ro-bind SOURCE DEST, or --symlink TARGET DEST


def _program_paths(found: str) -> list[tuple[str, Binding]]:
    """What running the program at ``found`` needs from outside the system folders: each link on the way to its file
    (its installation, or the link itself) and the file (its installation, or the file alone)."""
    needed: list[tuple[str, Binding]] = []
    hop = os.path.abspath(found)
    for _ in range(40):  # the kernel's own limit on links followed
        link = os.path.islink(hop)
        if not _in_system(hop):
            installation = _installation(os.path.dirname(hop))
            if installation is not None:
                needed.append((installation, ("--ro-bind", installation, installation)))
            elif link:
                needed.append((hop, ("--symlink", os.readlink(hop), hop)))
            else:
                needed.append((hop, ("--ro-bind", hop, hop)))
        if not link:
            break
        hop = os.path.normpath(os.path.join(os.path.dirname(hop), os.readlink(hop)))
    return needed


def _interpreter(path: str) -> str | None:
    """The program a script's ``#!`` line runs (``#!/usr/bin/env python3``: python3 on the PATH), if it has one."""
    try:
        with open(path, "rb") as script:
            first = script.read(256).split(b"\n", 1)[0]
    except OSError:
        return None
    if not first.startswith(b"#!"):
        return None
    words = first[2:].decode("utf-8", errors="replace").split()
    if not words:
        return None
    if os.path.basename(words[0]) == "env":
        names = [word for word in words[1:] if not word.startswith("-") and "=" not in word]
        return shutil.which(names[0]) if names else None
    return words[0]


def needed_paths(command: Sequence[str], cwd: str) -> list[tuple[str, Binding]]:
    """What a bot's command line names, to be bound read-only where the command names it: its program (found on the
    PATH, with its installation), a ``#!`` script's interpreter, every argument that is a file or folder (its
    script, or the folder named for it), and the top package of ``-m MODULE`` in the current folder."""
    needed: list[tuple[str, Binding]] = []
    program = command[0]
    found = shutil.which(program) if "/" not in program else os.path.join(cwd, program)
    scripts = []
    if found is not None and os.path.exists(found):
        needed += _program_paths(found)
        scripts.append(found)
    for previous, argument in zip(command, command[1:], strict=False):
        if previous == "-m":
            top = argument.split(".", 1)[0]
            candidates = [os.path.join(cwd, top), os.path.join(cwd, top + ".py")]
        elif argument and not argument.startswith("-"):
            candidates = [os.path.join(cwd, argument)]
        else:
            continue
        for candidate in candidates:
            path = os.path.normpath(candidate)
            if os.path.exists(path) and path != "/":
                needed.append((path, ("--ro-bind", path, path)))
                scripts.append(path)
    for script in scripts:
        interpreter = _interpreter(script) if os.path.isfile(script) else None
        if interpreter is not None and os.path.exists(interpreter):
            needed += _program_paths(interpreter)
    return needed


def _parents(path: str, made: set[str]) -> list[str]:
    """``--dir`` for each folder above ``path`` not made yet (mode 0755: a folder bwrap makes on its own way to a
    binding is 0700 when the host is root, which the bot's user could not go through)."""
    arguments: list[str] = []
    for parent in reversed(Path(path).parents[:-1]):
        folder = str(parent)
        if folder not in made and not _in_system(folder) and folder != "/tmp":
            made.add(folder)
            arguments += ["--dir", folder]
    return arguments


def _outermost(needed: Sequence[tuple[str, Binding] | Path]) -> list[Binding]:
    """The bindings in an order bwrap can make them (a folder before what is inside it), each once, none inside a
    folder bound already or a system folder."""
    pairs = [(str(item), ("--ro-bind", str(item), str(item))) if isinstance(item, Path) else item for item in needed]
    chosen: dict[str, Binding] = {}
    for path, binding in sorted(pairs, key=lambda pair: (len(Path(pair[0]).parts), pair[0])):
        if _in_system(path) or any(path == bound or path.startswith(bound.rstrip("/") + "/") for bound in chosen):
            continue
        chosen[path] = binding
    return list(chosen.values())
