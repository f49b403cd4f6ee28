"""``referee prove``: the invariants of a spec, proved with Z3; the gaps in its rules; counterexamples as logs.

Each invariant is one of three kinds of question:
- induction over the transition relation (``Init => Inv`` and
  ``Inv /\\ T => Inv'`` both valid), for every player count;
- a property of one transition kind (a flip's effect on pile order, a draw's
  destination), asked over symbolic positions and counts;
- a question about the spec's data (the deck's composition, the values that
  can be scored, whether each face can match something).
A failed proof is ``refuted`` only when Z3 produced a model; a timeout or
``unknown`` is ``unknown`` and never counts as proved. For a refuted invariant
the engine searches concrete games under the same spec for the shortest one
that reaches a violating state, and prints it as a game log.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import z3

from referee.compiler import Rules, load_rules
from referee.engine import GAME_OVER, PLAYING, ROUND_OVER, Engine
from referee.errors import Position, SpecError
from referee.proof.model import Model, State, solver
from referee.spec_loader import Mapping, Scalar, Sequence, load_file

PLAYER_COUNTS = tuple(range(2, 11))
TIMEOUT_MS = 5000


@dataclass(frozen=True, slots=True)
class Invariant:
    id: str
    summary: str


@dataclass(frozen=True, slots=True)
class Gap:
    id: str
    summary: str
    ruling: int


@dataclass(frozen=True, slots=True)
class Invariants:
    cards: int
    invariants: tuple[Invariant, ...]
    gaps: tuple[Gap, ...]


@dataclass
class Outcome:
    id: str
    status: str
    players: list[int]
    seconds: float
    counterexample: str | None = None
    detail: str = ""
    refuted_for: list[int] = field(default_factory=list)
    source: str = ""  # for a claim: where the rulebook says it


def load_invariants(path: Path | None = None) -> Invariants:
    """The invariants declared beside the shipped specs (``specs/invariants.yml``)."""
    if path is None:
        from referee.spec_model import SPECS

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
    known = set(_CHECKERS)
    for invariant in invariants:
        if invariant.id not in known:
            problems.append((tree.position, f"invariant '{invariant.id}' has no proof procedure"))
    if problems:
        raise SpecError(problems)
    return Invariants(cards, tuple(invariants), tuple(gaps))


# -- the questions


def _answer(check: z3.Solver) -> str:
    """sat / unsat / unknown, with the solver's reason for unknown."""
    result = check.check()
    if result == z3.unsat:
        return "unsat"
    if result == z3.sat:
        return "sat"
    interrupted(check)
    return "unknown"


def interrupted(check: z3.Solver) -> None:
    """Z3 catches Ctrl-C itself and answers unknown ("canceled"): that is an interrupt, never an inconclusive proof."""
    reason = check.reason_unknown().lower()
    if "cancel" in reason or "interrupt" in reason:
        raise KeyboardInterrupt


@dataclass
class _Context:
    """The model, states and transition formula for one spec and player count, built once per run."""

    model: Model
    start: State
    pre: State
    post: State
    step: Any
    deal: Any


_CONTEXTS: dict[tuple[Any, ...], _Context] = {}


def _context(rules: Rules, n: int, cards: int) -> _Context:
    """Built once per model fingerprint and player count: house rules the model does not read share it."""
    key = (Model.fingerprint(rules), n, cards)
    context = _CONTEXTS.get(key)
    if context is None:
        model = Model(rules, n, cards)
        start, pre, post = State.make(n, "0"), State.make(n, "a"), State.make(n, "b")
        context = _Context(model, start, pre, post, model.step(pre, post, "t"), model.deal(start))
        _CONTEXTS[key] = context
    return context


_ANSWERS: dict[tuple[Any, ...], str] = {}


def _inductive(rules: Rules, n: int, cards: int, predicate: Callable[[Model, State], Any], timeout_ms: int) -> str:
    """'proved' when Init => Inv and Inv /\\ T => Inv' are valid; 'refuted' with a model; else 'unknown'.

    The same formulas get the same answer (fixed seeds), so a spec whose model fingerprint was already
    asked this question reuses the answer; 'unknown' is never reused.
    """
    key = (Model.fingerprint(rules), predicate.__code__, n, cards, timeout_ms)
    if key in _ANSWERS:
        return _ANSWERS[key]
    answer = _ask_inductive(rules, n, cards, predicate, timeout_ms)
    if answer != "unknown":
        _ANSWERS[key] = answer
    return answer


