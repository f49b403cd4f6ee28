"""Verdicts -> text or JSON, at the edge. The JSON shape is the log format's contract."""

from __future__ import annotations

import json
from typing import Any

from referee.errors import escape
from referee.verdicts import Diagnostic, FileVerdict, RoundResult


def _diagnostic(diagnostic: Diagnostic, with_rule: bool) -> dict[str, Any]:
    data: dict[str, Any] = {"line": diagnostic.line, "code": diagnostic.code, "message": diagnostic.message}
    if with_rule:
        data["rule"] = diagnostic.rule
    return data


def _round(result: RoundResult) -> dict[str, Any]:
    return {
        "round": result.number,
        "finished": result.finished,
        "winner": result.winner,
        "side": result.side,
        "points": result.points,
        "totals": dict(result.totals) if result.totals is not None else None,
    }


def file_json(verdict: FileVerdict) -> dict[str, Any]:
    data: dict[str, Any] = {
        "path": verdict.path,
        "valid": verdict.valid,
        "errors": [_diagnostic(error, True) for error in verdict.errors],
        "warnings": [_diagnostic(warning, False) for warning in verdict.warnings],
        "rounds": [_round(result) for result in verdict.rounds],
        "game_winner": verdict.game_winner,
    }
    if verdict.input_error is not None:
        data["input_error"] = verdict.input_error
    return data


def render_json(verdicts: list[FileVerdict]) -> str:
    return json.dumps({"files": [file_json(verdict) for verdict in verdicts]}, indent=1, ensure_ascii=False)


def render_file_text(verdict: FileVerdict, quiet: bool = False) -> list[str]:
    """Compiler-style lines: ``path:line: code [rule]: message``."""
    lines = []
    if verdict.input_error is not None:
        return [escape(verdict.input_error)]
    for error in verdict.errors:
        allowed = f" (allowed: {', '.join(error.allowed)})" if error.allowed else ""
        lines.append(f"{verdict.path}:{error.line}: {error.code} [{error.rule}]: {escape(error.message)}{escape(allowed)}")
    if not quiet:
        for warning in verdict.warnings:
            lines.append(f"{verdict.path}:{warning.line}: warning: {warning.code} [{warning.rule}]: {escape(warning.message)}")
        if verdict.valid:
            finished = sum(1 for result in verdict.rounds if result.finished)
            unfinished = len(verdict.rounds) - finished
            state = f"{finished} round{'s' if finished != 1 else ''} finished"
            if unfinished:
                state += f", round {verdict.rounds[-1].number} unfinished"
            if verdict.game_winner is not None:
                winner = verdict.game_winner if isinstance(verdict.game_winner, str) else " and ".join(verdict.game_winner)
                state += f", won by {winner}"
            lines.append(f"{verdict.path}: valid ({state})")
    return lines


def summary(verdicts: list[FileVerdict]) -> str:
    valid = sum(1 for verdict in verdicts if verdict.valid)
    invalid = sum(1 for verdict in verdicts if verdict.errors)
    unreadable = sum(1 for verdict in verdicts if verdict.input_error is not None)
    warnings = sum(len(verdict.warnings) for verdict in verdicts)
    text = f"{len(verdicts)} log{'s' if len(verdicts) != 1 else ''} checked: {valid} valid, {invalid} with errors"
    if unreadable:
        text += f", {unreadable} unreadable"
    return text + f", {warnings} warning{'s' if warnings != 1 else ''}"
