"""The engine and the Z3 model agree: on at least 10,000 transitions of simulated games (2 to 10 players,
both modes, official and house specs) the Z3 transition relation holds for the engine's successor and
rejects a perturbed successor. Without this a proof would say nothing about the program."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import z3

from referee.engine.engine import PLAYING, Engine
from referee.log import events as ev
from referee.play.simulate import Simulator
from referee.proof.model import NONE, OWED_UNTIL_COLOUR, Model, State
from referee.rules.compiler import Rules, load_rules

from helpers import write_spec

SPECS = Path(__file__).resolve().parent.parent / "specs"
TARGET = 10_000


@dataclass
class Snapshot:
    values: dict[str, Any]
    penalties: list[Any]
    card_place: int
    draw_size: int


def _place(engine: Engine, card: Any) -> int:
    state = engine.state
    for seat, hand in enumerate(state.hands):
        if hand.get(card):
            return seat
    if card in state.discard_pile:
        return len(state.players) + 1
    return len(state.players)


def _snapshot(engine: Engine, model: Model, card: Any) -> Snapshot:
    state = engine.state
    values = {
        "hands": list(state.hand_sizes),
        "draw": state.draw_pile_size(),
        "discard": len(state.discard_pile),
        "card": _place(engine, card),
        "side": state.side,
        "turn": state.turn,
        "direction": state.direction,
        "colour": model.colour_index[state.colour] if state.colour is not None else NONE,
        "pending": state.choose_by is not None,
        "drew": state.drew,
        "window": state.uno_player if state.uno_player is not None else NONE,
        "called": state.uno_called,
        "owed_seat": _OWED[0][0],
        "owed": _OWED[0][1],
        **_DISPUTE[0],
    }
    return Snapshot(values, list(state.penalties), values["card"], state.draw_pile_size())


def _state(values: dict[str, Any], n: int) -> State:
    return State(
        n=n,
        hands=[z3.IntVal(h) for h in values["hands"]],
        draw=z3.IntVal(values["draw"]),
        discard=z3.IntVal(values["discard"]),
        card=z3.IntVal(values["card"]),
        side=z3.IntVal(values["side"]),
        turn=z3.IntVal(values["turn"]),
        direction=z3.IntVal(values["direction"]),
        colour=z3.IntVal(values["colour"]),
        pending=z3.BoolVal(values["pending"]),
        drew=z3.BoolVal(values["drew"]),
        window=z3.IntVal(values["window"]),
        called=z3.BoolVal(values["called"]),
        owed_seat=z3.IntVal(values["owed_seat"]),
        owed=z3.IntVal(values["owed"]),
        extra=z3.IntVal(values["extra"]),
        after=z3.IntVal(values["after"]),
        challengeable=z3.BoolVal(values["challengeable"]),
        played_by=z3.IntVal(values["played_by"]),
        caught_seat=z3.IntVal(values["caught_seat"]),
        caught_owed=z3.IntVal(values["caught_owed"]),
    )


def _perturb(values: dict[str, Any], n: int, which: int) -> dict[str, Any]:
    changed = dict(values, hands=list(values["hands"]))
    choice = which % 7
    if choice == 0:
        changed["draw"] += 1
    elif choice == 1:
        changed["discard"] += 1
    elif choice == 2:
        changed["turn"] = (changed["turn"] + 1) % n
    elif choice == 3:
        changed["side"] = 1 - changed["side"]
    elif choice == 4:
        changed["hands"][which % n] += 1
    elif choice == 5:
        changed["card"] = (changed["card"] + 1) % (n + 2)
    else:
        changed["window"] = NONE if changed["window"] != NONE else which % n
    return changed


def _settled(before: Snapshot, engine: Engine) -> tuple[bool, int]:
    """Whether a penalty with a next turn ended during the event, and that turn."""
    after = engine.state.penalties
    if len(after) >= len(before.penalties):
        return False, 0  # nothing ended (a guilty challenge replaces the penalty: the culprit now owes it)
    ended = [p for p in before.penalties if not any(p is q for q in after) and p.next_turn is not None]
    return (True, ended[-1].next_turn) if ended else (False, 0)


def _relation(model: Model, rules: Rules, before: Snapshot, engine: Engine, event: ev.Event, pre: State, post: State) -> Any:
    n = model.n
    state = engine.state
    if isinstance(event, ev.Play):
        seat = state.seat[event.player]
        played = _PLAYED[0]
        face_rules = rules.faces[played.faces[before.values["side"]]]
        top = state.top_face()
        uncovered = model.colour_index[top.colour] if top is not None and top.colour is not None else NONE
        chosen = model.colour_index[event.colour] if event.colour else NONE
        moved = z3.BoolVal(before.card_place == seat and _place(engine, _CARD[0]) == n + 1)
        return model.play(
            pre,
            post,
            z3.IntVal(seat),
            face_rules,
            z3.IntVal(model.colour_of(face_rules)),
            z3.IntVal(chosen),
            z3.IntVal(uncovered),
            moved,
            z3.IntVal(1 + len(event.also)) if rules.doubles else 1,
        )
    settled, settled_turn = _settled(before, engine)
    if isinstance(event, ev.Draw):
        seat = state.seat[event.player]
        count = before.draw_size - state.draw_pile_size()
        owed_by_seat = bool(before.penalties) and before.penalties[0].player == seat
        into_discard = owed_by_seat and before.penalties[0].into_discard
        moved = z3.BoolVal(before.card_place == n and _place(engine, _CARD[0]) != n)
        return model.draw(
            pre,
            post,
            z3.IntVal(seat),
            z3.IntVal(count),
            owed_by_seat,
            into_discard,
            z3.BoolVal(settled),
            z3.IntVal(settled_turn),
            moved,
        )
    if isinstance(event, ev.Reshuffle):
        moved = z3.BoolVal(before.card_place == n + 1 and _place(engine, _CARD[0]) == n)
        return model.reshuffle(pre, post, moved, z3.BoolVal(settled), z3.IntVal(settled_turn))
    if isinstance(event, ev.Pass):
        return model.pass_turn(pre, post, z3.IntVal(state.seat[event.player]))
    if isinstance(event, ev.Choose):
        return model.choose(pre, post, z3.IntVal(model.colour_index[event.colour]))
    if isinstance(event, ev.Call):
        return model.call(pre, post, z3.IntVal(state.seat[event.player]))
    if isinstance(event, ev.Swap):
        return model.swap(pre, post, z3.IntVal(state.seat[event.player]), z3.IntVal(state.seat[event.target]))
    if isinstance(event, ev.ShuffleHands):
        return model.shuffle_hands(pre, post, z3.IntVal(state.seat[event.player]))
    ruled = engine.disputes[-1] if engine.disputes and engine.disputes[-1].line == event.line else None
    if isinstance(event, ev.Challenge) and ruled is not None and ruled.ruling in ("guilty", "innocent") and state.penalties:
        return model.challenge(pre, post, z3.IntVal(state.seat[event.player]), z3.BoolVal(ruled.ruling == "guilty"))
    if isinstance(event, ev.Catch) and ruled is not None and ruled.ruling == "valid":
        return model.catch(pre, post, z3.IntVal(state.seat[event.player]), z3.IntVal(state.seat[event.target]))
    closes = isinstance(event, ev.Challenge)
    return model.unchanged(pre, post, z3.BoolVal(settled), z3.IntVal(settled_turn), z3.BoolVal(closes))


_CARD: list[Any] = [None]  # the one arbitrary card followed in this game
_PLAYED: list[Any] = [None]  # the physical card the last play took from a hand
_OWED: list[tuple[int, int]] = [(NONE, 0)]  # the penalty the last play or start card gave: (seat, cards), the model's owed_*
# What the last play, ruled challenge or catch set of the model's dispute variables (free after any other event).
_NO_DISPUTE = {"extra": 0, "after": NONE, "challengeable": False, "played_by": NONE, "caught_seat": NONE, "caught_owed": 0}
_DISPUTE: list[dict[str, Any]] = [dict(_NO_DISPUTE)]


def _owed_now(engine: Engine, penalty: Any) -> tuple[int, int]:
    return penalty.player, OWED_UNTIL_COLOUR if penalty.until_colour is not None else penalty.count


def _given_penalty(before: list[Any], engine: Engine) -> tuple[int, int]:
    """The penalty the last play added, in the model's terms (a stacked play owes the total: effects.stacked_total)."""
    after = engine.state.penalties
    new = [p for p in after if not any(p is q for q in before)]
    if not new:
        return NONE, 0
    penalty = new[-1]
    if penalty.until_colour is not None:
        return penalty.player, OWED_UNTIL_COLOUR
    return penalty.player, penalty.count


