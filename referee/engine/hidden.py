"""The hidden cards of a public round: unknowns, and the facts the record states about them.

In a public round (docs/log-format.md, "Public records") nobody wrote down which physical cards were dealt or
drawn. The engine replays such a round without them: every check that needs no hidden card runs as in the
other modes, and every statement a line makes about hidden cards becomes a ``Fact`` here, with its line and the
check whose rule it is. ``referee.public.consistency`` then asks whether one assignment of physical cards satisfies the
facts of lines 1..L.

The unknowns are vectors over the deck's *types* (its distinct physical cards, ``HiddenDeck.types``):

- a **batch** (``Batch``): cards that left the draw pile unseen (a hand dealt, the cards of a draw), an unknown
  count of each type;
- a **pick** (``Pick``): the card a play took out of a hand, one card of a type that shows the face played;
- a **pile** vector: the draw pile's content, per type; each batch takes from it, a reshuffle refills it.

A hand is a sum of batches less picks (``Terms``); swaps and rotations move those sums, never cards. The records
are immutable; ``HiddenState`` (in ``GameState.hidden`` during a public round) is copied with the state, and
its facts are a shared linked list, so that a snapshot costs little.
"""

from __future__ import annotations

from dataclasses import field

from referee.cards import Card, Face, FaceClass
from referee.records import dataclass

Terms = tuple[tuple[int, int], ...]
"""A sum of unknown vectors: (unknown id, coefficient), +1 for a batch, -1 for a pick."""


@dataclass(frozen=True, slots=True)
class HiddenDeck:
    """The deck's types (distinct physical cards, in a fixed order) and how many copies of each it holds."""

    types: tuple[Card, ...]
    counts: tuple[int, ...]
    index: dict[Card, int]

    @staticmethod
    def of(deck_counts: dict[Card, int]) -> HiddenDeck:
        types = tuple(sorted(deck_counts, key=lambda card: card.token))
        return HiddenDeck(types, tuple(deck_counts[card] for card in types), {card: k for k, card in enumerate(types)})

    def showing(self, face: Face, side: int) -> tuple[int, ...]:
        """The types whose face on ``side`` is ``face``."""
        return tuple(k for k, card in enumerate(self.types) if card.faces[side] is face)

    def where(self, side: int, test: object) -> tuple[int, ...]:
        """The types whose face on ``side`` passes ``test`` (a predicate on faces)."""
        return tuple(k for k, card in enumerate(self.types) if test(card.faces[side]))  # type: ignore[operator]


@dataclass(frozen=True, slots=True)
class Batch:
    """``size`` cards leave the draw pile unseen (pile ``pile`` before; pile ``id`` after), of the types ``types``
    only (None: any type); ``seat`` gets them (None: they go to the discard pile or back to nowhere seen)."""

    id: int
    line: int
    check: str
    size: int
    types: tuple[int, ...] | None
    pile: int
    seat: int | None
    what: str


@dataclass(frozen=True, slots=True)
class Put:
    """A card of type ``type`` goes back into the draw pile (a start card returned): pile ``id`` is pile ``pile`` plus it."""

    id: int
    line: int
    check: str
    type: int
    pile: int
    what: str


@dataclass(frozen=True, slots=True)
class Refill:
    """A reshuffle: pile ``id`` is the discard pile under its top card, the sum ``terms`` plus the known cards ``known``."""

    id: int
    line: int
    check: str
    terms: Terms
    known: tuple[int, ...]
    what: str


@dataclass(frozen=True, slots=True)
class Pick:
    """A play takes one card out of a hand (``hand``, before the play): of one of ``types``, the types showing the
    face played."""

    id: int
    line: int
    check: str
    hand: Terms
    types: tuple[int, ...]
    what: str


@dataclass(frozen=True, slots=True)
class Same:
    """The card played (pick ``pick``) is the one card of batch ``batch`` (a play after a one-card turn draw)."""

    id: int
    line: int
    check: str
    pick: int
    batch: int
    what: str


@dataclass(frozen=True, slots=True)
class Fixed:
    """Pick ``pick`` is of type ``type`` (what a Flip uncovered shows is the one face the record then goes on with)."""

    id: int
    line: int
    check: str
    pick: int
    type: int
    what: str


@dataclass(frozen=True, slots=True)
class Held:
    """The hand ``hand`` holds at least one card of ``types`` (``held``), or none (a challenge's ruling)."""

    id: int
    line: int
    check: str
    hand: Terms
    types: tuple[int, ...]
    held: bool
    what: str


@dataclass(frozen=True, slots=True)
class Shown:
    """A hand shown at the round's end: for every face of the side in play, the types showing it and how many the
    ``shows`` line lists."""

    id: int
    line: int
    check: str
    hand: Terms
    groups: tuple[tuple[tuple[int, ...], int], ...]
    what: str


Fact = Batch | Put | Refill | Pick | Same | Fixed | Held | Shown


@dataclass(frozen=True, slots=True)
class FactNode:
    """One link of the facts' list, newest first (shared between copies of the state)."""

    fact: Fact
    before: FactNode | None


