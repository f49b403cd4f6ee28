"""Facts -> Z3: is there an assignment of physical cards to a public round's hidden cards under which lines 1..L
are legal?

The encoding is over counts per type of physical card (``referee.engine.hidden``): a batch is a vector of non-negative
integers summing to its size, a pick a 0/1 vector over the types showing the face played, a draw pile a vector
that each batch takes from and a reshuffle sets, a hand the sum of its terms. Every fact is asserted under its own
Boolean (``f<id>``), so that one solver answers for any prefix of the record (the facts of lines 1..L are the
assumptions) and its unsat core names the lines that contradict each other. The deck's copies are the only
bound: any order of the draw pile is possible, so a draw can take any cards the pile holds at that moment.

Only ``check`` on a log with a public round imports this module (and z3).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import z3

from referee.engine.hidden import Batch, Fact, Fixed, Held, HiddenDeck, Pick, Put, Refill, Same, Shown, Terms
from referee.records import dataclass
from referee.solving import stopped_by_interrupt
from referee.spec.vocabulary import Check


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
    """One round's facts, asserted once each (facts shared by branches of the replay are the same objects).

    The constraints are written as SMT-LIB text and parsed by Z3 in C: building them with Z3's Python objects
    cost more than solving them."""

    def __init__(self, deck: HiddenDeck, timeout_ms: int, relevant: dict[int, frozenset[int]] | None = None) -> None:
        # relevant: per batch, the only types it has a variable for (the rest of it, its *remainder*, is of other
        # types, filled in afterwards by ``fill_hands``); None: every type (the exact encoding)
        self.relevant = relevant
        self.deck = deck
        self.solver = z3.Solver()
        self.timeout_ms = max(1, timeout_ms)
        self.solver.set("timeout", self.timeout_ms)
        self.types = range(len(deck.types))
        self.vectors: dict[int, dict[int, str]] = {}  # unknown id -> type -> variable name (absent: 0)
        self.epochs: dict[int, int] = {}  # pile id (a refill, a batch, a put) -> the refill that began its draw pile
        self.supply: dict[int, list[str]] = {}  # refill id -> per type, the variable of its draw pile's content
        self._piles: dict[tuple[int, ...], z3.BoolRef] = {}  # the draw-pile bound of a set of facts, by its batches
        self.flags: dict[int, z3.BoolRef] = {}
        self.facts: dict[int, Fact] = {}
        self.batches: dict[int, Batch] = {}
        self._text: list[str] = []  # declarations and assertions not yet given to Z3
        self._questions = 0

    def set_timeout(self, timeout_ms: int) -> None:
        self.timeout_ms = max(1, timeout_ms)
        self.solver.set("timeout", self.timeout_ms)

    def _solve(self, *assumptions: z3.BoolRef) -> z3.CheckSatResult:
        """``check`` under assumptions; a give-up raised as the interrupt or the timeout it is."""
        started = time.monotonic()
        result = self.solver.check(*assumptions)
        if result == z3.unknown:
            early = time.monotonic() - started < self.timeout_ms / 1000 - EARLY
            _interrupted_or_undetermined(self.solver.reason_unknown(), early)
        return result

    # -- encoding

    def _declare(self, name: str, sort: str = "Int") -> str:
        self._text.append(f"(declare-const {name} {sort})")
        return name

    def _flush(self) -> None:
        if self._text:
            self.solver.from_string("\n".join(self._text))
            self._text = []

    def _sum(self, terms: Terms, k: int) -> str:
        parts = []
        for term, coef in terms:
            variable = self.vectors.get(term, {}).get(k)
            if variable is not None:
                parts.append(variable if coef == 1 else f"(* {coef} {variable})")
        return _plus(parts)

    def add(self, fact: Fact) -> z3.BoolRef:
        """Assert ``fact`` under its flag (once); the flag."""
        known = self.flags.get(fact.id)
        if known is not None:
            return known
        name = self._declare(f"f{fact.id}", "Bool")
        flag = z3.Bool(name)
        self.flags[fact.id] = flag
        self.facts[fact.id] = fact
        if isinstance(fact, Batch):
            self.batches[fact.id] = fact
        claims = list(self._claims(fact))
        if claims:
            self._text.append(f"(assert (=> {name} (and {' '.join(claims)})))")
        return flag

    def _claims(self, fact: Fact) -> Iterable[str]:
        """What ``fact`` asserts, in SMT-LIB: each kind of fact has its own method (``_FACT_CLAIMS``)."""
        return _FACT_CLAIMS[type(fact)](self, fact)

    def _refill(self, fact: Refill) -> Iterator[str]:
        counts = [0] * len(self.deck.types)
        for k in fact.known:
            counts[k] += 1
        pile = [self._declare(f"p{fact.id}_{k}") for k in self.types]
        self.supply[fact.id] = pile
        self.epochs[fact.id] = fact.id
        for k in self.types:
            yield f"(= {pile[k]} {_plus([self._sum(fact.terms, k), str(counts[k])])})"

    def _put(self, fact: Put) -> Iterator[str]:
        self.epochs[fact.id] = self.epochs[fact.pile]
        yield from ()

    def _batch(self, fact: Batch) -> Iterator[str]:
        allowed: Sequence[int] = self.types if fact.types is None else fact.types
        whole = True  # a variable for every type the batch may hold: it has no remainder
        if self.relevant is not None:
            mentioned = self.relevant.get(fact.id, frozenset())
            every = len(allowed)
            allowed = [k for k in allowed if k in mentioned]
            whole = len(allowed) == every
        vector = {k: self._declare(f"n{fact.id}_{k}") for k in allowed}
        self.vectors[fact.id] = vector
        self.epochs[fact.id] = self.epochs[fact.pile]
        for variable in vector.values():
            yield f"(>= {variable} 0)"
        total = _plus(list(vector.values()))
        yield f"(= {total} {fact.size})" if whole else f"(<= {total} {fact.size})"

    def _pick(self, fact: Pick) -> Iterator[str]:
        vector = {k: self._declare(f"z{fact.id}_{k}") for k in fact.types}
        self.vectors[fact.id] = vector
        for k, variable in vector.items():
            yield f"(>= {variable} 0)"
            yield f"(<= {variable} {self._sum(fact.hand, k)})"
        yield f"(= {_plus(list(vector.values()))} 1)"

    def _same(self, fact: Same) -> Iterator[str]:
        pick, batch = self.vectors[fact.pick], self.vectors[fact.batch]
        for k in sorted(set(pick) | set(batch)):
            yield f"(= {pick.get(k, '0')} {batch.get(k, '0')})"

    def _fixed(self, fact: Fixed) -> Iterator[str]:
        yield f"(= {self.vectors[fact.pick].get(fact.type, '0')} 1)"

    def _held(self, fact: Held) -> Iterator[str]:
        total = self._total(fact.hand, fact.types)
        yield f"(>= {total} 1)" if fact.held else f"(= {total} 0)"

    def _shown(self, fact: Shown) -> Iterator[str]:
        for types, count in fact.groups:
            if count or self.relevant is None:
                yield f"(= {self._total(fact.hand, types)} {count})"
        if self.relevant is not None:  # every card of the hand is shown: no batch in it keeps a remainder
            for term, coef in fact.hand:
                held = self.batches.get(term)
                if coef > 0 and held is not None:
                    yield f"(= {_plus(list(self.vectors[term].values()))} {held.size})"

    def _pile_bound(self, facts: Sequence[Fact]) -> z3.BoolRef:
        """A flag that bounds the cards ``facts``' batches take from each draw pile by what it holds (the deck, or a
        reshuffle's cards). Between two cards put back (a start card returned) the cards only go, so the bound just
        before each card put back, and at the end, is the bound at every batch: one inequality per pile, type and card
        put back, not one per draw. A card put back counts only for the batches after it."""
        batches = tuple(sorted(fact.id for fact in facts if isinstance(fact, Batch | Put)))
        known = self._piles.get(batches)
        if known is not None:
            return known
        taken: dict[tuple[int, int], list[str]] = {}
        back: dict[tuple[int, int], int] = {}
        bounds: list[str] = []

        def bound(epoch: int, k: int) -> str:
            return f"(<= {_plus(taken[(epoch, k)])} {_plus([self.supply[epoch][k], str(back.get((epoch, k), 0))])})"

        for fact in sorted(facts, key=lambda fact: fact.id):
            if isinstance(fact, Batch):
                epoch = self.epochs[fact.id]
                for k, variable in self.vectors[fact.id].items():
                    taken.setdefault((epoch, k), []).append(variable)
            elif isinstance(fact, Put):
                key = (self.epochs[fact.id], fact.type)
                if key in taken:
                    bounds.append(bound(*key))  # before the card goes back, the pile held what it held
                back[key] = back.get(key, 0) + 1
        bounds += [bound(*key) for key in taken]
        name = self._declare(f"b{len(self._piles)}", "Bool")
        if bounds:
            self._text.append(f"(assert (=> {name} (and {' '.join(bounds)})))")
        flag = z3.Bool(name)
        self._piles[batches] = flag
        return flag

    def _total(self, hand: Terms, types: Sequence[int]) -> str:
        return _plus([self._sum(hand, k) for k in types])

    # -- questions

    def check(self, facts: Sequence[Fact], *extra: z3.BoolRef) -> bool:
        """Whether some assignment satisfies ``facts`` (and ``extra``); ``Undetermined`` when the solver gives up."""
        flags = [self.add(fact) for fact in facts]
        flags.append(self._pile_bound(facts))
        self._flush()
        return bool(self._solve(*flags, *extra) == z3.sat)

    def held_flag(self, hand: Terms, types: Sequence[int], held: bool) -> z3.BoolRef:
        """A fresh Boolean that, assumed, says the hand held a card of ``types`` (or none)."""
        self._questions += 1
        name = self._declare(f"q{self._questions}", "Bool")
        total = self._total(hand, types)
        self._text.append(f"(assert (=> {name} {f'(>= {total} 1)' if held else f'(= {total} 0)'}))")
        self._flush()
        return z3.Bool(name)

    def model(self, facts: Sequence[Fact], lacking: Sequence[tuple[Terms, Sequence[int]]] = ()) -> dict[int, list[int]] | None:
        """A satisfying assignment of the facts just checked (sat): each batch and pick as the types of its cards (a
        type once per copy); None when the sparse encoding's remainders cannot be filled (``fill_hands``)."""
        model = self.solver.model()
        # one walk over the model by name (evaluating, or printing, each variable is slow)
        values = {declaration.name(): model[declaration] for declaration in model.decls() if declaration.name()[0] in "nz"}
        found: dict[int, list[int]] = {}
        for fact in facts:
            if isinstance(fact, Batch | Pick):
                letter = "n" if isinstance(fact, Batch) else "z"
                cards: list[int] = []
                for k in self.vectors[fact.id]:
                    value = values.get(f"{letter}{fact.id}_{k}")
                    count = value.as_long() if value is not None else 0
                    cards.extend([k] * count)
                found[fact.id] = cards
        if self.relevant is not None and not fill_hands(facts, found, self.deck, lacking):
            return None
        return found

    def reasons(self, prefix: list[Fact], line: int, deadline: float = float("inf")) -> tuple[Fact, tuple[Fact, ...]]:
        """The fact of ``line`` that fails and a smallest set of earlier lines' facts that contradict it: the lines
        of an unsat core, then each line dropped in turn while the rest stays unsat (deletion), for as long as
        ``deadline`` (a ``time.monotonic()``) allows: past it, the core found so far (still a contradiction)."""
        flags = {fact.id: self.add(fact) for fact in prefix}
        bound = self._pile_bound(prefix)
        self._flush()
        self._solve(*flags.values(), bound)
        core = {flag.decl().name() for flag in self.solver.unsat_core()}
        in_core = [fact for fact in prefix if f"f{fact.id}" in core]
        keep = sorted({fact.line for fact in in_core if fact.line != line})
        base = [fact for fact in prefix if fact.line == line]
        for candidate in list(keep):
            left = deadline - time.monotonic()
            if left <= 0:
                break
            self.set_timeout(int(left * 1000))
            trial = [fact for fact in in_core if fact.line != candidate] + base
            try:
                unsat = not self.check(_defined(trial, prefix))
            except Undetermined:
                break
            if unsat:
                keep.remove(candidate)
                in_core = [fact for fact in in_core if fact.line != candidate]
        failing = next((fact for fact in base if f"f{fact.id}" in core), base[-1])
        reasons = tuple(next(fact for fact in prefix if fact.line == kept) for kept in keep)
        return failing, reasons