def _start_penalty(engine: Engine) -> tuple[int, int]:
    penalties = engine.state.penalties
    if not penalties:
        return NONE, 0
    return penalties[0].player, OWED_UNTIL_COLOUR if penalties[0].until_colour is not None else penalties[0].count


def _run(rules: Rules, players: int, seed: int, mode: str) -> tuple[int, list[str]]:
    model = Model(rules, players, len(rules.deck))
    singles = [card for card, count in rules.deck_counts.items() if count == 1]
    _CARD[0] = singles[seed % len(singles)]
    _OWED[0] = (NONE, 0)
    _DISPUTE[0] = dict(_NO_DISPUTE)
    simulator = Simulator(rules, players, seed, mode, max_rounds=2)
    checked = 0
    problems: list[str] = []
    holder: dict[str, Any] = {}

    def before(engine: Engine, event: ev.Event) -> None:
        state = engine.state
        holder["snapshot"] = _snapshot(engine, model, _CARD[0]) if state.phase is PLAYING else None
        if isinstance(event, ev.Play) and state.phase is PLAYING:  # every hand: a 0 may pass them all on (zero rotates)
            holder["hand"] = sum((Counter(hand) for hand in state.hands), Counter())

    def after(engine: Engine, event: ev.Event) -> None:
        nonlocal checked
        snapshot = holder.get("snapshot")
        state = engine.state
        if isinstance(event, ev.Shuffle | ev.Start) and state.phase is PLAYING:
            _OWED[0] = _start_penalty(engine)
            start = _state(_snapshot(engine, model, _CARD[0]).values, players)
            deal = z3.Solver()  # the start card's colour is existential: any face of its behaviour
            deal.add(model.deal(start, z3.IntVal(state.dealer)))
            if deal.check() != z3.sat:
                problems.append(f"line {event.line}: the deal relation rejects the engine's state after {type(event).__name__}")
            wrong = z3.Solver()  # one card too many in the draw pile: no deal
            wrong.add(model.deal(_state(_perturb(_snapshot(engine, model, _CARD[0]).values, players, 0), players), z3.IntVal(state.dealer)))
            if wrong.check() != z3.unsat:
                problems.append(f"line {event.line}: the deal relation accepts a perturbed state")
            checked += 1
            return
        if snapshot is None or isinstance(event, ev.Round | ev.Dealer | ev.Hand | ev.Shuffle | ev.Start):
            return
        if isinstance(event, ev.Play):
            _OWED[0] = _given_penalty(snapshot.penalties, engine)
            new = [p for p in state.penalties if not any(p is q for q in snapshot.penalties)]
            given = new[-1] if new else None
            _DISPUTE[0] = dict(
                _DISPUTE[0],
                extra=given.extra if given else 0,
                after=given.next_turn if given and given.next_turn is not None else NONE,
                challengeable=bool(given and given.challengeable),
                played_by=state.seat[event.player],
            )
            now = sum((Counter(hand) for hand in state.hands), Counter())
            gone = list((holder["hand"] - now).elements())  # the one card that left the hands
            _PLAYED[0] = gone[0]
        ruled = engine.disputes[-1] if engine.disputes and engine.disputes[-1].line == event.line else None
        if isinstance(event, ev.Challenge) and ruled is not None and ruled.ruling in ("guilty", "innocent") and state.penalties:
            owed = state.penalties[0]
            _OWED[0] = _owed_now(engine, owed)
            after = owed.next_turn if owed.next_turn is not None else NONE
            _DISPUTE[0] = dict(_DISPUTE[0], extra=owed.extra, after=after, challengeable=False)
        if isinstance(event, ev.Catch) and ruled is not None and ruled.ruling == "valid":
            caught = state.penalties[0] if state.penalties and state.penalties[0].catch else None
            drawer = caught.player if caught else state.seat[event.target]
            _DISPUTE[0] = dict(_DISPUTE[0], caught_seat=drawer, caught_owed=caught.count if caught else 0)
        if isinstance(event, ev.Draw) and _settled(snapshot, engine)[0]:
            _OWED[0] = (NONE, 0)  # the penalty is drawn: nobody owes it (the model's draw says so)
        post_values = _snapshot(engine, model, _CARD[0]).values
        pre = _state(snapshot.values, players)
        relation = _relation(model, rules, snapshot, engine, event, pre, _state(post_values, players))
        if not z3.is_true(z3.simplify(relation)):
            problems.append(
                f"seed {seed} line {event.line} {type(event).__name__}: Z3 rejects the engine's successor "
                f"{snapshot.values} -> {post_values}"
            )
        wrong = _state(_perturb(post_values, players, checked), players)
        if not z3.is_false(z3.simplify(_relation(model, rules, snapshot, engine, event, pre, wrong))):
            problems.append(f"seed {seed} line {event.line} {type(event).__name__}: Z3 accepts a perturbed successor")
        checked += 1

    simulator.before_step = before
    simulator.on_step = after
    for _ in simulator.events():
        pass
    return checked, problems


