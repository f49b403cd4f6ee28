"""Golden mode, ``referee check --expect`` (issue 43, item 7): each log's expected verdict written in its comments."""

from __future__ import annotations

import io
import json
from pathlib import Path

from referee.checking.expectations import ExpectationTap, Expected
from referee.verdicts import Expectations, FileVerdict

from helpers import run_referee

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"
ILLEGAL = (SCENARIOS / "codes" / "illegal-play.log").read_text(encoding="utf-8")  # line 7: '# expect: illegal-play'


def test_every_shipped_scenario_is_as_its_comments_say() -> None:
    completed = run_referee("check", "--expect", "scenarios", cwd=ROOT, text=True, timeout=300)
    assert completed.returncode == 0, completed.stdout[-3000:]
    logs = len(list(SCENARIOS.rglob("*.log")))
    assert completed.stdout.splitlines()[-1] == f"{logs} logs checked against their expectations: {logs} as expected, 0 not"
    assert "codes/illegal-play.log: as expected (illegal-play at line 7)" in completed.stdout


def test_a_log_that_differs_from_its_comments_is_reported_and_fails(tmp_path: Path) -> None:
    (tmp_path / "wrong-code.log").write_text(ILLEGAL.replace("# expect: illegal-play", "# expect: out-of-turn"), encoding="utf-8")
    (tmp_path / "unexpected.log").write_text(ILLEGAL.replace("# expect: illegal-play", ""), encoding="utf-8")
    (tmp_path / "good.log").write_text(ILLEGAL, encoding="utf-8")
    completed = run_referee("check", "--expect", ".", cwd=tmp_path, text=True, timeout=120)
    assert completed.returncode == 1
    assert completed.stdout.splitlines() == [
        "good.log: as expected (illegal-play at line 7)",
        "unexpected.log: expected valid, no warning, got illegal-play at line 7",
        "wrong-code.log: expected out-of-turn at line 7, got illegal-play at line 7",
        "3 logs checked against their expectations: 1 as expected, 2 not",
    ]
    quiet = run_referee("check", "--expect", "-q", ".", cwd=tmp_path, text=True, timeout=120)
    assert quiet.returncode == 1 and len(quiet.stdout.splitlines()) == 2
    report = json.loads(run_referee("check", "--expect", "--format", "json", "good.log", "wrong-code.log", cwd=tmp_path, text=True).stdout)
    assert [(entry["path"], entry["as_expected"]) for entry in report["files"]] == [("good.log", True), ("wrong-code.log", False)]
    assert report["files"][1]["expected"] == {"errors": [{"line": 7, "code": "out-of-turn"}], "warnings": []}
    assert report["files"][1]["got"] == {"errors": [{"line": 7, "code": "illegal-play"}], "warnings": []}


def test_an_expectation_after_the_first_error_is_still_read(tmp_path: Path) -> None:
    """The replay stops at the first error; the rest of the log is read for its comments all the same."""
    text = ILLEGAL.rstrip("\n") + "\nBob plays red-2    # expect: out-of-turn\n"
    completed = run_referee("check", "--expect", "-", input=text, cwd=tmp_path, text=True, timeout=120)
    assert completed.returncode == 1
    assert completed.stdout.splitlines()[0] == "-: expected illegal-play at line 7; out-of-turn at line 8, got illegal-play at line 7"


def test_bad_options_and_unreadable_logs_exit_2(tmp_path: Path) -> None:
    (tmp_path / "good.log").write_text(ILLEGAL, encoding="utf-8")
    sarif = run_referee("check", "--expect", "--format", "sarif", "good.log", cwd=tmp_path, text=True)
    assert sarif.returncode == 2 and "--expect reports as text or json" in sarif.stderr
    missing = run_referee("check", "--expect", "good.log", "missing.log", cwd=tmp_path, text=True)
    assert missing.returncode == 2
    assert "missing.log: expected valid, no warning, got missing.log: error:" in missing.stdout


def test_the_tap_reads_comments_split_across_blocks_and_counts_lines() -> None:
    text = b"players Ann Bob\nAnn plays red-1   # expect: illegal-play\n\nBob calls uno # expect: warning uncaught-uno\n"
    text += b"last # expect: bad-setup"
    for size in (1, 2, 5, 7, 64):
        tap = ExpectationTap(io.BytesIO(text))
        while tap.read(size):
            pass
        assert tap.expectations() == Expectations(((2, "illegal-play"), (5, "bad-setup")), ((4, "uncaught-uno"),)), size


def test_an_undetermined_or_unreadable_verdict_is_never_as_expected() -> None:
    unreadable = Expected.of(FileVerdict("a.log", input_error="a.log: error: cannot read"), Expectations())
    assert not unreadable.as_expected and unreadable.text() == "a.log: expected valid, no warning, got a.log: error: cannot read"
    assert Expected.of(FileVerdict("b.log"), Expectations()).as_expected
