"""The ``deck`` claim form: how many cards, each side's composition, which faces are printed back to back; proved
by counting the spec's deck."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from referee.cards import FaceClass
from referee.engine.engine import PLAYING, Engine
from referee.log import events as ev
from referee.proof.claims.answering import finite
from referee.proof.claims.claim import ENUMERATED, Claim, ClaimForm
from referee.proof.claims.figures import (
    ClaimReader,
    Figures,
)
from referee.proof.claims.steps import Before
from referee.records import dataclass
from referee.rules.compiler import Rules
from referee.spec.loader import Mapping, Sequence
from referee.spec.vocabulary import ClaimFormName

if TYPE_CHECKING:
    pass


# A matching or table claim restates the spec's own matching and table sections: the same keys (MATCHING_KEYS,
# TABLE_KEYS), from the vocabulary.
DECK_KEYS = frozenset({"cards", "sides", "pairing"})


@dataclass(frozen=True, slots=True)
class SideFigures:
    """One side of a deck claim: its colours, its numbers (from, to, copies; copies of particular numbers) and the
    copies of each other kind (per colour, or in all for a wild)."""

    kinds: tuple[tuple[str, int], ...] = ()
    colours: tuple[str, ...] | None = None
    numbers: tuple[int, int, int] | None = None
    number_copies: tuple[tuple[int, int], ...] = ()

    @classmethod
    def read(cls, reader: ClaimReader, node: Mapping) -> SideFigures:
        """``{colours: [...], numbers: {from, to, copies}, KIND: copies per colour, WILD-KIND: copies in all}``."""
        kinds: list[tuple[str, int]] = []
        colours: tuple[str, ...] | None = None
        numbers: tuple[int, int, int] | None = None
        number_copies: tuple[tuple[int, int], ...] = ()
        for key, value in node.entries.items():
            if key == "colours" and isinstance(value, Sequence):
                colours = tuple(reader.scalar(item, "a colour", node.position) for item in value.items)
            elif key == "numbers" and isinstance(value, Mapping):
                low, high, copies = (reader.whole_number(value.entries.get(part), part, node.position) for part in ("from", "to", "copies"))
                numbers = (low, high, copies)
                # copies of particular numbers: {from: 0, to: 9, copies: 2, 0: 1} (one 0, two of each other number)
                number_copies = tuple(
                    (int(number), reader.whole_number(count, f"copies of {number}", node.position))
                    for number, count in value.entries.items()
                    if number.isdigit()
                )
            else:
                kinds.append((key, reader.whole_number(value, key, node.position)))
        return cls(tuple(kinds), colours, numbers, number_copies)

    def written(self) -> dict[str, Any]:
        """The side as a deck claim writes it: colours, numbers (with copies of particular numbers), then the kinds."""
        side: dict[str, Any] = {}
        if self.colours is not None:
            side["colours"] = self.colours
        if self.numbers is not None:
            low, high, copies = self.numbers
            side["numbers"] = {"from": low, "to": high, "copies": copies, **{str(number): count for number, count in self.number_copies}}
        return side | dict(self.kinds)

    def by_key(self) -> dict[str, Any]:
        side: dict[str, Any] = {"kinds": dict(self.kinds)}
        if self.colours is not None:
            side["colours"] = self.colours
        if self.numbers is not None:
            side["numbers"] = self.numbers
            side["number-copies"] = dict(self.number_copies)
        return side


@dataclass(frozen=True, slots=True)
class DeckFigures(Figures):
    """``deck``: how many cards, the composition of each side stated, and which faces are printed back to back."""

    cards: int
    sides: tuple[tuple[str, SideFigures], ...] | None = None  # None: not stated
    pairing: tuple[tuple[str, int], ...] | None = None  # card token -> copies; None: not stated

    @classmethod
    def read(cls, reader: ClaimReader, node: Mapping) -> DeckFigures:
        where, entries = node.position, node.entries
        reader.keys(node, DECK_KEYS, {"cards"}, "a deck claim")
        cards = reader.whole_number(entries.get("cards"), "cards", where)
        sides: tuple[tuple[str, SideFigures], ...] | None = None
        sides_node = entries.get("sides")
        if isinstance(sides_node, Mapping):
            read: list[tuple[str, SideFigures]] = []
            for side_name, side_node in sides_node.entries.items():
                if not isinstance(side_node, Mapping):
                    reader.error(sides_node.position, f"each side is a mapping of its colours and kinds, not '{side_name}'")
                    continue
                read.append((side_name, SideFigures.read(reader, side_node)))
            sides = tuple(read)
        pairing: tuple[tuple[str, int], ...] | None = None
        pairing_node = entries.get("pairing")
        if isinstance(pairing_node, Sequence):
            pairing = tuple(Counter(reader.scalar(item, "a card", where).lower() for item in pairing_node.items).items())
        return cls(cards, sides, pairing)

    def pairing_counts(self) -> Counter[str] | None:
        return Counter(dict(self.pairing)) if self.pairing is not None else None

    def by_key(self) -> dict[str, Any]:
        figures: dict[str, Any] = {"cards": self.cards}
        if self.sides is not None:
            figures["sides"] = {name: side.by_key() for name, side in self.sides}
        if self.pairing is not None:
            figures["pairing"] = dict(self.pairing)
        return figures

    def written(self) -> dict[str, Any]:
        """As a deck claim writes it: each side in its own words, the pairing as a list of cards (a card twice: two)."""
        figures: dict[str, Any] = {"cards": self.cards}
        if self.sides is not None:
            figures["sides"] = {name: side.written() for name, side in self.sides}
        if self.pairing is not None:
            figures["pairing"] = [card for card, copies in self.pairing for _ in range(copies)]
        return figures


def deck_problem(claim: Claim[DeckFigures], rules: Rules) -> str | None:
    figures = claim.figures
    if len(rules.deck) != figures.cards:
        return f"the deck has {len(rules.deck)} cards, not {figures.cards}"
    for side_name, side in figures.sides or ():
        if side_name not in rules.spec.side_names:
            return f"the spec has no {side_name} side"
        index = rules.spec.side_names.index(side_name)
        expected: Counter[str] = Counter()
        colours = side.colours or ()
        if side.numbers is not None:
            low, high, copies = side.numbers
            particular = dict(side.number_copies)
            for colour in colours:
                for number in range(low, high + 1):
                    expected[f"{colour}-{number}"] = particular.get(number, copies)
        wild_kinds = {card.faces[index].kind for card in rules.deck if card.faces[index].colour is None}
        for kind, copies in side.kinds:
            wild = kind in wild_kinds or kind.startswith("wild")  # a kind the spec lacks: named as the rulebooks do
            for coloured in (None,) if wild else colours:
                expected[kind if coloured is None else f"{coloured}-{kind}"] = copies
        actual = Counter(card.faces[index].token for card in rules.deck)
        if actual != expected:
            wrong = sorted(set(actual) ^ set(expected) | {t for t in actual if actual[t] != expected.get(t)})
            token = wrong[0]
            return f"the {side_name} side has {actual.get(token, 0)} x {token}, not {expected.get(token, 0)}"
    pairing = figures.pairing_counts()
    if pairing is not None:
        actual_cards = Counter(card.token for card in rules.deck)
        if actual_cards != pairing:
            missing = sorted((pairing - actual_cards).elements())
            extra = sorted((actual_cards - pairing).elements())
            return f"the deck pairs its faces differently: {', '.join(extra[:2])} instead of {', '.join(missing[:2])}"
    return None


def _deck_step(claim: Claim[DeckFigures], rules: Rules, previous: Before | None, engine: Engine, event: Any) -> str | None:
    if isinstance(event, ev.Shuffle | ev.Start) and engine.state.phase is PLAYING:
        return deck_problem(claim, rules)
    return None


def restate(figures: DeckFigures, rules: Rules, players: tuple[int, ...]) -> DeckFigures | str:
    """The spec's own deck in the claim's terms: its size, each side the claim states (counted from the deck), and
    the pairing if the claim states one."""
    sides: tuple[tuple[str, SideFigures], ...] | None = None
    if figures.sides is not None:
        read: list[tuple[str, SideFigures]] = []
        for name, claimed in figures.sides:
            if name not in rules.spec.side_names:
                continue  # a side the spec has not: left out of the restated claim
            side = _side_of_deck(rules, rules.spec.side_names.index(name), claimed)
            if isinstance(side, str):
                return side
            read.append((name, side))
        sides = tuple(read)
    pairing = None if figures.pairing is None else tuple(Counter(card.token for card in rules.deck).items())
    return DeckFigures(len(rules.deck), sides, pairing)


def _side_of_deck(rules: Rules, index: int, claimed: SideFigures) -> SideFigures | str:
    """One side of the spec's deck as a deck claim counts it: colours (in the claim's order where it names them),
    numbers from-to with their usual copies and the exceptions, then each other kind's copies (per colour, or in all
    for a wild), the claim's kinds first."""
    faces = [card.faces[index] for card in rules.deck]
    present = {face.colour for face in faces if face.colour is not None}
    order = [colour for colour in (claimed.colours or ()) if colour in present]
    colours = tuple(order + sorted(present - set(order)))
    copies_of = _copies_per_colour(faces, colours, rules.spec.side_names[index])
    if isinstance(copies_of, str):
        return copies_of
    number_range, particular = _numbers_of(copies_of)
    kinds = {kind: copies for (kind, number), copies in copies_of.items() if number is None}
    kinds |= Counter(face.kind for face in faces if face.colour is None)
    ordered = [kind for kind, _ in claimed.kinds if kind in kinds] + [kind for kind in kinds if kind not in dict(claimed.kinds)]
    return SideFigures(tuple((kind, kinds[kind]) for kind in ordered), colours or None, number_range, particular)


