"""The figures a spec's compiled rules actually have, in a claim's terms: what ``prove --declare`` restates.

For each claim form that can be read back from the rules (``ClaimForm.restate``), a function from the rulebook's
figures to the spec's own: the faces' effects through ``referee.rules.effects``, the options, the deal. A form
whose figures cannot be read back unambiguously (a deck, or a play whose effect differs between faces or player
counts) gives the reason instead, and the claim is listed to restate by hand.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

from referee.proof.figures import (
    CatchFigures,
    ChallengeFigures,
    MatchingFigures,
    OptionFigures,
    PlayFigures,
    PointsFigures,
    StackFigures,
    StartFigures,
    TableFigures,
)
from referee.proof.model import faces_of
from referee.rules import effects
from referee.rules.compiler import FaceRules, Rules

T = TypeVar("T")


def option_value(rules: Rules, name: str) -> Any:
    """The value of an option in the compiled rules, in a claim's terms (stacking as its table)."""
    if name == "stacking":
        return dict(rules.stacking or {})
    return rules.spec.options.get(name)


class Unreadable(Exception):
    """The spec's figures for a claim are not one value: its faces, or its player counts, differ."""


def _one(values: list[T], what: str) -> T:
    distinct = {repr(value): value for value in values}
    if len(distinct) != 1:
        raise Unreadable(f"the faces of {what} differ")
    return next(iter(distinct.values()))


def play(figures: PlayFigures, rules: Rules, players: tuple[int, ...]) -> PlayFigures | str:
    kind = figures.kind
    faces = faces_of(rules, kind)
    counts = figures.counts(players)
    if not faces or not counts:
        return f"no face of kind {kind} is played under the spec"
    try:
        return _one([_play_of(figures, face, rules, counts) for face in faces], kind)
    except Unreadable as why:
        return str(why)


def _play_of(figures: PlayFigures, face: FaceRules, rules: Rules, counts: tuple[int, ...]) -> PlayFigures:
    n = max(counts)  # an offset below every count reads the same at each: the largest is unambiguous
    nexts = set()
    for count in counts:
        effect = effects.play(face, 0, 1, count, rules.two_player_reverse_skips)
        nexts.add((effect.following * effect.direction) % count)
    effect = effects.play(face, 0, 1, n, rules.two_player_reverse_skips)
    following = (effect.following * effect.direction) % n
    if len(nexts) != 1 and following not in nexts:
        raise Unreadable("the seat that moves next differs between player counts")
    return dataclasses.replace(
        figures,
        next=following,
        direction="reversed" if effect.direction == -1 else "same",
        side="flipped" if face.flip else "same",
        owes="until-colour" if face.draw_until_colour else face.draw,
        colour="chosen" if face.choose_colour else "uncovered" if face.flip else "card",
        restricted=face.restricted,
        challengeable=face.challengeable,
    )


def start(figures: StartFigures, rules: Rules, players: tuple[int, ...]) -> StartFigures | str:
    kind = figures.kind
    faces = [face for face in faces_of(rules, kind) if face.face.side == rules.spec.start_side]
    if not faces:
        return f"no face of kind {kind} is turned up under the spec"
    try:
        return _one([_start_of(kind, face, rules, players) for face in faces], kind)
    except Unreadable as why:
        return str(why)


def _start_of(kind: str, face: FaceRules, rules: Rules, players: tuple[int, ...]) -> StartFigures:
    if "return-to-draw-pile" in face.at_start:
        return StartFigures(kind, returned=True)
    n = max(players)
    begun = effects.start(face, 0, n, rules.two_player_reverse_skips)
    flips = "flip" in face.at_start
    return StartFigures(
        kind,
        returned=False,
        to_act=begun.turn % n,
        direction="reversed" if begun.direction == -1 else "same",
        side="flipped" if flips else "same",
        owes=0 if begun.victim is None else "until-colour" if face.draw_until_colour else face.draw,
        colour="uncovered" if flips else "chosen" if "choose-colour" in face.at_start or face.choose_colour else "card",
    )


def stack(figures: StackFigures, rules: Rules, players: tuple[int, ...]) -> StackFigures | str:
    kind = figures.kind
    faces = faces_of(rules, kind)
    if not faces:
        return f"no face of kind {kind} under the spec"
    try:
        return StackFigures(kind, _one([face.draw for face in faces], kind))
    except Unreadable as why:
        return str(why)


def option(figures: OptionFigures, rules: Rules, players: tuple[int, ...]) -> OptionFigures | str:
    return OptionFigures(figures.name, option_value(rules, figures.name))


def catch(figures: CatchFigures, rules: Rules, players: tuple[int, ...]) -> CatchFigures | str:
    return CatchFigures("catcher" if rules.spec.disputes.catcher_draws else "caught", rules.catch_penalty)


def challenge(figures: ChallengeFigures, rules: Rules, players: tuple[int, ...]) -> ChallengeFigures | str:
    if figures.never:
        return "a challenge can be made under the spec"
    return dataclasses.replace(figures, extra=rules.innocent_extra)


def points(figures: PointsFigures, rules: Rules, players: tuple[int, ...]) -> PointsFigures | str:
    found: list[tuple[str, int | str]] = []
    for kind, _ in figures.points:
        faces = [face for face in rules.faces.values() if face.face.kind == kind]
        if not faces:
            continue  # a kind the spec has not: left out of the restated claim
        if all(face.face.number is not None and face.points == face.face.number for face in faces):
            found.append((kind, PointsFigures.FACE_VALUE))
            continue
        try:
            found.append((kind, _one([face.points for face in faces], kind)))
        except Unreadable as why:
            return str(why)
    return PointsFigures(tuple(found))


def matching(figures: MatchingFigures, rules: Rules, players: tuple[int, ...]) -> MatchingFigures | str:
    spec_matching = rules.spec.matching
    return MatchingFigures(spec_matching.same_colour, spec_matching.same_number, spec_matching.same_action_kind, spec_matching.wild_always)


def table(figures: TableFigures, rules: Rules, players: tuple[int, ...]) -> TableFigures | str:
    """The spec's values of the keys the claim states (and of no other)."""
    spec = rules.spec
    return TableFigures(
        spec.min_players if figures.min_players is not None else None,
        spec.max_players if figures.max_players is not None else None,
        spec.hand_size if figures.hand_size is not None else None,
        spec.side_names[spec.start_side] if figures.start_side is not None else None,
    )
