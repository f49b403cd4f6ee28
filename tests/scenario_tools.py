"""Shared helpers for the scenario tests and for regenerating their expected reports."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"
_EXPECT = re.compile(r"#\s*expect:\s*(warning\s+)?([a-z-]+)")


def scenario_logs() -> list[Path]:
    return sorted(SCENARIOS.rglob("*.log"))


def run_check(log: Path) -> tuple[int, dict]:  # type: ignore[type-arg]
    """Run the real CLI on one scenario, from its folder, as JSON."""
    completed = subprocess.run(
        [sys.executable, "-m", "referee", "check", "--format", "json", log.name],
        cwd=log.parent, capture_output=True, text=True, timeout=120,
    )
    return completed.returncode, json.loads(completed.stdout)


def inline_expectations(log: Path) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """The (line, code) errors and warnings a scenario's author wrote as '# expect:' comments."""
    errors, warnings = [], []
    for number, text in enumerate(log.read_text(encoding="utf-8").split("\n"), start=1):
        found = _EXPECT.search(text)
        if found:
            (warnings if found.group(1) else errors).append((number, found.group(2)))
    return errors, warnings
