"""The invariants of every spec (``specs/invariants.yml``), each written once: its Z3 question beside its check
of one concrete step of the engine.

Each invariant is one of three kinds of question:
- induction over the transition relation, for every player count;
- a property of one transition kind (a flip's effect on pile order, a draw's
  destination), asked over symbolic positions and counts;
- a finite question about the compiled rules (the values that can be scored,
  whether each face can match something), answered by enumeration.
The concrete form judges a step of a simulated game: the counterexample
search (``referee.proof.counterexamples``) stops at the first step it breaks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import z3

from referee.engine.engine import GAME_OVER, PLAYING, ROUND_OVER, Engine
from referee.errors import Position, SpecError
from referee.proof.answers import Answer, Status, all_unsat, ask, for_each_count
from referee.proof.gaps import SITUATIONS, Gap
from referee.proof.model import Model, State, solver
from referee.proof.queries import per_player_count
from referee.records import dataclass
from referee.rules import effects
from referee.rules.compiler import Rules
from referee.spec.loader import Mapping, Scalar, Sequence, load_file


@dataclass(frozen=True, slots=True)
class Invariant:
    """An invariant of the claims file: its id and its summary."""

    id: str
    summary: str


@dataclass(frozen=True, slots=True)
class Invariants:
    """A spec's invariants, with the card count they hold for and the gaps checked beside them."""

    cards: int
    invariants: tuple[Invariant, ...]
    gaps: tuple[Gap, ...]


def load_invariants(path: Path | None = None) -> Invariants:
    """The invariants declared beside the shipped specs (``specs/invariants.yml``)."""
    if path is None:
        from referee.spec.paths import SPECS

        path = SPECS / "invariants.yml"
    tree = load_file(path)
    problems: list[tuple[Position, str]] = []

    def text(node: Any, what: str) -> str:
        if not isinstance(node, Scalar):
            problems.append((getattr(node, "position", Position(str(path))), f"{what} must be a value"))
            return ""
        return node.value

    constants = tree.entries.get("constants")
    cards = int(text(constants.entries.get("cards"), "cards") or 0) if isinstance(constants, Mapping) else 0
    invariants: list[Invariant] = []
    gaps: list[Gap] = []
    for key in ("invariants", "gaps"):
        node = tree.entries.get(key)
        for item in node.items if isinstance(node, Sequence) else ():
            if not isinstance(item, Mapping):
                problems.append((item.position, f"each of {key} is a mapping"))
                continue
            entry_id = text(item.entries.get("id"), "id")
            summary = text(item.entries.get("summary"), "summary")
            if key == "invariants":
                invariants.append(Invariant(entry_id, summary))
            else:
                gaps.append(Gap(entry_id, summary, int(text(item.entries.get("ruling"), "ruling") or 0)))
    for invariant in invariants:
        if invariant.id not in CHECKERS:
            problems.append((tree.position, f"invariant '{invariant.id}' has no proof procedure"))
    for gap in gaps:
        if gap.id not in SITUATIONS:
            problems.append((tree.position, f"gap '{gap.id}' has no question for the model"))
    if problems:
        raise SpecError(problems)
    return Invariants(cards, tuple(invariants), tuple(gaps))


def _conservation(rules: Rules, cards: int, players: tuple[int, ...], timeout_ms: int) -> tuple[Status, list[int]]:
    return per_player_count(rules, cards, lambda m, s: m.conservation(s), players, timeout_ms)


def _conservation_seen(engine: Engine, cards: int, before: Any, event: Any) -> str | None:
    total = engine.state.card_count()
    return f"{total} cards in play, not {cards}" if total != cards else None


def _colour_of_side(rules: Rules, cards: int, players: tuple[int, ...], timeout_ms: int) -> tuple[Status, list[int]]:
    return per_player_count(rules, cards, lambda m, s: m.colour_of_side(s), players, timeout_ms)


def _colour_of_side_seen(engine: Engine, cards: int, before: Any, event: Any) -> str | None:
    state = engine.state
    colourless = state.choose_by is None and state.colour not in engine.rules.side_colours[state.side]
    if state.phase is PLAYING and colourless:
        return f"colour in play {state.colour} is not a colour of the {engine.rules.spec.side_names[state.side]} side"
    return None


def _discard_has_top(rules: Rules, cards: int, players: tuple[int, ...], timeout_ms: int) -> tuple[Status, list[int]]:
    return per_player_count(rules, cards, lambda m, s: m.discard_has_top(s), players, timeout_ms)