# Each kind of fact's assertions (``Solver._claims``); the facts are records of the hidden-state model (referee.engine.hidden).
_FACT_CLAIMS: dict[type, Callable[[Solver, Any], Iterator[str]]] = {
    Refill: Solver._refill,
    Put: Solver._put,
    Batch: Solver._batch,
    Pick: Solver._pick,
    Same: Solver._same,
    Fixed: Solver._fixed,
    Held: Solver._held,
    Shown: Solver._shown,
}


def _plus(parts: list[str]) -> str:
    """The SMT-LIB sum of ``parts`` (0 for none)."""
    parts = [part for part in parts if part != "0"]
    if not parts:
        return "0"
    return parts[0] if len(parts) == 1 else f"(+ {' '.join(parts)})"


def held_in(found: dict[int, list[int]], hand: Terms, types: Sequence[int]) -> bool:
    """Whether, in the assignment ``found``, the hand ``hand`` holds a card of ``types``."""
    wanted = set(types)
    return sum(coef * sum(1 for k in found.get(term, ()) if k in wanted) for term, coef in hand) > 0


class Oracle:
    """Consistency questions, answered fast and exactly: the sparse encoding first (a relaxation: each batch has
    variables only for the types some fact asks about), whose "no" is final and whose "yes" counts once its
    remainders are filled (``fill_hands``); the exact encoding when they cannot be."""

    def __init__(
        self, deck: HiddenDeck, deadline: float, facts: Iterable[Fact], asked: Iterable[tuple[Terms, tuple[int, ...]]] = ()
    ) -> None:
        """``deadline``: the ``time.monotonic()`` after which every question is ``Undetermined``."""
        self.deck = deck
        self.deadline = deadline
        timeout_ms = self._left()
        self.sparse = Solver(deck, timeout_ms, relevance(facts, asked))
        self._exact: Solver | None = None
        self.found: dict[int, list[int]] | None = None  # the assignment behind the last "yes" of ``sat``

    def _left(self) -> int:
        """Milliseconds left before the deadline (``Undetermined`` when none are)."""
        left = int((self.deadline - time.monotonic()) * 1000)
        if left <= 0:
            raise Undetermined("timeout")
        return left

    def _ready(self, solver: Solver) -> Solver:
        solver.set_timeout(self._left())
        return solver

    def exact(self) -> Solver:
        if self._exact is None:
            self._exact = Solver(self.deck, self._left())
        return self._ready(self._exact)

    def sat(self, facts: Sequence[Fact], held: tuple[Terms, tuple[int, ...], bool] | None = None) -> bool:
        """Whether one assignment satisfies ``facts`` (and, given ``held``, says that hand held a card of those types,
        or none)."""
        self.found = None
        extra = [self.sparse.held_flag(*held)] if held is not None else []
        if not self._ready(self.sparse).check(facts, *extra):
            return False
        self.found = self.sparse.model(facts, [(held[0], held[1])] if held is not None and not held[2] else [])
        if self.found is not None:
            return True
        exact = self.exact()
        extra = [exact.held_flag(*held)] if held is not None else []
        if not exact.check(facts, *extra):
            return False
        self.found = exact.model(facts)
        return True

    def model(self, facts: Sequence[Fact]) -> dict[int, list[int]]:
        """One satisfying assignment of ``facts`` (which have one)."""
        if self.found is not None:
            return self.found
        if self._ready(self.sparse).check(facts):
            found = self.sparse.model(facts)
            if found is not None:
                return found
        exact = self.exact()
        if not exact.check(facts):
            raise Undetermined("no assignment")
        found = exact.model(facts)
        assert found is not None
        return found

    def first_unsat(self, facts: Sequence[Fact]) -> int | None:
        """The first line L whose facts 1..L have no assignment (None when all of them have one)."""
        if self.sat(facts):
            return None
        lines = sorted({fact.line for fact in facts})
        low, high = 0, len(lines) - 1  # the prefix up to lines[high] has none; find the first such
        while low < high:
            middle = (low + high) // 2
            if self.sat([fact for fact in facts if fact.line <= lines[middle]]):
                low = middle + 1
            else:
                high = middle
        return lines[low]

    def contradiction(self, facts: Sequence[Fact], line: int) -> Contradiction:
        """Why the facts of lines 1..``line`` have no assignment: the fact of ``line`` that fails and the earlier
        lines that contradict it (a core, minimised while the deadline allows)."""
        prefix = [fact for fact in facts if fact.line <= line]
        solver = self.sparse if not self._ready(self.sparse).check(prefix) else self.exact()
        return Contradiction(line, *solver.reasons(prefix, line, self.deadline))


