"""Untrusted text is never printed raw: escape sequences in specs, logs and file names, through every command and format."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from helpers import run_referee, write_spec

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"
VALID = SCENARIOS / "rulings" / "r04-start-number.log"
DISPUTE = SCENARIOS / "disputes" / "challenge-guilty-wild-draw-two.log"
# ESC ] 0 ; title BEL sets a terminal's title; a newline could forge a line of output; CR and U+2028 likewise.
NASTY = ["\x1b]0;pwned\x07", "\nfake.log: valid (1 round finished)", "\r1 log checked", "\u2028x", "\x1b[2J"]


referee = run_referee  # bytes out


def _raw_control(data: bytes) -> bool:
    """Whether output holds a control character other than the newlines that end its own lines."""
    text = data.decode("utf-8")  # also: the output is valid UTF-8
    return any((ord(ch) < 32 and ch != "\n") or 0x7F <= ord(ch) < 0xA0 or ch in "\u2028\u2029" for ch in text)


def _spec_with(tmp_path: Path, nasty: str) -> Path:
    summary = json.dumps(f"A rule{nasty} summary")  # a YAML double-quoted scalar holding the control characters
    return write_spec(
        tmp_path,
        "nasty",
        "extends: uno-flip\nrules:\n"
        f"  - id: game.end\n    summary: {summary}\n    source: {{key: manual, section: Winning}}\n    checks: [game-over]\n",
    )


COMMANDS = [
    ["check", "--spec", "SPEC", str(VALID)],
    ["check", "--format", "json", "--spec", "SPEC", str(VALID)],
    ["explain", "--spec", "SPEC", f"{VALID}:8"],
    ["explain", "--format", "json", "--spec", "SPEC", f"{VALID}:8"],
    ["adjudicate", "--spec", "SPEC", str(DISPUTE)],
    ["adjudicate", "--format", "json", "--spec", "SPEC", str(DISPUTE)],
    ["rules", "--spec", "SPEC"],
    ["rules", "--format", "json", "--spec", "SPEC"],
    ["prove", "--spec", "SPEC", "--players", "2"],
    ["prove", "--format", "json", "--spec", "SPEC", "--players", "2"],
    ["simulate", "--spec", "SPEC"],
]


@pytest.mark.parametrize("nasty", NASTY, ids=["osc-title", "newline", "cr", "u2028", "clear-screen"])
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:3]))
def test_control_characters_in_a_spec_are_a_loader_error_everywhere(tmp_path: Path, nasty: str, command: list[str]) -> None:
    spec = _spec_with(tmp_path, nasty)
    result = referee(*[str(spec) if part == "SPEC" else part for part in command])
    assert result.returncode == 2, (result.stdout[-500:], result.stderr)
    assert not _raw_control(result.stdout) and not _raw_control(result.stderr)
    assert f"{spec}:6:14: error: " in result.stderr.decode() and "inside a value is not allowed" in result.stderr.decode()


@pytest.mark.parametrize("nasty", NASTY, ids=["osc-title", "newline", "cr", "u2028", "clear-screen"])
def test_control_characters_in_a_log_never_reach_the_output(tmp_path: Path, nasty: str) -> None:
    lines = VALID.read_text(encoding="utf-8").split("\n")
    lines[7] = f"Ann plays red-1{nasty}"
    log = tmp_path / "game.log"
    log.write_bytes("\n".join(lines).encode("utf-8"))
    for args in (["check"], ["check", "--format", "json"], ["adjudicate"], ["adjudicate", "--format", "json"]):
        result = referee(*args, str(log))
        assert result.returncode == 1 and not _raw_control(result.stdout) and not _raw_control(result.stderr), args
    for args in (["explain", f"{log}:2"], ["explain", "--format", "json", f"{log}:2"]):
        result = referee(*args)
        assert not _raw_control(result.stdout) and not _raw_control(result.stderr), args
    result = referee("explain", f"{VALID}:8", "--move", f"Ann plays red-1{nasty}")
    assert result.returncode == 2 and not _raw_control(result.stderr)


@pytest.mark.parametrize(
    "name",
    [b"x.log: valid (6 rounds)\n1 log checked: 1 valid.log", b"\x1b]0;title\x07.log", b"bad\xff\xfe.log", b"tab\there.log"],
    ids=["forged-summary", "osc", "not-utf8", "tab"],
)
def test_file_names_found_in_a_folder_are_escaped(tmp_path: Path, name: bytes) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    target = os.path.join(os.fsencode(folder), name)
    with open(target, "wb") as handle:
        handle.write(VALID.read_bytes())
    result = referee("check", str(folder))
    assert result.returncode == 0
    out = result.stdout.decode("utf-8")
    assert not _raw_control(result.stdout)
    assert out.count("\n") == 2 and out.endswith("1 log checked: 1 valid, 0 with errors, 0 warnings\n")
    result = referee("check", "--format", "json", str(folder))
    (entry,) = json.loads(result.stdout.decode("utf-8"))["files"]  # strict UTF-8
    assert entry["valid"] is True and not any(ord(ch) < 32 for ch in entry["path"])
    if b"\xff" in name:
        assert entry["path"].endswith("bad\\xff\\xfe.log")
    result = referee("adjudicate", "--format", "json", str(folder))
    json.loads(result.stdout.decode("utf-8"))


@pytest.mark.parametrize("name", [b"bad\xff.yaml", b"osc\x1b]0;t\x07.yaml"], ids=["not-utf8", "osc"])
def test_a_spec_file_name_in_a_spec_error_is_escaped(tmp_path: Path, name: bytes) -> None:
    """A spec's position names its file: an invalid spec whose name is hostile gives one escaped line, exit 2 (the long
    command-line fuzzer met a name that was not UTF-8, and printing the error raised)."""
    spec = os.path.join(os.fsencode(tmp_path), name)
    with open(spec, "wb") as handle:
        handle.write(b"- not\n- a mapping\n")
    for command in (["check", str(VALID)], ["prove", "--players", "2"], ["rules"]):
        result = referee(*command, "--spec", spec)
        assert result.returncode == 2, (command, result.stderr)
        err = result.stderr.decode("utf-8")  # strict UTF-8
        assert not _raw_control(result.stderr) and err.count("\n") == 1 and "error: not a spec file" in err
        assert ("bad\\xff.yaml" in err) if b"\xff" in name else ("osc\\x1b]0;t\\x07.yaml" in err)
