"""Small helpers for tests that build logs in memory."""

from __future__ import annotations

import io
from pathlib import Path

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


def codes(verdict: FileVerdict) -> list[tuple[int, str]]:
    return [(error.line, error.code) for error in verdict.errors]