def _ask_inductive(rules: Rules, n: int, cards: int, predicate: Callable[[Model, State], Any], timeout_ms: int) -> str:
    context = _context(rules, n, cards)
    model = context.model
    base = solver(timeout_ms)
    base.add(context.deal, z3.Not(predicate(model, context.start)))
    answer = _answer(base)
    if answer != "unsat":
        return "refuted" if answer == "sat" else "unknown"
    step = solver(timeout_ms)
    step.add(predicate(model, context.pre), context.step, z3.Not(predicate(model, context.post)))
    answer = _answer(step)
    return {"unsat": "proved", "sat": "refuted"}.get(answer, "unknown")


def _per_player_count(
    rules: Rules, cards: int, predicate: Callable[[Model, State], Any], players: tuple[int, ...], timeout_ms: int
) -> tuple[str, list[int]]:
    answers = {"proved": "unsat", "refuted": "sat"}
    return _for_each_count(players, lambda n: answers.get(_inductive(rules, n, cards, predicate, timeout_ms), "unknown"))


def _conservation(rules: Rules, cards: int, players: tuple[int, ...], timeout_ms: int) -> tuple[str, list[int]]:
    return _per_player_count(rules, cards, lambda m, s: m.conservation(s), players, timeout_ms)


def _conservation_seen(engine: Engine, cards: int, before: Any, event: Any) -> str | None:
    total = engine.state.card_count()
    return f"{total} cards in play, not {cards}" if total != cards else None


def _colour_of_side(rules: Rules, cards: int, players: tuple[int, ...], timeout_ms: int) -> tuple[str, list[int]]:
    return _per_player_count(rules, cards, lambda m, s: m.colour_of_side(s), players, timeout_ms)


def _colour_of_side_seen(engine: Engine, cards: int, before: Any, event: Any) -> str | None:
    state = engine.state
    colourless = state.choose_by is None and state.colour not in engine.rules.side_colours[state.side]
    if state.phase == PLAYING and colourless:
        return f"colour in play {state.colour} is not a colour of the {('light', 'dark')[state.side]} side"
    return None


def _discard_has_top(rules: Rules, cards: int, players: tuple[int, ...], timeout_ms: int) -> tuple[str, list[int]]:
    return _per_player_count(rules, cards, lambda m, s: m.discard_has_top(s), players, timeout_ms)


def _discard_has_top_seen(engine: Engine, cards: int, before: Any, event: Any) -> str | None:
    state = engine.state
    return "the discard pile has no top card" if state.phase == PLAYING and not state.discard_pile else None


def _for_each_count(players: tuple[int, ...], question: Callable[[int], str]) -> tuple[str, list[int]]:
    """Ask ``question`` (sat means refuted) for each player count; a refutation outweighs an unknown."""
    answers = {n: question(n) for n in players}
    refuted = [n for n, answer in answers.items() if answer == "sat"]
    if refuted:
        return "refuted", refuted
    if "unknown" in answers.values():
        return "unknown", []
    return "proved", []


def _all_unsat(questions: Iterator[z3.Solver], players: tuple[int, ...]) -> tuple[str, list[int]]:
    """Proved when every question is unsat; refuted at the first sat; unknown at the first unknown."""
    for check in questions:
        answer = _answer(check)
        if answer == "sat":
            return "refuted", list(players)
        if answer == "unknown":
            return "unknown", []
    return "proved", []


def _flip_order(rules: Rules, cards: int, players: tuple[int, ...], timeout_ms: int) -> tuple[str, list[int]]:
    """For every flip face: any two cards of either pile swap order, and a second flip restores both."""

    def questions() -> Iterator[z3.Solver]:
        for face_rules in rules.faces.values():
            if not face_rules.flip:
                continue
            for reverses in (face_rules.flip_draw_pile, face_rules.flip_discard_pile):
                length, first, second = z3.Ints("length first second")

                def turned(position: Any, reverses: bool = reverses, length: Any = length) -> Any:
                    return length - 1 - position if reverses else position

                check = solver(timeout_ms)
                check.add(length >= 2, length <= cards, first >= 0, first < second, second < length)
                swapped = turned(first) > turned(second)
                restored = z3.And(turned(turned(first)) == first, turned(turned(second)) == second)
                check.add(z3.Not(z3.And(swapped, restored)))
                yield check

    return _all_unsat(questions(), players)


