"""Fuzzing: logs, specs and command lines, with a quick budget here and a long one in the slow tier.

Each target is a hypothesis property that only the referee's own verdicts and
errors come out: no exception escapes, no exit code 4. The budgets are the
``max_examples`` below (quick tier) and ten to thirty times that (slow tier,
``pytest -m slow``, run by ``.ci/run``). Every crash found became a regression
test in ``test_inputs.py``, ``test_hostile_text.py`` or ``test_spec.py``.
"""

from __future__ import annotations

import io
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.checking.replay import check_stream
from referee.commands.cli import execute
from referee.errors import EXIT_INTERNAL, SpecError
from referee.play.simulate import simulate_game
from referee.rules.compiler import load_rules
from referee.spec.loader import load_text
from referee.spec.reader import build_spec

from helpers import REFEREE

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT / "specs"
SCENARIOS = ROOT / "scenarios"
OFFICIAL = load_rules(SPECS / "uno-flip.yaml")
REAL_LOGS = [path.read_bytes() for path in sorted(SCENARIOS.rglob("*.log"))[::7]]
SPEC_TEXTS = [path.read_text(encoding="utf-8") for path in sorted(SPECS.glob("*.yaml"))]

QUICK, SLOW = 60, 1500


def _budget(examples: int) -> Callable[[Any], Any]:
    return settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck), derandomize=False)


# -- logs: token soup from the format's own vocabulary, so that fuzzing reaches the rules, not only the grammar

_PLAYERS = ["Ann", "Bob", "Cat", "Zed", "ann", "red", "Wild"]
_CARDS = [card.token for card in OFFICIAL.deck[::5]] + ["red-7", "wild", "wild-draw-two", "pink-7", "red-0", "x/y", "red-1/teal-9"]
_WORDS = ["plays", "draws", "passes", "chooses", "calls", "uno", "catches", "challenges", "scores", "reshuffle"]
_WORDS += ["players", "spec", "deck", "target", "round", "dealer", "shuffle", "hand", "start", "red", "teal", "0", "1", "07", "500"]
_TOKENS = st.sampled_from(_PLAYERS + _CARDS + _WORDS + ["#", "\t", "\x1b", "\u2028", "é", "", "1000000"])
_LINES = st.lists(_TOKENS, max_size=8).map(" ".join)
_HEADER = "players Ann Bob Cat\nround 1\ndealer Ann\nshuffle " + " ".join(card.token for card in OFFICIAL.deck) + "\n"


@st.composite
def _logs(draw: st.DrawFn) -> bytes:
    kind = draw(st.sampled_from(["soup", "after-header", "mutated", "bytes"]))
    if kind == "bytes":
        return draw(st.binary(max_size=400))
    if kind == "mutated":
        lines = draw(st.sampled_from(REAL_LOGS)).split(b"\n")
        for _ in range(draw(st.integers(1, 4))):
            index = draw(st.integers(0, len(lines) - 1))
            action = draw(st.sampled_from(["replace", "delete", "duplicate", "swap"]))
            if action == "replace":
                lines[index] = draw(_LINES).encode("utf-8")
            elif action == "delete" and len(lines) > 1:
                del lines[index]
            elif action == "duplicate":
                lines.insert(index, lines[index])
            else:
                other = draw(st.integers(0, len(lines) - 1))
                lines[index], lines[other] = lines[other], lines[index]
        return b"\n".join(lines)
    body = "\n".join(draw(st.lists(_LINES, max_size=25)))
    return ((_HEADER if kind == "after-header" else "") + body).encode("utf-8")


def _check_log(data: bytes) -> None:
    verdict = check_stream(io.BytesIO(data), "fuzz.log", SPECS)
    assert verdict.valid == (not verdict.errors and verdict.input_error is None)
    for error in verdict.errors:
        assert error.line >= 1 and error.code and error.rule


@_budget(QUICK * 3)
@given(_logs())
def test_fuzz_logs(data: bytes) -> None:
    _check_log(data)


@pytest.mark.slow
@_budget(SLOW * 10)
@given(_logs())
def test_fuzz_logs_long(data: bytes) -> None:
    _check_log(data)


# -- specs: one-line mutations of the shipped specs; what loads must also play and check


