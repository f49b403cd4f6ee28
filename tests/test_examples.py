"""The four games of the log format page reproduce their normative reports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import run_referee

EXAMPLES = Path(__file__).resolve().parent / "data" / "examples"


@pytest.mark.parametrize("name", sorted(p.stem for p in EXAMPLES.glob("*.log")))
def test_example_report(name: str) -> None:
    completed = run_referee("check", "--format", "json", f"{name}.log", cwd=EXAMPLES, text=True, timeout=120)
    assert completed.returncode == 0
    (got,) = json.loads(completed.stdout)["files"]
    (want,) = json.loads((EXAMPLES / f"{name}.json").read_text())["files"]
    assert got["path"] == want["path"]
    assert got["valid"] == want["valid"] and got["errors"] == want["errors"] == []
    assert [(w["line"], w["code"]) for w in got["warnings"]] == [(w["line"], w["code"]) for w in want["warnings"]]
    assert got["rounds"] == want["rounds"]
    assert got["game_winner"] == want["game_winner"]
