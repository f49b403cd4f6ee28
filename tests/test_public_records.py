"""Public records (docs/log-format.md, "Public records"): the format, consistency, the reasons, the witness."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from referee.checking.replay import check_stream
from referee.commands.cli import execute as run
from referee.log.reader import LogReader
from referee.play.simulate import simulate_events
from referee.public.projection import public_record
from referee.rules.compiler import load_rules
from referee.spec.paths import shipped_spec_path

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
    assert 9 in {line for line, _ in error.reasons}  # the draw that shows the innocent ruling


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
    from referee.log.writer import format_event

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

    from referee.checking.replay import card_form
    from referee.log.writer import format_event

    events = list(LogReader(lambda name: card_form(rules)).events(io.BytesIO(witness.read_bytes())))
    again = "".join(format_event(event) + "\n" for event in public_record(events, rules))
    strip = lambda text: sorted(line for line in text.splitlines())  # noqa: E731 - the order of shows lines aside
    assert strip(again) == strip(public)


def test_a_record_the_solver_cannot_settle_in_time_is_undetermined_exit_3(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, public = _game("uno", 3, 4)
    log = tmp_path / "public.log"
    log.write_text(public)
    assert run(["check", "--timeout", "0.001", str(log)]) == 3
    out = capsys.readouterr().out
    assert "undetermined: the solver could not settle this public round" in out and "1 undetermined" in out
    assert run(["check", "--timeout", "0.001", "--format", "json", str(log)]) == 3
    entry = json.loads(capsys.readouterr().out)["files"][0]
    assert (entry["valid"], entry["consistency"], entry["errors"]) == (False, "undetermined", [])


def test_rounds_of_different_modes_mix_in_one_log() -> None:
    from referee.log.writer import format_event

    rules = load_rules(_spec("uno"))
    events = list(simulate_events(rules, 3, 4, "full", spec_line="uno", max_rounds=4))
    full = "".join(format_event(event) + "\n" for event in events)
    public = "".join(format_event(event) + "\n" for event in public_record(events, rules))

    def rounds(text: str) -> tuple[list[str], list[list[str]]]:
        lines = text.splitlines()
        starts = [index for index, line in enumerate(lines) if line.startswith("round ")]
        return lines[: starts[0]], [lines[a:b] for a, b in zip(starts, [*starts[1:], len(lines)], strict=True)]

    head, played = rounds(full)
    _, seen = rounds(public)
    assert len(played) == len(seen) >= 2
    mixed = head + [line for index in range(len(played)) for line in (seen if index % 2 == 0 else played)[index]]
    judged = verdict("\n".join(mixed) + "\n")
    assert judged.valid and judged.consistency == "consistent", judged.errors[:1]


def test_json_gives_consistency_and_reasons(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "bad.log"
    log.write_text(HEAD + "Bob plays red-7\nAnn plays red-7\nBob plays red-7\n")
    assert run(["check", "--format", "json", str(log)]) == 1
    data = json.loads(capsys.readouterr().out)["files"][0]
    assert data["consistency"] == "inconsistent"
    assert {reason["line"] for reason in data["errors"][0]["reasons"]} >= {7, 8}


# -- the corpus: projections of played games (consistent by construction) and mutants of them, one family each of
# the design page's list (docs/log-format.md, "Public records"), both games, 2 to 10 players

CORPUS = [(spec, players, seed) for spec in ("uno", "uno-flip") for players in (2, 4, 10) for seed in (11, 12)]
QUICK = [("uno", 4, 11), ("uno-flip", 4, 11)]  # the README tier's share; the slow tier runs them all


def _events(public: str, spec: str) -> list[str]:
    return public.splitlines()


def _visible_before(lines: list[str], index: int, start: int) -> dict[str, int]:
    """How often each face was played in a round (from its ``public`` line at ``start``) before line ``index``."""
    seen: dict[str, int] = {}
    for text in lines[start:index]:
        words = text.split()
        if len(words) >= 3 and words[1] == "plays":
            seen[words[2]] = seen.get(words[2], 0) + 1
        if words and words[0] == "reshuffle":
            seen = {}
    return seen


def _mutants(public: str, spec: str) -> dict[str, tuple[str, int]]:
    """Per family, one mutant of a public record and the line it must be found inconsistent at (or none)."""
    rules = load_rules(_spec(spec))
    copies: dict[str, int] = {}
    for card in rules.deck:
        face = card.faces[rules.spec.start_side].token
        copies[face] = copies.get(face, 0) + 1
    lines = public.splitlines()
    found: dict[str, tuple[str, int]] = {}
    start = next(index for index, text in enumerate(lines) if text == "public")
    end = next((index for index in range(start + 1, len(lines)) if lines[index].startswith(("round", "shows"))), len(lines))
    for index in range(start + 1, end):
        words = lines[index].split()
        if len(words) != 3 or words[1] != "plays" or "flip" in lines[start:index].__str__():
            continue
        seen = _visible_before(lines, index, start)
        face = words[2]
        colour, _, rest = face.partition("-")
        before = next((text.split() for text in reversed(lines[start:index]) if " plays " in text), None)
        if before is None or len(before) != 3 or not before[2].startswith(colour + "-"):
            continue  # the top card must be a plain card of the same colour: then any face of it matches
        # the same colour, a face whose every copy (on the starting side) is already on the discard pile
        gone = [
            other for other, count in seen.items() if other.startswith(colour + "-") and count >= copies.get(other, 99) and other != face
        ]
        if not gone:
            continue
        mutant = lines[:index] + [f"{words[0]} plays {gone[0]}"] + lines[index + 1 :]
        family = "drawn-card-unavailable" if lines[index - 1] == f"{words[0]} draws 1" else "played-too-often"
        found.setdefault(family, ("\n".join(mutant) + "\n", index + 1))
    shows = next((index for index, text in enumerate(lines) if text.startswith("shows ") and len(text.split()) > 2), None)
    if shows is not None:
        found["shown-count"] = (
            "\n".join(lines[:shows] + [lines[shows] + " " + lines[shows].split()[-1]] + lines[shows + 1 :]) + "\n",
            shows + 1,
        )
    return found


@pytest.mark.parametrize(
    ("spec", "players", "seed"), [pytest.param(*case, marks=[] if case in QUICK else [pytest.mark.slow]) for case in CORPUS]
)
def test_corpus_projections_are_consistent_and_mutants_inconsistent_where_the_family_says(spec: str, players: int, seed: int) -> None:
    _, public = _game(spec, players, seed)
    assert verdict(public).valid, verdict(public).errors[:1]
    for family, (mutant, line) in _mutants(public, spec).items():
        judged = verdict(mutant)
        assert judged.errors, family
        error = judged.errors[0]
        assert (error.code, error.line) == ("inconsistent", line), (family, error)


@pytest.mark.slow
def test_the_corpus_holds_every_family_it_can_mutate() -> None:
    families = set()
    for spec, players, seed in CORPUS:
        _, public = _game(spec, players, seed)
        families |= set(_mutants(public, spec))
    assert families == {"played-too-often", "drawn-card-unavailable", "shown-count"}


def test_a_guilty_ruling_on_a_last_card_is_inconsistent_at_the_draw_that_shows_it() -> None:
    plays = ["red-1", "red-2", "red-3", "red-4", "red-6", "red-7", "red-8", "red-9", "red-2", "red-3", "red-4"]
    body = "\n".join(f"{'Bob' if index % 2 == 0 else 'Ann'} plays {face}" for index, face in enumerate(plays))
    text = HEAD + body + "\nBob calls uno\nAnn plays red-6\nBob plays wild-draw-four red\nAnn challenges Bob\nBob draws 4\n"
    (error,) = verdict(text).errors
    assert (error.code, error.line, error.rule) == ("inconsistent", 22, "challenge.who")
    assert 20 in {line for line, _ in error.reasons}


def test_a_wild_draw_color_penalty_is_inconsistent_exactly_past_what_elimination_allows() -> None:
    """84 cards that are not pink can be in the draw pile (86 less two on the discard pile): a penalty of 85 cards
    (84 before the pink one) is consistent, 86 is not."""
    head = "players Ann Bob\nspec uno-flip\nround 1\ndealer Ann\npublic\nstart yellow-flip/orange-8\nBob plays wild-draw-color pink\n"
    assert verdict(head + "Ann draws 85\n").valid
    (error,) = verdict(head + "Ann draws 86\n").errors
    assert (error.line, error.code, error.rule) == (8, "inconsistent", "penalty.draw")


def test_adjudicate_says_the_ruling_a_public_record_shows_and_whether_the_hidden_hands_force_it(tmp_path: Path) -> None:
    from referee.checking.adjudicate import adjudicate, render_text

    log = tmp_path / "disputes.log"
    log.write_text(
        HEAD
        + "Bob plays wild-draw-four blue\nAnn challenges Bob\nBob draws 4\nAnn plays blue-3\nBob plays wild-draw-four red\nAnn draws 4\n"
    )
    ruled = adjudicate(log)
    result = ruled.to_json()
    (dispute,) = result["disputes"]
    assert (dispute["ruling"], dispute["penalty"]["player"]) == ("guilty", "Bob")
    assert result["hidden"] == [
        {"line": 7, "player": "Bob", "colour": "red", "challenge": 8, "ruling": "guilty", "forced": "not-forced"},
        {"line": 11, "player": "Bob", "colour": "blue", "bluff": "undetermined"},
    ]
    said = [line.replace(str(log), "LOG") for line in render_text(ruled)]
    assert said[2:] == [
        "LOG:8: the guilty ruling on Bob's wild draw card (line 7) is not the only ruling the hidden hands allow",
        "LOG:11: wild draw card, not challenged: Bob may or may not have held a blue card (bluff undetermined)",
    ]


def test_an_innocent_ruling_on_a_last_card_is_forced() -> None:
    plays = ["red-1", "red-2", "red-3", "red-4", "red-6", "red-7", "red-8", "red-9", "red-2", "red-3", "red-4"]
    body = "\n".join(f"{'Bob' if index % 2 == 0 else 'Ann'} plays {face}" for index, face in enumerate(plays))
    text = HEAD + body + "\nBob calls uno\nAnn plays red-6\nAnn calls uno\nBob plays wild-draw-four red\nAnn challenges Bob\nAnn draws 6\n"
    found = verdict(text)
    assert found.valid, found.errors
    assert [(a.kind, a.ruling, a.answer) for a in found.answers] == [("ruling", "innocent", "forced")]


def test_a_bluff_the_record_proves_is_certain() -> None:
    # Bob plays a Wild Draw Four on red, is not challenged, then plays a red card before drawing anything
    found = verdict(HEAD + "Bob plays wild-draw-four red\nAnn draws 4\nBob plays red-3\n")
    assert found.valid, found.errors
    assert [(a.kind, a.answer) for a in found.answers] == [("bluff", "certain")]


# -- the property: a played game's public record is consistent, and a witness of it re-projects to it

import os  # noqa: E402

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from referee.spec.paths import shipped_spec_names  # noqa: E402

# uno-flip-party's Flip uncovers can leave several branches alive that only the solver tells apart: its rounds may
# take longer than the timeout, so there (only there) undetermined is allowed; inconsistent never is
HEAVY = {"uno-flip-party"}
# Long single rounds with many players (draw until a match, the party decks) can hold tens of thousands of unknowns:
# the solver may not settle one in the timeout (this property found 6p uno-draw-to-match seed 340, 7p seed 7 and 7p
# uno-party seed 231: undetermined at the session's starting code as after it). There, undetermined is allowed too;
# inconsistent never is, and every other random case of these specs is still judged in full.
SLOW_TO_SETTLE = HEAVY | {"uno-draw-to-match", "uno-party"}
EXAMPLES = int(os.environ.get("REFEREE_PUBLIC_EXAMPLES", "10"))
# the README tier leaves the heavy spec out (an undetermined round costs its whole timeout); .ci/run's long run has it
PROPERTY_SPECS = shipped_spec_names() if "REFEREE_PUBLIC_EXAMPLES" in os.environ else [s for s in shipped_spec_names() if s not in HEAVY]


def test_a_start_card_put_back_was_in_the_draw_pile_before_it_went_back() -> None:
    """The case the property found: a Wild Draw Two turned up and put back; its only copy may not also be in a hand
    dealt before it was turned up (the draw pile's bound holds before each card put back, not only at the end)."""
    _property_case("house-lowest-score", 6, 1172)


def _property_case(spec: str, players: int, seed: int) -> None:
    test_every_projection_is_consistent_and_its_witness_reprojects_to_it.hypothesis.inner_test(spec, players, seed)  # type: ignore[attr-defined]


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.sampled_from(PROPERTY_SPECS), st.integers(2, 10), st.integers(0, 10**6))
def test_every_projection_is_consistent_and_its_witness_reprojects_to_it(spec: str, players: int, seed: int) -> None:
    from referee.checking.replay import card_form
    from referee.log.writer import format_event

    rules = load_rules(_spec(spec))
    players = min(max(players, rules.spec.min_players), rules.spec.max_players)
    events = list(simulate_events(rules, players, seed, "full", spec_line=spec, max_rounds=1))
    public = "".join(format_event(event) + "\n" for event in public_record(events, rules))
    judged = check_stream(io.BytesIO(public.encode()), "<public>", Path.cwd(), timeout=30, witness=True, answers=False)
    if judged.consistency == "undetermined" and spec in SLOW_TO_SETTLE:
        return
    assert judged.valid and judged.consistency == "consistent", (spec, players, seed, judged.errors[:1], judged.undetermined)
    lines = public.split("\n")
    witness = "\n".join(written for number, line in enumerate(lines, start=1) for written in judged.witness.get(number, (line,)))
    again = check_stream(io.BytesIO(witness.encode()), "<witness>", Path.cwd())
    assert again.valid, (spec, players, seed, again.errors[:1])
    reread = list(LogReader(lambda name: card_form(rules)).events(io.BytesIO(witness.encode())))
    projected = "".join(format_event(event) + "\n" for event in public_record(reread, rules))
    assert sorted(projected.splitlines()) == sorted(public.splitlines())


def test_explain_says_a_public_rounds_hand_is_hidden(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "public.log"
    log.write_text(HEAD + "Bob plays red-7\nAnn draws 1\n")
    assert run(["explain", str(log), "--line", "8"]) == 0
    assert "Ann's hand: hidden (a public round)" in capsys.readouterr().out
