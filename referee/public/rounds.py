"""Public rounds: replay every way the hidden cards can go, then ask the solver which ways the record allows.

A public round's line can depend on a hidden card in a way that changes what follows: a challenge's ruling, where
a draw until a colour ended, which face a Flip uncovered. The engine then asks ``Engine.decide`` and this driver
replays the line once per choice (each a *branch*, a snapshot of the engine); a branch that a later line makes
illegal for a reason needing no hidden card dies there. When the round ends (the next ``round`` line, or the end
of the log), ``judge_round`` asks ``referee.public.consistency`` how far each branch's facts have an assignment: the record is
consistent up to the furthest line any branch reaches.
"""

from __future__ import annotations

import time
from dataclasses import field
from typing import TYPE_CHECKING

from referee.engine.engine import Engine
from referee.engine.hidden import Batch, Fact, Held, HiddenState, Pick
from referee.engine.public_knowledge import hidden_of
from referee.engine.state import Dispute, Snapshot
from referee.log import events as ev
from referee.records import dataclass
from referee.rules.compiler import Rules
from referee.verdicts import Bluff, Code, Diagnostic, Forced, HiddenAnswer

if TYPE_CHECKING:  # the solver (z3) is imported only when a public round is judged
    from referee.public.consistency import Oracle

MAX_BRANCHES = 256  # live replays of a round kept at once (more: the round is undetermined unless one is consistent)
MAX_DEAD = 256  # replays a line ruled out kept for the judgement, the latest first (each holds one state copy)
NEVER = 1 << 62


@dataclass(slots=True)
class RoundJudgement:
    """A public round judged: the diagnostic at its first illegal line (None: consistent), or why it is undetermined;
    the answers to its wild draw cards; what a witness writes in place of its lines."""

    diagnostic: Diagnostic | None = None
    undetermined: str | None = None
    answers: list[HiddenAnswer] = field(default_factory=list)
    witness: dict[int, tuple[str, ...]] = field(default_factory=dict)
    chosen: Snapshot | None = None


class Branches:
    """The replays of one public round that no line has ruled out, and those that one has (with the line).

    A branch is a snapshot of the engine with its own warnings and dispute rulings (an engine snapshot keeps only
    how many there were: enough to undo one move, not to hold two replays apart)."""

    def __init__(self, engine: Engine, deadline: float = float("inf")) -> None:
        self.engine = engine
        self.notes: dict[int, tuple[tuple[Diagnostic, ...], tuple[Dispute, ...]]] = {}
        self.live: list[Snapshot] = [self._take()]
        self.dead: list[tuple[Diagnostic, Snapshot]] = []
        self.events: list[ev.Event] = []
        self.dropped = False  # more branches than MAX_BRANCHES: some were dropped, so no branch failing is final
        self.dead_dropped = -1  # the last line of a dead branch dropped (MAX_DEAD): a verdict reaching no further is not final
        self.deadline = deadline  # when the time for the round (its replays and its judgement) is up (time.monotonic())
        self.expired = False  # the replays ran past the deadline: the round is undetermined

    def apply(self, event: ev.Event) -> bool:
        """Apply ``event`` to every branch; False when none survives it (the round is then judged), or when the time
        is up (``expired``)."""
        engine = self.engine
        survivors: list[Snapshot] = []
        self.events.append(event)
        if time.monotonic() > self.deadline:
            self.expired = True
            return False
        for snapshot in self.live:
            pending: list[list[int]] = [[]]
            while pending:
                script = pending.pop()
                self.restore(snapshot)
                engine.script = script
                engine.arities = []
                diagnostic = engine.apply(event)
                arities = engine.arities
                for index in range(len(script), len(arities)):
                    for choice in range(1, arities[index]):
                        pending.append(script + [0] * (index - len(script)) + [choice])
                if diagnostic is None:
                    survivors.append(self._take())
                else:
                    self.dead.append((diagnostic, snapshot))
        engine.script = []
        engine.arities = []
        if len(survivors) > MAX_BRANCHES:
            self.dropped = True
            survivors = survivors[:MAX_BRANCHES]
        if len(self.dead) > MAX_DEAD:  # the earliest deaths reach least far: they are the ones a verdict can spare
            self.dead.sort(key=lambda dead: dead[0].line)
            dropped = len(self.dead) - MAX_DEAD
            self.dead_dropped = max(self.dead_dropped, self.dead[dropped - 1][0].line)
            del self.dead[:dropped]
        self.live = survivors
        kept = [*survivors, *(snapshot for _, snapshot in self.dead)]
        self.notes = {id(snapshot): self.notes[id(snapshot)] for snapshot in kept}  # a replay's notes go with it
        if survivors:
            self.restore(survivors[0])
            return True
        return False

    def _take(self) -> Snapshot:
        snapshot = self.engine.snapshot()
        self.notes[id(snapshot)] = (tuple(self.engine.warnings), tuple(self.engine.disputes))
        return snapshot

    def restore(self, snapshot: Snapshot) -> None:
        """Put the engine back at a branch, its warnings and rulings included."""
        engine = self.engine
        engine.restore(snapshot)
        warnings, disputes = self.notes[id(snapshot)]
        engine.warnings[:] = warnings
        engine.disputes[:] = disputes


