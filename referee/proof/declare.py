"""What a house spec must restate: every claim its deviations make untrue, with the spec's own figures.

A house rule is a spec that declares every claim of the rulebook it changes (docs/spec-language.md, "Claims").
One change can break several claims (a Draw Two that draws 3 breaks ``play.draw-two``, ``start.draw-two`` and, with
stacking, ``stack.draw-two``), and ``prove`` refutes them one at a time. ``referee prove --declare`` asks every
claim in force, reads the figures the compiled rules actually have for each one refuted (the faces' effects through
``referee.rules.effects``, the options, the deal), proves the claim again with those figures, and prints the YAML of each
that then holds, ready to paste into the spec's ``claims:`` list. A claim whose figures cannot be read from the
rules (a deck, or a play whose effect differs between faces or player counts) is listed to restate by hand.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

from referee.proof.answers import Status
from referee.proof.claims import FORMS_BY_NAME, Claim, game_claims
from referee.records import dataclass
from referee.rules.compiler import Rules
from referee.spec.model import Spec

WITHDRAWN = "what it speaks of never arises under this spec (say why)"


@dataclass(frozen=True, slots=True)
class Declaration:
    """A refuted claim and what to declare for it: the restated claim (None: to restate by hand, ``why``)."""

    claim: Claim[Any]
    restated: Claim[Any] | None
    why: str = ""

    def yaml(self, source: tuple[str, str]) -> str:
        """The claim as a ``claims:`` list item, citing ``source`` (key, section); a claim withdrawn is its id and
        the reason."""
        if self.restated is not None and self.restated.withdrawn:
            return f"  - id: {self.claim.id}\n    withdrawn: {_quoted(self.restated.withdrawn)}"
        claim = self.restated or self.claim
        said = self.claim.statement.removeprefix("House rule - ").rstrip(".")
        earlier = re.fullmatch(r"instead of '(.*)': [^']*", said)  # a restatement of --declare's, restated again
        said = earlier.group(1) if earlier else said
        if self.restated is not None:
            statement = f"House rule - instead of '{said}': {_changed(self.claim.figures.written(), claim.figures.written())}"
        else:
            statement = f"House rule - instead of '{said}': say what this spec does"
        lines = [
            f"  - id: {claim.id}",
            f"    statement: {_quoted(statement)}",
            f"    source: {{key: {source[0]}, section: {_quoted(source[1])}}}",
        ]
        if claim.condition:
            lines.append("    if: {" + ", ".join(f"{name}: {_scalar(value)}" for name, value in claim.condition) + "}")
        lines.append(f"    {claim.form}: {_flow(claim.figures.written())}")
        if self.restated is None:
            lines = [f"  # {self.claim.id}: restate by hand ({self.why}); the rulebook's claim, for a start:"] + lines
        return "\n".join(lines)


def declarations(rules: Rules, players: tuple[int, ...], timeout_ms: int) -> list[Declaration]:
    """One ``Declaration`` per claim in force that the spec refutes."""
    from referee.proof.prove import claim_answer

    found = []
    for claim in game_claims(rules):
        if not claim.applies(rules):
            continue
        status, _, _ = claim_answer(claim, rules, players, timeout_ms)
        if status is not Status.REFUTED:
            continue
        if FORMS_BY_NAME[claim.form].withdrawable:  # what it speaks of never arises (a kind removed): withdraw it
            withdrawn = dataclasses.replace(claim, withdrawn=WITHDRAWN, restated=True)
            if claim_answer(withdrawn, rules, players, timeout_ms)[0] is Status.PROVED:
                found.append(Declaration(claim, withdrawn))
                continue
        figures = FORMS_BY_NAME[claim.form].restate(claim, rules, players)
        if isinstance(figures, str):
            found.append(Declaration(claim, None, figures))
            continue
        restated = dataclasses.replace(claim, figures=figures, restated=True)
        again, refuted_for, detail = claim_answer(restated, rules, players, timeout_ms)
        if again is Status.PROVED:
            found.append(Declaration(claim, restated))
        else:
            why = detail or f"with the spec's figures it still fails for {', '.join(map(str, refuted_for))} players"
            found.append(Declaration(claim, None, why))
    return found


def settled_invariants(rules: Rules, found: list[Declaration], players: tuple[int, ...], timeout_ms: int) -> list[str]:
    """The invariants that count the deck claim's cards (``COUNTS_DECK``), refuted now and proved once the deck claim
    is restated: each as a line saying so (asked of Z3 both ways, not assumed)."""
    from referee.proof.claims.deck import DeckFigures
    from referee.proof.invariants import CHECKERS, COUNTS_DECK

    decks = [item.restated.figures.cards for item in found if item.restated is not None and isinstance(item.restated.figures, DeckFigures)]
    if not decks:
        return []
    was = next(item.claim.figures.cards for item in found if isinstance(item.claim.figures, DeckFigures))
    lines = []
    for invariant in sorted(COUNTS_DECK):
        before, _ = CHECKERS[invariant](rules, was, players, timeout_ms)
        after, _ = CHECKERS[invariant](rules, decks[0], players, timeout_ms)
        if before is Status.REFUTED and after is Status.PROVED:
            lines.append(
                f"# Restating deck.cards also settles the invariant {invariant}: it counts the deck claim's cards ({was}, then {decks[0]})."
            )
    return lines


def render(
    rules: Rules,
    found: list[Declaration],
    settled: tuple[str, ...] | list[str] = (),
    has: frozenset[str] = frozenset(),
    reworded: tuple[str, ...] | list[str] = (),
) -> str:
    """The text ``--declare`` prints: the claims to restate (with the invariants that settles), then the rules whose
    ruling states a figure the spec changes (``reworded``, from ``rule_items``), or that nothing needs declaring.
    Pasted at the end of a spec without ``claims:`` or ``rules:`` of its own, it is complete; for a spec that ``has``
    the list, its items are to put in it by hand (a rule's as comments, so that the paste stays valid YAML)."""
    if not found and not reworded:
        return f"# {rules.spec.name}: every claim in force holds; nothing to declare\n"
    lines = []
    if found:
        count = f"{len(found)} claim{'s' if len(found) != 1 else ''}"
        lines += [f"# {rules.spec.name}: {count} of the rulebook that this spec makes untrue.", *settled]
        if "claims" in has:
            lines += [
                "# The spec has a 'claims:' list: add these items to it, each in place of any item with the same id there",
                "# (an item replaces the rulebook's claim of its id), then reword each statement and check each source.",
            ]
        else:
            lines += [
                "# Paste this at the end of the spec (an item with the same id replaces the rulebook's claim), then reword",
                "# each statement and check each source; 'referee prove --spec SPEC' proves them.",
                "claims:",
            ]
        lines += [item.yaml(_source(rules, item.claim)) for item in found]
    if reworded:
        lines.append("# Rules whose words the spec's figures contradict ('referee rules --lint'), restated as house rules:")
        if "rules" in has:
            lines.append("# the spec has a 'rules:' list: put each item in it, in place of any item with the same id.")
            lines += [f"# {line}" for line in reworded]
        else:
            lines += ["rules:", *reworded]
    return "\n".join(lines) + "\n"


def rule_items(spec: Spec) -> list[str]:
    """The rules ``rules --lint`` flags, as ``rules:`` items: one whose ruling states the rulebook's figure restated
    whole with a ``House rule - `` summary (the ruling is then shown as the rulebook's); one whose own summary does, with
    a comment to reword it (its words are the author's to choose)."""
    from referee.proof.wording import HOUSE_RULE, lint, with_figures

    by_rule: dict[str, list[Any]] = {}
    for finding in lint(spec):
        by_rule.setdefault(finding.rule, []).append(finding)
    lines = []
    for rule in spec.rules:
        findings = by_rule.get(rule.id)
        if not findings:
            continue
        stale = [finding.figure for finding in findings if finding.ruling is None]
        summary = with_figures(rule.summary, stale)
        summary = summary if summary.startswith(HOUSE_RULE) else f"{HOUSE_RULE} - {summary}"
        lines += [
            f"  # {rule.id}: {f.problem()}: the summary says {f.figure.spec} now; check its words" for f in findings if f.ruling is None
        ]
        lines += [
            f"  - id: {rule.id}",
            f"    summary: {_quoted(summary)}",
            f"    source: {{key: {rule.citation.key}, section: {_quoted(rule.citation.section)}}}",
            *([f"    ruling: {rule.ruling}"] if rule.ruling is not None else []),
            *([f"    options: [{', '.join(rule.options)}]"] if rule.options else []),
            f"    checks: [{', '.join(rule.checks)}]",
        ]
    return lines


def _source(rules: Rules, claim: Claim[Any]) -> tuple[str, str]:
    """The source a restated claim cites: the rulebook claim's own key and section (the statement it changes), or,
    where the spec does not know that key, its house source."""
    key, section = claim.cites
    sources = rules.spec.sources
    if key in sources:
        return key, section
    return ("house" if "house" in sources else next(iter(sources), key)), section


def _changed(old: dict[str, Any], new: dict[str, Any]) -> str:
    """What the restated figures change, in words: ``cards 112, not 108``; a figure that is a list or table
    ``as written below``."""
    parts = []
    for key in new:
        if old.get(key) == new[key]:
            continue
        was = f", not {_scalar(old[key])}" if key in old and _is_scalar(old[key]) else ""
        parts.append(f"{key} {_scalar(new[key])}{was}" if _is_scalar(new[key]) else f"{key} as written below")
    return "; ".join(parts) or "as the rulebook's"


def _is_scalar(value: Any) -> bool:
    return not isinstance(value, dict | list | tuple | set | frozenset)


def _flow(value: Any) -> str:
    """A YAML flow value: mappings ``{k: v}``, sets and tuples as sorted lists."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key}: {_flow(item)}" for key, item in value.items()) + "}"
    if isinstance(value, frozenset | set):
        return "[" + ", ".join(sorted(_flow(item) for item in value)) + "]"
    if isinstance(value, tuple | list):
        return "[" + ", ".join(_flow(item) for item in value) + "]"
    return _scalar(value)


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def declare_text(spec_path: Any, players: tuple[int, ...], timeout_ms: int) -> tuple[str, int]:
    """``referee prove --declare`` for one spec: the text to print and how many claims it declares."""
    from referee.rules.compiler import load_rules

    rules = load_rules(spec_path)
    found = declarations(rules, players, timeout_ms)
    has = _lists_of(Path(rules.spec.path)) if rules.spec.path else frozenset()
    reworded = rule_items(rules.spec)
    text = render(rules, found, settled_invariants(rules, found, players, timeout_ms), has, reworded)
    return text, len(found) + sum(1 for line in reworded if line.startswith("  - id: "))


def _lists_of(path: Path) -> frozenset[str]:
    """Which of ``claims:`` and ``rules:`` the spec file itself has at its top level (read bounded, as the spec
    reader reads it)."""
    from referee.safe_io import read_bounded
    from referee.spec.paths import MAX_SPEC_BYTES

    try:
        text = read_bounded(path, MAX_SPEC_BYTES).decode("utf-8", "replace")
    except (OSError, ValueError):
        return frozenset()
    return frozenset(key for key in ("claims", "rules") if re.search(rf"^{key}[ \t]*:", text, re.MULTILINE))
