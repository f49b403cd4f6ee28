"""Where the program meets the system: permissions, closed streams, output paths, unplayable specs, batches that go on.

Each case was an internal error (exit 4) or a wrong exit code once. Permission
errors are simulated in-process (the tests run as root, who may read anything).
"""

from __future__ import annotations

import errno
import json
import os
import pathlib
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from referee.commands.cli import execute

from helpers import REFEREE, run_referee, write_spec

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"
VALID = SCENARIOS / "rulings" / "r04-start-number.log"
DISPUTE = SCENARIOS / "disputes" / "challenge-guilty-wild-draw-two.log"


referee = run_referee  # stdin: a file it reads, or bytes


def _deny(monkeypatch: pytest.MonkeyPatch, locked: Path) -> None:
    """Make everything below ``locked`` unreadable, as for an ordinary user without permission."""
    real_stat, real_open, real_scandir = pathlib.Path.stat, pathlib.Path.open, os.scandir

    def denied(path: Any) -> bool:
        return str(path).startswith(str(locked))

    def stat(self: Path, *args: Any, **kwargs: Any) -> Any:
        if denied(self) and self != locked:
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_stat(self, *args, **kwargs)

    def open_(self: Path, *args: Any, **kwargs: Any) -> Any:
        if denied(self):
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)

    def scandir(path: Any = ".") -> Any:
        if denied(path):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(pathlib.Path, "stat", stat)
    monkeypatch.setattr(pathlib.Path, "open", open_)
    monkeypatch.setattr(os, "scandir", scandir)


def test_unreadable_log_is_reported_and_the_batch_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    locked = tmp_path / "locked.log"
    locked.write_bytes(VALID.read_bytes())
    _deny(monkeypatch, locked)
    for command in ("check", "adjudicate"):
        code = execute([command, "--format", "json", str(locked), str(VALID)])
        files = json.loads(capsys.readouterr().out)["files"]
        assert code == 2
        assert files[0]["input_error"] == f"{locked}: error: cannot read: Permission denied"
        assert files[1]["path"] == str(VALID) and (files[1].get("valid") is True or files[1]["input_error"] is None)
    assert execute(["explain", f"{locked}:8"]) == 2
    assert capsys.readouterr().err.strip() == f"{locked}: error: cannot read: Permission denied"


def test_unreadable_subfolder_is_an_error_not_a_silent_skip(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.log").write_bytes(VALID.read_bytes())
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "b.log").write_bytes(VALID.read_bytes())
    _deny(monkeypatch, secret)
    code = execute(["check", str(tmp_path)])
    captured = capsys.readouterr()
    assert code == 2
    assert f"{secret}: error: cannot read folder: Permission denied" in captured.err
    assert f"{tmp_path / 'a.log'}: valid" in captured.out


def test_spec_in_a_folder_that_may_not_be_searched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "private"
    folder.mkdir()
    spec = folder / "house.yaml"
    spec.write_text((ROOT / "specs" / "house-short-game.yaml").read_text())
    _deny(monkeypatch, folder)
    for command in (["check", str(VALID)], ["prove"], ["rules"], ["simulate"]):
        assert execute([*command, "--spec", str(spec)]) == 2, command
        err = capsys.readouterr().err.strip()
        assert err == f"{spec}: error: cannot read spec: Permission denied", err


