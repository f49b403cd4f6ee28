"""Cards and faces: immutable values.

A physical card has two faces, one per side. Faces and cards are compared and
hashed by their written token (``red-7``, ``red-7/teal-skip-everyone``), which
is their identity in the log format; Python caches string hashes, so cards are
cheap dictionary keys on the replay's hot path.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class FaceClass(enum.Enum):
    """What a face is for matching: a number, a coloured action, or a wild."""

    NUMBER = "number"
    ACTION = "action"
    WILD = "wild"


@dataclass(frozen=True, slots=True, eq=False)
class Face:
    """One printed face: its side (0 light, 1 dark), colour (None for wilds), kind and number."""

    token: str
    side: int
    colour: str | None
    kind: str
    number: int | None
    face_class: FaceClass

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Face) and other.token == self.token

    def __hash__(self) -> int:
        return hash(self.token)

    def __str__(self) -> str:
        return self.token

    @property
    def is_wild(self) -> bool:
        return self.face_class is FaceClass.WILD


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """A physical card: ``faces[0]`` is its light face, ``faces[1]`` its dark face."""

    token: str
    faces: tuple[Face, Face]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and other.token == self.token

    def __hash__(self) -> int:
        return hash(self.token)

    def __str__(self) -> str:
        return self.token

    def __repr__(self) -> str:
        return f"Card({self.token!r})"

    def face(self, side: int) -> Face:
        return self.faces[side]


def face_token(colour: str | None, kind: str, number: int | None) -> str:
    """The log format's spelling of a face."""
    if colour is None:
        return kind
    if number is not None:
        return f"{colour}-{number}"
    return f"{colour}-{kind}"
