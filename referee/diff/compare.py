"""Two specs compared: the declared differences, then a game for each difference in behaviour.

``compare`` is ``referee diff`` without the command line: it reads both specs, lists what they set differently
(``referee.diff.declared``), and searches a game for each item the engine reads (``referee.diff.games``). Its verdict:

- ``SAME``: no item the engine reads differs, so both specs' engines decide every line alike and accept the same games,
  for every player count and every length of game (a proof by construction, not a bounded search);
- ``DIFFERENT``: a game one spec accepts and the other rejects was found, and judged so by both, or a claim of the
  rulebook one spec's Z3 model proves and the other's refutes;
- ``UNDECIDED``: items the engine reads differ, but neither a game nor a claim shows it.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from referee.diff import declared
from referee.diff.declared import Difference, SpecSide
from referee.diff.games import Found, Search, first_error, judge_game, spelled_game
from referee.diff.solver import SolverReport
from referee.errors import Position
from referee.records import dataclass
from referee.rules.compiler import Rules, compile_spec, load_rules
from referee.spec.extends import spec_tree
from referee.spec.model import Spec
from referee.spec.paths import shipped_file

SEARCH_TIMEOUT = 60  # seconds of search for each difference in behaviour (referee diff --timeout)


class Conclusion(enum.Enum):
    """What ``referee diff`` concludes, with its exit code."""

    SAME = 0
    DIFFERENT = 1
    UNDECIDED = 3

    @property
    def exit_code(self) -> int:
        return self.value


@dataclass(frozen=True, slots=True)
class Named:
    """One of the two specs as the reader knows it: its name and where its file is (``specs/NAME.yaml`` when
    shipped)."""

    name: str
    path: str
    replay: str  # what to give ``referee check --spec``: the shipped name, or the file as given


@dataclass(frozen=True, slots=True)
class RuleText:
    """A rule of one spec, in that spec's words."""

    id: str
    summary: str


@dataclass(frozen=True, slots=True)
class ShownGame:
    """A difference shown by a game: the log, which spec accepts it, and where and why the other rejects it."""

    item: str
    items: tuple[str, ...]  # the item, or the items that move only together (the first is ``item``)
    log: str
    accepted_by: Named
    rejected_by: Named
    line: int
    code: str
    message: str
    rejecting_rule: RuleText
    accepting_rule: RuleText | None
    players: int
    seed: int

    @property
    def lines(self) -> int:
        return self.log.count("\n")


@dataclass(frozen=True, slots=True)
class Comparison:
    """Everything ``referee diff`` says of two specs."""

    a: Named
    b: Named
    declared: tuple[Difference, ...]
    games: tuple[ShownGame, ...]
    unshown: tuple[str, ...]  # items the engine reads that differ, shown neither by a game nor by a claim
    status: Conclusion
    timeout: float
    seconds: float
    solver: SolverReport | None = None  # None: the solver was not asked (no difference in play, or not wanted)

    @property
    def behaviour(self) -> tuple[Difference, ...]:
        return tuple(difference for difference in self.declared if difference.behaviour)

    def to_json(self, files: dict[str, str]) -> dict[str, Any]:
        """The comparison for a program (docs/json.md, ``referee diff``); ``files``: the log written for each item's game."""
        return {
            "a": _named_json(self.a),
            "b": _named_json(self.b),
            "status": self.status.name.lower(),
            "declared": [
                {
                    "item": difference.item,
                    "section": difference.section,
                    "a": difference.a,
                    "b": difference.b,
                    "a_line": where(difference.a_at),
                    "b_line": where(difference.b_at),
                    "behaviour": difference.behaviour,
                }
                for difference in self.declared
            ],
            "games": [
                {
                    "item": shown.item,
                    "items": list(shown.items),
                    "accepted_by": shown.accepted_by.name,
                    "rejected_by": shown.rejected_by.name,
                    "line": shown.line,
                    "code": shown.code,
                    "message": shown.message,
                    "rule": {"id": shown.rejecting_rule.id, "summary": shown.rejecting_rule.summary},
                    "accepting_rule": None
                    if shown.accepting_rule is None
                    else {"id": shown.accepting_rule.id, "summary": shown.accepting_rule.summary},
                    "lines": shown.lines,
                    "players": shown.players,
                    "file": files.get(shown.item),
                    "log": shown.log,
                }
                for shown in self.games
            ],
            "claims": None
            if self.solver is None
            else {
                "players": list(self.solver.players),
                "note": self.solver.note,
                "differ": [
                    {
                        "id": claim.id,
                        "statement": claim.statement,
                        "whose": claim.whose,
                        "a": claim.a,
                        "b": claim.b,
                        "items": list(claim.items),
                    }
                    for claim in self.solver.claims
                ],
            },
            "unshown": list(self.unshown),
            "proved": "every player count and every length of game" if self.status is Conclusion.SAME else None,
            "timeout": self.timeout,
            "seconds": round(self.seconds, 3),
        }


