"""One input convention for every command: logs, folders, standard input, specs, lines, pipes, signals."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
import tomllib
from pathlib import Path

import pytest

from helpers import REFEREE, run_referee, write_spec

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"
ILLEGAL = SCENARIOS / "codes" / "illegal-play.log"
DISPUTE = SCENARIOS / "disputes" / "challenge-guilty-wild-draw-two.log"


referee = run_referee  # bytes out


def test_every_package_is_listed_in_pyproject() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    found = {".".join(init.parent.relative_to(ROOT).parts) for init in (ROOT / "referee").rglob("__init__.py")}
    assert found <= listed, f"packages missing from pyproject.toml: {sorted(found - listed)}"
    data = config["tool"]["setuptools"]["package-data"]["referee.specs"]
    assert "*.yml" in data and "*.yaml" in data  # rulings.yml and invariants.yml ship beside the specs


@pytest.mark.parametrize("command", ["check", "explain", "adjudicate"])
@pytest.mark.parametrize("spec", ["uno-flip", str(ROOT / "specs" / "uno-flip.yaml")])
def test_spec_takes_a_name_or_a_path_everywhere(command: str, spec: str) -> None:
    target = f"{ILLEGAL}:7" if command == "explain" else str(ILLEGAL)
    result = referee(command, "--spec", spec, target)
    assert result.returncode == 1, result.stderr
    assert b"error:" not in result.stderr


@pytest.mark.parametrize("command", ["rules", "simulate", "prove"])
def test_spec_by_name_or_path_for_the_other_commands(command: str) -> None:
    extra = {"rules": ["game.end"], "simulate": ["--players", "2"], "prove": ["--players", "2", "--invariant", "discard.has-top"]}[command]
    for spec in ("house-short-game", str(ROOT / "specs" / "house-short-game.yaml")):
        result = referee(command, "--spec", spec, *extra)
        assert result.returncode == 0, result.stderr


def test_an_unknown_spec_name_is_one_error_line() -> None:
    result = referee("check", "--spec", "no-such-spec", str(ILLEGAL))
    assert result.returncode == 2
    (line,) = result.stderr.decode().strip().split("\n")
    assert "no spec 'no-such-spec'" in line and "uno-flip" in line


def test_explain_and_adjudicate_read_standard_input() -> None:
    data = ILLEGAL.read_bytes()
    result = referee("explain", "-", "--line", "7", "--format", "json", stdin=data)
    explained = json.loads(result.stdout)
    assert result.returncode == 1 and explained["path"] == "-" and explained["code"] == "illegal-play"
    result = referee("explain", "--", "-:7", stdin=data)
    assert result.returncode == 1 and b"illegal-play [play.match]" in result.stdout
    result = referee("adjudicate", "--format", "json", "-", stdin=DISPUTE.read_bytes())
    (ruled,) = json.loads(result.stdout)["files"]
    assert result.returncode == 0 and ruled["path"] == "-" and ruled["disputes"][0]["ruling"] == "guilty"


@pytest.mark.parametrize("command", ["check", "adjudicate"])
def test_a_folder_with_no_logs_is_an_error(command: str, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("no logs here\n")
    result = referee(command, str(tmp_path))
    assert result.returncode == 2
    assert result.stderr.decode().strip() == f"{tmp_path}: error: no *.log files in this folder"


def test_adjudicate_takes_a_folder() -> None:
    result = referee("adjudicate", "--format", "json", str(SCENARIOS / "disputes"))
    files = json.loads(result.stdout)["files"]
    assert len(files) == len(list((SCENARIOS / "disputes").glob("*.log")))


def test_explain_a_line_past_the_end() -> None:
    result = referee("explain", f"{ILLEGAL}:99999")
    assert result.returncode == 2
    assert result.stderr.decode().strip() == f"{ILLEGAL}: error: line 99999 is past the end: the log has 7 lines"
    # The line just after the last may be asked about with a hypothetical move (the next move of a log that stops).
    result = referee("explain", f"{ILLEGAL}:8", "--move", "Ann plays red-1")
    assert result.returncode == 1 and b"the log is invalid before this line: line 7" in result.stdout


def test_explain_line_given_twice_is_a_usage_error() -> None:
    result = referee("explain", f"{ILLEGAL}:7", "--line", "5")
    assert result.returncode == 2
    lines = result.stderr.decode().strip().split("\n")
    assert lines[0].startswith("error: give the line once") and len(lines) <= 2


@pytest.mark.parametrize(
    "args",
    [
        ["check"],
        ["check", "--format", "xml", "x.log"],
        ["explain", "x.log"],
        ["simulate", "--players", "0"],
        ["prove", "--invariant", "nope"],
        ["rules", "no.such.rule"],
        ["nosuchcommand"],
    ],
)
def test_usage_errors_are_one_or_two_lines_in_the_error_form(args: list[str]) -> None:
    result = referee(*args)
    assert result.returncode == 2
    lines = result.stderr.decode().strip().split("\n")
    assert 1 <= len(lines) <= 2 and lines[0].startswith("error: "), lines
    assert b"Traceback" not in result.stderr


def _read_one_line_then_close(*args: str) -> tuple[int, bytes]:
    process = subprocess.Popen([*REFEREE, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.readline()
    process.stdout.close()
    error = process.stderr.read()
    process.stderr.close()
    return process.wait(timeout=60), error


@pytest.mark.parametrize(
    "args",
    [
        ("rules",),
        ("check", str(SCENARIOS / "codes")),
        ("simulate", "--players", "6", "--seed", "3"),
        ("adjudicate", str(SCENARIOS / "disputes")),
    ],
)
def test_a_closed_pipe_ends_quietly_with_141(args: tuple[str, ...]) -> None:
    for _ in range(3):
        code, error = _read_one_line_then_close(*args)
        assert code in (0, 141) and error == b"", (code, error)


@pytest.mark.parametrize("delay", [0.15, 0.4, 0.9])
def test_ctrl_c_is_130_and_silent_whenever_it_comes(delay: float) -> None:
    process = subprocess.Popen([*REFEREE, "prove", "--spec", "uno-flip"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(delay)
    process.send_signal(signal.SIGINT)
    out, error = process.communicate(timeout=60)
    assert process.returncode == 130, (process.returncode, out[-300:], error)
    assert error == b""
    assert b"inconclusive" not in out and b"unknown" not in out


def test_simulate_several_games_need_a_folder_and_write_checkable_files(tmp_path: Path) -> None:
    result = referee("simulate", "--games", "3")
    assert result.returncode == 2 and b"--out" in result.stderr and result.stdout == b""
    spec = tmp_path / "specs" / "my.yaml"
    spec.parent.mkdir()
    spec.write_text((ROOT / "specs" / "house-short-game.yaml").read_text())
    out = tmp_path / "games"
    result = referee("simulate", "--spec", "my.yaml", "--games", "2", "--seed", "7", "--out", str(out), cwd=spec.parent)
    assert result.returncode == 0, result.stderr
    files = sorted(path.name for path in out.iterdir())
    assert files == ["game-000007.log", "game-000008.log", "specs"]
    # the spec is copied beside the games and named relative to them (issue 27, point 12): the folder checks from
    # anywhere with no flag, and can be moved whole; the security rule (a log names only its own tree) is unchanged
    assert b"\nspec specs/my.yaml\n" in (out / "game-000007.log").read_bytes()
    assert (out / "specs" / "my.yaml").read_bytes() == spec.read_bytes()
    umask = os.umask(0)
    os.umask(umask)
    assert all((path.stat().st_mode & 0o777) == (0o666 & ~umask) for path in out.glob("*.log"))
    anywhere = referee("check", str(out), cwd=Path("/"))
    assert anywhere.returncode == 0, anywhere.stdout + anywhere.stderr
    moved = tmp_path / "moved"
    out.rename(moved)
    assert referee("check", str(moved), cwd=Path("/")).returncode == 0
    one = referee("simulate", "--spec", "my.yaml", "--seed", "7", cwd=spec.parent)  # standard output: the absolute path
    assert f"\nspec {spec}\n".encode() in one.stdout
    assert b"game-000007.log" in referee("simulate", "--help").stdout


@pytest.mark.parametrize("out", ["/dev/null", "/proc/no/such/folder"])
def test_simulate_out_that_is_not_a_folder(out: str) -> None:
    result = referee("simulate", "--out", out)
    assert result.returncode == 2 and result.stderr.decode().startswith(f"{out}: error: ")


def test_rules_show_option_values_in_force(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, "t300", "extends: uno-flip\noptions:\n  target: {value: 300, rule: game.end}\n")
    result = referee("rules", "game.end", "--spec", str(spec))
    assert result.returncode == 0
    first = result.stdout.decode().split("\n")[0]
    assert "300 points" in first and "500" not in first


def test_an_option_error_shows_the_expected_form(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, "t200", "extends: uno-flip\noptions:\n  target: 200\n")
    result = referee("rules", "--spec", str(spec))
    assert result.returncode == 2
    expected = f"{spec}:5:11: error: option 'target' must be a mapping, written like {{value: 500, rule: RULE-ID}}"
    assert result.stderr.decode().strip() == expected


def test_citations_name_no_file_outside_the_package() -> None:
    rules = json.loads(referee("rules", "--format", "json").stdout)["rules"]
    for rule in rules:
        assert ".txt" not in rule["source"] and ".md" not in rule["source"] and "../" not in rule["source"], rule
        assert "(" in rule["source"]  # a title and its publisher
        if rule["ruling"] is not None:
            assert rule["ruling"]["text"], rule["id"]


def test_simulate_shows_progress_only_on_a_terminal(tmp_path: Path) -> None:
    import pty

    master, slave = pty.openpty()
    args = [*REFEREE, "simulate", "--players", "3", "--games", "3", "--out"]
    process = subprocess.Popen([*args, str(tmp_path / "tty")], stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 1024)
        except OSError:  # the terminal closed with the process
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    process.communicate(timeout=60)
    assert process.returncode == 0 and b"3/3 games written" in seen
    piped = subprocess.run([*args, str(tmp_path / "pipe")], capture_output=True, timeout=60)
    assert piped.returncode == 0 and piped.stderr == b"" and piped.stdout.startswith(b"wrote 3 games to ")


@pytest.mark.parametrize("command", ["check", "adjudicate"])
def test_an_unreadable_log_in_json_mode_is_also_said_on_standard_error(command: str, tmp_path: Path) -> None:
    """Found by the command-line fuzzer: exit 2 with the reason only inside the JSON."""
    result = referee(command, "--format", "json", str(tmp_path / "nope.log"), str(ILLEGAL))
    assert result.returncode == 2
    assert result.stderr.decode().strip() == f"{tmp_path / 'nope.log'}: error: cannot read: No such file or directory"
    files = json.loads(result.stdout)["files"]
    assert files[0]["input_error"] and len(files) == 2


def test_the_shipped_specs_are_found_from_an_uninstalled_source_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    """``python -m referee`` in a clone whose install is not editable imports the tree, where referee.specs is specs/."""
    import importlib

    from referee.spec import paths as spec_model  # where specs come from

    real = importlib.import_module

    def without_mapping(name: str, package: str | None = None) -> object:
        if name == "referee.specs":
            raise ModuleNotFoundError(name)
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", without_mapping)
    folder = spec_model._shipped_specs()
    tree = Path(spec_model.__file__).resolve().parents[2]  # referee/spec/paths.py -> the folder holding referee/
    assert folder == tree / "specs"
    if tree == Path(__file__).resolve().parent.parent:  # the source tree (not an installed copy)
        assert (folder / "uno-flip.yaml").is_file() and (folder / "claims" / "uno-flip.yml").is_file()


@pytest.mark.parametrize("spec", __import__("referee.spec.extends", fromlist=["x"]).shipped_spec_names())
def test_simulate_keeps_the_spec_target_unless_told(spec: str, tmp_path: Path) -> None:
    """Issue 18: with a house target of 250, some simulated logs said target 200, 300 or 500."""
    out = tmp_path / "games"
    assert referee("simulate", "--spec", spec, "--games", "8", "--players", "3", "--max-rounds", "3", "--out", str(out)).returncode == 0
    assert not [path for path in out.iterdir() if b"\ntarget " in path.read_bytes()]
    assert (
        referee(
            "simulate", "--spec", spec, "--games", "1", "--players", "3", "--max-rounds", "3", "--target", "77", "--out", str(out / "t")
        ).returncode
        == 0
    )
    (log,) = (out / "t").iterdir()
    assert b"\ntarget 77\n" in log.read_bytes() and referee("check", str(log)).returncode == 0
