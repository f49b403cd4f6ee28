"""Progress of a long batch on standard error: logs and lines done, lines/s, time left.

Shown only when standard error is a terminal, the run is not ``--quiet``, and
the batch has been running for a second; never in a pipe, a file or CI. The
line is redrawn in place and wiped at the end, so it never mixes with output.
"""

from __future__ import annotations

import os
import sys
import time
from typing import TextIO

DELAY = 1.0  # seconds before the first line: a short run shows nothing (REFEREE_PROGRESS_AFTER overrides)
EVERY = 0.25  # seconds between redraws


def wanted(quiet: bool, stream: TextIO | None = None) -> bool:
    stream = stream if stream is not None else sys.stderr
    try:
        return not quiet and stream is not None and stream.isatty()
    except (OSError, ValueError, AttributeError):
        return False


class Progress:
    """Counts logs and lines as results arrive and redraws one status line."""

    def __init__(self, total: int, enabled: bool, stream: TextIO | None = None) -> None:
        self.total = total
        self.enabled = enabled
        self.stream = stream if stream is not None else sys.stderr
        self.started = time.monotonic()
        self.shown = 0.0
        self.logs = 0
        self.lines = 0
        self.drawn = False
        try:
            self.delay = float(os.environ.get("REFEREE_PROGRESS_AFTER", DELAY))
        except ValueError:
            self.delay = DELAY

    def advance(self, lines: int) -> None:
        self.logs += 1
        self.lines += lines
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.started < self.delay or now - self.shown < EVERY:
            return
        self.shown = now
        self._draw(self.status(now - self.started))

    def status(self, elapsed: float) -> str:
        """``1,200/10,000 logs, 690,000 lines, 210,000 lines/s, about 42 s left``."""
        rate = self.lines / elapsed if elapsed > 0 else 0.0
        text = f"{self.logs:,}/{self.total:,} logs"
        if self.lines:  # adjudicate does not count lines
            text += f", {self.lines:,} lines, {rate:,.0f} lines/s"
        if 0 < self.logs < self.total:
            left = elapsed * (self.total - self.logs) / self.logs
            text += f", about {_duration(left)} left"
        return text

    def _draw(self, text: str) -> None:
        try:
            self.stream.write("\r\x1b[K" + text)
            self.stream.flush()
            self.drawn = True
        except (OSError, ValueError):
            self.enabled = False

    def finish(self) -> None:
        """Wipe the status line, so that what follows starts on a clean line."""
        if self.drawn:
            try:
                self.stream.write("\r\x1b[K")
                self.stream.flush()
            except (OSError, ValueError):
                pass
            self.drawn = False


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