def relevance(facts: Iterable[Fact], asked: Iterable[tuple[Terms, tuple[int, ...]]] = ()) -> dict[int, frozenset[int]]:
    """Per batch, the types some fact asks about while the batch is in a hand (a play's face, a colour held, a face
    shown), and its own types when it is restricted to a few: the sparse encoding's variables."""
    facts = list(facts)
    mentioned: dict[int, set[int]] = {}
    picks: dict[int, tuple[int, ...]] = {}
    for fact in facts:
        if isinstance(fact, Batch):
            own = mentioned.setdefault(fact.id, set())
            if fact.types is not None and len(fact.types) <= SMALL:
                own.update(fact.types)
            continue
        types: Iterable[int]
        if isinstance(fact, Pick):
            picks[fact.id] = fact.types
            types = fact.types
        elif isinstance(fact, Held):
            types = fact.types
        elif isinstance(fact, Shown):
            types = [k for group, count in fact.groups if count for k in group]
        elif isinstance(fact, Same):
            mentioned.setdefault(fact.batch, set()).update(picks.get(fact.pick, ()))
            continue
        else:
            continue
        for term, coef in fact.hand:
            if coef > 0:
                mentioned.setdefault(term, set()).update(types)
    for hand, types in asked:  # the wild draw cards' questions: did that hand hold the colour?
        for term, coef in hand:
            if coef > 0:
                mentioned.setdefault(term, set()).update(types)
    _through_shuffles(facts, mentioned)
    return {batch: frozenset(types) for batch, types in mentioned.items()}


