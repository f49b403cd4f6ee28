"""Public records (docs/log-format.md, "Public records"): the format, consistency, the reasons, the witness."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from referee.cli import execute as run
from referee.compiler import load_rules
from referee.log_reader import LogReader
from referee.projection import public_record
from referee.replay import check_stream
from referee.simulate import simulate_events
from referee.spec_paths import shipped_spec_path

HEAD = "players Ann Bob\nspec uno\nround 1\ndealer Ann\npublic\nstart red-5\n"


def verdict(text: str, witness: bool = False):  # type: ignore[no-untyped-def]
    import io

    return check_stream(io.BytesIO(text.encode()), "<t>", Path.cwd(), witness=witness)


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("Bob draws 0", "at least 1 card"),
        ("Bob draws red-1", "a count, not cards"),
        ("Bob plays red-7/teal-1", "physical card"),
        ("shows Bob red-1/teal-3", "physical card"),
    ],
)
def test_a_public_round_writes_counts_and_faces(line: str, says: str) -> None:
    reader = LogReader()
    list(reader.events(io.BytesIO(f"players Ann Bob\nround 1\ndealer Ann\npublic\nstart red-5/orange-2\n{line}\n".encode())))
    assert reader.errors and says in reader.errors[0].message and reader.errors[0].line == 6


def test_public_takes_no_argument() -> None:
    import io

    reader = LogReader()
    list(reader.events(io.BytesIO(b"players Ann Bob\nround 1\ndealer Ann\npublic 7\n")))
    assert reader.errors[0].line == 4


def test_a_face_played_more_often_than_the_deck_holds_it_is_inconsistent_with_the_lines_that_say_so() -> None:
    found = verdict(HEAD + "Bob plays red-7\nAnn plays red-7\nBob plays red-7\n")
    (error,) = found.errors
    assert (error.line, error.code, error.rule) == (9, "inconsistent", "play.in-hand")
    assert {line for line, _ in error.reasons} >= {7, 8}
    assert found.consistency == "inconsistent"


def test_a_card_of_the_colour_right_after_an_innocent_ruling_is_inconsistent() -> None:
    text = HEAD + "Bob plays wild-draw-four red\nAnn challenges Bob\nAnn draws 6\nBob plays red-3\n"
    found = verdict(text)
    (error,) = found.errors
    assert (error.line, error.code) == (10, "inconsistent")
    assert 8 in {line for line, _ in error.reasons}


def test_the_next_draw_shows_the_ruling() -> None:
    guilty = verdict(HEAD + "Bob plays wild-draw-four blue\nAnn challenges Bob\nBob draws 4\nAnn plays blue-3\n")
    assert guilty.valid, guilty.errors
    (answer,) = guilty.answers
    assert (answer.kind, answer.ruling, answer.answer) == ("ruling", "guilty", "not-forced")
    nobody = verdict(HEAD + "Bob plays wild-draw-four blue\nAnn challenges Bob\nCat draws 4\n")
    assert nobody.errors[0].code == "unknown-player"


def test_an_unchallenged_wild_draw_four_says_whether_its_bluff_is_determined() -> None:
    found = verdict(HEAD + "Bob plays wild-draw-four blue\nAnn draws 4\n")
    assert found.valid
    assert [(a.kind, a.answer) for a in found.answers] == [("bluff", "undetermined")]


def test_missing_and_bad_shows() -> None:
    plays = ["red-1", "red-2", "red-3", "red-4", "red-5", "red-6", "red-7", "red-8", "red-9", "blue-9", "blue-1", "blue-2", "blue-3"]
    body = HEAD + "\n".join(f"{'Bob' if index % 2 == 0 else 'Ann'} plays {face}" for index, face in enumerate(plays))
    assert verdict(body + "\nBob scores 10\n").errors[0].code == "missing-shows"
    assert verdict(body + "\nshows Bob\n").errors[0].code == "bad-shows"
    shown = verdict(body + "\nshows Ann green-1 green-2\n")
    assert shown.errors and shown.errors[0].code == "inconsistent"
    scored = verdict(body + "\nshows Ann green-4\nBob scores 4\n")
    assert scored.valid, scored.errors
    assert scored.rounds[0].points == 4
    assert verdict(HEAD + "shows Ann\n").errors[0].code == "bad-shows"


def _spec(name: str) -> Path:
    path = shipped_spec_path(name)
    assert path is not None
    return path


def _game(spec: str, players: int, seed: int) -> tuple[str, str]:
    from referee.log_writer import format_event

    rules = load_rules(_spec(spec))
    events = list(simulate_events(rules, players, seed, "full", spec_line=spec, max_rounds=1))
    full = "".join(format_event(event) + "\n" for event in events)
    public = "".join(format_event(event) + "\n" for event in public_record(events, rules))
    return full, public


@pytest.mark.parametrize(("spec", "players", "seed"), [("uno", 2, 1), ("uno", 3, 2), ("uno-flip", 2, 1)])
def test_a_played_games_projection_is_consistent_and_its_witness_is_accepted_and_projects_back(
    spec: str, players: int, seed: int, tmp_path: Path
) -> None:
    _, public = _game(spec, players, seed)
    log = tmp_path / "public.log"
    log.write_text(public)
    witness = tmp_path / "witness.log"
    assert run(["check", "-q", "--witness", str(witness), str(log)]) == 0
    assert run(["check", "-q", str(witness)]) == 0
    rules = load_rules(_spec(spec))
    import io

    from referee.log_writer import format_event
    from referee.replay import card_form

    events = list(LogReader(lambda name: card_form(rules)).events(io.BytesIO(witness.read_bytes())))
    again = "".join(format_event(event) + "\n" for event in public_record(events, rules))
    strip = lambda text: sorted(line for line in text.splitlines())  # noqa: E731 - the order of shows lines aside
    assert strip(again) == strip(public)


def test_json_gives_consistency_and_reasons(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "bad.log"
    log.write_text(HEAD + "Bob plays red-7\nAnn plays red-7\nBob plays red-7\n")
    assert run(["check", "--format", "json", str(log)]) == 1
    data = json.loads(capsys.readouterr().out)["files"][0]
    assert data["consistency"] == "inconsistent"
    assert {reason["line"] for reason in data["errors"][0]["reasons"]} >= {7, 8}