def where(position: Position | None) -> str | None:
    """``FILE:LINE`` of a spec line; a shipped spec's file as ``specs/NAME``."""
    if position is None:
        return None
    path = shipped_file(position.path) or position.path
    return f"{path}:{position.line}" if position.line else path


def _named_json(spec: Named) -> dict[str, str]:
    return {"name": spec.name, "path": spec.path}


def named(path: Path, rules: Rules, given: str) -> Named:
    """How the report names a spec: shipped specs by ``specs/FILE``, files as the user gave them."""
    shipped = shipped_file(path)
    return Named(rules.spec.name, shipped, rules.spec.name) if shipped else Named(rules.spec.name, given, given)


ClaimSolver = Callable[[Rules, Rules, Sequence[tuple[str, Rules]]], SolverReport]


def compare(
    path_a: Path,
    path_b: Path,
    given: tuple[str, str],
    timeout: float = SEARCH_TIMEOUT,
    roots: tuple[Path, ...] = (),
    solver: ClaimSolver | None = None,
) -> Comparison:
    """Compare two spec files: declared differences, a game for each one in behaviour, and with ``solver`` (for
    example ``referee.diff.solver.claim_differences``) the claims the two Z3 models answer differently."""
    started = time.monotonic()
    rules_a, rules_b = load_rules(path_a, roots), load_rules(path_b, roots)
    side_a, side_b = SpecSide(rules_a.spec, spec_tree(path_a, roots)), SpecSide(rules_b.spec, spec_tree(path_b, roots))
    a, b = named(path_a, rules_a, given[0]), named(path_b, rules_b, given[1])
    found = declared.differences(side_a, side_b)
    middles = _middles(found, rules_a, rules_b)
    games = _games(found, middles, (rules_a, rules_b), (a, b), timeout)
    in_play = [difference.item for difference in found if difference.behaviour]
    moved = [(difference.item, middle) for difference, middle in middles if middle is not None]
    asked = solver(rules_a, rules_b, moved) if solver is not None and in_play else None
    claims = asked.claims if asked is not None else ()
    seen = {item for shown in games for item in shown.items} | {item for claim in claims for item in claim.items}
    unshown = tuple(item for item in in_play if item not in seen)
    status = Conclusion.DIFFERENT if games or claims else Conclusion.UNDECIDED if unshown else Conclusion.SAME
    return Comparison(a, b, tuple(found), games, unshown, status, timeout, time.monotonic() - started, asked)


def _games(
    found: list[Difference],
    middles: list[tuple[Difference, Rules | None]],
    rules: tuple[Rules, Rules],
    names: tuple[Named, Named],
    timeout: float,
) -> tuple[ShownGame, ...]:
    """A game for each difference that moves alone, and one for those that move only together, each searched for at
    most ``timeout`` seconds. With other cards, every game parts from the other spec at its deal: then no item shows
    alone, and one game shows them all."""
    cards_differ = any(difference.item in declared.CARDS_ITEMS for difference in found)
    alone = [] if cards_differ else [(difference, middle) for difference, middle in middles if middle is not None]
    together = tuple(difference for difference, middle in middles if cards_differ or middle is None)
    groups = [((difference,), middle) for difference, middle in alone] + ([(together, rules[1])] if together else [])
    games: list[ShownGame] = []
    for items, middle in groups:
        joined = " ".join(difference.item for difference in items)
        spelling = len(items) == 1 and joined.startswith("kinds.") and joined.endswith(".spellings")
        best = spelled_game(joined.split(".")[1], rules) if spelling else None  # shown by a line that writes it
        if best is None:
            best = Search(rules[0], rules[1], middle, joined).run(time.monotonic() + timeout)
        shown = None if best is None else shown_game(items, best, rules, names)
        if shown is not None:
            games.append(shown)
    return tuple(games)