def _through_shuffles(facts: Iterable[Fact], mentioned: dict[int, set[int]]) -> None:
    """A shuffle of hands deals out the cards of the hands it collected (a ``Refill`` of the hands' sums): a type asked
    about of a hand dealt by it is asked about of every batch it collected, so that the pool's count of that type is
    exact and the sparse encoding stays a relaxation. Latest shuffle first: a batch collected may itself have been
    dealt by an earlier shuffle."""
    pools: dict[int, Refill] = {}
    dealt: dict[int, list[int]] = {}  # pool -> the batches dealt from it
    pool_of: dict[int, int] = {}  # a pile vector of the pool's chain -> the pool
    for fact in facts:
        if isinstance(fact, Refill) and fact.check == Check.SHUFFLE_HANDS:
            pools[fact.id] = fact
            pool_of[fact.id] = fact.id
            dealt[fact.id] = []
        elif isinstance(fact, Batch) and fact.pile in pool_of:
            pool_of[fact.id] = pool_of[fact.pile]
            dealt[pool_of[fact.id]].append(fact.id)
    for pool in sorted(pools, reverse=True):
        asked = set().union(*(mentioned.get(batch, set()) for batch in dealt[pool]))
        if asked:
            for term, coef in pools[pool].terms:
                if coef > 0:
                    mentioned.setdefault(term, set()).update(asked)