def facts_in_order(node: FactNode | None) -> list[Fact]:
    """The facts of a list, oldest first."""
    found: list[Fact] = []
    while node is not None:
        found.append(node.fact)
        node = node.before
    found.reverse()
    return found


@dataclass(frozen=True, slots=True)
class Question:
    """A wild draw card played from a hidden hand: did ``player`` hold a card of ``colour`` (``types``)?  ``challenge``
    is the line of the challenge that ruled on it, if one did."""

    line: int
    player: str
    colour: str
    hand: Terms
    types: tuple[int, ...]
    challenge: int | None = None
    guilty: bool | None = None


@dataclass(slots=True)
class HiddenState:
    """What a public round's replay keeps of the hidden cards (``GameState.hidden``)."""

    deck: HiddenDeck
    hands: list[dict[int, int]]
    discard: list[int | None]  # parallel to the discard pile: the unknown (pick or batch) behind a card, None if seen
    pile: int  # the id of the draw pile's vector now
    facts: FactNode | None = None
    drawn: int | None = None  # the batch of this turn's one-card draw (the card that alone may be played)
    questions: tuple[Question, ...] = ()
    shown: dict[int, tuple[Face, ...]] = field(default_factory=dict)
    winner: int | None = None  # the round's winner, while the hands are being shown
    ruling: Held | None = None  # a challenge's ruling, a fact of the draw line that shows it (its line set then)
    drawn_playable: bool | None = None  # forced play: whether this replay has the card drawn playable (None: not asked)

    def copy(self) -> HiddenState:
        return HiddenState(
            self.deck,
            [dict(hand) for hand in self.hands],
            list(self.discard),
            self.pile,
            self.facts,
            self.drawn,
            self.questions,
            dict(self.shown),
            self.winner,
            self.ruling,
            self.drawn_playable,
        )

    def add(self, fact: Fact) -> None:
        self.facts = FactNode(fact, self.facts)

    def hand_terms(self, seat: int) -> Terms:
        return tuple(sorted((term, coef) for term, coef in self.hands[seat].items() if coef))

    def facts_list(self) -> list[Fact]:
        return facts_in_order(self.facts)


@dataclass(frozen=True, slots=True)
class HandStory:
    """How a hand of a public round came to hold its cards, from its sum of unknowns: the cards dealt into it, drawn
    into it and played out of it, and the lines that did each (a swap moves the story with the hand)."""

    dealt: int
    drew: int
    played: int
    lines: tuple[tuple[int, str], ...]

    def text(self) -> str:
        return f"dealt {self.dealt}, drew {self.drew}, played {self.played}"


def hand_story(hidden: HiddenState, seat: int, players: tuple[str, ...]) -> HandStory:
    """The ``HandStory`` of ``seat``'s hand now: why a shown hand must have the number of cards it has."""
    terms = hidden.hands[seat]
    facts = {fact.id: fact for fact in hidden.facts_list() if fact.id in terms}
    dealt = drew = played = 0
    lines: dict[int, list[str]] = {}
    for term, coef in terms.items():
        fact = facts[term]
        if isinstance(fact, Batch):
            count = coef * fact.size
            owner = players[fact.seat] if fact.seat is not None else "nobody"
            if fact.check == "hands":
                dealt += count
                lines.setdefault(fact.line, []).append(f"{owner}'s hand dealt: {fact.size} cards")
            elif fact.check == "shuffle-hands":  # a shuffle of hands dealt the hand anew
                dealt += count
                lines.setdefault(fact.line, []).append(fact.what)
            else:
                drew += count
                lines.setdefault(fact.line, []).append(f"{owner} draws {fact.size}")
        else:
            played -= coef
            lines.setdefault(fact.line, []).append(fact.what)
    return HandStory(dealt, drew, played, tuple((line, "; ".join(lines[line])) for line in sorted(lines)))


def term_add(hand: dict[int, int], term: int, coef: int) -> None:
    """Add ``coef`` times unknown ``term`` to a hand's sum."""
    value = hand.get(term, 0) + coef
    if value:
        hand[term] = value
    else:
        hand.pop(term, None)


_UNSEEN: dict[int, Face] = {}
_PSEUDO: dict[tuple[int, int], Card] = {}


def unseen_face(side: int) -> Face:
    """The face nobody saw (the other side of a card played from a hidden hand); never matched: a Flip that
    uncovers it resolves it first (``Engine.flip``)."""
    face = _UNSEEN.get(side)
    if face is None:
        face = _UNSEEN[side] = Face("?", side, None, "unseen", None, FaceClass.NUMBER)
    return face


def seen_card(face: Face, sides: int) -> Card:
    """A card of which only ``face`` was seen (a public round's play of a two-sided game): the one card object
    outside a catalogue, standing for whichever physical card the play took."""
    key = (id(face), sides)
    card = _PSEUDO.get(key)
    if card is None:
        faces = tuple(face if side == face.side else unseen_face(side) for side in range(sides))
        card = _PSEUDO[key] = Card(face.token, faces)
    return card


def is_unseen(face: Face) -> bool:
    return face.kind == "unseen"
