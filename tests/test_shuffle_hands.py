"""The effect shuffle-hands (the Wild Shuffle Hands of specs/uno-2018.yaml, ruling 27): the line ``P shuffles CARD ...``
in every mode, the library, the host, the public solver and the spec language's refusals."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import referee
from referee.errors import SpecError
from referee.log import events as ev
from referee.play.simulate import simulate_events, simulate_game
from referee.play.table import Table
from referee.public.projection import public_record
from referee.rules.compiler import load_rules
from referee.spec.extends import load_spec

from helpers import check_text, codes, write_spec

SPECS = Path(__file__).resolve().parent.parent / "specs"
HEADER = """players Ann Bob Cat
spec uno-2018
round 1
dealer Cat
hand Ann red-1 red-5 wild-shuffle-hands blue-3 green-4 yellow-1 yellow-2
hand Bob red-2 blue-5 green-7 yellow-4 red-skip green-2 blue-8
hand Cat red-3 blue-6 green-8 yellow-5 wild-customizable green-3 blue-9
start red-9
"""


def _hands(game: referee.Game) -> dict[str, list[str]]:
    return {name: sorted(str(card) for card in game.hand(name)) for name in game.players}


def test_the_cards_are_dealt_one_at_a_time_from_the_player_s_left() -> None:
    game = referee.Game.from_log(HEADER + "Ann plays wild-shuffle-hands blue\n")
    assert game.turn == "Ann"
    (move,) = game.legal_moves()  # Ann holds 6 cards: no UNO call, only the deal
    assert move.verb == "shuffles" and len(move.event.cards) == 20
    cards = list(move.event.cards)
    random.Random(3).shuffle(cards)
    game.push(f"Ann shuffles {' '.join(cards)}")
    hands = _hands(game)
    assert hands["Bob"] == sorted(cards[0::3]) and hands["Cat"] == sorted(cards[1::3]) and hands["Ann"] == sorted(cards[2::3])
    assert [len(hands[name]) for name in ("Bob", "Cat", "Ann")] == [7, 7, 6]
    assert game.turn == "Bob"  # play goes on from Ann as after a Wild


def test_only_the_call_or_the_deal_may_follow_and_the_deal_names_every_card_once() -> None:
    game = referee.Game.from_log(HEADER + "Ann plays wild-shuffle-hands blue\n")
    assert game.is_legal("Bob plays blue-5").code == "shuffle-missing"
    assert game.is_legal("Bob shuffles").code == "shuffle-missing"  # not Bob's to deal
    dealt = list(game.legal_moves()[0].event.cards)
    assert game.is_legal("Ann shuffles " + " ".join(dealt[:-1])).code == "invalid-shuffle"  # a card left out
    assert game.is_legal("Ann shuffles " + " ".join([*dealt, "red-7"])).code == "invalid-shuffle"  # one in no hand
    assert game.is_legal("Ann shuffles " + " ".join([*dealt[:-1], "red-7"])).code == "invalid-shuffle"
    assert game.is_legal("Ann shuffles " + " ".join(reversed(dealt))).diagnostic is None  # any order the shuffle gives
    plain = referee.Game.from_log(HEADER + "Ann plays red-5\n")
    assert plain.is_legal("Bob shuffles").code == "out-of-turn"
    classic = referee.Game.from_log(
        HEADER.replace("spec uno-2018", "spec uno").replace("wild-shuffle-hands", "wild").replace("wild-customizable", "wild")
    )
    assert "no card of this game shuffles hands" in classic.is_legal("Ann shuffles").message


def test_a_call_may_come_first_and_the_deal_closes_every_uno_window() -> None:
    folder = SPECS.parent / "scenarios" / "uno-2018"
    text = (folder / "shuffle-last-card.log").read_text(encoding="utf-8")
    before = text.split("Ann plays red-6\n")[0]  # Ann holds red-6 and the Wild Shuffle Hands
    game = referee.Game.from_log(before + "Ann plays wild-shuffle-hands green\n")
    assert sorted(str(move) for move in game.legal_moves() if move.verb != "shuffles") == ["Ann calls uno"]
    called = game.copy()
    called.push("Ann calls uno")
    called.push(next(move for move in called.legal_moves() if move.verb == "shuffles"))
    assert check_text(called.log()).warnings == [] and all(move.verb != "calls" for move in called.legal_moves())
    game.push(next(move for move in game.legal_moves() if move.verb == "shuffles"))
    warnings = [(warning.line, warning.code) for warning in check_text(game.log()).warnings]
    assert warnings[-1][1] == "uncaught-uno" and warnings[-1][0] == len(game.log().splitlines()) - 1  # at the play's line


def test_the_last_card_does_not_win_and_a_player_left_without_cards_goes_out() -> None:
    folder = SPECS.parent / "scenarios" / "uno-2018"
    dealt = check_text((folder / "shuffle-last-card.log").read_text(encoding="utf-8"), base=folder)
    assert dealt.errors == [] and not dealt.rounds[0].finished
    too_few = check_text((folder / "shuffle-too-few.log").read_text(encoding="utf-8"), base=folder)
    assert too_few.errors == [] and too_few.rounds[0].winner == "Ann" and too_few.rounds[0].points == 3


def test_simulated_games_in_every_mode_check_valid_and_their_public_records_are_consistent() -> None:
    rules = load_rules(SPECS / "uno-2018.yaml")
    shuffled = 0
    for seed, mode in ((1, "full"), (2, "observed"), (3, "public")):
        text = simulate_game(rules, 3, seed, mode, spec_line="uno-2018", max_rounds=4)
        shuffled += text.count(" shuffles")
        verdict = check_text(text)
        assert verdict.errors == [], (mode, codes(verdict))
    assert shuffled >= 1
    full = list(simulate_events(rules, 4, 5, "full", spec_line="uno-2018", max_rounds=3))
    assert any(isinstance(event, ev.ShuffleHands) and event.cards for event in full)
    public = [event for event in public_record(full, rules) if isinstance(event, ev.ShuffleHands)]
    assert public and all(event.cards == () for event in public)


def test_a_public_shuffle_names_no_cards() -> None:
    folder = SPECS.parent / "scenarios" / "uno-2018"
    text = (folder / "shuffle-public.log").read_text(encoding="utf-8")
    assert check_text(text).errors == []
    named = text.replace("Ann shuffles\n", "Ann shuffles red-1\n")
    assert codes(check_text(named)) == [(9, "invalid-shuffle")]


def test_the_host_deals_the_shuffle_itself_and_its_games_check_valid() -> None:
    table = Table(SPECS / "uno-2018.yaml", ["Ann", "Bob", "Cat"], seed=4, target=100)
    chooser = random.Random(4)
    for _ in range(5000):
        decision = table.decision()
        if decision is None:
            break
        assert all(move.verb != "shuffles" for move in decision.moves)  # a deal names every hand: no seat sees it
        table.play(chooser.choice(decision.moves))
    log = table.game.log()
    assert " shuffles " in log
    assert check_text(log).errors == []


def test_the_verb_is_listed_and_named_only_where_a_card_shuffles_hands() -> None:
    classic = check_text("players Ann Shuffles\nspec uno\nround 1\ndealer Ann\nAnn jumps\n")
    assert "shuffles" not in classic.errors[0].message and "swaps" in classic.errors[0].message
    edition = check_text("players Ann Bob\nspec uno-2018\nround 1\ndealer Ann\nAnn jumps\n")
    assert "shuffles" in edition.errors[0].message


@pytest.mark.parametrize(
    ("effects", "message"),
    [
        ("[choose-colour, shuffle-hands, swap-hands]", "cannot be combined (each decides where the hands go)"),
        ("[choose-colour, shuffle-hands, {next-player-draws: 2}]", "beside 'shuffle-hands' is not in the vocabulary"),
    ],
)
def test_a_shuffle_with_another_hand_effect_or_a_penalty_is_refused(effects: str, message: str, tmp_path: Path) -> None:
    body = f"extends: uno-2018\nkinds:\n  wild-shuffle-hands: {{effects: {effects}}}\n"
    with pytest.raises(SpecError) as raised:
        load_spec(write_spec(tmp_path, "bad-shuffle", body))
    assert message in str(raised.value)