@pytest.mark.slow  # the quick tier keeps others of its kind; .ci/run's slow tier runs it
def test_standard_input_closed() -> None:
    for command in (["check", "-"], ["adjudicate", "-"], ["explain", "-", "--line", "2"]):
        result = subprocess.run([*REFEREE, *command], capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
        assert result.returncode in (1, 2) and b"Traceback" not in result.stderr
        for how in ("<&-", "0<&- "):  # closed before Python starts (no sys.stdin at all)
            closed = subprocess.run(
                ["bash", "-c", f'"{sys.executable}" -m referee {" ".join(command)} {how}'], capture_output=True, timeout=60
            )
            assert closed.returncode == 2, closed.stderr
            assert closed.stderr.decode().strip().endswith("error: cannot read: standard input is closed")
        after = subprocess.run(  # closed after start-up: reading fails with EBADF
            [
                sys.executable,
                "-c",
                "import os, sys; os.close(0); from referee.commands.cli import run; sys.argv = ['referee', *sys.argv[1:]]; run()",
                *command,
            ],
            capture_output=True,
            timeout=60,
        )
        assert after.returncode == 2, after.stderr
        assert after.stderr.decode().strip().endswith("error: cannot read: standard input is closed")


@pytest.mark.slow  # the quick tier keeps others of its kind; .ci/run's slow tier runs it
def test_a_spec_that_cannot_deal_is_a_loader_error_in_every_command(tmp_path: Path) -> None:
    spec = write_spec(
        tmp_path, "big-hands", "extends: uno-flip\ntable: {min-players: 2, max-players: 4, hand-size: 28, start-side: light}\n"
    )
    expected = f"{spec}:4:8: error: 4 players with 28 cards each and a start card need 113 cards; the deck has 112"
    for command in (["check", str(VALID)], ["adjudicate", str(DISPUTE)], ["explain", f"{VALID}:8"], ["simulate"], ["prove"], ["rules"]):
        result = referee(*command, "--spec", str(spec))
        assert result.returncode == 2 and result.stderr.decode().startswith(expected), (command, result.stderr)


def test_a_log_naming_an_unplayable_spec(tmp_path: Path) -> None:
    write_spec(tmp_path, "many", "extends: uno-flip\ntable: {min-players: 2, max-players: 16, hand-size: 7, start-side: light}\n")
    log = tmp_path / "game.log"
    log.write_text("players " + " ".join(f"P{i}" for i in range(16)) + "\nspec many.yaml\nround 1\ndealer P0\nshuffle x/y\n")
    result = referee("check", "--format", "json", str(log))
    (entry,) = json.loads(result.stdout)["files"]
    assert result.returncode == 2 and "need 113 cards" in entry["input_error"]


def test_simulate_outside_the_spec_player_range(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, "nine", "extends: uno-flip\ntable: {min-players: 9, max-players: 10, hand-size: 7, start-side: light}\n")
    result = referee("simulate", "--spec", str(spec), "--players", "2")
    assert result.returncode == 2 and result.stderr.decode().startswith("error: spec nine is for 9 to 10 players, not 2")
    result = referee("prove", "--spec", str(spec), "--players", "2")
    assert result.returncode == 2


def test_numbers_a_spec_gives_must_fit_the_log_format(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, "rich", "extends: uno-flip\nkinds:\n  wild: {points: 999999}\n")
    result = referee("rules", "--spec", str(spec))
    assert result.returncode == 2 and "more than a log's score (999999) can state" in result.stderr.decode()
    # The largest points that fit: every simulated game checks clean under its own spec.
    write_spec(tmp_path, "rich", "extends: uno-flip\nkinds:\n  wild: {points: 60000}\n  wild-draw-two: {points: 60000}\n")
    out = tmp_path / "games"
    assert referee("simulate", "--spec", str(spec), "--games", "4", "--out", str(out)).returncode == 0
    assert referee("check", "--spec-path", str(tmp_path), str(out)).returncode == 0
    result = referee("simulate", "--spec", str(ROOT / "tests" / "broken_specs" / "negative-points.yaml"))
    assert result.returncode == 2 and b"negative points" in result.stderr


@pytest.mark.parametrize("kind", ["missing-folder", "symlink", "fifo", "device", "folder"])
def test_junit_is_never_written_through_a_link_or_into_a_device(tmp_path: Path, kind: str) -> None:
    target = tmp_path / "report.xml"
    keep = tmp_path / "precious.txt"
    keep.write_text("keep me\n")
    if kind == "missing-folder":
        target = tmp_path / "no" / "such" / "report.xml"
    elif kind == "symlink":
        target.symlink_to(keep)
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind == "device":
        target = Path("/dev/full")
    else:
        target.mkdir()
    result = referee("prove", "--spec", "uno-flip", "--players", "2", "--invariant", "score.faces", "--junit", str(target))
    assert result.returncode == 2, result.stderr
    assert result.stdout == b""  # refused before any work
    assert result.stderr.decode().startswith(f"{target}: error: cannot write")
    assert keep.read_text() == "keep me\n"
    if kind == "symlink":
        assert target.is_symlink()
    if kind == "fifo":
        assert target.is_fifo()
    if kind == "device":
        assert target.is_char_device()


def test_junit_to_a_new_file_is_written_0644(tmp_path: Path) -> None:
    target = tmp_path / "report.xml"
    result = referee("prove", "--spec", "uno-flip", "--players", "2", "--invariant", "score.faces", "--junit", str(target))
    assert result.returncode == 0 and target.read_text().startswith("<?xml")
    umask = os.umask(0)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask
    assert [path.name for path in tmp_path.iterdir()] == ["report.xml"]  # no temporary file left


def test_empty_path_is_not_the_current_folder() -> None:
    result = referee("check", "")
    assert result.returncode == 2 and result.stderr.decode().strip() == "error: an empty path names no log"


@pytest.mark.parametrize("separator", ["\n", "\x0b", "\x0c", "\u2028", "\x85"])
def test_move_accepts_only_what_a_log_line_accepts(separator: str) -> None:
    result = referee("explain", f"{VALID}:8", "--move", f"Ann{separator}plays red-1")
    assert result.returncode == 2 and b"is not an event line" in result.stderr
    assert b"\n" not in result.stderr.strip()


@pytest.mark.slow  # the quick tier keeps others of its kind; .ci/run's slow tier runs it
def test_many_unknown_spec_keys_are_capped(tmp_path: Path) -> None:
    spec = tmp_path / "keys.yaml"
    spec.write_text("format: referee-spec/1\nname: keys\nextends: uno-flip\n" + "".join(f"k{i}: 1\n" for i in range(60_000)))
    result = referee("rules", "--spec", str(spec))
    lines = result.stderr.decode().strip().split("\n")
    assert result.returncode == 2 and len(lines) <= 101
    assert "more problems not listed" in lines[-1]