def _flip_order_seen(engine: Engine, cards: int, before: Any, event: Any) -> str | None:
    from referee import events as ev

    state = engine.state
    if before is None or not (isinstance(event, ev.Play) and state.side != before.side and state.full_mode):
        return None
    # The Flip just played joins the discard pile before it turns over: it ends at the bottom, below the old pile reversed.
    reversed_both = state.draw_pile == before.draw_pile[::-1] and state.discard_pile[1:] == before.discard_pile[::-1]
    return None if reversed_both else "a flip did not reverse both piles"


def _penalty_into_hand(rules: Rules, cards: int, players: tuple[int, ...], timeout_ms: int) -> tuple[str, list[int]]:
    """Every draw transition adds exactly the cards it takes from the draw pile to the drawer's hand."""

    def question(n: int) -> str:
        model = Model(rules, n, cards)
        pre, post = State.make(n, "a"), State.make(n, "b")
        seat, count, next_turn = z3.Int("seat"), z3.Int("count"), z3.Int("next_turn")
        completes, moved = z3.Bool("completes"), z3.Bool("moved")
        draws = [model.draw(pre, post, seat, count, False, False, completes, next_turn, moved)]
        for into_discard in sorted({f.penalty_into_discard for f in model.signatures if f.gives_penalty}):
            draws.append(model.draw(pre, post, seat, count, True, into_discard, completes, next_turn, moved))
        check = solver(timeout_ms)
        check.add(model.conservation(pre), z3.Or(*draws), z3.Not(post.hand(seat) == pre.hand(seat) + count))
        return _answer(check)

    return _for_each_count(players, question)


def _penalty_into_hand_seen(engine: Engine, cards: int, before: Any, event: Any) -> str | None:
    from referee import events as ev

    state = engine.state
    if before is None or not isinstance(event, ev.Draw):
        return None
    seat = state.seat[event.player]
    taken = len(before.draw_pile) - len(state.draw_pile) if state.full_mode else len(event.cards)
    grew = state.hand_sizes[seat] - before.hand_sizes[seat]
    return f"{event.player} drew {taken} cards but their hand grew by {grew}" if grew != taken else None


def _score_bounds(rules: Rules, cards: int, players: tuple[int, ...], timeout_ms: int) -> tuple[str, list[int]]:
    """Totals stay >= 0 and a round's points lie between 0 and the value of every card but one."""

    def questions() -> Iterator[z3.Solver]:
        for side in (0, 1):
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

    return _all_unsat(questions(), players)


def _score_bounds_seen(engine: Engine, cards: int, before: Any, event: Any) -> str | None:
    state = engine.state
    result = state.last_result
    if result is not None and (min(state.totals) < 0 or (result.points or 0) < 0):
        return f"negative score: totals {state.totals}"
    return None


def _deck_faces(rules: Rules, side: int) -> Counter[Any]:
    return Counter(card.faces[side] for card in rules.deck)


def _faces_playable(rules: Rules, cards: int, players: tuple[int, ...], timeout_ms: int) -> tuple[str, list[int]]:
    """Finite: every face of the deck against every top face of its side under every colour, by the engine's matching."""
    return ("refuted", list(players)) if _stranded(rules) else ("proved", [])


def _faces_playable_seen(engine: Engine, cards: int, before: Any, event: Any) -> str | None:
    state = engine.state
    if state.phase != PLAYING:
        return None
    never = _stranded(engine.rules)
    held = sorted(card.faces[state.side].token for card in state.hands[state.turn] if card.faces[state.side] in never)
    if held:
        return f"{state.players[state.turn]} holds {held[0]}, which no top card and no colour in play ever lets be played"
    return None


_NOTES = {
    "faces.playable": "by enumeration: every face against every top face of its side under every colour, with the engine's matching",
    "cards.conservation": "proved for one arbitrary card; every event moves cards by place, never by name, so it holds for "
    "each of them (symmetry; the engine/Z3 agreement test checks the events are uniform)",
}


@dataclass(frozen=True)
class InvariantForms:
    """An invariant written once: the question asked of Z3, and the check of one concrete step of the engine."""

    prove: Callable[[Rules, int, tuple[int, ...], int], tuple[str, list[int]]]
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
_CHECKERS = {invariant_id: forms.prove for invariant_id, forms in INVARIANT_FORMS.items()}


# -- gaps


