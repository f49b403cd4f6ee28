"""Shared helpers for the scenario tests and for regenerating their expected reports."""

from __future__ import annotations

import json
import re
from pathlib import Path

from helpers import run_referee

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"
_EXPECT = re.compile(r"#\s*expect:\s*(warning\s+)?([a-z-]+)")


def scenario_logs() -> list[Path]:
    return sorted(SCENARIOS.rglob("*.log"))


def run_check(log: Path) -> tuple[int, dict]:  # type: ignore[type-arg]
    """Run the real CLI on one scenario, from its folder, as JSON."""
    completed = run_referee("check", "--format", "json", log.name, cwd=log.parent, text=True, timeout=120)
    return completed.returncode, json.loads(completed.stdout)


def run_cli(*args: str, cwd: Path) -> tuple[int, str]:
    completed = run_referee(*args, cwd=cwd, text=True, timeout=120)
    return completed.returncode, completed.stdout


def run_adjudicate(log: Path) -> tuple[int, dict]:  # type: ignore[type-arg]
    code, out = run_cli("adjudicate", "--format", "json", log.name, cwd=log.parent)
    return code, json.loads(out)


def dispute_logs() -> list[Path]:
    return sorted((SCENARIOS / "disputes").glob("*.log"))


def dispute_expectations(log: Path) -> tuple[list[tuple[int, str]], list[str]]:
    """(line, ruling) pairs from '# ... expect-ruling: X' and the kinds from 'expect-pending: K ...'."""
    rulings, pending = [], []
    for number, text in enumerate(log.read_text(encoding="utf-8").split("\n"), start=1):
        found = re.search(r"expect-ruling:\s*([a-z]+)", text)
        if found:
            rulings.append((number, found.group(1)))
        found = re.search(r"expect-pending:\s*([a-z ]+)", text)
        if found:
            pending.extend(found.group(1).split())
    return rulings, pending


EXPLAIN_CASES = [
    ("rulings/r11-matching.log", "17", ()),
    ("rulings/r11-matching.log", "17", ("--move", "Ann plays red-7")),
    ("rulings/r12-wild-draw-bluff.log", "10", ()),
    ("rulings/r22-catch.log", "15", ()),
    ("rulings/r16-flip-uncovers-wild.log", "13", ("--move", "Cat plays teal-1")),
]


def run_explain(log: str, line: str, extra: tuple[str, ...], output_format: str) -> tuple[int, str]:
    path = SCENARIOS / log
    return run_cli("explain", f"{path.name}:{line}", *extra, "--format", output_format, cwd=path.parent)


def explain_golden(index: int, output_format: str) -> Path:
    return SCENARIOS / "explain" / f"case-{index + 1}.{'json' if output_format == 'json' else 'txt'}"


def inline_expectations(log: Path) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """The (line, code) errors and warnings a scenario's author wrote as '# expect:' comments."""
    errors, warnings = [], []
    for number, text in enumerate(log.read_text(encoding="utf-8").split("\n"), start=1):
        found = _EXPECT.search(text)
        if found:
            (warnings if found.group(1) else errors).append((number, found.group(2)))
    return errors, warnings
