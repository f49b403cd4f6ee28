"""Compiled rules: a ``Spec`` turned into the tables the engine reads.

Everything the engine knows about UNO Flip comes from here: which faces exist,
what each face does when played and when turned up at the start, its points,
the options a house rule changed, and which rule (id, summary, citation) each
engine check enforces. The Z3 model (``referee.proof``) compiles the same
``Spec`` by the same vocabulary.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from dataclasses import fields
from pathlib import Path

from referee.cards import Card, Face
from referee.records import dataclass
from referee.rules import cache as rules_cache
from referee.spec import extends as spec_extends
from referee.spec.catalogue import Catalogue
from referee.spec.extends import load_spec
from referee.spec.model import Kind, Options, Rule, Spec
from referee.spec.vocabulary import DealerRotation, FlipColourChooser, Reshuffling, Scoring, StartColourChooser, TwoPlayerReverse


@dataclass(frozen=True, slots=True)
class FaceRules:
    """What one face does, read from its kind's effects."""

    face: Face
    points: int
    draw: int
    draw_until_colour: bool
    skip: int
    skip_everyone: bool
    reverse: bool
    flip: bool
    choose_colour: bool
    restricted: bool
    challengeable: bool
    stackable: bool
    rule: str
    start_rule: str
    at_start: frozenset[str]
    plain: bool
    flip_draw_pile: bool = True
    flip_discard_pile: bool = True
    penalty_into_discard: bool = False
    swaps_hands: bool = False  # its player then names whom to swap hands with (swap-hands; a 7 under seven-swaps)
    passes_hands: bool = False  # every hand passes to the next player (pass-hands; a 0 under zero-rotates)
    shuffles_hands: bool = False  # every hand is collected, shuffled and dealt out from its player's left (shuffle-hands)

    @property
    def gives_penalty(self) -> bool:
        return self.draw > 0 or self.draw_until_colour

    def __reduce__(self) -> tuple[type[FaceRules], tuple[object, ...]]:
        """Pickled as a constructor call: works for the mypyc-compiled class too (the rules cache)."""
        return (FaceRules, tuple(getattr(self, item.name) for item in fields(self)))


@dataclass(frozen=True, slots=True)
class Rules:
    """The engine's tables for one spec."""

    spec: Spec
    catalogue: Catalogue
    faces: dict[Face, FaceRules]
    deck: tuple[Card, ...]
    deck_counts: Counter[Card]
    side_colours: tuple[frozenset[str], ...]
    check_rules: dict[str, Rule]
    rules_by_id: dict[str, Rule]
    target: int
    start_colour_by_dealer: bool
    flip_colour_by_player: bool
    two_player_reverse_skips: bool
    innocent_extra: int
    catch_penalty: int
    own_hand_scoring: bool
    dealer_step: int
    reshuffle_keeps_top: bool = True
    flip_chooser: FlipColourChooser = FlipColourChooser.NEXT_PLAYER
    # The house rules (docs/house-rules.md): who may play on a penalty owed (the penalty's kind -> the kinds that may
    # go on it), and the switches.
    stacking: dict[str, frozenset[str]] | None = None
    seven_swaps: bool = False
    zero_rotates: bool = False
    jump_in: bool = False
    jump_in_kinds: frozenset[str] | None = None  # the kinds a jump-in is limited to (None: every kind but wilds)
    draw_until_playable: bool = False
    forced_play: bool = False  # a playable card drawn for the turn must be played
    doubles: bool = False  # identical cards may be played together as one play

    def __reduce__(self) -> tuple[type[Rules], tuple[object, ...]]:
        return (Rules, tuple(getattr(self, item.name) for item in fields(self)))


def _face_rules(face: Face, kind: Kind, options: Options, stackers: frozenset[str]) -> FaceRules:
    """What one face does, from its kind's effects and the options that change a face (seven swaps, zero rotates)."""
    effects = {effect.name: effect.amount for effect in kind.effects}
    settings = {effect.name: effect for effect in kind.effects}
    flip_effect = settings.get("flip")
    draw_effect = settings.get("next-player-draws")
    points = face.number if kind.points is None else kind.points
    return FaceRules(
        face=face,
        points=points or 0,
        draw=effects.get("next-player-draws") or 0,
        draw_until_colour="next-player-draws-until-colour" in effects,
        skip=effects.get("skip") or 0,
        skip_everyone="skip-everyone" in effects,
        reverse="reverse" in effects,
        flip="flip" in effects,
        choose_colour="choose-colour" in effects,
        restricted="only-without-colour-in-play" in effects,
        challengeable="challengeable" in effects,
        stackable=face.kind in stackers,
        rule=kind.rule,
        start_rule=kind.start_rule,
        at_start=frozenset(kind.at_start),
        plain=not kind.effects,
        flip_draw_pile=flip_effect is None or flip_effect.setting("draw-pile", "reverse") == "reverse",
        flip_discard_pile=flip_effect is None or flip_effect.setting("discard-pile", "reverse") == "reverse",
        penalty_into_discard=draw_effect is not None and draw_effect.setting("into", "hand") == "discard-pile",
        swaps_hands="swap-hands" in effects or (options.seven_swaps and face.number == 7),
        passes_hands="pass-hands" in effects or (options.zero_rotates and face.number == 0),
        shuffles_hands="shuffle-hands" in effects,
    )


