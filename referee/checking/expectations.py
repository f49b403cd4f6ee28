"""Golden mode (``referee check --expect``): each log's expected verdict, written in the log itself, and whether
its verdict is that one.

An engine's authors keep their own legal and illegal logs as a test suite, as this project keeps ``scenarios/``: a
line that must be rejected ends with a comment ``# expect: CODE``, a line that must draw a warning with
``# expect: warning CODE``; a log with no such comment must be valid with no warning. The expectations are read from
the same bytes the replay reads (``ExpectationTap``), in one pass, so a log from standard input, a URL or a worker of
``-j`` is judged like a file, and the read stays as bounded as the replay's.
"""

from __future__ import annotations

import re
from typing import Any, BinaryIO, cast

from referee.errors import escape
from referee.log.reader import MAX_LINE_BYTES
from referee.records import dataclass
from referee.verdicts import Consistency, Expectations, FileVerdict

# ``# expect: CODE`` or ``# expect: warning CODE`` in a line's comment (the codes are lowercase words with hyphens).
EXPECT = re.compile(rb"#[ \t]*expect:[ \t]*(warning[ \t]+)?([a-z][a-z0-9-]*)")


class ExpectationTap:
    """A log's byte stream, read through: every ``# expect:`` comment is noted with its line as the blocks pass. Only
    ``read`` is offered, which is all the log reader asks of a stream. A line is searched once it is whole; the start
    of a line longer than the reader takes (an error of its own) is not kept."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._line = 1  # the line the next whole line starts on
        self._tail = b""  # the last block's unfinished line
        self._errors: list[tuple[int, str]] = []
        self._warnings: list[tuple[int, str]] = []

    def read(self, size: int = -1) -> bytes:
        block = self._stream.read(size)
        if not block:
            self._search(self._tail)  # the last line, without its newline
            self._tail = b""
            return block
        text = self._tail + block
        cut = text.rfind(b"\n") + 1
        self._search(text[:cut])
        rest = text[cut:]
        self._tail = rest if len(rest) <= MAX_LINE_BYTES else b""
        return block

    def drain(self, block_bytes: int = 1 << 16) -> None:
        """Read what the replay left unread (it stops at a log's first error), so that every comment is seen."""
        while self.read(block_bytes):
            pass

    def _search(self, text: bytes) -> None:
        for found in EXPECT.finditer(text):
            line = self._line + text.count(b"\n", 0, found.start())
            (self._warnings if found.group(1) else self._errors).append((line, found.group(2).decode("ascii")))
        self._line += text.count(b"\n")

    def expectations(self) -> Expectations:
        return Expectations(tuple(self._errors), tuple(self._warnings))


@dataclass(frozen=True, slots=True)
class Expected:
    """One log judged against its expectations: what its comments say, what the referee found, and whether they
    agree (a log that cannot be read, or whose public rounds the solver could not settle, never agrees)."""

    path: str
    expected: Expectations
    got: Expectations
    problem: str | None = None  # why there is no verdict to compare: the input error, or the undetermined round

    @property
    def as_expected(self) -> bool:
        return self.problem is None and self.expected == self.got

    @staticmethod
    def of(verdict: FileVerdict, expected: Expectations) -> Expected:
        got = Expectations(
            tuple((error.line, str(error.code)) for error in verdict.errors),
            tuple((warning.line, str(warning.code)) for warning in verdict.warnings),
        )
        problem = verdict.input_error
        if problem is None and verdict.consistency is Consistency.UNDETERMINED:
            problem = f"undetermined: {verdict.undetermined or 'the solver could not settle a public round'}"
        return Expected(verdict.path, expected, got, problem)

    def text(self) -> str:
        """One line: ``PATH: as expected (...)`` or ``PATH: expected ..., got ...``."""
        if self.as_expected:
            return f"{self.path}: as expected ({self.expected.text()})"
        got = escape(self.problem) if self.problem is not None else self.got.text()
        return f"{self.path}: expected {self.expected.text()}, got {got}"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "path": self.path,
            "as_expected": self.as_expected,
            "expected": self.expected.to_json(),
            "got": self.got.to_json(),
        }
        if self.problem is not None:
            data["problem"] = self.problem
        return data


def tapped(stream: BinaryIO) -> tuple[BinaryIO, ExpectationTap]:
    """The stream to give the replay, and the tap that notes the expectations in what it reads."""
    tap = ExpectationTap(stream)
    return cast("BinaryIO", tap), tap  # the reader asks only ``read`` of a stream