def rule_of(rules: Rules) -> dict[str, str]:
    """Each check's rule id: what ``judge_round`` cites for the fact that fails."""
    return {check: rule.id for check, rule in rules.check_rules.items()}


def judge_round(
    branches: Branches, timeout: float, want_witness: bool, rule_of: dict[str, str], want_answers: bool = True
) -> RoundJudgement:
    """Decide a public round from its branches: consistent (with a chosen branch to go on from, its answers and a
    witness), inconsistent at a line (with the contradicting lines), illegal at a line for a reason needing no
    hidden card, or undetermined."""
    from referee.public.consistency import Oracle, Undetermined

    deadline = min(time.monotonic() + timeout, branches.deadline)
    if branches.expired:
        why = "replaying the ways its hidden cards can go used it"
        return RoundJudgement(undetermined=f"the solver could not settle this public round within the time allowed ({why})")
    if not branches.live and not branches.dead:  # every replay was ruled out, and those were dropped for memory
        return RoundJudgement(
            undetermined=f"the solver could not settle this public round: more than {MAX_DEAD} replays ruled out to weigh"
        )
    first = branches.live[0] if branches.live else branches.dead[0][1]
    every = {
        fact.id: fact for snapshot in [*branches.live, *(s for _, s in branches.dead)] for fact in hidden_of(snapshot.state).facts_list()
    }
    asked = [(q.hand, q.types) for snapshot in branches.live for q in hidden_of(snapshot.state).questions]
    try:
        solver = Oracle(hidden_of(first.state).deck, deadline, sorted(every.values(), key=lambda fact: fact.id), asked)
        chosen = _consistent_branch(branches, solver, want_witness, want_answers)
        if chosen is not None:
            return chosen
        if branches.dropped:  # a dropped branch might have had one: not a verdict to give
            raise Undetermined(f"more than {MAX_BRANCHES} ways the hidden cards can go")
        best, found = _furthest(branches, solver)
        if best <= branches.dead_dropped:  # a replay dropped for memory might have reached as far: not a verdict to give
            raise Undetermined(f"more than {MAX_DEAD} replays ruled out to weigh")
        return RoundJudgement(diagnostic=_failure(found, rule_of, solver))
    except Undetermined as why:
        return RoundJudgement(undetermined=f"the solver could not settle this public round within the time allowed ({why})")


def _consistent_branch(branches: Branches, solver: Oracle, want_witness: bool, want_answers: bool) -> RoundJudgement | None:
    """The common case first: the first branch with an assignment for every fact, with its witness and answers."""
    for snapshot in branches.live:
        hidden = hidden_of(snapshot.state)
        facts = hidden.facts_list()
        if solver.sat(facts):
            outcome = RoundJudgement(chosen=snapshot)
            assignment = solver.model(facts)
            if want_witness:
                outcome.witness = _witness(assignment, facts, hidden, branches.events, snapshot.state.players)
            if want_answers:
                outcome.answers = _answers(solver, facts, hidden, assignment)
            return outcome
    return None


