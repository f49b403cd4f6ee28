"""The spec model: a validated ``Spec`` as frozen records (its kinds, effects, rules, options, disputes, sources).

``referee.spec.reader`` builds a ``Spec`` from positioned YAML nodes, checking
them against the closed vocabulary of ``referee.spec.vocabulary``;
``referee.spec.extends`` finds specs and merges a house-rule spec onto the one
it ``extends``; ``referee.spec.catalogue`` names every face and card of a spec. The
compiler (``referee.rules.compiler``) turns a ``Spec`` into the engine's tables.
"""

from __future__ import annotations

import functools

from referee.cards import FaceClass
from referee.errors import Position
from referee.records import dataclass
from referee.spec.nodes import Mapping, Scalar, Sequence
from referee.spec.paths import SPECS
from referee.spec.vocabulary import (
    CHECKS,
    CHECKS_ONLY_WITH,
    CITATION_KEYS,
    DISPUTE_SETTINGS,
    DISPUTES_FORM,
    EFFECT_SETTINGS,
    EFFECTS_PLAIN,
    EFFECTS_WITH_AMOUNT,
    KIND_KEYS,
    MATCHING_KEYS,
    MAX_SIDES,
    MERGED_BY_ENTRY,
    NAME_FORM,
    NUMBER_FORM,
    NUMBERS_KEYS,
    OPTION_CHOICES,
    OPTION_ENTRY_KEYS,
    OPTION_ENUMS,
    OPTION_EXAMPLES,
    OPTION_FLAGS,
    OPTION_LISTS,
    OPTION_NUMBERS,
    OPTIONS,
    PLACEHOLDER,
    RULE_KEYS,
    SIDE_NAMES,
    SOURCE_KEYS,
    SPEC_FORMAT,
    START_ACTIONS,
    TABLE_KEYS,
    TOP_KEYS,
    DealerRotation,
    FlipColourChooser,
    Reshuffling,
    Scoring,
    StartColourChooser,
    TwoPlayerReverse,
)

# The records are this module's; the vocabulary, the catalogue and where specs come from have modules of their own and
# are re-exported here (the reader is referee.spec.reader).
__all__ = [
    "DEFAULT_DISPUTES",
    "Citation",
    "Disputes",
    "Effect",
    "Kind",
    "Matching",
    "Options",
    "Outcome",
    "Rule",
    "Source",
    "Spec",
    "replace_spec",
    "ruling_text",
    "rulings",
    "SPECS",
    "CHECKS",
    "CHECKS_ONLY_WITH",
    "CITATION_KEYS",
    "DISPUTES_FORM",
    "DISPUTE_SETTINGS",
    "EFFECTS_PLAIN",
    "EFFECTS_WITH_AMOUNT",
    "EFFECT_SETTINGS",
    "SPEC_FORMAT",
    "KIND_KEYS",
    "MATCHING_KEYS",
    "MAX_SIDES",
    "MERGED_BY_ENTRY",
    "NAME_FORM",
    "NUMBERS_KEYS",
    "NUMBER_FORM",
    "OPTIONS",
    "OPTION_CHOICES",
    "OPTION_ENTRY_KEYS",
    "OPTION_EXAMPLES",
    "OPTION_FLAGS",
    "OPTION_LISTS",
    "OPTION_NUMBERS",
    "PLACEHOLDER",
    "RULE_KEYS",
    "SIDE_NAMES",
    "SOURCE_KEYS",
    "START_ACTIONS",
    "TABLE_KEYS",
    "TOP_KEYS",
]


@dataclass(frozen=True, slots=True)
class Source:
    """A document rules are cited from: its title and who publishes it, so a reader can find it."""

    key: str
    title: str
    publisher: str


@dataclass(frozen=True, slots=True)
class Citation:
    """Where a rule comes from: a source's key and the section in it."""

    key: str
    section: str

    def render(self, sources: dict[str, Source]) -> str:
        """``Title (Publisher), section``: the document and the place in it."""
        source = sources.get(self.key)
        if source is None:
            return f"{self.key}, {self.section}"
        return f"{source.title} ({source.publisher}), {self.section}"


