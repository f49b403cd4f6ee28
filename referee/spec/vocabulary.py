"""The closed vocabulary of a spec (``referee-spec/1``): every key, effect, start action, check, option and setting
a spec may use, with the values each may take. Nothing outside these is read; ``docs/spec-language.md`` documents
every one (a test checks it)."""

from __future__ import annotations

import re
from collections.abc import Callable
from enum import StrEnum

from referee.records import dataclass

SPEC_FORMAT = "referee-spec/1"


class Form:
    """A word's form, a regular expression compiled when first asked: a ``check`` whose rules come from the cache
    reads no spec text, and compiling the forms was a millisecond of every start."""

    __slots__ = ("_compiled", "pattern")

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self._compiled: re.Pattern[str] | None = None

    def _expression(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.pattern)
        return self._compiled

    def fullmatch(self, text: str) -> re.Match[str] | None:
        return self._expression().fullmatch(text)

    def sub(self, replace: Callable[[re.Match[str]], str], text: str) -> str:
        return self._expression().sub(replace, text)


class EffectGroup(StrEnum):
    """What an effect decides, when two effects may not both decide it on one card."""

    TURN = "turn"  # who moves next: reverse, skip, skip-everyone
    PENALTY = "penalty"  # what the next player owes: one penalty per card
    HANDS = "hands"  # where the hands go: swap-hands, pass-hands, shuffle-hands


@dataclass(frozen=True)
class EffectWord:
    """An effect a kind may list, defined once: its name, whether it takes an amount (``{skip: 2}``), the settings it
    may take with their allowed values (the first is the default), and what it decides (``group``). The reader, the
    schema and the checks of combined effects read it here; what it does is ``referee.rules.effects``."""

    name: str
    amount: bool = False
    settings: tuple[tuple[str, tuple[str, ...]], ...] = ()
    group: EffectGroup | None = None

    def __init__(
        self, name: str, amount: bool = False, settings: tuple[tuple[str, tuple[str, ...]], ...] = (), group: EffectGroup | None = None
    ) -> None:  # written out: the generated one is compiled on first use, at import (a start-up cost of every check)
        for field, value in (("name", name), ("amount", amount), ("settings", settings), ("group", group)):
            object.__setattr__(self, field, value)


EFFECT_WORDS: dict[str, EffectWord] = {
    word.name: word
    for word in (
        EffectWord("choose-colour"),
        EffectWord("next-player-draws", True, (("into", ("hand", "discard-pile")),), EffectGroup.PENALTY),
        EffectWord("next-player-draws-until-colour", group=EffectGroup.PENALTY),
        EffectWord("reverse", group=EffectGroup.TURN),
        EffectWord("skip", True, group=EffectGroup.TURN),
        EffectWord("skip-everyone", group=EffectGroup.TURN),
        EffectWord("flip", settings=(("draw-pile", ("reverse", "keep")), ("discard-pile", ("reverse", "keep")))),
        EffectWord("only-without-colour-in-play"),
        EffectWord("challengeable"),
        EffectWord("swap-hands", group=EffectGroup.HANDS),
        EffectWord("pass-hands", group=EffectGroup.HANDS),
        EffectWord("shuffle-hands", group=EffectGroup.HANDS),
    )
}
EFFECTS_WITH_AMOUNT = frozenset(name for name, word in EFFECT_WORDS.items() if word.amount)
EFFECTS_PLAIN = frozenset(name for name, word in EFFECT_WORDS.items() if not word.amount)
# Settings an effect may take, with their allowed values (the first is the default).
EFFECT_SETTINGS: dict[str, dict[str, tuple[str, ...]]] = {name: dict(word.settings) for name, word in EFFECT_WORDS.items() if word.settings}
START_ACTIONS = frozenset({"apply-effects", "reverse", "dealer-first", "choose-colour", "return-to-draw-pile", "flip"})


