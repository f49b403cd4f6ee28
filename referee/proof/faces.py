"""The faces the proofs tell apart: two faces whose compiled rules read the same are one face to the model.

Z3-free, so that a claim's reading and the spec's figures read back (``prove --declare``) need no solver.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from referee.rules.compiler import FaceRules, Rules

# What the model does not read of a face: which face it is (but for its side and class, read below), its points (the
# model counts no points), its rules' ids, whether it is plain (read from its other fields) and whether it is restricted
# (the bluff is read as challengeable). Every other field of ``FaceRules`` is behaviour: a new effect's field is read
# without a word here.
_NOT_BEHAVIOUR = frozenset({"face", "points", "rule", "start_rule", "plain", "restricted"})
_BEHAVIOUR = tuple(item.name for item in fields(FaceRules) if item.name not in _NOT_BEHAVIOUR)


def behaviour(face_rules: FaceRules) -> tuple[Any, ...]:
    """What the model reads of a face: two faces with the same behaviour are the same to the proofs."""
    read = [getattr(face_rules, name) for name in _BEHAVIOUR]
    return (
        face_rules.face.side,
        face_rules.face.face_class,
        *(tuple(sorted(value)) if isinstance(value, frozenset) else value for value in read),
    )


def faces_of(rules: Rules, kind: str) -> list[FaceRules]:
    """One face of each behaviour among the faces of ``kind`` (the proofs need not tell two red Skips apart)."""
    seen: dict[tuple[Any, ...], FaceRules] = {}
    for face_rules in rules.faces.values():
        if face_rules.face.kind == kind:
            seen.setdefault(behaviour(face_rules), face_rules)
    return list(seen.values())
