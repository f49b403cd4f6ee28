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
from typing import Any

from referee.proof.answers import Status
from referee.proof.claims import FORMS_BY_NAME, Claim, game_claims
from referee.records import dataclass
from referee.rules.compiler import Rules

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
        changed = _changed(self.claim.figures.by_key(), claim.figures.by_key()) if self.restated is not None else ""
        said = self.claim.statement.removeprefix("House rule - ").rstrip(".")
        statement = f"House rule - {said} (this spec's figures: {changed})"
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


def render(rules: Rules, found: list[Declaration]) -> str:
    """The text ``--declare`` prints: the YAML block, or that nothing needs declaring."""
    if not found:
        return f"# {rules.spec.name}: every claim in force holds; nothing to declare\n"
    head = [
        f"# {rules.spec.name}: {len(found)} claim{'s' if len(found) != 1 else ''} of the rulebook that this spec makes untrue.",
        "# Add these items to the spec's 'claims:' list (an item with the same id replaces the rulebook's claim),",
        "# then reword each statement and check each source; 'referee prove --spec SPEC' proves them.",
        "claims:",
    ]
    return "\n".join(head + [item.yaml(_source(rules, item.claim)) for item in found]) + "\n"


def _source(rules: Rules, claim: Claim[Any]) -> tuple[str, str]:
    """The source a restated claim cites: the rulebook claim's own key and section (the statement it changes), or,
    where the spec does not know that key, its house source."""
    key, section = claim.cites
    sources = rules.spec.sources
    if key in sources:
        return key, section
    return ("house" if "house" in sources else next(iter(sources), key)), section


def _changed(old: dict[str, Any], new: dict[str, Any]) -> str:
    parts = [f"{key} {_words(new[key])}" for key in new if old.get(key) != new[key]]
    return ", ".join(parts) or "as the rulebook's"


def _words(value: Any) -> str:
    if isinstance(value, dict):
        return "; ".join(f"{' or '.join(sorted(allowed))} on {owed}" for owed, allowed in sorted(value.items())) or "none"
    return _scalar(value)


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
    return render(rules, found), len(found)