def _agree(spec_paths: list[Path], target: int) -> int:
    """Replay simulated games under each spec in turn, checking every transition against Z3, until ``target``."""
    specs = [load_rules(path) for path in spec_paths]
    total = 0
    problems: list[str] = []
    seed = 0
    while total < target:
        rules = specs[seed % len(specs)]
        spec = rules.spec
        players = spec.min_players + seed % (spec.max_players - spec.min_players + 1)
        mode = "full" if seed % 2 == 0 else "observed"
        checked, found = _run(rules, players, seed, mode)
        total += checked
        problems += [f"{spec.name}: {problem}" for problem in found]
        seed += 1
        assert not problems, problems[:5]
    return total


def test_engine_and_z3_agree_on_a_quick_sample() -> None:
    """The quick tier: every shipped spec, about five hundred transitions (the slow tier checks ten thousand)."""
    assert _agree(sorted(SPECS.glob("*.yaml")), 500) >= 500


@pytest.mark.slow
def test_engine_and_z3_agree_on_10000_transitions() -> None:
    assert _agree(sorted(SPECS.glob("*.yaml")), TARGET) >= TARGET


VARIANTS = sorted((Path(__file__).resolve().parent / "broken_specs").rglob("*.yaml"))
VARIANTS += sorted((Path(__file__).resolve().parent / "harmless_specs").glob("*.yaml"))