SMALL = 8


def fill_hands(
    facts: Sequence[Fact], found: dict[int, list[int]], deck: HiddenDeck, lacking: Sequence[tuple[Terms, Sequence[int]]] = ()
) -> bool:
    """Give each batch's remainder (the cards the sparse encoding left unnamed) types the draw pile of its time
    still holds, inside its own restriction and outside any colour a hand holding it is said to lack (a ruling of
    innocence, or ``lacking``): a transportation problem per draw pile (between reshuffles), solved exactly by
    augmenting paths. Any other fact only gains from a card more in a hand: a play still finds its card; a shown
    hand has no remainder (its facts say so). False when no such types exist."""
    kinds = len(deck.types)
    forbidden: dict[int, set[int]] = {}
    said = [(fact.hand, fact.types) for fact in facts if isinstance(fact, Held) and not fact.held]
    for hand, types in [*said, *lacking]:
        for term, coef in hand:
            if coef > 0:
                forbidden.setdefault(term, set()).update(types)
    supplies: dict[int, list[int]] = {-1: list(deck.counts)}  # per draw pile (its epoch): what it holds yet
    epoch_of: dict[int, int] = {}  # each pile's vector (a refill, a batch after it, a card put back) -> its epoch
    needs: dict[int, list[tuple[int, int, list[int]]]] = {}  # per epoch: (batch, how many, allowed types)

    def settle() -> bool:
        for epoch, wanted in needs.items():
            assignment = _transport(wanted, supplies[epoch])
            if assignment is None:
                return False
            for batch, cards in assignment.items():
                found[batch].extend(cards)
                for k in cards:
                    supplies[epoch][k] -= 1
        needs.clear()
        return True

    for fact in facts:
        if isinstance(fact, Refill):  # a new pile (a reshuffle, the hands collected by a shuffle) of cards known by now
            if not settle():
                return False
            supply = [0] * kinds
            for k in fact.known:
                supply[k] += 1
            for term, coef in fact.terms:
                for k in found.get(term, ()):
                    supply[k] += coef
            supplies[fact.id] = supply
            epoch_of[fact.id] = fact.id
        elif isinstance(fact, Put):
            epoch_of[fact.id] = epoch_of.get(fact.pile, -1)
        elif isinstance(fact, Batch):
            epoch = epoch_of[fact.id] = epoch_of.get(fact.pile, -1)
            for k in found[fact.id]:
                supplies[epoch][k] -= 1
            rest = fact.size - len(found[fact.id])
            if rest:
                banned = forbidden.get(fact.id, set())
                allowed = range(kinds) if fact.types is None else fact.types
                needs.setdefault(epoch, []).append((fact.id, rest, [k for k in allowed if k not in banned]))
    if any(count < 0 for supply in supplies.values() for count in supply):
        return False
    return settle()


