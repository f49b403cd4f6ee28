"""Cards and faces: immutable values.

A physical card has one face per side of its game (two for UNO Flip, one for
classic UNO). Faces and cards are interned:
a spec's ``Catalogue`` makes exactly one object per face and per physical card
(``red-7``, ``red-7/teal-skip-everyone``), so identity is equality and hashing
is C-fast on the replay's hot path. Never build a ``Card`` or ``Face`` outside
a catalogue.
"""

from __future__ import annotations

import enum

from referee.records import dataclass


class FaceClass(enum.Enum):
    """What a face is for matching: a number, a coloured action, or a wild."""

    NUMBER = "number"
    ACTION = "action"
    WILD = "wild"


@dataclass(frozen=True, slots=True, eq=False)
class Face:
    """One printed face: its side (an index into the spec's sides), colour (None for wilds), kind and number."""

    token: str
    side: int
    colour: str | None
    kind: str
    number: int | None
    face_class: FaceClass

    def __str__(self) -> str:
        return self.token

    def __copy__(self) -> Face:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Face:
        return self

    def __reduce__(self) -> tuple[type[Face], tuple[str, int, str | None, str, int | None, FaceClass]]:
        """Pickled as a constructor call: works for the mypyc-compiled class too (the rules cache pickles faces)."""
        return (Face, (self.token, self.side, self.colour, self.kind, self.number, self.face_class))

    @property
    def is_wild(self) -> bool:
        return self.face_class is FaceClass.WILD


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """A physical card: ``faces[side]`` is its face on each side of the game (one side: the face is the card)."""

    token: str
    faces: tuple[Face, ...]

    def __str__(self) -> str:
        return self.token

    def __repr__(self) -> str:
        return f"Card({self.token!r})"

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self

    def __reduce__(self) -> tuple[type[Card], tuple[str, tuple[Face, ...]]]:
        return (Card, (self.token, self.faces))

    def face(self, side: int) -> Face:
        return self.faces[side]


def face_token(colour: str | None, kind: str, number: int | None) -> str:
    """The log format's spelling of a face."""
    if colour is None:
        return kind
    if number is not None:
        return f"{colour}-{number}"
    return f"{colour}-{kind}"
