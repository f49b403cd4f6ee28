"""Facts -> Z3: is there an assignment of physical cards to a public round's hidden cards under which lines 1..L
are legal?

The encoding is over counts per type of physical card (``referee.hidden``): a batch is a vector of non-negative
integers summing to its size, a pick a 0/1 vector over the types showing the face played, a draw pile a vector
that each batch takes from and a reshuffle sets, a hand the sum of its terms. Every fact is asserted under its own
Boolean (``f<id>``), so that one solver answers for any prefix of the record (the facts of lines 1..L are the
assumptions) and its unsat core names the lines that contradict each other. The deck's copies are the only
bound: any order of the draw pile is possible, so a draw can take any cards the pile holds at that moment.

Only ``check`` on a log with a public round imports this module (and z3).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import z3

from referee.hidden import Batch, Fact, Fixed, Held, HiddenDeck, Pick, Put, Refill, Same, Shown, Terms


class Undetermined(Exception):
    """The solver could not settle a question within the time allowed."""


@dataclass(frozen=True, slots=True)
class Contradiction:
    """The first line whose prefix has no assignment, the fact of it that fails, and the earlier facts (a minimal
    unsat core) that together contradict it."""

    line: int
    fact: Fact
    reasons: tuple[Fact, ...]


class Solver:
    """One round's facts, asserted once each (facts shared by branches of the replay are the same objects)."""

    def __init__(self, deck: HiddenDeck, timeout_ms: int, guarded: bool = True) -> None:
        self.guarded = guarded  # False: facts are asserted outright (one question: are all of them satisfiable?)
        self.deck = deck
        self.solver = z3.Solver()
        self.solver.set("timeout", max(1, timeout_ms))
        self.types = range(len(deck.types))
        self.vectors: dict[int, dict[int, z3.ArithRef]] = {}  # unknown id -> type -> variable (absent: 0)
        self.piles: dict[int, list[z3.ArithRef]] = {}
        self.flags: dict[int, z3.BoolRef] = {}
        self.facts: dict[int, Fact] = {}

    def set_timeout(self, timeout_ms: int) -> None:
        self.solver.set("timeout", max(1, timeout_ms))

    # -- encoding

    def _sum(self, terms: Terms, k: int) -> z3.ArithRef:
        parts = []
        for term, coef in terms:
            variable = self.vectors.get(term, {}).get(k)
            if variable is not None:
                parts.append(variable if coef == 1 else coef * variable)
        if not parts:
            return z3.IntVal(0)
        return parts[0] if len(parts) == 1 else z3.Sum(parts)

    def add(self, fact: Fact) -> z3.BoolRef:
        """Assert ``fact`` under its flag (once); the flag."""
        known = self.flags.get(fact.id)
        if known is not None:
            return known
        flag = z3.Bool(f"f{fact.id}")
        self.flags[fact.id] = flag
        self.facts[fact.id] = fact
        claims = list(self._claims(fact))
        if claims:
            self.solver.add(z3.Implies(flag, z3.And(claims)) if self.guarded else z3.And(claims))
        return flag

    def _claims(self, fact: Fact) -> Iterable[z3.BoolRef]:
        if isinstance(fact, Refill):
            counts = [0] * len(self.deck.types)
            for k in fact.known:
                counts[k] += 1
            pile = [z3.Int(f"p{fact.id}_{k}") for k in self.types]
            self.piles[fact.id] = pile
            for k in self.types:
                yield pile[k] == self._sum(fact.terms, k) + counts[k]
        elif isinstance(fact, Put):
            before = self.piles[fact.pile]
            self.piles[fact.id] = [before[k] + 1 if k == fact.type else before[k] for k in self.types]
        elif isinstance(fact, Batch):
            allowed = self.types if fact.types is None else fact.types
            vector = {k: z3.Int(f"n{fact.id}_{k}") for k in allowed}
            self.vectors[fact.id] = vector
            before = self.piles[fact.pile]
            after = list(before)
            for k, variable in vector.items():
                after[k] = z3.Int(f"p{fact.id}_{k}")
                yield variable >= 0
                yield after[k] == before[k] - variable
                yield after[k] >= 0
            self.piles[fact.id] = after
            yield (z3.Sum(list(vector.values())) if vector else z3.IntVal(0)) == fact.size
        elif isinstance(fact, Pick):
            vector = {k: z3.Int(f"z{fact.id}_{k}") for k in fact.types}
            self.vectors[fact.id] = vector
            for k, variable in vector.items():
                yield variable >= 0
                yield variable <= self._sum(fact.hand, k)
            yield (z3.Sum(list(vector.values())) if vector else z3.IntVal(0)) == 1
        elif isinstance(fact, Same):
            pick, batch = self.vectors[fact.pick], self.vectors[fact.batch]
            for k in set(pick) | set(batch):
                yield pick.get(k, z3.IntVal(0)) == batch.get(k, z3.IntVal(0))
        elif isinstance(fact, Fixed):
            pick = self.vectors[fact.pick]
            yield pick.get(fact.type, z3.IntVal(0)) == 1
        elif isinstance(fact, Held):
            total = self._total(fact.hand, fact.types)
            yield total >= 1 if fact.held else total == 0
        elif isinstance(fact, Shown):
            for types, count in fact.groups:
                yield self._total(fact.hand, types) == count

    def _total(self, hand: Terms, types: Sequence[int]) -> z3.ArithRef:
        parts = [self._sum(hand, k) for k in types]
        return z3.Sum(parts) if parts else z3.IntVal(0)

    # -- questions

    def check(self, facts: Sequence[Fact], *extra: z3.BoolRef) -> bool:
        """Whether some assignment satisfies ``facts`` (and ``extra``); ``Undetermined`` when the solver gives up."""
        flags = [self.add(fact) for fact in facts]
        result = self.solver.check(*flags, *extra) if self.guarded else self.solver.check(*extra)
        if result == z3.unknown:
            raise Undetermined(self.solver.reason_unknown())
        return bool(result == z3.sat)

    def held_flag(self, hand: Terms, types: Sequence[int], held: bool) -> z3.BoolRef:
        """A fresh Boolean that, assumed, says the hand held a card of ``types`` (or none)."""
        flag = z3.FreshBool("q")
        total = self._total(hand, types)
        self.solver.add(z3.Implies(flag, total >= 1 if held else total == 0))
        return flag

    def model(self, facts: Sequence[Fact]) -> dict[int, list[int]]:
        """A satisfying assignment: each batch and pick, as the types of its cards (a type once per copy)."""
        if not self.check(facts):
            raise Undetermined("no assignment")
        model = self.solver.model()
        found: dict[int, list[int]] = {}
        for fact in facts:
            if isinstance(fact, Batch | Pick):
                cards: list[int] = []
                for k, variable in self.vectors[fact.id].items():
                    value = model.eval(variable, model_completion=True).as_long()
                    cards.extend([k] * value)
                found[fact.id] = cards
        return found

    def first_contradiction(self, facts: Sequence[Fact]) -> Contradiction | None:
        """The first line L whose facts 1..L have no assignment (None when all of them have one), with the reasons."""
        if self.check(facts):
            return None
        lines = sorted({fact.line for fact in facts})
        low, high = 0, len(lines) - 1  # the prefix up to lines[high] is unsat; find the first such
        while low < high:
            middle = (low + high) // 2
            if self.check([fact for fact in facts if fact.line <= lines[middle]]):
                low = middle + 1
            else:
                high = middle
        line = lines[low]
        prefix = [fact for fact in facts if fact.line <= line]
        return Contradiction(line, *self._reasons(prefix, line))

    def _reasons(self, prefix: list[Fact], line: int) -> tuple[Fact, tuple[Fact, ...]]:
        """The fact of ``line`` that fails and a smallest set of earlier lines' facts that contradict it: the lines
        of an unsat core, then each line dropped in turn while the rest stays unsat (deletion)."""
        flags = {fact.id: self.add(fact) for fact in prefix}
        self.solver.check(*flags.values())
        core = {str(flag) for flag in self.solver.unsat_core()}
        in_core = [fact for fact in prefix if str(flags[fact.id]) in core]
        keep = sorted({fact.line for fact in in_core if fact.line != line})
        base = [fact for fact in prefix if fact.line == line]
        for candidate in list(keep):
            trial = [fact for fact in in_core if fact.line != candidate] + base
            if not self.check(_defined(trial, prefix)):
                keep.remove(candidate)
                in_core = [fact for fact in in_core if fact.line != candidate]
        failing = next((fact for fact in base if str(flags[fact.id]) in core), base[-1])
        reasons = tuple(next(fact for fact in prefix if fact.line == kept) for kept in keep)
        return failing, reasons


def _defined(trial: list[Fact], prefix: list[Fact]) -> list[Fact]:
    """``trial`` with the facts that define the unknowns and piles it refers to (a fact's variables exist only once
    the fact that makes them is asserted; a defining fact's constraints are then kept: a deletion step tests lines,
    and the unknowns of an earlier line stay free to be anything the deck allows)."""
    return sorted(set(trial) | {fact for fact in prefix if isinstance(fact, Refill | Put)}, key=lambda fact: fact.id)