def gaps(rules: Rules, declared: tuple[Gap, ...], timeout_ms: int = TIMEOUT_MS) -> list[dict[str, Any]]:
    """Each gap: a situation the bare rules leave without a way forward, and whether the spec's ruling gives one.

    A situation is a set of abstract states (pile sizes, what is owed, what
    the player to move holds). The gap is open when some state of it has no
    enabled transition that makes progress (draws a card, rebuilds the draw
    pile, ends the penalty or the turn, defines the colour). It is asked twice:
    with the spec's transitions (``closed``) and with the closing ruling's
    transition taken away (``needs_ruling``: the ruling is what closes it).
    """
    chooser = rules.flip_chooser != "nobody"
    colour_defined = z3.Bool("colour_defined")
    wilds_held = z3.Int("wilds_held")
    sane = [wilds_held >= 0]

    def situation_and_progress(gap_id: str, with_ruling: bool) -> tuple[Any, Any] | None:
        if gap_id == "gap.flip-uncovers-wild":
            return (
                z3.And(z3.Not(colour_defined), wilds_held == 0),
                z3.Or(colour_defined, z3.BoolVal(with_ruling and chooser), wilds_held >= 1),
            )
        return None

    result = []
    for gap in declared:
        with_spec = situation_and_progress(gap.id, True)
        without = situation_and_progress(gap.id, False)
        if with_spec is None or without is None:
            continue
        reachable = solver(timeout_ms)
        reachable.add(*sane, with_spec[0])
        stuck = solver(timeout_ms)
        stuck.add(*sane, with_spec[0], z3.Not(with_spec[1]))
        bare = solver(timeout_ms)
        bare.add(*sane, without[0], z3.Not(without[1]))
        result.append(
            {
                "id": gap.id,
                "summary": gap.summary,
                "ruling": gap.ruling,
                "reachable": _answer(reachable) == "sat",
                "needs_ruling": _answer(bare) == "sat",
                "closed": _answer(stuck) == "unsat",
            }
        )
    return result


# -- counterexamples: concrete games that reach a violating state


@dataclass
class _Snapshot:
    draw_pile: list[Any]
    discard_pile: list[Any]
    hand_sizes: list[int]
    side: int


def _snapshot(engine: Engine) -> _Snapshot:
    state = engine.state
    return _Snapshot(list(state.draw_pile), list(state.discard_pile), list(state.hand_sizes), state.side)


def violation(invariant_id: str, cards: int, before: _Snapshot | None, engine: Engine, event: Any) -> str | None:
    """Whether this concrete step (from ``before`` by ``event`` to the engine's state) breaks the invariant."""
    state = engine.state
    if not state.hands or state.phase not in (PLAYING, ROUND_OVER, GAME_OVER) or not state.players:
        return None
    return INVARIANT_FORMS[invariant_id].concrete(engine, cards, before, event)


_STRANDED: dict[tuple[Any, ...], frozenset[Any]] = {}


def _stranded(rules: Rules) -> frozenset[Any]:
    """The faces that the engine's matching lets be played on no top face of their side under any colour.

    Cached by what matching reads (the matching flags, the deck's faces, the colours), not by object identity.
    """
    from referee.proof.claims import match_cases

    key = (rules.spec.matching, frozenset(rules.deck), rules.side_colours)
    if key not in _STRANDED:
        playable = {face for face, _, _, matches in match_cases(rules) if matches}
        _STRANDED[key] = frozenset(card.faces[side] for card in rules.deck for side in (0, 1)) - playable
    return _STRANDED[key]


def find_counterexample(
    rules: Rules,
    invariant_id: str,
    cards: int,
    spec_path: str,
    budget_seconds: float = 20.0,
    seeds: int = 400,
    watch: Any = None,
    player_counts: tuple[int, ...] = (2, 3, 4),
) -> str | None:
    """The shortest simulated game (full mode) found that reaches a state breaking the invariant (or claim), as a log."""
    from referee import events as ev
    from referee.log_writer import format_event
    from referee.simulate import SimulationError, Simulator

    best: list[ev.Event] | None = None
    reason = ""
    started = time.perf_counter()
    counts = [n for n in player_counts if rules.spec.min_players <= n <= rules.spec.max_players] or [rules.spec.min_players]
    for seed in range(seeds):
        if time.perf_counter() - started > budget_seconds:
            break
        current = watch(seed) if watch is not None else _invariant_watch(invariant_id, cards)
        simulator = Simulator(rules, counts[seed % len(counts)], seed, "full", max_rounds=3, on_step=current.check)
        simulator.before_step = current.remember
        simulator.optional_header = False
        try:
            for _ in simulator.events():
                if best is not None and len(current.seen) >= len(best):
                    break
        except _Found:
            if best is None or len(current.seen) < len(best):
                best, reason = list(current.seen), current.found[0]
        except (SimulationError, IndexError, KeyError, ValueError, AssertionError):
            continue
        if best is not None and len(best) <= 8:
            break
    if best is None:
        return None
    header = [f"# counterexample to {invariant_id}: {reason}", f"# replay: referee check --spec {spec_path} THIS-LOG"]
    return "\n".join(header + [format_event(event) for event in best]) + "\n"