class Check(StrEnum):
    """The checks a rule of a spec governs (a rule's ``checks``): each place the engine can reject a line or warn, each
    defined once. A member is the string itself, so a spec's text and the compiled rules' tables key on it unchanged."""

    SYNTAX = "syntax"
    PLAYERS = "players"
    KNOWN_PLAYER = "known-player"
    DEALER = "dealer"
    DECK = "deck"
    KNOWN_CARD = "known-card"
    SHUFFLE = "shuffle"
    HANDS = "hands"
    START_CARD = "start-card"
    ROUND_ORDER = "round-order"
    START_COLOUR = "start-colour"
    START_AGAIN = "start-again"
    TURN = "turn"
    IN_HAND = "in-hand"
    AMBIGUOUS = "ambiguous"
    MATCH = "match"
    TURN_DRAW = "turn-draw"
    DRAWN_CARD_ONLY = "drawn-card-only"
    PASS = "pass"
    DRAW_SOURCE = "draw-source"
    WILD_COLOUR = "wild-colour"
    CHOOSE = "choose"
    PENALTY = "penalty"
    PENALTY_OWED = "penalty-owed"
    RESHUFFLE = "reshuffle"
    EMPTY_DRAW = "empty-draw"
    FLIP_COLOUR = "flip-colour"
    BLUFF = "bluff"
    CHALLENGE = "challenge"
    CALL = "call"
    UNCAUGHT = "uncaught"
    CATCH = "catch"
    ROUND_OVER = "round-over"
    SCORE = "score"
    GAME_OVER = "game-over"
    SWAP = "swap"
    SHUFFLE_HANDS = "shuffle-hands"
    JUMP_IN = "jump-in"
    DRAW_UNTIL_PLAYABLE = "draw-until-playable"
    FORCED_PLAY = "forced-play"
    DOUBLES = "doubles"


CHECKS = frozenset(check.value for check in Check)
# Checks that can arise only where some kind has an effect: a spec without one need not govern them.
CHECKS_ONLY_WITH: dict[str, str] = {"flip-colour": "flip", "swap": "swap-hands", "shuffle-hands": "shuffle-hands"}
# Checks that can arise only under a house rule (docs/house-rules.md): a spec without it need not govern them.
CHECKS_ONLY_UNDER: dict[str, str] = {
    "swap": "seven-swaps",
    "jump-in": "jump-in",
    "draw-until-playable": "draw-until-playable",
    "forced-play": "forced-play",
    "doubles": "doubles",
}


class StartColourChooser(StrEnum):
    """``start-colour-chooser``: who names the colour of a wild turned up at the start."""

    LEFT_OF_DEALER = "left-of-dealer"
    DEALER = "dealer"


class FlipColourChooser(StrEnum):
    """``flip-colour-chooser``: who names the colour when a Flip uncovers a wild."""

    NEXT_PLAYER = "next-player"
    PLAYER_WHO_FLIPPED = "player-who-flipped"
    NOBODY = "nobody"


class Reshuffling(StrEnum):
    """``reshuffle``: whether the discard pile's top card stays when the rest becomes the draw pile."""

    KEEP_TOP = "keep-top"
    TAKE_ALL = "take-all"


class TwoPlayerReverse(StrEnum):
    """``two-player-reverse``: what a Reverse does with two players."""

    SKIP = "skip"
    REVERSE = "reverse"


class Scoring(StrEnum):
    """``scoring``: who scores a round's points."""

    WINNER_SCORES_OTHERS = "winner-scores-others"
    OWN_HAND_LOWEST_WINS = "own-hand-lowest-wins"


class DealerRotation(StrEnum):
    """``dealer-rotation``: where the deal passes after a round."""

    LEFT = "left"
    RIGHT = "right"


# What each ruling on a dispute costs and whom (the ``disputes`` section): each setting's values, the first the
# meaning a spec without the section has (specs written before the section keep their meaning).
DISPUTE_SETTINGS: dict[str, dict[str, tuple[str, ...]]] = {
    "challenge-guilty": {
        "draws": ("player", "challenger"),
        "cards": ("penalty", "penalty-and-extra"),
        "then": ("challenger-plays", "challenger-loses-turn"),
    },
    "challenge-innocent": {
        "draws": ("challenger", "player"),
        "cards": ("penalty-and-extra", "penalty"),
        "then": ("challenger-loses-turn", "challenger-plays"),
    },
    "catch": {"draws": ("caught", "catcher")},
}
STACKING_BY_VALUE = "by-value"  # stacking: a draw card of equal or higher value on any draw card (Show 'Em No Mercy)