def _discard_has_top_seen(engine: Engine, cards: int, before: Any, event: Any) -> str | None:
    state = engine.state
    return "the discard pile has no top card" if state.phase is PLAYING and not state.discard_pile else None


def _flip_order(rules: Rules, cards: int, players: tuple[int, ...], timeout_ms: int) -> tuple[Status, list[int]]:
    """For every flip face: any two cards of either pile swap order, and a second flip restores both."""

    def questions() -> Iterator[z3.Solver]:
        for face_rules in rules.faces.values():
            if not face_rules.flip:
                continue
            for reverses in (face_rules.flip_draw_pile, face_rules.flip_discard_pile):
                length, first, second = z3.Ints("length first second")

                def turned(position: Any, reverses: bool = reverses, length: Any = length) -> Any:
                    return effects.flipped_position(position, length, reverses)  # the engine turns piles by it too

                check = solver(timeout_ms)
                check.add(length >= 2, length <= cards, first >= 0, first < second, second < length)
                swapped = turned(first) > turned(second)
                restored = z3.And(turned(turned(first)) == first, turned(turned(second)) == second)
                check.add(z3.Not(z3.And(swapped, restored)))
                yield check

    return all_unsat(questions(), players)


def _flip_order_seen(engine: Engine, cards: int, before: Any, event: Any) -> str | None:
    from referee.log import events as ev

    state = engine.state
    if before is None or not (isinstance(event, ev.Play) and state.side != before.side and state.knowledge.takes_top()):
        return None
    # The Flip just played joins the discard pile before it turns over: it ends at the bottom, below the old pile reversed.
    reversed_both = state.draw_pile == before.draw_pile[::-1] and state.discard_pile[1:] == before.discard_pile[::-1]
    return None if reversed_both else "a flip did not reverse both piles"


def _penalty_into_hand(rules: Rules, cards: int, players: tuple[int, ...], timeout_ms: int) -> tuple[Status, list[int]]:
    """Every draw transition adds exactly the cards it takes from the draw pile to the drawer's hand."""

    def question(n: int) -> Answer:
        model = Model(rules, n, cards)
        pre, post = State.make(n, "a"), State.make(n, "b")
        seat, count, next_turn = z3.Int("seat"), z3.Int("count"), z3.Int("next_turn")
        completes, moved = z3.Bool("completes"), z3.Bool("moved")
        draws = [model.draw(pre, post, seat, count, False, False, completes, next_turn, moved)]
        for into_discard in sorted({f.penalty_into_discard for f in model.signatures if f.gives_penalty}):
            draws.append(model.draw(pre, post, seat, count, True, into_discard, completes, next_turn, moved))
        check = solver(timeout_ms)
        check.add(model.conservation(pre), z3.Or(*draws), z3.Not(post.hand(seat) == pre.hand(seat) + count))
        return ask(check)

    return for_each_count(players, question)


def _penalty_into_hand_seen(engine: Engine, cards: int, before: Any, event: Any) -> str | None:
    from referee.log import events as ev

    state = engine.state
    if before is None or not isinstance(event, ev.Draw):
        return None
    seat = state.seat[event.player]
    taken = len(before.draw_pile) - len(state.draw_pile) if state.knowledge.takes_top() else len(event.cards)
    grew = state.hand_sizes[seat] - before.hand_sizes[seat]
    return f"{event.player} drew {taken} cards but their hand grew by {grew}" if grew != taken else None


def _score_bounds(rules: Rules, cards: int, players: tuple[int, ...], timeout_ms: int) -> tuple[Status, list[int]]:
    """Totals stay >= 0 and a round's points lie between 0 and the value of every card but one."""

    def questions() -> Iterator[z3.Solver]:
        for side in range(rules.spec.sides):
            copies: Counter[int] = Counter()
            for face, count in _deck_faces(rules, side).items():
                copies[rules.faces[face].points] += count
            held = {value: z3.Int(f"held_{side}_{value}".replace("-", "m")) for value in copies}
            total_before, points = z3.Int("total_before"), z3.Int("points")
            most = sum(max(value, 0) * count for value, count in copies.items())
            check = solver(timeout_ms)
            for value, variable in held.items():
                check.add(variable >= 0, variable <= copies[value])
            check.add(z3.Sum(*held.values()) <= len(rules.deck) - 1 if held else z3.BoolVal(True))
            check.add(points == z3.Sum(*[value * variable for value, variable in held.items()]) if held else points == 0)
            check.add(total_before >= 0)
            check.add(z3.Not(z3.And(points >= 0, points <= most, total_before + points >= 0)))
            yield check

    return all_unsat(questions(), players)


