"""Small helpers for tests: logs built in memory, spec files written as a house-rule author writes them, and the
referee command run as a user runs it."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

from referee.checking.replay import check_stream
from referee.verdicts import FileVerdict

HANDS_2P = """players Ann Bob
round 1
dealer Bob
hand Ann red-1/pink-3 red-5/pink-2 red-7/orange-1 blue-3/teal-2 green-4/pink-8 yellow-9/purple-4 red-draw-one/pink-4
hand Bob red-2/orange-reverse blue-5/pink-9 green-7/orange-6 yellow-4/purple-flip red-skip/wild blue-reverse/orange-4 wild-draw-two/orange-4
start red-9/purple-5
"""


def check_bytes(data: bytes, spec: Path | None = None, base: Path | None = None) -> FileVerdict:
    return check_stream(io.BytesIO(data), "test.log", base, spec)


def check_text(text: str, spec: Path | None = None, base: Path | None = None) -> FileVerdict:
    return check_bytes(text.encode("utf-8"), spec, base)


def write_spec(folder: Path, name: str, body: str = "", *, title: str | None = None, file: str | None = None) -> Path:
    """The spec file ``folder/NAME.yaml`` (or ``folder/FILE``): its format and name lines, a title line if given, then
    ``body`` (its ``extends`` line, if any, and the sections it sets) as written; its path."""
    path = folder / (file or f"{name}.yaml")
    path.write_text(f"format: referee-spec/1\nname: {name}\n" + (f"title: {title}\n" if title is not None else "") + body, encoding="utf-8")
    return path


def codes(verdict: FileVerdict) -> list[tuple[int, str]]:
    return [(error.line, error.code) for error in verdict.errors]


REFEREE = (sys.executable, "-m", "referee")  # the referee command as a user runs it, for a test that drives the process itself


def run_referee(
    *args: str | bytes,
    text: bool = False,
    stdin: bytes | IO[Any] | None = None,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 300,
    **extra: Any,
) -> subprocess.CompletedProcess[Any]:
    """``python -m referee ARGS`` in a process of its own, its output captured (``text``: as text). ``stdin`` is
    bytes to write to it, or a file it reads; ``env`` is added to this process's environment."""
    feed = {"input": stdin.decode() if text else stdin} if isinstance(stdin, bytes) else {"stdin": stdin} if stdin is not None else {}
    environment = {**os.environ, **env} if env is not None else None
    command = [*REFEREE, *args]
    return subprocess.run(command, capture_output=True, text=text, timeout=timeout, cwd=cwd, env=environment, **feed, **extra)