# Every value of every option and every effect setting, one spec each over the official one: the matrix of branches.
MATRIX = {
    "start-colour-chooser-dealer": "options:\n  start-colour-chooser: {value: dealer}\n",
    "flip-colour-chooser-flipper": "options:\n  flip-colour-chooser: {value: player-who-flipped}\n",
    "flip-colour-chooser-nobody": "options:\n  flip-colour-chooser: {value: nobody}\n",
    "reshuffle-take-all": "options:\n  reshuffle: {value: take-all}\n",
    "two-player-reverse-reverse": "options:\n  two-player-reverse: {value: reverse}\n",
    "scoring-own-hand": "options:\n  scoring: {value: own-hand-lowest-wins}\n",
    "dealer-rotation-right": "options:\n  dealer-rotation: {value: right}\n",
    "stacking": "options:\n  stacking: {value: [draw-one, draw-five]}\n",
    "flip-keeps-draw-pile": "kinds:\n  flip: {effects: [{flip: {draw-pile: keep}}]}\n",
    "flip-keeps-discard-pile": "kinds:\n  flip: {effects: [{flip: {discard-pile: keep}}]}\n",
    "flip-keeps-both": "kinds:\n  flip: {effects: [{flip: {draw-pile: keep, discard-pile: keep}}]}\n",
    "draw-one-into-discard": "kinds:\n  draw-one: {effects: [{next-player-draws: {count: 1, into: discard-pile}}]}\n",
    "skip-two": "kinds:\n  skip: {effects: [{skip: 2}]}\n",
    "start-skip-applies-reverse": "kinds:\n  skip: {at-start: [reverse, apply-effects]}\n",
    "guilty-challenger-draws-extra": "disputes:\n  challenge-guilty: {draws: challenger, cards: penalty-and-extra}\n",
    "guilty-challenger-loses-turn": "disputes:\n  challenge-guilty: {then: challenger-loses-turn}\n",
    "innocent-player-draws-no-extra": "disputes:\n  challenge-innocent: {draws: player, cards: penalty, then: challenger-plays}\n",
    "catcher-draws": "disputes:\n  catch: {draws: catcher}\n",
}