def _copies_per_colour(faces: list[Any], colours: tuple[str, ...], side_name: str) -> dict[tuple[str, int | None], int] | str:
    """The copies of each coloured kind (a number face: kind and number) in every colour, or why they differ."""
    per_colour: dict[tuple[str, int | None], Counter[str]] = {}
    for face in faces:
        if face.colour is not None:
            key = (face.kind, face.number if face.face_class is FaceClass.NUMBER else None)
            per_colour.setdefault(key, Counter())[face.colour] += 1
    copies_of: dict[tuple[str, int | None], int] = {}
    for (kind, number), in_colour in per_colour.items():
        if len({in_colour[colour] for colour in colours}) != 1:
            return f"the {side_name} side has {kind}{'' if number is None else f' {number}'} cards in different numbers per colour"
        copies_of[(kind, number)] = in_colour[colours[0]]
    return copies_of


def _numbers_of(copies_of: dict[tuple[str, int | None], int]) -> tuple[tuple[int, int, int] | None, tuple[tuple[int, int], ...]]:
    """The numbers of a side as a deck claim writes them: from, to and the usual copies; the numbers with other copies."""
    by_number = {number: copies for (_, number), copies in copies_of.items() if number is not None}
    if not by_number:
        return None, ()
    usual = Counter(by_number.values()).most_common(1)[0][0]
    low, high = min(by_number), max(by_number)
    return (low, high, usual), tuple((n, by_number.get(n, 0)) for n in range(low, high + 1) if by_number.get(n, 0) != usual)


FORM = ClaimForm(ClaimFormName.DECK, DeckFigures, finite(deck_problem, ENUMERATED), _deck_step, read_back=restate)