@functools.cache
def rulings() -> dict[int, tuple[str, str]]:
    """The project's rulings (``specs/rulings.yml``): number -> (topic, text)."""
    tree = load_text_resource("rulings.yml")
    result: dict[int, tuple[str, str]] = {}
    items = tree.entries.get("rulings")
    assert isinstance(items, Sequence)
    for item in items.items:
        assert isinstance(item, Mapping)
        number, topic, text = (item.entries[key] for key in ("number", "topic", "text"))
        assert isinstance(number, Scalar) and isinstance(topic, Scalar) and isinstance(text, Scalar)
        result[int(number.value)] = (topic.value, text.value)
    return result


def ruling_text(number: int, game: str = "") -> str:
    """The text of ruling ``number`` ("" for a number the project has not ruled on); for ``game`` (a spec's root
    game), its own wording where the ruling has one (``games:`` in ``specs/rulings.yml``: the card values differ)."""
    return _game_rulings().get((number, game)) or rulings().get(number, ("", ""))[1]


@functools.cache
def _game_rulings() -> dict[tuple[int, str], str]:
    """The rulings' wordings for one game (``games: {GAME: TEXT}``), by (number, game)."""
    tree = load_text_resource("rulings.yml")
    items = tree.entries.get("rulings")
    assert isinstance(items, Sequence)
    result: dict[tuple[int, str], str] = {}
    for item in items.items:
        assert isinstance(item, Mapping)
        games, number = item.entries.get("games"), item.entries["number"]
        if isinstance(games, Mapping) and isinstance(number, Scalar):
            for game, text in games.entries.items():
                assert isinstance(text, Scalar)
                result[(int(number.value), game)] = text.value
    return result


def load_text_resource(name: str) -> Mapping:
    """A YAML file shipped beside the specs, read as every spec is (bounded, through the same safe loader)."""
    from referee.spec.loader import load_file  # PyYAML only when a spec is read, not for cached rules

    return load_file(SPECS / name)


@dataclass(frozen=True, slots=True)
class Rule:
    """A rule of the spec: its id, summary, citation, ruling, options and the checks that enforce it."""

    id: str
    summary: str
    citation: Citation
    ruling: int | None
    options: tuple[str, ...]
    checks: tuple[str, ...]
    position: Position


@dataclass(frozen=True, slots=True)
class Effect:
    """One effect of a face: a name, an amount where it takes one, and named settings."""

    name: str
    amount: int | None = None
    settings: tuple[tuple[str, str], ...] = ()

    def setting(self, key: str, default: str) -> str:
        return dict(self.settings).get(key, default)


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of face in the deck: its class, sides, copies, numbers, points, effects and rule."""

    name: str
    face_class: FaceClass
    sides: tuple[int, ...]
    copies: int
    numbers: tuple[int, ...]
    number_copies: tuple[tuple[int, int], ...]  # a number kind's copies of particular numbers, per colour (else ``copies``)
    points: int | None
    effects: tuple[Effect, ...]
    at_start: tuple[str, ...]
    rule: str
    start_rule: str
    spellings: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Matching:
    """What a played face must share with the top of the discard pile."""

    same_colour: bool
    same_number: bool
    same_action_kind: bool
    wild_always: bool


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a ruling on a challenge costs: who ``draws`` (the ``player`` of the wild draw card, or the
    ``challenger``), how many ``cards`` (the ``penalty``, or ``penalty-and-extra``: plus the option
    challenge-innocent-extra), and what ``then`` happens to the challenger's turn once they are drawn."""

    draws: str
    cards: str
    then: str
    rule: str = ""  # the rule a ruling this way cites (default: the rule of the check 'challenge')

    @property
    def by_player(self) -> bool:
        return self.draws == "player"

    @property
    def with_extra(self) -> bool:
        return self.cards == "penalty-and-extra"

    @property
    def challenger_plays(self) -> bool:
        return self.then == "challenger-plays"


