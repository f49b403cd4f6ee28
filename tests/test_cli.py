"""The command line: exit codes, outputs, help, laziness of z3."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest

from helpers import REFEREE, run_referee, write_spec

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


referee = partial(run_referee, text=True)


def test_valid_log_exits_0_with_summary() -> None:
    result = referee("check", str(SCENARIOS / "rulings" / "r04-start-number.log"))
    assert result.returncode == 0
    assert result.stdout.strip().splitlines()[-1] == "1 log checked: 1 valid, 0 with errors, 0 warnings"


def test_violation_exits_1_in_compiler_style() -> None:
    result = referee("check", "illegal-play.log", cwd=SCENARIOS / "codes")
    assert result.returncode == 1
    assert result.stdout.startswith("illegal-play.log:7: illegal-play [play.match]: Ann played blue-3 on red-9; playable: ")


def test_quiet_prints_only_failures() -> None:
    result = referee("check", "-q", str(SCENARIOS / "rulings" / "r04-start-number.log"), str(SCENARIOS / "codes" / "uncaught-uno.log"))
    assert result.returncode == 0 and result.stdout == ""


def test_directory_means_every_log_below_it() -> None:
    result = referee("check", "--format", "json", str(SCENARIOS / "house"))
    paths = [Path(f["path"]).name for f in json.loads(result.stdout)["files"]]
    assert paths == sorted(p.name for p in (SCENARIOS / "house").glob("*.log"))
    assert result.returncode == 1


def test_standard_input() -> None:
    data = (SCENARIOS / "codes" / "illegal-play.log").read_bytes()
    result = referee("check", "--format", "json", "-", stdin=data)
    (verdict,) = json.loads(result.stdout)["files"]
    assert verdict["path"] == "-" and verdict["errors"][0]["line"] == 7 and result.returncode == 1


def test_missing_file_exits_2_with_one_line(tmp_path: Path) -> None:
    result = referee("check", str(tmp_path / "nope.log"))
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0 and "error: cannot read" in result.stderr
    assert "Traceback" not in result.stderr


def test_invalid_spec_exits_2(tmp_path: Path) -> None:
    write_spec(tmp_path, "x", "extends: uno-flip\noptions:\n  target:\n    value: none\n", file="bad.yaml")
    result = referee("check", "--spec", str(tmp_path / "bad.yaml"), str(SCENARIOS / "rulings" / "r04-start-number.log"))
    assert result.returncode == 2
    assert "bad.yaml:6:12: error: target must be a whole number" in result.stderr


def test_usage_error_exits_2() -> None:
    assert referee("check").returncode == 2
    assert referee("check", "--format", "xml", "x.log").returncode == 2


@pytest.mark.parametrize("command", [[], ["check"], ["simulate"]])
def test_help_teaches_by_example(command: list[str]) -> None:
    result = referee(*command, "--help")
    assert result.returncode == 0 and "Examples:" in result.stdout


def test_check_does_not_import_z3() -> None:
    log = str(SCENARIOS / "rulings" / "r04-start-number.log")
    code = (
        f"import sys; from referee.commands.cli import main; sys.argv = ['referee', 'check', '-q', {log!r}];"
        "\ntry:\n    main.main(standalone_mode=False)\nexcept SystemExit:\n    pass\n"
        "print('z3' in sys.modules)"
        "\nprint(sorted(m for m in sys.modules if m.startswith(('referee.commands.', 'referee.proof', 'referee.play'))))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    z3_loaded, loaded = result.stdout.strip().splitlines()
    assert z3_loaded == "False"
    # one command's module and what the commands share: neither the other commands, the prover nor the host
    assert loaded == str(["referee.commands.check", "referee.commands.cli", "referee.commands.options", "referee.commands.progress"])


def test_simulate_writes_games_that_check(tmp_path: Path) -> None:
    result = referee("simulate", "--players", "3", "--seed", "4", "--games", "3", "--mode", "observed", "--out", str(tmp_path))
    assert result.returncode == 0
    logs = sorted(tmp_path.glob("*.log"))
    assert [log.name for log in logs] == ["game-000004.log", "game-000005.log", "game-000006.log"]
    assert not list(tmp_path.glob(".*"))
    assert referee("check", "-q", str(tmp_path)).returncode == 0


def test_simulate_is_reproducible() -> None:
    first = referee("simulate", "--players", "5", "--seed", "11")
    second = referee("simulate", "--players", "5", "--seed", "11")
    assert first.returncode == 0 and first.stdout == second.stdout and "\nround 1\n" in first.stdout


def test_broken_pipe_is_quiet() -> None:
    with subprocess.Popen(
        [*REFEREE, "simulate", "--players", "4", "--games", "20"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        process.stdout.readline()
        process.stdout.close()
        errors = process.stderr.read().decode()
        process.wait(timeout=120)
    assert "Traceback" not in errors and "internal error" not in errors


def test_empty_directory_is_an_input_error(tmp_path: Path) -> None:
    result = referee("check", str(tmp_path))
    assert result.returncode == 2 and result.stdout == "" and "no *.log files" in result.stderr


def test_referee_alone_prints_the_usage_as_text() -> None:
    """Issue 18: it printed the whole help as one escaped ``error:`` line with literal backslash-n."""
    result = referee()
    assert result.returncode == 2 and result.stderr.startswith("Usage: referee [OPTIONS] COMMAND [ARGS]...\n")
    assert "\\n" not in result.stderr and "  check " in result.stderr


def test_a_misspelt_rule_id_gets_the_one_did_you_mean() -> None:
    """``referee rules`` suggests near rule ids the way every other misspelling is answered (errors.did_you_mean)."""
    result = run_referee("rules", "game.endd", text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.splitlines()[0] == "error: spec uno-flip has no rule 'game.endd' (did you mean 'game.end'?)"