_VALUES = ["0", "1", "2", "7", "9", "10", "28", "-5", "999999", "true", "false", "light", "dark", "keep", "take-all", "[]", "{}"]
_VALUES += ["wild", "red", "nobody", "dealer", "apply-effects", "flip", "[flip]", "[skip-everyone]", "{next-player-draws: 3}", "x"]


@st.composite
def _spec_texts(draw: st.DrawFn) -> str:
    lines = draw(st.sampled_from(SPEC_TEXTS)).split("\n")
    for _ in range(draw(st.integers(1, 3))):
        index = draw(st.integers(0, len(lines) - 1))
        line = lines[index]
        action = draw(st.sampled_from(["value", "delete", "duplicate", "key"]))
        if action == "value" and ":" in line:
            key = line.rsplit(":", 1)[0]
            lines[index] = f"{key}: {draw(st.sampled_from(_VALUES))}"
        elif action == "delete":
            del lines[index]
        elif action == "duplicate":
            lines.insert(index, line)
        else:
            lines[index] = line.replace(line.strip()[:3], draw(st.sampled_from(["zz", "  ", "- ", "{", "#"])), 1)
    return "\n".join(lines)


def _load_and_play(text: str, tmp_path: Path) -> None:
    path = tmp_path / "fuzz.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        tree = load_text(text, str(path))
        spec = build_spec(tree, str(path)) if "extends" not in tree.entries else None
        rules = load_rules(path)
    except SpecError as error:
        assert error.problems and all(str(position) for position, _ in error.problems)
        return
    assert spec is None or spec.name
    seed = random.Random(text).randrange(10**6)
    for players in sorted({rules.spec.min_players, rules.spec.max_players}):
        log = simulate_game(rules, players, seed, "full" if seed % 2 else "observed", max_rounds=1)
        verdict = check_stream(io.BytesIO(log.encode("utf-8")), "sim.log", tmp_path, path)
        assert verdict.valid, (verdict.errors, verdict.input_error)


@_budget(QUICK)
@given(_spec_texts())
def test_fuzz_specs(tmp_path_factory: pytest.TempPathFactory, text: str) -> None:
    _load_and_play(text, tmp_path_factory.mktemp("spec"))


@pytest.mark.slow
@_budget(SLOW)
@given(_spec_texts())
def test_fuzz_specs_long(tmp_path_factory: pytest.TempPathFactory, text: str) -> None:
    _load_and_play(text, tmp_path_factory.mktemp("spec"))


# -- command lines: random arguments, options, paths and file names with control bytes


_NAMES = [b"game.log", b"x.log: valid (6 rounds)\n1 log checked.log", b"\x1b]0;t\x07.log", b"bad\xff.log", b"dir.log", b"-x.log"]


def _make_files(root: Path) -> list[str]:
    valid = (SCENARIOS / "rulings" / "r04-start-number.log").read_bytes()
    paths = []
    for name in _NAMES:
        target = os.path.join(os.fsencode(root), name)
        if name == b"dir.log":
            os.makedirs(target, exist_ok=True)
        else:
            with open(target, "wb") as handle:
                handle.write(valid)
        paths.append(os.fsdecode(target))
    return paths


_COMMANDS = ["check", "explain", "adjudicate", "rules", "prove", "simulate", "nope", "--help", "--version"]
_OPTIONS = ["--spec", "--format", "-q", "--line", "--move", "--players", "--seed", "--games", "--mode", "--out", "--junit"]
_OPTIONS += ["--invariant", "--timeout", "--max-rounds", "--debug", "-h", "-j", "--jobs", "--no-cache", "--dask"]
_ARGUMENTS = ["uno-flip", "house-stacking", "json", "text", "xml", "0", "2", "3", "11", "-1", "99999", "²", "", "-", "full"]
_ARGUMENTS += ["observed", "Ann plays red-1", "Bob draws", "play.match", "nope", "x.yaml", "/dev/null", "/proc/x", ":", "a:1"]
_ARGUMENTS += ["junit", "sarif", "github", "memory://nothing/", "file:///nonexistent/x.log", "tcp://", "s3x://a/b"]