@dataclass(frozen=True, slots=True)
class Disputes:
    """The ``disputes`` section: what a guilty and an innocent challenge cost, and who draws after a catch."""

    guilty: Outcome
    innocent: Outcome
    catch_draws: str

    @property
    def catcher_draws(self) -> bool:
        return self.catch_draws == "catcher"


def _default_outcome(name: str) -> Outcome:
    settings = DISPUTE_SETTINGS[name]
    return Outcome(settings["draws"][0], settings["cards"][0], settings["then"][0])


DEFAULT_DISPUTES = Disputes(_default_outcome("challenge-guilty"), _default_outcome("challenge-innocent"), "caught")


@dataclass(frozen=True, slots=True)
class Options:
    """The options of a spec, typed: the declared variation points, each within its domain (``OPTION_CHOICES``,
    ``OPTION_NUMBERS``). ``Spec.options`` keeps them by name too, for summaries and claims' ``if``."""

    target: int
    stacking: tuple[tuple[str, tuple[str, ...]], ...]  # (kind of the penalty owed, kinds that may be played on it)
    start_colour_chooser: StartColourChooser
    flip_colour_chooser: FlipColourChooser
    two_player_reverse: TwoPlayerReverse
    challenge_innocent_extra: int
    uno_catch_penalty: int
    scoring: Scoring
    dealer_rotation: DealerRotation
    reshuffle: Reshuffling
    seven_swaps: bool = False
    zero_rotates: bool = False
    jump_in: bool | tuple[str, ...] = False  # or the kinds it is limited to
    draw_until_playable: bool = False
    forced_play: bool = False
    doubles: bool = False

    @staticmethod
    def of(options: dict[str, object]) -> Options:
        """From the options by name (every one present and valid: the reader has checked); a choice becomes its enum."""
        typed = {name: OPTION_ENUMS[name](str(value)) if name in OPTION_ENUMS else value for name, value in options.items()}
        return Options(**{name.replace("-", "_"): value for name, value in typed.items()})  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Spec:
    """A validated rule spec. ``deck`` is the default physical deck, as card tokens."""

    name: str
    title: str
    path: str
    sources: dict[str, Source]
    min_players: int
    max_players: int
    hand_size: int
    start_side: int
    colours: tuple[tuple[str, ...], ...]  # per side, in the order of ``side_names``
    matching: Matching
    kinds: tuple[Kind, ...]
    options: dict[str, object]
    option_rules: dict[str, str]
    rules: tuple[Rule, ...]
    deck: tuple[str, ...]
    deck_official: bool = True
    game: str = ""  # the spec at the root of the ``extends`` chain: its claims file is specs/claims/GAME.yml
    game_stated: bool = True  # False when the root spec has no 'game' line (its game is then its name)
    claims: Sequence | None = None  # claims this spec restates (read by referee.proof.claims)
    disputes: Disputes = DEFAULT_DISPUTES
    side_names: tuple[str, ...] = SIDE_NAMES  # one or two sides; a card has one face per side
    kinds_removed: tuple[str, ...] = ()  # kinds of the specs it extends that this one removes (kinds-removed)
    kinds_renamed: tuple[tuple[str, str], ...] = ()  # (old name, new name), in order (kinds-renamed)

    @property
    def settings(self) -> Options:
        """The options, typed."""
        return Options.of(self.options)

    @property
    def earlier_names(self) -> dict[str, tuple[str, ...]]:
        """For each kind renamed along the ``extends`` chain (``kinds-renamed``), the names it had, the first first."""
        earlier: dict[str, tuple[str, ...]] = {}
        for old, new in self.kinds_renamed:
            earlier[new] = (*earlier.pop(old, ()), old)
        return earlier

    def root_name(self, kind: str) -> str:
        """A kind's name as the spec at the root of the ``extends`` chain names it (its own name if never renamed)."""
        names = self.earlier_names.get(kind)
        return names[0] if names else kind

    @property
    def sides(self) -> int:
        return len(self.side_names)

    def option(self, name: str) -> object:
        return self.options[name]


def replace_spec(spec: Spec, **changes: object) -> Spec:
    import dataclasses

    return dataclasses.replace(spec, **changes)  # type: ignore[arg-type]
