"""The solver's side of a comparison: the rulebook's claims asked of both specs' Z3 models.

Each spec compiles to a Z3 model (``referee.proof``) from the same compiled rules its engine reads. The claims in
force for either spec (its game's claims file, with each spec's restated claims) are asked of both models, for every
player count both specs allow, as ``referee prove`` asks them; a claim one model proves and the other refutes is a
difference in behaviour the solver proves. Each is tied to the declared differences that change its answer alone:
the claim asked again of the first spec with only that item moved (``declared.transplant``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.records import dataclass
from referee.rules.compiler import Rules

DEFAULT_TIMEOUT_MS = 5000  # per query, as referee prove


@dataclass(frozen=True, slots=True)
class ClaimDifference:
    """A claim the two models answer differently: its id and statement (in the words of the spec whose claim it is),
    each model's answer, and the declared items that change the answer alone."""

    id: str
    statement: str
    whose: str
    a: str
    b: str
    items: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SolverReport:
    """What the solver was asked: for which player counts (none: not asked, ``note`` says why), and what differs."""

    players: tuple[int, ...]
    note: str
    claims: tuple[ClaimDifference, ...]


def _answer(claim: object, rules: Rules, players: tuple[int, ...], timeout_ms: int) -> str:
    """``proved``, ``refuted (N-M players)`` or ``unknown``: the claim asked of the spec's model."""
    import z3

    from referee.proof.answers import Status
    from referee.proof.prove import claim_answer

    try:
        status, refuted_for, _ = claim_answer(claim, rules, players, timeout_ms)  # type: ignore[arg-type]
    except z3.Z3Exception:
        return "unknown"
    except (KeyError, ValueError, IndexError, AssertionError):  # about a card or option this spec does not have
        return "does not apply"
    if status is Status.REFUTED:
        return f"refuted ({_counts(tuple(refuted_for))} players)" if refuted_for else "refuted"
    return status.value


def _counts(players: tuple[int, ...]) -> str:
    if not players:
        return "no"
    if list(players) == list(range(players[0], players[-1] + 1)) and len(players) > 1:
        return f"{players[0]}-{players[-1]}"
    return ", ".join(str(count) for count in players)


def claim_differences(
    rules_a: Rules, rules_b: Rules, middles: Sequence[tuple[str, Rules]], timeout_ms: int = DEFAULT_TIMEOUT_MS
) -> SolverReport:
    """Every claim in force for either spec that the two models answer differently (specs of one game only)."""
    from referee.proof.claims import game_claims, game_of
    from referee.proof.claims.rulebook import rulebook_claim

    def named(claim: Any, rules: Rules) -> Any:
        """A rulebook claim as the spec asked names its kinds (a kind renamed is asked about under its new name)."""
        return claim if claim.restated else (rulebook_claim(rules.spec, claim.id) or claim)

    if game_of(rules_a.spec) != game_of(rules_b.spec):
        return SolverReport((), "not asked: the two specs are of different games, held to different claims", ())
    low = max(rules_a.spec.min_players, rules_b.spec.min_players)
    high = min(rules_a.spec.max_players, rules_b.spec.max_players)
    players = tuple(range(low, high + 1))
    if not players:
        return SolverReport((), "not asked: no player count both specs allow", ())
    found: list[ClaimDifference] = []
    seen: set[str] = set()
    for rules, name in ((rules_a, rules_a.spec.name), (rules_b, rules_b.spec.name)):
        for claim in game_claims(rules):
            if claim.id in seen or not (claim.applies(rules_a) and claim.applies(rules_b)):
                continue
            a = _answer(named(claim, rules_a), rules_a, players, timeout_ms)
            b = _answer(named(claim, rules_b), rules_b, players, timeout_ms)
            if a == b or "unknown" in (a, b):
                continue
            seen.add(claim.id)
            items = tuple(item for item, middle in middles if _answer(named(claim, middle), middle, players, timeout_ms) != a)
            whose = f"{name}'s own claim" if claim.restated else f"{game_of(rules.spec)}'s rulebook"
            found.append(ClaimDifference(claim.id, claim.statement, whose, a, b, items))
    return SolverReport(players, f"{_counts(players)} players", tuple(found))
