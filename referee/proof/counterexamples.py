"""Counterexamples: the shortest simulated game under a spec that reaches a state breaking an invariant or a claim,
written as a log that ``referee check --spec`` replays."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from referee.engine.engine import Engine
from referee.proof.invariants import invariant_violation, snapshot
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
        lambda before, engine, event: invariant_violation(invariant_id, cards, before, engine, event),
    )


def _claim_watch(claim: Any, rules: Rules) -> _Watch:
    from referee.proof import claims

    return _Watch(
        lambda engine: claims.before(engine) if engine.state.players else None,
        lambda before, engine, event: claims.claim_violation(claim, rules, before, engine, event),
    )


def claim_counterexample(claim: Any, rules: Rules, spec_path: str, refuted_for: list[int]) -> str | None:
    """A game log showing the claim broken: what the claim's form writes without a search (``ClaimForm.written``: the
    table the spec turns away, a state no game reaches), else a simulated game."""
    from referee.proof import claims

    decided, text = claims.FORMS_BY_NAME[claim.form].written(claim, rules, spec_path)
    if decided:
        return text
    counts = tuple(n for n in refuted_for if 2 <= n <= 6) or (2, 3, 4)
    return find_counterexample(rules, claim.id, 0, spec_path, watch=lambda seed: _claim_watch(claim, rules), player_counts=counts)
