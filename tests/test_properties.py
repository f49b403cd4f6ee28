"""Property tests over random legal games and random damage to real logs."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine.engine import GAME_OVER, ROUND_OVER, Engine
from referee.errors import RefereeError
from referee.log import events as ev
from referee.play.simulate import simulate_events, simulate_game
from referee.rules.compiler import load_rules

from helpers import check_bytes, check_text

SPECS = Path(__file__).resolve().parent.parent / "specs"
OFFICIAL = load_rules(SPECS / "uno-flip.yaml")
ALL_SPECS = [load_rules(path) for path in sorted(SPECS.glob("*.yaml"))]
EXAMPLES = sorted((Path(__file__).resolve().parent / "data" / "examples").glob("*.log"))

# The manual's scoring table, written out here independently of the spec.
VALUES = {
    "draw-one": 10,
    "draw-five": 20,
    "reverse": 20,
    "skip": 20,
    "flip": 20,
    "skip-everyone": 30,
    "wild": 40,
    "wild-draw-two": 50,
    "wild-draw-color": 60,
}

games = st.tuples(st.integers(2, 10), st.integers(0, 10**6), st.sampled_from(["full", "observed"]))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, st.sampled_from(ALL_SPECS))
def test_simulated_games_pass_check(game: tuple[int, int, str], rules) -> None:  # type: ignore[no-untyped-def]
    players, seed, mode = game
    spec_line = None if rules.spec.name == "uno-flip" else rules.spec.name
    text = simulate_game(rules, players, seed, mode, spec_line=spec_line, max_rounds=3)
    verdict = check_text(text, base=SPECS)
    assert verdict.valid, verdict.errors
    assert verdict.rounds


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_every_card_is_in_exactly_one_place_and_scores_recompute(game: tuple[int, int, str]) -> None:
    players, seed, mode = game
    steps = 0
    expected_totals: Counter[str] = Counter()

    def on_step(engine: Engine, event: ev.Event) -> None:
        nonlocal steps
        state = engine.state
        if state.round_number == 0 or not state.hands or not (state.discard_pile or state.draw_pile_size()):
            return
        steps += 1
        places: Counter = Counter(state.discard_pile)
        places.update(state.draw_pile if state.knowledge.takes_top() else state.draw_counts)
        for hand in state.hands:
            places.update(hand)
        assert +places == state.deck_counts
        assert state.card_count() == len(state.deck) == 112
        assert sum(state.hand_sizes) == sum(sum(hand.values()) for hand in state.hands)
        assert state.knowledge.takes_top() or state.observed_size == sum(state.draw_counts.values())
        if state.phase in (ROUND_OVER, GAME_OVER) and isinstance(event, ev.Play | ev.Draw):
            result = state.last_result
            assert result is not None and result.winner is not None
            side = 0 if result.side == "light" else 1
            points = 0
            for hand in state.hands:
                for card, count in hand.items():
                    face = card.faces[side]
                    points += count * (face.number if face.number is not None else VALUES[face.kind])
            assert points == result.points
            expected_totals[result.winner] += points
            assert dict(result.totals or {}) == {name: expected_totals[name] for name in state.players}

    for _ in simulate_events(OFFICIAL, players, seed, mode, max_rounds=4, on_step=on_step):
        pass
    assert steps > 0


def _damage(data: bytes, index: int, replacement: bytes) -> bytes:
    lines = data.split(b"\n")
    lines[index % len(lines)] = replacement
    return b"\n".join(lines)


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=2000))
def test_arbitrary_bytes_never_raise(data: bytes) -> None:
    verdict = check_bytes(data)
    assert verdict.errors or verdict.input_error or verdict.valid
    for error in verdict.errors:
        assert error.line >= 1 and error.code


tokens = st.sampled_from(
    [
        "plays",
        "draws",
        "passes",
        "chooses",
        "calls",
        "uno",
        "catches",
        "challenges",
        "reshuffle",
        "scores",
        "round",
        "dealer",
        "start",
        "hand",
        "red-1",
        "wild",
        "wild-draw-two/orange-4",
        "red-1/pink-3",
        "blue",
        "teal",
        "Ann",
        "Kim",
        "bob",
        "Hal",
        "Quin",
        "0",
        "7",
        "500",
        "#",
        "\t",
        "x/y/z",
        "\u00e9",
        "-",
    ]
)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(EXAMPLES), st.integers(0, 10**6), st.lists(tokens, max_size=6), st.binary(max_size=20), st.booleans())
def test_single_line_mutations_of_real_logs_never_raise(path: Path, index: int, words: list[str], noise: bytes, use_noise: bool) -> None:
    data = path.read_bytes()
    replacement = noise if use_noise else " ".join(words).encode()
    try:
        verdict = check_bytes(_damage(data, index, replacement), base=path.parent)
    except RefereeError as error:  # an input error is allowed; anything else is a bug
        assert error.exit_code == 2
        return
    assert verdict.valid or verdict.errors or verdict.input_error