def _transport(needs: list[tuple[int, int, list[int]]], supply: list[int]) -> dict[int, list[int]] | None:
    """Assign each need's units to types with supply left (each unit one card), by augmenting paths; None if not all
    can be."""
    left = list(supply)
    if any(count < 0 for count in left):
        return None
    given: dict[int, dict[int, int]] = {batch: {} for batch, _, _ in needs}
    allowed = {batch: types for batch, _, types in needs}
    holders: dict[int, dict[int, int]] = {}  # type -> batch -> units
    for batch, count, _ in needs:
        for _unit in range(count):
            if not _augment(batch, allowed, left, given, holders, set()):
                return None
    return {batch: [k for k, units in cards.items() for _ in range(units)] for batch, cards in given.items()}


def _augment(
    batch: int,
    allowed: dict[int, list[int]],
    left: list[int],
    given: dict[int, dict[int, int]],
    holders: dict[int, dict[int, int]],
    seen: set[int],
) -> bool:
    """One more unit for ``batch``: a type with supply left, or one taken from another batch that can move."""
    for k in allowed[batch]:
        if left[k] > 0:
            left[k] -= 1
            given[batch][k] = given[batch].get(k, 0) + 1
            holders.setdefault(k, {})[batch] = holders.get(k, {}).get(batch, 0) + 1
            return True
    for k in allowed[batch]:
        if k in seen:
            continue
        seen.add(k)
        for other, units in list(holders.get(k, {}).items()):
            if units and other != batch and _augment(other, allowed, left, given, holders, seen):
                # the other batch found another card: it gives up one k, which goes to this batch
                holders[k][other] -= 1
                given[other][k] -= 1
                if not given[other][k]:
                    del given[other][k]
                holders[k][batch] = holders[k].get(batch, 0) + 1
                given[batch][k] = given[batch].get(k, 0) + 1
                return True
    return False


def _defined(trial: list[Fact], prefix: list[Fact]) -> list[Fact]:
    """``trial`` with the facts that define the unknowns and piles it refers to (a fact's variables exist only once
    the fact that makes them is asserted; a defining fact's constraints are then kept: a deletion step tests lines,
    and the unknowns of an earlier line stay free to be anything the deck allows)."""
    return sorted(set(trial) | {fact for fact in prefix if isinstance(fact, Refill | Put)}, key=lambda fact: fact.id)


EARLY = 0.25  # seconds: a solve "canceled" this long before its timeout was stopped by Ctrl-C, not by the timeout


def _interrupted_or_undetermined(reason: str, early: bool = False) -> None:
    """The solver gave up: because Ctrl-C reached it (Z3 catches SIGINT while it solves: the command is interrupted,
    exit 130, as before the solve), or for ``reason`` (``Undetermined``: a timeout). Z3 says "interrupted from
    keyboard", or "canceled" for a Ctrl-C and a timeout alike: then ``early`` (well before the timeout) decides."""
    if stopped_by_interrupt(reason, early):
        raise KeyboardInterrupt
    raise Undetermined(reason)