def _score_bounds_seen(engine: Engine, cards: int, before: Any, event: Any) -> str | None:
    state = engine.state
    result = state.last_result
    if result is not None and (min(state.totals) < 0 or (result.points or 0) < 0):
        return f"negative score: totals {state.totals}"
    return None


def _deck_faces(rules: Rules, side: int) -> Counter[Any]:
    return Counter(card.faces[side] for card in rules.deck)


def _faces_playable(rules: Rules, cards: int, players: tuple[int, ...], timeout_ms: int) -> tuple[Status, list[int]]:
    """Finite: every face of the deck against every top face of its side under every colour, by the engine's matching."""
    return (Status.REFUTED, list(players)) if stranded(rules) else (Status.PROVED, [])


def _faces_playable_seen(engine: Engine, cards: int, before: Any, event: Any) -> str | None:
    state = engine.state
    if state.phase is not PLAYING:
        return None
    never = stranded(engine.rules)
    held = sorted(card.faces[state.side].token for card in state.hands[state.turn] if card.faces[state.side] in never)
    if held:
        return f"{state.players[state.turn]} holds {held[0]}, which no top card and no colour in play ever lets be played"
    return None


# Invariants about one effect: in a game with no face that has it they hold trivially, and ``prove`` says so.
ARISES_WITH = {"flip.order": "flip"}

# The invariants that count the rulebook's cards (its deck claim's): a spec whose deck differs restates deck.cards,
# and they then count the spec's (``prove --declare`` says so).
COUNTS_DECK = frozenset({"cards.conservation"})

NOTES = {
    "faces.playable": "by enumeration: every face against every top face of its side under every colour, with the engine's matching",
    "cards.conservation": "proved for one arbitrary card; every event moves cards by place, never by name, so it holds for "
    "each of them (symmetry; the engine/Z3 agreement test checks the events are uniform)",
}


@dataclass(frozen=True)
class InvariantForms:
    """An invariant written once: the question asked of Z3, and the check of one concrete step of the engine."""

    prove: Callable[[Rules, int, tuple[int, ...], int], tuple[Status, list[int]]]
    concrete: Callable[[Engine, int, Any, Any], str | None]


INVARIANT_FORMS: dict[str, InvariantForms] = {
    "cards.conservation": InvariantForms(_conservation, _conservation_seen),
    "flip.order": InvariantForms(_flip_order, _flip_order_seen),
    "colour.of-side": InvariantForms(_colour_of_side, _colour_of_side_seen),
    "score.bounds": InvariantForms(_score_bounds, _score_bounds_seen),
    "penalty.into-hand": InvariantForms(_penalty_into_hand, _penalty_into_hand_seen),
    "discard.has-top": InvariantForms(_discard_has_top, _discard_has_top_seen),
    "faces.playable": InvariantForms(_faces_playable, _faces_playable_seen),
}
CHECKERS = {invariant_id: forms.prove for invariant_id, forms in INVARIANT_FORMS.items()}


@dataclass
class Piles:
    """The piles of a concrete state, as an invariant's concrete check reads them."""

    draw_pile: list[Any]
    discard_pile: list[Any]
    hand_sizes: list[int]
    side: int


def snapshot(engine: Engine) -> Piles:
    state = engine.state
    return Piles(list(state.draw_pile), list(state.discard_pile), list(state.hand_sizes), state.side)


def invariant_violation(invariant_id: str, cards: int, before: Piles | None, engine: Engine, event: Any) -> str | None:
    """Whether this concrete step (from ``before`` by ``event`` to the engine's state) breaks the invariant."""
    state = engine.state
    if not state.hands or state.phase not in (PLAYING, ROUND_OVER, GAME_OVER) or not state.players:
        return None
    return INVARIANT_FORMS[invariant_id].concrete(engine, cards, before, event)


STRANDED: dict[tuple[Any, ...], frozenset[Any]] = {}


def stranded(rules: Rules) -> frozenset[Any]:
    """The faces that the engine's matching lets be played on no top face of their side under any colour.

    Cached by what matching reads (the matching flags, the deck's faces, the colours), not by object identity.
    """
    from referee.proof.claims.matching import match_cases

    key = (rules.spec.matching, frozenset(rules.deck), rules.side_colours)
    if key not in STRANDED:
        playable = {face for face, _, _, matches in match_cases(rules) if matches}
        STRANDED[key] = frozenset(card.faces[side] for card in rules.deck for side in range(rules.spec.sides)) - playable
    return STRANDED[key]
