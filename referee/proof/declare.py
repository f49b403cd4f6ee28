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
from collections.abc import Callable
from typing import Any

from referee.proof.claims import Claim, counts_for, faces_of, game_claims, option_value
from referee.proof.queries import Status
from referee.records import dataclass
from referee.rules import effects
from referee.rules.compiler import FaceRules, Rules


@dataclass(frozen=True, slots=True)
class Declaration:
    """A refuted claim and what to declare for it: the restated claim (None: to restate by hand, ``why``)."""

    claim: Claim
    restated: Claim | None
    why: str = ""

    def yaml(self, source: tuple[str, str]) -> str:
        """The claim as a ``claims:`` list item, citing ``source`` (key, section)."""
        claim = self.restated or self.claim
        changed = _changed(self.claim.figures, claim.figures) if self.restated is not None else ""
        said = self.claim.statement.removeprefix("House rule - ").rstrip(".")
        statement = f"House rule - {said} (this spec's figures: {changed})"
        lines = [
            f"  - id: {claim.id}",
            f"    statement: {_quoted(statement)}",
            f"    source: {{key: {source[0]}, section: {_quoted(source[1])}}}",
        ]
        if claim.condition:
            lines.append("    if: {" + ", ".join(f"{name}: {_scalar(value)}" for name, value in claim.condition) + "}")
        lines.append(f"    {claim.form}: {_flow(_written(claim))}")
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
        figures = _READERS.get(claim.form, _unreadable)(claim, rules, players)
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


def _source(rules: Rules, claim: Claim) -> tuple[str, str]:
    """The source a restated claim cites: the rulebook claim's own key and section (the statement it changes), or,
    where the spec does not know that key, its house source."""
    key, section = claim.cites
    sources = rules.spec.sources
    if key in sources:
        return key, section
    return ("house" if "house" in sources else next(iter(sources), key)), section


# -- the spec's figures, form by form (a string: why they cannot be read)


def _one(values: list[Any], what: str) -> Any:
    distinct = {repr(value): value for value in values}
    if len(distinct) != 1:
        raise _Unreadable(f"the faces of {what} differ")
    return next(iter(distinct.values()))


class _Unreadable(Exception):
    pass


def _play(claim: Claim, rules: Rules, players: tuple[int, ...]) -> dict[str, Any] | str:
    kind = claim.figures["kind"]
    faces = faces_of(rules, kind)
    counts = counts_for(claim, rules, players)
    if not faces or not counts:
        return f"no face of kind {kind} is played under the spec"
    try:
        figures = _one([_play_of(face, rules, counts) for face in faces], kind)
    except _Unreadable as why:
        return str(why)
    return {**claim.figures, **figures}


def _play_of(face: FaceRules, rules: Rules, counts: tuple[int, ...]) -> dict[str, Any]:
    n = max(counts)  # an offset below every count reads the same at each: the largest is unambiguous
    nexts = set()
    for count in counts:
        effect = effects.play(face, 0, 1, count, rules.two_player_reverse_skips)
        nexts.add((effect.following * effect.direction) % count)
    effect = effects.play(face, 0, 1, n, rules.two_player_reverse_skips)
    following = (effect.following * effect.direction) % n
    if len(nexts) != 1 and following not in nexts:
        raise _Unreadable("the seat that moves next differs between player counts")
    return {
        "next": following,
        "direction": "reversed" if effect.direction == -1 else "same",
        "side": "flipped" if face.flip else "same",
        "owes": "until-colour" if face.draw_until_colour else face.draw,
        "colour": "chosen" if face.choose_colour else "uncovered" if face.flip else "card",
        "restricted": face.restricted,
        "challengeable": face.challengeable,
    }


def _start(claim: Claim, rules: Rules, players: tuple[int, ...]) -> dict[str, Any] | str:
    kind = claim.figures["kind"]
    faces = [face for face in faces_of(rules, kind) if face.face.side == rules.spec.start_side]
    if not faces:
        return f"no face of kind {kind} is turned up under the spec"
    try:
        figures: dict[str, Any] = _one([_start_of(kind, face, rules, players) for face in faces], kind)
    except _Unreadable as why:
        return str(why)
    return figures


