"""Verdicts -> text or JSON, at the edge. The JSON shape is the log format's contract."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from referee.errors import escape
from referee.verdicts import Consistency, FileVerdict


def render_json(verdicts: list[FileVerdict]) -> str:
    import json  # only JSON output needs it: a text check starts faster without

    return json.dumps({"files": [verdict.to_json() for verdict in verdicts]}, indent=1, ensure_ascii=False)


def stream_json(entries: Iterable[dict[str, Any]]) -> Iterator[str]:
    """``{"files": [...]}`` piece by piece, byte for byte what ``json.dumps(..., indent=1)`` of the whole gives.

    A batch of any size is written without holding its entries.
    """
    import json

    empty = True
    for entry in entries:
        text = json.dumps(entry, indent=1, ensure_ascii=False).replace("\n", "\n  ")
        yield ('{\n "files": [\n  ' if empty else ",\n  ") + text
        empty = False
    yield '{\n "files": []\n}' if empty else "\n ]\n}"


class Tally:
    """The counts behind the summary line, kept as verdicts go by."""

    def __init__(self) -> None:
        self.logs = self.valid = self.invalid = self.unreadable = self.warnings = self.undetermined = 0

    def add(self, verdict: FileVerdict) -> None:
        self.logs += 1
        self.valid += verdict.valid
        self.invalid += bool(verdict.errors)
        self.unreadable += verdict.input_error is not None
        self.warnings += len(verdict.warnings)
        self.undetermined += verdict.consistency is Consistency.UNDETERMINED and not verdict.errors

    def text(self) -> str:
        text = f"{self.logs} log{'s' if self.logs != 1 else ''} checked: {self.valid} valid, {self.invalid} with errors"
        if self.undetermined:
            text += f", {self.undetermined} undetermined"
        if self.unreadable:
            text += f", {self.unreadable} unreadable"
        return text + f", {self.warnings} warning{'s' if self.warnings != 1 else ''}"


def render_file_text(verdict: FileVerdict, quiet: bool = False) -> list[str]:
    """Compiler-style lines: ``path:line: code [rule]: message``."""
    lines: list[str] = []
    if verdict.input_error is not None:
        return [escape(verdict.input_error)]
    findings: list[tuple[int, int, str]] = []  # (line, errors before warnings at one line, text): printed in line order
    for error in verdict.errors:
        allowed = f" (allowed: {', '.join(error.allowed)})" if error.allowed else ""
        findings.append(
            (error.line, 0, f"{verdict.path}:{error.line}: {error.code} [{error.rule}]: {escape(error.message)}{escape(allowed)}")
        )
    if not quiet:
        for warning in verdict.warnings:
            text = f"{verdict.path}:{warning.line}: warning: {warning.code} [{warning.rule}]: {escape(warning.message)}"
            findings.append((warning.line, 1, text))
    lines.extend(text for _, _, text in sorted(findings, key=lambda finding: finding[:2]))
    if verdict.consistency is Consistency.UNDETERMINED and not verdict.errors:
        lines.append(f"{verdict.path}: undetermined: {escape(verdict.undetermined or '')}")
    if not quiet and verdict.valid:
        finished = sum(1 for result in verdict.rounds if result.finished)
        unfinished = len(verdict.rounds) - finished
        state = f"{finished} round{'s' if finished != 1 else ''} finished"
        if unfinished:
            state += f", round {verdict.rounds[-1].number} unfinished"
        if verdict.game_winner is not None:
            winner = verdict.game_winner if isinstance(verdict.game_winner, str) else " and ".join(verdict.game_winner)
            state += f", won by {winner}"
        if verdict.consistency is Consistency.CONSISTENT:
            state += "; the public rounds are consistent"
        lines.append(f"{verdict.path}: valid ({state})")
    return lines