@pytest.mark.slow
@pytest.mark.parametrize("spec", VARIANTS, ids=lambda spec: spec.stem)
def test_engine_and_z3_agree_on_every_variant(spec: Path) -> None:
    """Broken or not, a spec compiles to one engine and one model: they must agree on its every branch and option."""
    assert _agree([spec], 300) >= 300


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(MATRIX))
def test_engine_and_z3_agree_on_every_option_value_and_effect_setting(name: str, tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_bytes((SPECS / "uno-flip.yaml").read_bytes())  # beside it: extends stays in its folder
    spec = write_spec(tmp_path, f"matrix-{name}", f"extends: base.yaml\n{MATRIX[name]}", file=f"{name}.yaml")
    assert _agree([spec], 600) >= 600


def _mutated(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Break one branch of the model on purpose."""
    if name == "penalty amount":
        real = Model.owes

        def owes(self: Model, post: State, face_rules: Any, victim: Any, stacked_on: Any = 0) -> list[Any]:
            found = real(self, post, face_rules, victim, stacked_on)
            return [*found[:1], post.owed == (face_rules.draw + 1)] if face_rules.gives_penalty and face_rules.draw else found

        monkeypatch.setattr(Model, "owes", owes)
    elif name == "dealer first":
        real_deal = Model.deal_for

        def deal_for(self: Model, state: State, face_rules: Any, dealer: Any) -> Any:
            from dataclasses import replace

            return real_deal(self, state, replace(face_rules, at_start=face_rules.at_start - {"dealer-first"}), dealer)

        monkeypatch.setattr(Model, "deal_for", deal_for)
    elif name == "two-player reverse":
        real_play = Model.play

        def play(self: Model, pre: State, post: State, seat: Any, face_rules: Any, *rest: Any) -> Any:
            from dataclasses import replace

            if face_rules.reverse and self.n == 2:
                face_rules = replace(face_rules, reverse=False)
            return real_play(self, pre, post, seat, face_rules, *rest)

        monkeypatch.setattr(Model, "play", play)

    elif name == "reshuffle keeps the top":
        monkeypatch.setattr(Model, "reshuffle", _reshuffle_inverted)
    elif name == "flip keeps the side":
        real_flip_play = Model.play

        def play_without_flip(self: Model, pre: State, post: State, seat: Any, face_rules: Any, *rest: Any) -> Any:
            from dataclasses import replace

            return real_flip_play(self, pre, post, seat, replace(face_rules, flip=False) if face_rules.flip else face_rules, *rest)

        monkeypatch.setattr(Model, "play", play_without_flip)
    elif name == "penalty into the discard pile":
        real_draw = Model.draw

        def draw(self: Model, pre: State, post: State, seat: Any, count: Any, penalty: bool, into_discard: bool, *rest: Any) -> Any:
            return real_draw(self, pre, post, seat, count, penalty, penalty or into_discard, *rest)

        monkeypatch.setattr(Model, "draw", draw)
    elif name in ("guilty ruled as innocent", "catcher draws"):
        from dataclasses import replace

        real_model_init = Model.__init__
        spec_model_disputes = load_rules(SPECS / "uno-flip.yaml").spec.disputes
        if name == "guilty ruled as innocent":
            disputes = replace(spec_model_disputes, guilty=spec_model_disputes.innocent)
        else:
            disputes = replace(spec_model_disputes, catch_draws="catcher")

        def init(self: Model, rules: Rules, n: int, cards: int) -> None:
            real_model_init(self, replace(rules, spec=replace(rules.spec, disputes=disputes)), n, cards)

        monkeypatch.setattr(Model, "__init__", init)


_REAL_RESHUFFLE = Model.reshuffle


def _reshuffle_inverted(self: Model, pre: State, post: State, *rest: Any) -> Any:
    """The model's reshuffle with the spec's keep-top setting inverted."""
    from dataclasses import replace

    real_rules = self.rules
    self.rules = replace(real_rules, reshuffle_keeps_top=not real_rules.reshuffle_keeps_top)
    try:
        return _REAL_RESHUFFLE(self, pre, post, *rest)
    finally:
        self.rules = real_rules


MUTATIONS = ["penalty amount", "dealer first", "two-player reverse", "reshuffle keeps the top", "flip keeps the side"]
MUTATIONS += ["penalty into the discard pile", "guilty ruled as innocent", "catcher draws"]


@pytest.mark.slow
@pytest.mark.parametrize("mutation", MUTATIONS)
def test_a_mutated_model_branch_is_caught(monkeypatch: pytest.MonkeyPatch, mutation: str) -> None:
    _mutated(monkeypatch, mutation)
    with pytest.raises(AssertionError):
        _agree([SPECS / "uno-flip.yaml"], 10_000)


def test_the_engine_turns_piles_over_as_flipped_position_says() -> None:
    """``effects.turn_over`` (the engine's reading) puts every card where ``effects.flipped_position`` (the Z3 model's
    reading) says, for both settings of a Flip's pile and every pile length."""
    from referee.rules import effects

    for reverses in (True, False):
        for length in range(0, 120):
            pile = list(range(length))
            effects.turn_over(pile, reverses)
            assert all(pile[effects.flipped_position(position, length, reverses)] == position for position in range(length))
