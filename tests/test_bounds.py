"""Every run of referee is bounded: a small spec cannot ask for millions of cards, out of memory is one line, Ctrl-C
while Z3 solves is an interrupt, and a public round's judgement keeps to its time and memory (docs/security.md,
"Every read is bounded"; the attacks of issue 29's second review, each a test).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from helpers import REFEREE, run_referee

ROOT = Path(__file__).resolve().parent.parent
VALID = ROOT / "scenarios" / "rulings" / "r04-start-number.log"


referee_cli = run_referee


# -- 6. a small spec cannot expand without bound


def _grown_spec(tmp_path: Path, colours: int, to: int) -> Path:
    import re

    base = (ROOT / "specs" / "uno.yaml").read_text()
    names = ", ".join(f"c{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(colours))
    text = base.replace("light: {colours: [red, yellow, green, blue]}", f"light: {{colours: [{names}]}}")
    text = re.sub(r"numbers: \{from: 0, to: 9\}", f"numbers: {{from: 0, to: {to}}}", text)
    spec = tmp_path / f"grown-{colours}-{to}.yaml"
    spec.write_text(text)
    return spec


@pytest.mark.parametrize(("colours", "to", "said"), [(44, 99_999, b"numbers from 0 to 99999"), (44, 9_000, b"has 792,316 faces")])
def test_a_spec_asking_for_millions_of_cards_is_refused_before_any_is_made(tmp_path: Path, colours: int, to: int, said: bytes) -> None:
    """A 15 kB spec with 44 colours and numbers to 99,999 took 56 s and 1.5 GB before its error: the sizes are counted
    first, and it is one error line within a second, under a memory limit the expansion would break."""
    import resource
    import time

    spec = _grown_spec(tmp_path, colours, to)

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (600 << 20, 600 << 20))

    started = time.monotonic()
    command = [*REFEREE, "rules", "--spec", str(spec)]
    result = subprocess.run(command, capture_output=True, preexec_fn=limit, timeout=60)
    assert result.returncode == 2 and said in result.stderr and len(result.stderr.splitlines()) == 1, result.stderr
    assert time.monotonic() - started < 10


def test_the_largest_deck_allowed_still_loads(tmp_path: Path) -> None:
    """Near the limit (10,000 faces on a side) a spec loads: the limit refuses only what no table could play."""
    import re

    base = (ROOT / "specs" / "uno.yaml").read_text()
    text = re.sub(r"numbers: \{from: 0, to: 9\}", "numbers: {from: 0, to: 1200}", base[: base.index("\ndeck:")])
    text = text.replace("points: face-value", "points: 1", 1)  # a deck this large would score past a log's 999,999
    cards = []
    for colour in ("red", "yellow", "green", "blue"):
        cards += [f"{colour}-0"] + [f"{colour}-{number}" for number in range(1, 1201) for _ in range(2)]
        cards += [f"{colour}-{kind}" for kind in ("draw-two", "reverse", "skip") for _ in range(2)]
    cards += ["wild"] * 4 + ["wild-draw-four"] * 4
    spec = tmp_path / "large.yaml"
    spec.write_text(text + "\ndeck:\n" + "".join(f"  - {card}\n" for card in cards))
    assert len(cards) == 9_636
    result = referee_cli("rules", "--spec", str(spec))
    assert result.returncode == 0, result.stderr[-2000:]


# -- 7. out of memory is one line


def test_out_of_memory_outside_the_commands_handling_is_one_line() -> None:
    """A MemoryError that escapes the command (as when the handler's own import failed under ``ulimit -v``) is still the
    one line and exit 2, never a traceback."""
    code = "import referee.commands.cli as cli\ndef boom(arguments):\n    raise MemoryError\ncli.execute = boom\n"
    code += "import referee.commands.entry\nreferee.commands.entry.run()\n"
    result = subprocess.run([sys.executable, "-c", code, "check", str(VALID)], capture_output=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr == b"error: out of memory (a limit on this process, or an input too large for it)\n"


@pytest.mark.parametrize("megabytes", [40, 60, 90, 140])
def test_under_any_memory_limit_a_check_is_a_result_or_one_line(megabytes: int) -> None:
    import resource

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (megabytes << 20, megabytes << 20))

    log = ROOT / "scenarios" / "games" / "game-full-4p.log"
    result = subprocess.run([*REFEREE, "check", str(log)], capture_output=True, preexec_fn=limit, timeout=120)
    if result.returncode != 0:
        assert result.returncode == 2, result.stderr[-2000:]
        assert result.stderr == b"error: out of memory (a limit on this process, or an input too large for it)\n", result.stderr[-2000:]


# -- 8. Ctrl-C while Z3 solves is an interrupt, not an undetermined verdict


_CTRL_C_DURING_A_SOLVE = """
import os, signal, threading, z3
signal.signal(signal.SIGINT, signal.SIG_IGN)  # outside the solve a Ctrl-C does nothing here; inside, Z3 takes it
def poke():
    while True:
        os.kill(os.getpid(), signal.SIGINT)
        threading.Event().wait(0.2)
threading.Thread(target=poke, daemon=True).start()
pigeons = [z3.Int(f"p{i}") for i in range(40)]
solver = z3.Solver()
solver.add(z3.Distinct(pigeons), *[z3.And(p >= 0, p < 39) for p in pigeons])
print(solver.check(), solver.reason_unknown(), sep="|")
"""


def test_a_solve_cancelled_by_ctrl_c_is_an_interrupt_and_a_timeout_is_undetermined() -> None:
    """Z3 catches SIGINT while it solves and answers unknown (shown in a process of its own, Ctrl-C sent until the
    solve takes it); the public-record checker raises that as KeyboardInterrupt (exit 130, silent), and only a
    timeout as undetermined (exit 3)."""
    pytest.importorskip("z3")
    from referee.public import consistency
    from referee.solving import stopped_by_interrupt

    said = subprocess.run([sys.executable, "-c", _CTRL_C_DURING_A_SOLVE], capture_output=True, text=True, timeout=120)
    answer, reason = said.stdout.strip().split("|")
    assert answer == "unknown" and stopped_by_interrupt(reason), said
    with pytest.raises(KeyboardInterrupt):
        consistency._interrupted_or_undetermined(reason)
    with pytest.raises(consistency.Undetermined):
        consistency._interrupted_or_undetermined("timeout")
    assert not stopped_by_interrupt("timeout")
    # "canceled" is said for a Ctrl-C and for a timeout alike: well before the timeout it is the interrupt
    with pytest.raises(KeyboardInterrupt):
        consistency._interrupted_or_undetermined("canceled", early=True)
    with pytest.raises(consistency.Undetermined):
        consistency._interrupted_or_undetermined("canceled", early=False)


# -- 5. a public round's judgement is bounded: in time (replays included) and in memory (dead replays dropped)

PUBLIC = sorted((ROOT / "scenarios" / "public").rglob("*.log"))


def _long_public_record(tmp_path: Path) -> Path:
    from referee.log.writer import format_event
    from referee.play.simulate import simulate_events
    from referee.public.projection import public_record
    from referee.rules.compiler import load_rules
    from referee.spec.extends import resolve_spec

    rules = load_rules(resolve_spec("uno-flip", None))
    events = list(simulate_events(rules, 4, 7, "full", spec_line="uno-flip", max_rounds=6))
    log = tmp_path / "public.log"
    log.write_text("".join(format_event(event) + "\n" for event in public_record(events, rules)))
    return log


@pytest.mark.parametrize("command", ["check", "explain", "view"])
def test_the_timeout_bounds_the_replays_of_a_public_round_too(tmp_path: Path, command: str) -> None:
    """``--timeout`` is the time for a log's public rounds, replaying the ways their hidden cards can go included
    (it used to bound the solver alone: 41-73 s under ``--timeout 2``); ``explain`` and ``view`` take it too."""
    import time

    log = _long_public_record(tmp_path)
    lines = len(log.read_text().splitlines())
    arguments = {"check": [str(log)], "explain": [f"{log}:{lines}"], "view": [str(log), "--out", str(tmp_path / "p.html")]}[command]
    started = time.monotonic()
    result = referee_cli(command, "--timeout", "0.001", *arguments)
    assert time.monotonic() - started < 30
    if command == "check":
        assert result.returncode == 3 and b"replaying the ways its hidden cards can go used it" in result.stdout, result.stdout
    elif command == "explain":
        assert result.returncode == 1 and b"undetermined" in result.stdout, result.stdout
    else:
        assert result.returncode == 0 and b"undetermined" in (tmp_path / "p.html").read_bytes()
    assert referee_cli("check", "--timeout", "60", str(log)).returncode == 0


@pytest.mark.parametrize(
    "log",
    [pytest.param(path, marks=pytest.mark.slow) if path.stem == "uno-flip-4p" else path for path in PUBLIC],
    ids=[path.stem for path in PUBLIC],
)
def test_dropping_dead_replays_changes_no_verdict_only_makes_it_undetermined(log: Path, monkeypatch: Any) -> None:
    """With room for no replay a line has ruled out (memory bounded at its tightest), every public scenario gets the
    verdict it gets with room for all of them, or undetermined: a dropped replay never decides a verdict."""
    from referee.checking.replay import check_stream
    from referee.public import rounds as public_replay

    def verdict() -> Any:
        with log.open("rb") as stream:
            return check_stream(stream, str(log), log.parent, None, (), 60.0, False, True)

    full = verdict()
    monkeypatch.setattr(public_replay, "MAX_DEAD", 0)
    bounded = verdict()
    if bounded.consistency != "undetermined":
        assert [(d.line, d.code) for d in bounded.errors] == [(d.line, d.code) for d in full.errors]
        assert bounded.consistency == full.consistency
