"""Counterexamples: the shortest simulated game under a spec that reaches a state breaking an invariant or a claim,
written as a log that ``referee check --spec`` replays."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from referee.engine.engine import Engine
from referee.proof.invariants import snapshot, violation
from referee.rules.compiler import Rules


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
    from referee.log import events as ev
    from referee.log.writer import format_event
    from referee.play.simulate import SimulationError, Simulator

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
        lambda engine: snapshot(engine) if engine.state.hands else None,
        lambda before, engine, event: violation(invariant_id, cards, before, engine, event),
    )


def _claim_watch(claim: Any, rules: Rules) -> _Watch:
    from referee.proof import claims

    return _Watch(
        lambda engine: claims.before(engine) if engine.state.players else None,
        lambda before, engine, event: claims.violation(claim, rules, before, engine, event),
    )


def claim_counterexample(claim: Any, rules: Rules, spec_path: str, refuted_for: list[int]) -> str | None:
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
    if claim.form == "option":
        unreachable = option_unreachable(claim, rules)
        if unreachable:
            return unreachable
    if claim.form == "stack" and not any(f.stackable for f in rules.faces.values() if f.face.kind == figures["kind"]):
        return (
            f"# refutation of {claim.id}: a {figures['kind']} is meant to be stacked on a penalty owed\n"
            f"# no game can show it: the spec's option stacking lets no {figures['kind']} go on any penalty;\n"
            f"# the state: a player owes a penalty and holds a {figures['kind']}; playing it is illegal-play\n"
        )
    if claim.form == "start" and not figures.get("returned"):
        unreachable = start_unreachable(claim, rules)
        if unreachable:
            return unreachable
    counts = tuple(n for n in refuted_for if 2 <= n <= 6) or (2, 3, 4)
    return find_counterexample(rules, claim.id, 0, spec_path, watch=lambda seed: _claim_watch(claim, rules), player_counts=counts)


# An option no game of a spec can show: the faces it is about, as (what the faces are, the test of a face's rules).
_OPTION_FACES: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "flip-colour-chooser": ("a Flip", lambda face_rules: face_rules.flip),
    "zero-rotates": ("a 0", lambda face_rules: face_rules.face.number == 0),
    "seven-swaps": ("a 7", lambda face_rules: face_rules.face.number == 7),
}


def option_unreachable(claim: Any, rules: Rules) -> str | None:
    """For an option claim about faces the spec does not have (a Flip in classic UNO, a 0 in UNO Flip): no game can
    show the option at work, so the refutation is the state and the reason, not a log."""
    name = claim.figures.get("name")
    if name not in _OPTION_FACES:
        return None
    what, has = _OPTION_FACES[name]
    if any(has(face_rules) for face_rules in rules.faces.values()):
        return None
    value = rules.spec.options.get(name)
    shown = str(value).lower() if isinstance(value, bool) else str(value)
    return (
        f"# refutation of {claim.id}: the spec sets option {name} to {shown}, not {claim.whose} value\n"
        f"# no game can show it: no face of this spec is {what}, so no state of any game differs by it;\n"
        f"# the state is the compiled rules themselves (referee rules --spec {rules.spec.path})\n"
    )


def start_unreachable(claim: Any, rules: Rules) -> str | None:
    """A start claim about a kind that never stays turned up (its ``at-start`` sends it back to the draw pile): no game
    can reach a round it starts, so the refutation is the state and the reason, not a log."""
    kind = claim.figures["kind"]
    start_side = rules.spec.start_side
    faces = [f for f in rules.faces.values() if f.face.kind == kind and f.face.side == start_side]
    if not faces or not all("return-to-draw-pile" in f.at_start for f in faces):
        return None
    side = rules.spec.side_names[start_side]
    return (
        f"# refutation of {claim.id}: a {kind} turned up is meant to start the round, but the spec sends it back\n"
        f"# no game can show it: every {kind} on the {side} side has at-start return-to-draw-pile, so no round starts on one;\n"
        f"# the state: the {kind} is the card turned up, it goes back into the draw pile and another card is turned up\n"
    )