class OptionDomain(StrEnum):
    """What values an option takes; each reader of options (the spec reader, the schema, the option claim) reads a
    value by its option's domain."""

    CHOICE = "choice"  # one word of its enum
    NUMBER = "number"  # a whole number from its minimum
    STACKING = "stacking"  # a table of kinds: the kinds that may go on each penalty owed, or by-value
    SWITCH = "switch"  # a house rule, on (true) or off (false); a spec that leaves it out has it off


@dataclass(frozen=True)
class OptionWord:
    """An option of the ``options`` section, defined once: its name, its domain (with its enum of choices or its
    least number), the example a message shows, and for a switch whether it may instead name the kinds it is
    limited to (``jump-in: {value: [skip]}``: only a Skip on a Skip). A switch is the only kind a spec may leave out:
    the rulebooks have none of them, so specs written before one existed keep their meaning."""

    name: str
    domain: OptionDomain
    example: str = "true"
    choices: type[StrEnum] | None = None
    minimum: int = 0
    by_kind: bool = False

    def __init__(
        self,
        name: str,
        domain: OptionDomain,
        example: str = "true",
        choices: type[StrEnum] | None = None,
        minimum: int = 0,
        by_kind: bool = False,
    ) -> None:  # written out, as EffectWord's
        values = (
            ("name", name),
            ("domain", domain),
            ("example", example),
            ("choices", choices),
            ("minimum", minimum),
            ("by_kind", by_kind),
        )
        for field, value in values:
            object.__setattr__(self, field, value)

    @property
    def required(self) -> bool:
        return self.domain is not OptionDomain.SWITCH

    @property
    def choice_values(self) -> frozenset[str]:
        return frozenset(choice.value for choice in self.choices) if self.choices is not None else frozenset()


def _choice_word(name: str, choices: type[StrEnum]) -> OptionWord:
    return OptionWord(name, OptionDomain.CHOICE, sorted(choice.value for choice in choices)[0], choices)