@st.composite
def _command_lines(draw: st.DrawFn, files: list[str]) -> list[str]:
    command = [draw(st.sampled_from(_COMMANDS))]
    pool = _OPTIONS + _ARGUMENTS + files + [f"{path}:8" for path in files[:2]]
    command += draw(st.lists(st.sampled_from(pool), max_size=6))
    if command[0] == "prove":  # keep each proof short
        command += ["--players", "2", "--invariant", "score.faces"]
    if command[0] == "simulate":
        command = [part for part in command if part not in ("--games", "--out")]
    return command


RUNS: dict[str, int] = {}


def _run_command(arguments: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    RUNS["command lines"] = RUNS.get("command lines", 0) + 1
    code = execute(arguments)
    out, err = capsys.readouterr()
    assert code != EXIT_INTERNAL, (arguments, err)
    assert code in (0, 1, 2, 3), (arguments, code, err)
    assert "Traceback" not in err
    if code == 2:
        assert err.strip(), arguments


def _fuzz_command_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str], budget: int) -> None:
    files = _make_files(tmp_path)

    @_budget(budget)
    @given(_command_lines(files))
    def run(arguments: list[str]) -> None:
        _run_command(arguments, capsys)

    old = os.getcwd()
    os.chdir(tmp_path)
    before = RUNS.get("command lines", 0)
    try:
        run()
    finally:
        os.chdir(old)
    assert RUNS["command lines"] - before >= min(50, budget)  # the budget really ran


def test_fuzz_command_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _fuzz_command_lines(tmp_path, capsys, QUICK * 2)


@pytest.mark.slow
def test_fuzz_command_lines_long(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _fuzz_command_lines(tmp_path, capsys, SLOW)


# -- signals: Ctrl-C at a random moment of a random long command is exit 130 and silence


def _interrupt(command: list[str], delay: float, folder: Path) -> None:
    import signal
    import subprocess
    import time

    line = [*REFEREE, *command]
    process = subprocess.Popen(line, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(delay)
    if process.poll() is not None:  # finished before the signal came: nothing to judge
        process.communicate()
        return
    process.send_signal(signal.SIGINT)
    output, error = process.communicate(timeout=120)
    if process.returncode != 130:
        # The one excusable case: the signal came while the process was already leaving (its report written, the
        # kernel tearing it down), too late to change anything. Then it is the whole uninterrupted run, to the byte.
        whole = subprocess.run(line, cwd=folder, capture_output=True, timeout=300, check=False)
        seen = (process.returncode, output, error)
        assert seen == (whole.returncode, whole.stdout, whole.stderr), (command, delay, process.returncode, error)
        return
    assert error == b"", (command, delay, error)


_LONG_COMMANDS = [
    ["check", str(SCENARIOS)],
    ["adjudicate", str(SCENARIOS / "games")],
    ["prove", "--spec", "uno-flip", "--spec", "house-stacking"],
    ["simulate", "--players", "8", "--games", "20000", "--out", "sim"],  # still running at any delay below (600 take 2 s)
    ["explain", str(SCENARIOS / "games" / "game-full-7p.log") + ":290"],
]


@pytest.mark.parametrize("command", _LONG_COMMANDS, ids=lambda c: c[0])
def test_ctrl_c_during_each_long_command(command: list[str], tmp_path: Path) -> None:
    for delay in (0.3, 0.6):
        _interrupt(command, delay, tmp_path)


@pytest.mark.slow
def test_fuzz_signals_long(tmp_path: Path) -> None:
    chooser = random.Random(2026)
    for _ in range(60):
        _interrupt(chooser.choice(_LONG_COMMANDS), chooser.uniform(0.05, 2.5), tmp_path)


# -- prove on mutated specs: a refutation, a proof or a spec error with a position, never a crash


def _prove_mutated(text: str, folder: Path) -> None:
    from referee.proof.invariants import load_invariants
    from referee.proof.prove import prove_spec

    path = folder / "fuzz.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        result = prove_spec(path, load_invariants(), players=(2, 3), timeout_ms=2000, counterexamples=random.Random(text).random() < 0.1)
    except SpecError as error:
        assert error.problems
        return
    for outcome in [*result.invariants, *result.claims]:
        assert outcome.status in ("proved", "refuted", "unknown")


@pytest.mark.slow
@_budget(SLOW // 6)
@given(_spec_texts())
def test_fuzz_prove_long(tmp_path_factory: pytest.TempPathFactory, text: str) -> None:
    _prove_mutated(text, tmp_path_factory.mktemp("prove"))