class _Found(Exception):
    """Internal: a violating state was reached."""


class _Watch:
    """Follows one simulated game, stopping it at the first step that ``judge`` finds broken.

    ``remember`` takes what a step is judged against (the state before it); ``judge(before, engine, event)``
    says what is wrong after the step, or None.
    """

    def __init__(self, remember: Callable[[Engine], Any], judge: Callable[[Any, Engine, Any], str | None]) -> None:
        self._remember = remember
        self._judge = judge
        self.seen: list[Any] = []
        self.before: Any = None
        self.found: list[str] = []

    def remember(self, engine: Engine, event: Any) -> None:
        self.before = self._remember(engine)

    def check(self, engine: Engine, event: Any) -> None:
        self.seen.append(event)
        problem = self._judge(self.before, engine, event)
        if problem:
            self.found.append(problem)
            raise _Found


def _invariant_watch(invariant_id: str, cards: int) -> _Watch:
    return _Watch(
        lambda engine: _snapshot(engine) if engine.state.hands else None,
        lambda before, engine, event: violation(invariant_id, cards, before, engine, event),
    )


def _claim_watch(claim: Any, rules: Rules) -> _Watch:
    from referee.proof import claims

    return _Watch(
        lambda engine: claims.before(engine) if engine.state.players else None,
        lambda before, engine, event: claims.violation(claim, rules, before, engine, event),
    )


# -- claims


def _claim_answer(claim: Any, rules: Rules, players: tuple[int, ...], timeout_ms: int) -> tuple[str, list[int], str]:
    """proved / refuted (for which player counts) / unknown, and a detail: the claim asked of the compiled rules."""
    from referee.proof import claims as c

    finite = {"points": c.points_problem, "matching": c.matching_problem, "deck": c.deck_problem, "table": c.table_problem}
    if claim.form in finite:
        problem = finite[claim.form](claim, rules)
        if problem:
            return "refuted", list(players), problem
        if "hand-size" not in claim.figures:
            return "proved", [], "by enumeration of every case against the compiled rules"
        status, refuted = _for_each_count(players, lambda n: _answer(c.hand_size_question(claim, rules, n, timeout_ms)))
        return status, refuted, f"a deal gives a hand of other than {claim.figures['hand-size']} cards" if refuted else ""
    if claim.form in ("challenge", "catch"):
        what = "challenge of a wild draw card" if claim.form == "challenge" else "catch"
        ask = c.challenge_question if claim.form == "challenge" else c.catch_question
        never = [n for n in players if _first_sat(ask(claim, rules, n, timeout_ms, True)) == "unsat"]
        if never:  # the claim must hold of something: a spec where it can never happen breaks it
            return "refuted", never, f"no {what} can be made under the spec"
        status, refuted = _for_each_count(players, lambda n: _first_sat(ask(claim, rules, n, timeout_ms)))
        return status, refuted, ""
    counts = c.counts_for(claim, rules, players)
    if not counts:
        return "proved", [], "no player count of the spec's range is concerned"
    if not c.faces_of(rules, claim.figures["kind"]):
        return "refuted", list(counts), f"the spec has no face of kind {claim.figures['kind']}"
    if claim.form == "play":
        problem = c.restriction_problem(claim, rules)
        if problem:
            return "refuted", list(counts), problem
    if claim.form == "start" and not claim.figures["returned"]:
        never = [n for n in counts if c.start_possible(claim, rules, n, timeout_ms) == "unsat"]
        if never:
            return "refuted", never, f"a {claim.figures['kind']} turned up never starts a round"
    question = c.play_question if claim.form == "play" else c.start_question
    status, refuted = _for_each_count(counts, lambda n: _first_sat(question(claim, rules, n, timeout_ms)))
    return status, refuted, ""


def _first_sat(questions: list[z3.Solver]) -> str:
    answers = [_answer(check) for check in questions]
    return "sat" if "sat" in answers else "unknown" if "unknown" in answers else "unsat"