def _start_of(kind: str, face: FaceRules, rules: Rules, players: tuple[int, ...]) -> dict[str, Any]:
    if "return-to-draw-pile" in face.at_start:
        return {"kind": kind, "returned": True}
    n = max(players)
    start = effects.start(face, 0, n, rules.two_player_reverse_skips)
    flips = "flip" in face.at_start
    return {
        "kind": kind,
        "returned": False,
        "to-act": start.turn % n,
        "direction": "reversed" if start.direction == -1 else "same",
        "side": "flipped" if flips else "same",
        "owes": 0 if start.victim is None else "until-colour" if face.draw_until_colour else face.draw,
        "colour": "uncovered" if flips else "chosen" if "choose-colour" in face.at_start or face.choose_colour else "card",
    }


def _stack(claim: Claim, rules: Rules, players: tuple[int, ...]) -> dict[str, Any] | str:
    kind = claim.figures["kind"]
    faces = faces_of(rules, kind)
    if not faces:
        return f"no face of kind {kind} under the spec"
    try:
        return {"kind": kind, "adds": _one([face.draw for face in faces], kind)}
    except _Unreadable as why:
        return str(why)


def _option(claim: Claim, rules: Rules, players: tuple[int, ...]) -> dict[str, Any] | str:
    name = claim.figures["name"]
    return {"name": name, "value": option_value(rules, name)}


def _catch(claim: Claim, rules: Rules, players: tuple[int, ...]) -> dict[str, Any] | str:
    return {"draws": "catcher" if rules.spec.disputes.catcher_draws else "caught", "cards": rules.catch_penalty}


def _challenge(claim: Claim, rules: Rules, players: tuple[int, ...]) -> dict[str, Any] | str:
    if claim.figures.get("never"):
        return "a challenge can be made under the spec"
    return {**claim.figures, "extra": rules.spec.options.get("challenge-innocent-extra", claim.figures["extra"])}


def _points(claim: Claim, rules: Rules, players: tuple[int, ...]) -> dict[str, Any] | str:
    figures: dict[str, Any] = {}
    for kind in claim.figures:
        faces = [face for face in rules.faces.values() if face.face.kind == kind]
        if not faces:
            continue  # a kind the spec has not: left out of the restated claim
        if all(face.face.number is not None and face.points == face.face.number for face in faces):
            figures[kind] = "face-value"
            continue
        try:
            figures[kind] = _one([face.points for face in faces], kind)
        except _Unreadable as why:
            return str(why)
    return figures


def _matching(claim: Claim, rules: Rules, players: tuple[int, ...]) -> dict[str, Any] | str:
    matching = rules.spec.matching
    return {
        "same-colour": matching.same_colour,
        "same-number": matching.same_number,
        "same-action-kind": matching.same_action_kind,
        "wild-always": matching.wild_always,
    }


def _table(claim: Claim, rules: Rules, players: tuple[int, ...]) -> dict[str, Any] | str:
    spec = rules.spec
    values = {
        "min-players": spec.min_players,
        "max-players": spec.max_players,
        "hand-size": spec.hand_size,
        "start-side": spec.side_names[spec.start_side],
    }
    return {key: values[key] for key in claim.figures}


def _unreadable(claim: Claim, rules: Rules, players: tuple[int, ...]) -> dict[str, Any] | str:
    return f"the {claim.form} of a spec is not read back into a claim"


_READERS: dict[str, Callable[[Claim, Rules, tuple[int, ...]], dict[str, Any] | str]] = {
    "play": _play,
    "start": _start,
    "stack": _stack,
    "option": _option,
    "catch": _catch,
    "challenge": _challenge,
    "points": _points,
    "matching": _matching,
    "table": _table,
}


# -- writing a claim's figures back as the YAML the claim reader reads

_DEFAULTS = {"players": "any", "direction": "same", "side": "same", "owes": 0, "restricted": False, "challengeable": False}


def _written(claim: Claim) -> dict[str, Any]:
    """A claim's figures in the keys and order its form is written in, defaults left out."""
    figures = claim.figures
    if claim.form == "option":
        return {figures["name"]: figures["value"]}
    if claim.form == "start" and figures.get("returned"):
        return {"kind": figures["kind"], "returned": True}
    if claim.form in ("play", "start"):
        order = ["kind", "players", "to-act", "next", "direction", "side", "owes", "colour", "restricted", "challengeable"]
        return {key: figures[key] for key in order if key in figures and _DEFAULTS.get(key, object()) != figures[key]}
    if claim.form == "challenge":
        return {key: figures[key] for key in ("ruling", "draws", "cards", "extra", "then")}
    return dict(figures)


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