# Every option, in the order messages and docs list them. The switches are the house rules of docs/house-rules.md,
# in the order in which their shipped rules (specs/house-switches.yml) are added to a spec that turns them on in the
# short form.
OPTION_WORDS: tuple[OptionWord, ...] = (
    _choice_word("start-colour-chooser", StartColourChooser),
    _choice_word("flip-colour-chooser", FlipColourChooser),
    _choice_word("reshuffle", Reshuffling),
    _choice_word("two-player-reverse", TwoPlayerReverse),
    _choice_word("scoring", Scoring),
    _choice_word("dealer-rotation", DealerRotation),
    OptionWord("target", OptionDomain.NUMBER, "500", minimum=1),
    OptionWord("challenge-innocent-extra", OptionDomain.NUMBER, "2"),
    OptionWord("uno-catch-penalty", OptionDomain.NUMBER, "2"),
    OptionWord("stacking", OptionDomain.STACKING, "{draw-two: [draw-two, wild-draw-four], wild-draw-four: [wild-draw-four]}"),
    OptionWord("seven-swaps", OptionDomain.SWITCH),
    OptionWord("zero-rotates", OptionDomain.SWITCH),
    OptionWord("jump-in", OptionDomain.SWITCH, by_kind=True),
    OptionWord("draw-until-playable", OptionDomain.SWITCH),
    OptionWord("forced-play", OptionDomain.SWITCH),
    OptionWord("doubles", OptionDomain.SWITCH),
)
OPTION_WORD: dict[str, OptionWord] = {word.name: word for word in OPTION_WORDS}
# Views of OPTION_WORDS by domain, for the readers that ask by name.
OPTION_ENUMS: dict[str, type[StrEnum]] = {word.name: word.choices for word in OPTION_WORDS if word.choices is not None}
OPTION_CHOICES: dict[str, frozenset[str]] = {word.name: word.choice_values for word in OPTION_WORDS if word.choices is not None}
OPTION_NUMBERS: dict[str, int] = {word.name: word.minimum for word in OPTION_WORDS if word.domain is OptionDomain.NUMBER}
OPTION_LISTS = frozenset(word.name for word in OPTION_WORDS if word.domain is OptionDomain.STACKING)
OPTION_FLAG_ORDER = tuple(word.name for word in OPTION_WORDS if word.domain is OptionDomain.SWITCH)
OPTION_FLAGS = frozenset(OPTION_FLAG_ORDER)
OPTION_KIND_LIMITS = frozenset(word.name for word in OPTION_WORDS if word.by_kind)
OPTIONS = frozenset(OPTION_WORD)
REQUIRED_OPTIONS = frozenset(word.name for word in OPTION_WORDS if word.required)
OPTION_EXAMPLES: dict[str, str] = {word.name: word.example for word in OPTION_WORDS}
PLACEHOLDER = Form(r"\{([a-z][a-z0-9-]*)\}")
SIDE_NAMES = ("light", "dark")  # the names of version 1's two sides, in their order (a spec may name its own)
MAX_SIDES = 2
MAX_DECK_CARDS = 10_000  # faces on one side of a deck (the shipped decks have 108 or 112): sizes are checked from the
# counts before anything is expanded, so that a small spec cannot ask for millions of cards
# The keys of each part of a spec (the closed vocabulary; docs/spec-language.md documents every one).
SOURCE_KEYS = frozenset({"title", "publisher", "file"})
DISPUTES_FORM = "{challenge-guilty: {draws: player, cards: penalty, then: challenger-plays}, ...}"
TABLE_KEYS = frozenset({"min-players", "max-players", "hand-size", "start-side"})
MATCHING_KEYS = ("same-colour", "same-number", "same-action-kind", "wild-always")
KIND_KEYS = frozenset({"class", "sides", "numbers", "copies", "points", "effects", "at-start", "rule", "start-rule", "spellings"})
NUMBERS_KEYS = frozenset({"from", "to"})
OPTION_ENTRY_KEYS = frozenset({"value", "rule"})
RULE_KEYS = frozenset({"id", "summary", "source", "ruling", "options", "checks"})
CITATION_KEYS = frozenset({"key", "section"})
NAME_FORM = Form(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
NUMBER_FORM = Form(r"0|[1-9][0-9]{0,5}")


# A claim (``claims:`` of a spec, or a game's claims file): its keys, and the forms, exactly one per claim. The prover
# reads them (referee.proof.claims) and the JSON Schema is made from them (referee.spec.schema).
class ClaimFormName(StrEnum):
    """The form of a claim, the one key that says what the claim states (``referee.proof.claims.ClaimForm`` holds each
    form's reading, question and check). A member is the string itself. ``WITHDRAWN`` is not a form: it marks a
    rulebook claim a house spec withdraws (``{id: ..., withdrawn: REASON}``)."""

    PLAY = "play"
    START = "start"
    CHALLENGE = "challenge"
    CATCH = "catch"
    POINTS = "points"
    MATCHING = "matching"
    DECK = "deck"
    TABLE = "table"
    OPTION = "option"
    STACK = "stack"
    WITHDRAWN = "withdrawn"


CLAIM_FORMS = tuple(form for form in ClaimFormName if form is not ClaimFormName.WITHDRAWN)
CLAIM_KEYS = frozenset({"id", "statement", "source", "if", "withdrawn", *CLAIM_FORMS})


TOP_KEYS = frozenset(
    {
        "format",
        "name",
        "game",
        "title",
        "extends",
        "sources",
        "table",
        "sides",
        "matching",
        "kinds",
        "options",
        "disputes",
        "rules",
        "deck",
        "deck-composition",
        "claims",
        "kinds-removed",
        "kinds-renamed",
    }
)
MERGED_BY_ENTRY = frozenset({"sources", "table", "sides", "matching", "kinds", "options", "disputes"})