def prove_claims(
    rules: Rules, spec_path: str, players: tuple[int, ...], timeout_ms: int, counterexamples: bool = True, only: str | None = None
) -> list[Outcome]:
    """Every claim in force for the spec (or the one named), asked of its compiled rules; a refuted one with a counterexample."""
    from referee.proof.claims import game_claims

    outcomes = []
    for claim in game_claims(rules):
        if not claim.applies(rules) or only not in (None, claim.id):
            continue
        started = time.perf_counter()
        try:
            status, refuted_for, detail = _claim_answer(claim, rules, players, timeout_ms)
        except z3.Z3Exception as error:
            status, refuted_for, detail = "unknown", [], f"solver error: {error}"
        outcome = Outcome(claim.id, status, list(players), time.perf_counter() - started, detail=detail, refuted_for=refuted_for)
        outcome.source = claim.source
        if status == "refuted" and counterexamples:
            outcome.counterexample = _claim_counterexample(claim, rules, spec_path, refuted_for)
            if outcome.counterexample is None:
                outcome.detail = (detail + "; " if detail else "") + "no concrete game reaching it was found within the search budget"
        outcomes.append(outcome)
    return outcomes


def _claim_counterexample(claim: Any, rules: Rules, spec_path: str, refuted_for: list[int]) -> str | None:
    """A game log showing the claim broken: a simulated game, or for the player range the table the spec turns away."""
    figures = claim.figures
    if claim.form == "table" and ("min-players" in figures or "max-players" in figures):
        spec = rules.spec
        low, high = figures.get("min-players", spec.min_players), figures.get("max-players", spec.max_players)
        if spec.min_players > low or spec.max_players < high:  # a table the rulebook allows, turned away
            wanted, verdict = (low if spec.min_players > low else high), "the spec turns the table away (bad-setup at line 3)"
        elif spec.max_players > high or spec.min_players < low:  # a table the rulebook does not allow, accepted
            wanted, verdict = (high + 1 if spec.max_players > high else low - 1), "the spec accepts it"
        else:
            return None
        names = " ".join(f"Player{index + 1}" for index in range(wanted))
        return (
            f"# counterexample to {claim.id}: the rulebook is for {low} to {high} players; a table of {wanted}: {verdict}\n"
            f"# replay: referee check --spec {spec_path} THIS-LOG\n"
            f"players {names}\nround 1\ndealer Player1\n"
        )
    counts = tuple(n for n in refuted_for if 2 <= n <= 6) or (2, 3, 4)
    return find_counterexample(rules, claim.id, 0, spec_path, watch=lambda seed: _claim_watch(claim, rules), player_counts=counts)


# -- the whole run


def prove_spec(
    spec_path: Path,
    invariants: Invariants,
    only: str | None = None,
    players: tuple[int, ...] = PLAYER_COUNTS,
    timeout_ms: int = TIMEOUT_MS,
    counterexamples: bool = True,
) -> dict[str, Any]:
    run_started = time.perf_counter()
    rules = load_rules(spec_path)
    outcomes = []
    for invariant in invariants.invariants:
        if only is not None and invariant.id != only:
            continue
        started = time.perf_counter()
        try:
            status, refuted_for = _CHECKERS[invariant.id](rules, invariants.cards, players, timeout_ms)
        except z3.Z3Exception as error:
            status, refuted_for = "unknown", []
            detail = f"solver error: {error}"
        else:
            detail = ""
        seconds = time.perf_counter() - started
        if status == "proved" and invariant.id in _NOTES:
            detail = _NOTES[invariant.id]
        outcome = Outcome(invariant.id, status, list(players), seconds, detail=detail, refuted_for=refuted_for)
        if status == "refuted" and counterexamples:
            outcome.counterexample = find_counterexample(rules, invariant.id, invariants.cards, str(spec_path))
            if outcome.counterexample is None:
                outcome.detail = "refuted by Z3; no concrete game reaching it was found within the search budget"
        outcomes.append(outcome)
    claim_outcomes = []
    if only is None or only not in _CHECKERS:
        claim_outcomes = prove_claims(rules, str(spec_path), players, timeout_ms, counterexamples, only)
    from referee.proof import claims as claims_module

    result: dict[str, Any] = {
        "spec": str(spec_path),
        "name": rules.spec.name,
        "invariants": outcomes,
        "claims": claim_outcomes,
        "game": claims_module.game_of(rules.spec),
        "claims_file": claims_module.has_claims_file(claims_module.game_of(rules.spec)),
        "gaps": gaps(rules, invariants.gaps, timeout_ms) if only is None else [],
    }
    result["seconds"] = time.perf_counter() - run_started
    return result
