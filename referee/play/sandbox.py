"""Bots in a sandbox: each bot process sees only what its seat may see (docs/security.md, "Bots").

A bot is a program someone else wrote. Run bare, it runs as the user hosting
the match: it can list the other processes, read the host's command line and
another bot's pipes through ``/proc``, write into the match folder, and leave
processes behind. So the host runs each bot inside bubblewrap (``bwrap``, the
sandbox Flatpak uses; Debian's package ``bubblewrap``) with:

- its own PID namespace (``--unshare-pid`` and a fresh ``/proc``): no other
  process is visible, neither the host nor the other bots; and when the bot
  stops, the kernel ends every process it started, a double-forked
  ``setsid()`` one included;
- the file system read-only (``--ro-bind / /``), a minimal ``/dev``, and one
  writable folder of its own (its scratch folder, also its ``HOME`` and
  ``TMPDIR``), made 0700 by the host, removed after the match;
- the match folder, the ``--bot-stderr`` folder and the other bots' scratch
  folders hidden under empty, read-only file systems;
- a clean environment: ``PATH``, ``LANG`` and ``LC_ALL`` kept, ``HOME`` and
  ``TMPDIR`` its scratch folder, nothing else of the host's (which may hold
  its user's credentials);
- no network, IPC, UTS or cgroup namespace shared with the host
  (``--unshare-all``), a new session (no terminal to push keys into), and
  death with the host (``--die-with-parent``).

The bot starts in the folder the host was started in (read-only), so a
command such as ``python3 bots/mine.py`` finds its script. Where no sandbox
can be made (no ``bwrap``, or user namespaces are off), the host says so in
one warning line and runs the bots bare; ``--no-sandbox`` runs them bare
without the warning.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

PROBE_TIMEOUT = 10.0  # seconds for ``bwrap ... true`` to say whether a sandbox can be made here


class Sandbox:
    """Where the bots of one match run: bubblewrap with a scratch folder each under one private folder (``wrap``), or
    bare (``command`` is None: no sandbox, and ``why`` says why when one was wanted)."""

    def __init__(self, hidden: Sequence[Path], wanted: bool = True) -> None:
        self.hidden = [path.resolve() for path in hidden if path.is_dir()]
        self.command: str | None = None
        self.why: str | None = None  # why no sandbox could be made, when one was wanted
        self.root: Path | None = None  # the private folder holding every bot's scratch folder
        if wanted:
            self.command, self.why = _find_bwrap()
        if self.command is not None:
            self.root = Path(tempfile.mkdtemp(prefix="referee-bots-"))  # 0700: no other user reads a bot's files

    @property
    def active(self) -> bool:
        return self.command is not None

    def wrap(self, name: str, command: Sequence[str]) -> list[str]:
        """The command line that runs ``command`` as bot ``name``: inside the sandbox, or as it is."""
        if self.command is None or self.root is None:
            return list(command)
        scratch = self.root / name
        scratch.mkdir(mode=0o700)
        arguments = [self.command, *_ISOLATION, "--tmpfs", str(self.root), "--bind", str(scratch), str(scratch)]
        for folder in self.hidden:  # the match folder, the kept standard errors: not the bot's to read or write
            arguments += ["--tmpfs", str(folder), "--remount-ro", str(folder)]
        arguments += ["--clearenv", *_KEPT_ENVIRONMENT, "--setenv", "HOME", str(scratch), "--setenv", "TMPDIR", str(scratch)]
        arguments += ["--chdir", os.getcwd() if not self._hides(Path.cwd()) else str(scratch), "--", *command]
        return arguments

    def _hides(self, folder: Path) -> bool:
        resolved = folder.resolve()
        return any(resolved.is_relative_to(hidden) for hidden in self.hidden)

    def close(self) -> None:
        """Remove the bots' scratch folders (after every bot has stopped)."""
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)
            self.root = None


# The sandbox of every bot: nothing shared with the host but the read-only file system.
_ISOLATION = (
    "--unshare-all",
    "--die-with-parent",
    "--new-session",
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
)


# What a bot keeps of the host's environment (the rest may hold the host user's credentials): where programs are, and
# the language its messages are in.
_KEPT_ENVIRONMENT = tuple(
    part for name in ("PATH", "LANG", "LC_ALL") if name in os.environ for part in ("--setenv", name, os.environ[name])
)


def _find_bwrap() -> tuple[str | None, str | None]:
    """``bwrap``'s path when it can make the sandbox here (tried once, on ``true``), else None and why not."""
    found = shutil.which("bwrap")
    if found is None:
        return None, "bwrap (bubblewrap) is not installed"
    try:
        probe = subprocess.run(
            [found, *_ISOLATION, "--", "true"], capture_output=True, timeout=PROBE_TIMEOUT, stdin=subprocess.DEVNULL, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return None, f"bwrap cannot run: {error}"
    if probe.returncode != 0:
        said = probe.stderr.decode("utf-8", errors="replace").strip().splitlines()
        return None, f"bwrap cannot make a sandbox here: {said[0] if said else f'exit {probe.returncode}'}"
    return found, None