def _furthest(branches: Branches, solver: Oracle) -> tuple[int, list[tuple[Diagnostic | None, list[Fact], int | None]]]:
    """No branch has an assignment: the furthest line any branch reaches, and the branches that reach it. A branch
    reaches its first illegal line (a reason that needs no hidden card) or its first line without an assignment,
    whichever comes first."""
    best = -1
    found: list[tuple[Diagnostic | None, list[Fact], int | None]] = []
    leaves: list[tuple[int, Diagnostic | None, Snapshot]] = [(NEVER, None, snapshot) for snapshot in branches.live]
    leaves += sorted(((d.line, d, snapshot) for d, snapshot in branches.dead), key=lambda leaf: -leaf[0])
    for limit, diagnostic, snapshot in leaves:
        if limit < best:
            continue  # it cannot reach further than a branch already judged
        facts = hidden_of(snapshot.state).facts_list()
        unsat = solver.first_unsat(facts)
        reach = limit if unsat is None else min(limit, unsat)
        entry = (diagnostic if unsat is None or limit <= unsat else None, facts, unsat)
        if reach > best:
            best, found = reach, [entry]
        elif reach == best:
            found.append(entry)
    return best, found


def _failure(found: list[tuple[Diagnostic | None, list[Fact], int | None]], rule_of: dict[str, str], solver: object) -> Diagnostic:
    """The diagnostic at the furthest line any branch reaches: a reason needing no hidden card when every branch that
    gets there fails for that one (same code), else ``inconsistent`` with the lines that contradict it."""
    from referee.public.consistency import Oracle

    assert isinstance(solver, Oracle)
    plain = [diagnostic for diagnostic, _, _ in found if diagnostic is not None]
    if len(plain) == len(found) and len({diagnostic.code for diagnostic in plain}) == 1:
        return plain[0]
    failing = next(((facts, unsat) for _, facts, unsat in found if unsat is not None), None)
    if failing is None:
        first = plain[0]
        return Diagnostic(
            first.line, Code.INCONSISTENT, f"no way the hidden cards can go makes this line legal: {first.message}", first.rule
        )
    contradiction = solver.contradiction(*failing)
    reasons = tuple((fact.line, fact.what) for fact in contradiction.reasons)
    shown = "; ".join(f"line {line}: {what}" for line, what in reasons)
    message = f"no deal and draw pile make this legal: {contradiction.fact.what}" + (f" (contradicted by {shown})" if shown else "")
    return Diagnostic(contradiction.line, Code.INCONSISTENT, message, rule_of.get(contradiction.fact.check, ""), reasons=reasons)


def _answers(solver: object, facts: list[Fact], hidden: HiddenState, found: dict[int, list[int]]) -> list[HiddenAnswer]:
    """For each wild draw card: did its player hold the colour in play (certain, impossible, undetermined), or, when
    challenged, is the ruling shown the only one the hidden hands allow?"""
    from referee.public.consistency import Oracle, Undetermined, held_in

    assert isinstance(solver, Oracle)
    answers = []
    for question in hidden.questions:
        try:
            if question.challenge is None:
                held = held_in(found, question.hand, question.types)  # one side is known from the assignment found
                can_hold = held or solver.sat(facts, (question.hand, question.types, True))
                can_lack = not held or solver.sat(facts, (question.hand, question.types, False))
                bluff = Bluff.CERTAIN if not can_lack else Bluff.IMPOSSIBLE if not can_hold else Bluff.UNDETERMINED
                answers.append(HiddenAnswer(question.line, "bluff", question.player, question.colour, bluff))
            else:
                ruled = (question.hand, question.types)  # the ruling's own fact (on the draw line that showed it) is left out
                others = [
                    fact
                    for fact in facts
                    if not (isinstance(fact, Held) and fact.check == "challenge" and (fact.hand, fact.types) == ruled)
                ]
                other = solver.sat(others, (question.hand, question.types, not question.guilty))
                ruling = "guilty" if question.guilty else "innocent"
                forced = Forced.NOT_FORCED if other else Forced.FORCED
                answers.append(HiddenAnswer(question.line, "ruling", question.player, question.colour, forced, question.challenge, ruling))
        except Undetermined:
            if question.challenge is None:
                answers.append(HiddenAnswer(question.line, "bluff", question.player, question.colour, Bluff.UNDETERMINED))
            else:
                answers.append(
                    HiddenAnswer(question.line, "ruling", question.player, question.colour, Forced.UNDETERMINED, question.challenge)
                )
    return answers


