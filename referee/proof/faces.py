"""The faces the proofs tell apart: two faces whose compiled rules read the same are one face to the model.

Z3-free, so that a claim's reading and the spec's figures read back (``prove --declare``) need no solver.
"""

from __future__ import annotations

from typing import Any

from referee.rules.compiler import FaceRules, Rules


def behaviour(face_rules: FaceRules) -> tuple[Any, ...]:
    """What the model reads of a face: two faces with the same behaviour are the same to the proofs."""
    return (
        face_rules.face.side,
        face_rules.face.face_class,
        face_rules.reverse,
        face_rules.skip,
        face_rules.skip_everyone,
        face_rules.flip,
        face_rules.flip_draw_pile,
        face_rules.flip_discard_pile,
        face_rules.draw,
        face_rules.draw_until_colour,
        face_rules.penalty_into_discard,
        face_rules.choose_colour,
        face_rules.challengeable,
        face_rules.stackable,
        tuple(sorted(face_rules.at_start)),
    )


def faces_of(rules: Rules, kind: str) -> list[FaceRules]:
    """One face of each behaviour among the faces of ``kind`` (the proofs need not tell two red Skips apart)."""
    seen: dict[tuple[Any, ...], FaceRules] = {}
    for face_rules in rules.faces.values():
        if face_rules.face.kind == kind:
            seen.setdefault(behaviour(face_rules), face_rules)
    return list(seen.values())