def _middles(found: list[Difference], rules_a: Rules, rules_b: Rules) -> list[tuple[Difference, Rules | None]]:
    """Each difference in play with the first spec with only it taken from the second, compiled; None for one that
    moves only with others (a side's colours, a kind only one spec has, ...)."""
    moved = [(difference, declared.transplant(rules_a.spec, rules_b.spec, difference)) for difference in found if difference.behaviour]
    return [(difference, _compiled(spec)) for difference, spec in moved]


def _compiled(spec: Spec | None) -> Rules | None:
    """A spec with one item moved, compiled; None when there is none or it does not compile (the item then moves only
    with others)."""
    if spec is None:
        return None
    try:
        return compile_spec(spec)
    except (AssertionError, ValueError, KeyError, TypeError, IndexError):
        return None


def shown_game(items: tuple[Difference, ...], best: Found, rules: tuple[Rules, Rules], names: tuple[Named, Named]) -> ShownGame | None:
    """The game as a log with its header, judged by both specs (None if they do not part on it as the search said:
    the report says only what ``referee check`` says). ``items``: the difference it shows, or those that move only
    together."""
    difference = items[0]
    accepting, rejecting = best.accepted_by, 1 - best.accepted_by
    parting = 3 + len(best.lines)  # the three comment lines, then the game
    also = f" (and {len(items) - 1} more items that move only with it)" if len(items) > 1 else ""
    header = [
        f"# referee diff: {difference.item} is {difference.a} in {names[0].name}, {difference.b} in {names[1].name}{also}",
        f"# referee check --spec {names[accepting].replay} THIS-LOG: valid",
        f"# referee check --spec {names[rejecting].replay} THIS-LOG: an error at line {parting}, the last",
    ]
    log = "\n".join([*header, *best.lines]) + "\n"
    if not judge_game(log, rules[accepting]).valid:
        return None
    error = first_error(judge_game(log, rules[rejecting]))
    if error is None or error.line != parting:
        return None
    return ShownGame(
        item=difference.item,
        items=tuple(item.item for item in items),
        log=log,
        accepted_by=names[accepting],
        rejected_by=names[rejecting],
        line=error.line,
        code=error.code,
        message=error.message,
        rejecting_rule=_rule(rules[rejecting], error.rule) or RuleText(error.rule, ""),
        accepting_rule=_accepting_rule(difference, rules[accepting], rules[rejecting], error.rule),
        players=best.players,
        seed=best.seed,
    )


def _rule(rules: Rules, rule_id: str) -> RuleText | None:
    rule = rules.rules_by_id.get(rule_id)
    return None if rule is None else RuleText(rule.id, rule.summary)


def _accepting_rule(difference: Difference, accepting: Rules, rejecting: Rules, rejected_under: str) -> RuleText | None:
    """The rule of the accepting spec that allows the line: the one its spec ties to the item (the option's rule, the
    kind's rule), else its rule for the check the other spec failed."""
    section, _, key = difference.item.partition(".")
    name = key.split(".", 1)[0]
    spec = accepting.spec
    if section == "options" and name in spec.option_rules:
        return _rule(accepting, spec.option_rules[name])
    kind = next((kind for kind in spec.kinds if kind.name == name), None)
    if section == "kinds" and kind is not None:
        return _rule(accepting, kind.rule)
    check = next((check for check, rule in rejecting.check_rules.items() if rule.id == rejected_under), None)
    rule = accepting.check_rules.get(check) if check is not None else None
    return None if rule is None else RuleText(rule.id, rule.summary)