_Assigned = tuple[
    dict[int, list[str]], dict[int, list[tuple[int, list[str]]]], dict[int, str], dict[int, list[list[str]]]
]  # by line: the cards drawn, each seat's hand dealt, the card played, each hand of a shuffle in the order dealt


def _assigned(model: dict[int, list[int]], facts: list[Fact], hidden: HiddenState) -> _Assigned:
    """The cards one assignment gives the round's hidden facts, by line (``_witness`` writes them)."""
    types = hidden.deck.types
    drawn: dict[int, list[str]] = {}
    hands: dict[int, list[tuple[int, list[str]]]] = {}
    picks: dict[int, str] = {}
    dealt: dict[int, list[list[str]]] = {}  # a shuffle of hands: each hand dealt, from the shuffler's left
    for fact in facts:
        if isinstance(fact, Batch) and fact.check == "shuffle-hands":  # in the order dealt
            dealt.setdefault(fact.line, []).append([types[k].token for k in model[fact.id]])
        elif isinstance(fact, Batch) and fact.check == "hands" and fact.seat is not None:
            hands.setdefault(fact.line, []).append((fact.seat, [types[k].token for k in model[fact.id]]))
        elif isinstance(fact, Batch) and fact.seat is not None:
            drawn.setdefault(fact.line, []).extend(types[k].token for k in model[fact.id])
        elif isinstance(fact, Pick):
            picks[fact.line] = types[model[fact.id][0]].token
    return drawn, hands, picks, dealt


def _witness(
    model: dict[int, list[int]], facts: list[Fact], hidden: HiddenState, events: list[ev.Event], players: tuple[str, ...]
) -> dict[int, tuple[str, ...]]:
    """What an observed-mode log writes in place of the round's public lines under one assignment: ``hand`` lines for
    ``public``, the cards of each ``draws N``, the physical card of each play (two sides), the cards
    of each shuffle of hands in the order dealt, nothing for ``shows``."""
    drawn, hands, picks, dealt = _assigned(model, facts, hidden)
    witness: dict[int, tuple[str, ...]] = {}
    for event in events:
        if isinstance(event, ev.Public):
            witness[event.line] = tuple(f"hand {players[seat]} " + " ".join(cards) for seat, cards in sorted(hands.get(event.line, [])))
        elif isinstance(event, ev.DrawCount):
            witness[event.line] = (f"{event.player} draws " + " ".join(drawn.get(event.line, [])),)
        elif isinstance(event, ev.Play) and event.line in picks and "/" in picks[event.line]:
            witness[event.line] = (f"{event.player} plays {picks[event.line]}" + (f" {event.colour}" if event.colour else ""),)
        elif isinstance(event, ev.ShuffleHands):  # the cards one at a time round the table (the shares only shrink)
            shares = dealt.get(event.line, [])
            cards = [share[turn] for turn in range(max(map(len, shares), default=0)) for share in shares if turn < len(share)]
            witness[event.line] = (f"{event.player} shuffles " + " ".join(cards),)
        elif isinstance(event, ev.Shows):
            witness[event.line] = ()
    return witness
