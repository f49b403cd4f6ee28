"""The catalogue of a spec: every face and physical card it can write, interned (one object per face and card)."""

from __future__ import annotations

from collections import Counter

from referee.cards import Card, Face, FaceClass, face_token
from referee.spec.model import Spec


class Catalogue:
    """Every face and physical card a spec can write, keyed by lower-case token.

    With two sides a physical card is written ``FACE/FACE`` (one face per side, in the sides' order); with one
    side the face is the physical card, and identical copies are one card.
    """

    def __init__(self, spec: Spec) -> None:
        self.side_names = spec.side_names
        self.faces: tuple[dict[str, Face], ...] = tuple({} for _ in spec.side_names)
        self.composition: list[Counter[Face]] = [Counter() for _ in spec.side_names]
        for kind in spec.kinds:
            copies_of = dict(kind.number_copies)
            for side in kind.sides:
                for colour in (None,) if kind.face_class is FaceClass.WILD else spec.colours[side]:
                    for number in kind.numbers or (None,):
                        token = face_token(colour, kind.name, number)
                        face = Face(token, side, colour, kind.name, number, kind.face_class)
                        self.faces[side][token] = face
                        self.composition[side][face] = copies_of.get(number, kind.copies) if number is not None else kind.copies
                        if number is None:  # another way to write the face: the kind's other name
                            for spelling in kind.spellings:
                                self.faces[side][face_token(colour, spelling, None)] = face
        self._cards: dict[str, Card | None] = {}
        self._face_tokens = frozenset(token for faces in self.faces for token in faces)

    def face(self, token: str, side: int) -> Face | None:
        """The face of ``side`` written ``token`` (lower case)."""
        return self.faces[side].get(token) if 0 <= side < len(self.faces) else None

    def is_face(self, token: str) -> bool:
        """Whether ``token`` names a face of any side."""
        return token in self._face_tokens

    def card(self, token: str) -> Card | None:
        """The physical card written ``token`` (lower case): ``LIGHT/DARK`` with two sides, the face with one;
        None when it is no card of the spec."""
        try:
            return self._cards[token]
        except KeyError:
            pass
        card = None
        if len(self.faces) == 1:
            face = self.faces[0].get(token)
            if face is not None:
                card = self._cards.get(face.token) or Card(face.token, (face,))
                self._cards[face.token] = card
                self._cards[token] = card
            elif len(self._cards) < 20_000:
                self._cards[token] = None
            return card
        light_token, slash, dark_token = token.partition("/")
        light = self.faces[0].get(light_token)
        dark = self.faces[1].get(dark_token)
        if slash and light is not None and dark is not None:
            canonical = f"{light.token}/{dark.token}"
            card = self._cards.get(canonical) or Card(canonical, (light, dark))
            self._cards[canonical] = card
            self._cards[token] = card
        elif len(self._cards) < 20_000:
            self._cards[token] = None
        return card

    def composition_problems(self, tokens: list[str]) -> list[str]:
        """What is wrong with a deck's counts of faces on each side (empty when it is official)."""
        problems = []
        for side, side_name in enumerate(self.side_names):
            counts: Counter[Face] = Counter()
            for token in tokens:
                card = self.card(token)
                if card is not None:
                    counts[card.faces[side]] += 1
            wrong = [f"{face.token} x{counts[face]} (want {want})" for face, want in self.composition[side].items() if counts[face] != want]
            if wrong:
                shown = ", ".join(wrong[:4]) + (f" and {len(wrong) - 4} more" if len(wrong) > 4 else "")
                problems.append(f"the {side_name} side does not have the official composition: {shown}")
        return problems