def compile_spec(spec: Spec) -> Rules:
    """Turn a validated spec into engine tables."""
    catalogue = Catalogue(spec)
    kinds = {kind.name: kind for kind in spec.kinds}
    options = spec.settings
    stacking = {owed: frozenset(allowed) for owed, allowed in options.stacking if allowed}  # nothing on it: no entry
    stackers = frozenset(kind for allowed in stacking.values() for kind in allowed)
    faces: dict[Face, FaceRules] = {}
    for side_faces in catalogue.faces:
        for face in side_faces.values():
            if face in faces:
                continue
            faces[face] = _face_rules(face, kinds[face.kind], options, stackers)
    check_rules = {check: rule for rule in spec.rules for check in rule.checks}
    deck = tuple(catalogue.card(token) for token in spec.deck)
    assert all(card is not None for card in deck)
    return Rules(
        spec=spec,
        catalogue=catalogue,
        faces=faces,
        deck=deck,  # type: ignore[arg-type]
        deck_counts=Counter(deck),  # type: ignore[arg-type]
        side_colours=tuple(frozenset(colours) for colours in spec.colours),
        check_rules=check_rules,
        rules_by_id={rule.id: rule for rule in spec.rules},
        target=options.target,
        start_colour_by_dealer=options.start_colour_chooser is StartColourChooser.DEALER,
        flip_colour_by_player=options.flip_colour_chooser is FlipColourChooser.PLAYER_WHO_FLIPPED,
        two_player_reverse_skips=options.two_player_reverse is TwoPlayerReverse.SKIP,
        innocent_extra=options.challenge_innocent_extra,
        catch_penalty=options.uno_catch_penalty,
        own_hand_scoring=options.scoring is Scoring.OWN_HAND_LOWEST_WINS,
        dealer_step=1 if options.dealer_rotation is DealerRotation.LEFT else -1,
        reshuffle_keeps_top=options.reshuffle is Reshuffling.KEEP_TOP,
        flip_chooser=options.flip_colour_chooser,
        stacking=stacking,
        seven_swaps=options.seven_swaps,
        zero_rotates=options.zero_rotates,
        jump_in=bool(options.jump_in),
        jump_in_kinds=frozenset(options.jump_in) if isinstance(options.jump_in, tuple) else None,
        draw_until_playable=options.draw_until_playable,
        forced_play=options.forced_play,
        doubles=options.doubles,
    )


# The specs compiled in this process, the most recently used last; at most MEMORY_SPECS, the least recently used
# dropped first, so that a spec in use keeps one Rules object (its faces compare by identity in the engine).
MEMORY_SPECS = 64
_CACHE: OrderedDict[tuple[str, int, int, tuple[Path, ...]], Rules] = OrderedDict()


def _build(path: Path, roots: tuple[Path, ...]) -> tuple[Rules, list[Path]]:
    """Compile a spec and say which files it was read from (for the disk cache)."""
    read: list[Path] = []
    spec_extends.READ = read
    try:
        return compile_spec(load_spec(path, roots)), read
    finally:
        spec_extends.READ = None


def load_rules(path: Path, roots: tuple[Path, ...] = ()) -> Rules:
    """Load and compile a spec file, once per process per version of the file (path, size, modification time).

    ``roots`` are the folders (``--spec-path``) its ``extends`` may name files in, beyond its own folder's tree.

    A spec that ``extends`` another is keyed by its own file only: within one
    process, a base spec edited while a house spec stays unchanged is not seen.
    Across processes the compiled rules come from the disk cache
    (``referee.rules.cache``) while every file they were read from is unchanged.
    """
    try:
        info = path.stat()
        key = (str(path.resolve()), info.st_size, info.st_mtime_ns, roots)
    except OSError:
        return compile_spec(load_spec(path, roots))  # load_spec reports why the file cannot be read
    rules = _CACHE.get(key)
    if rules is None:
        rules = rules_cache.load(path, lambda: _build(path, roots), Rules, roots)
        _CACHE[key] = rules
        if len(_CACHE) > MEMORY_SPECS:
            _CACHE.popitem(last=False)
    else:
        _CACHE.move_to_end(key)
    return rules
