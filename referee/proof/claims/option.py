"""The ``option`` claim form: the rulebook's value of one of the spec's options (the declared variation points).

The proof is finite (the spec sets the option to the rulebook's value, ``option_problem``); what a game shows of an
option that differs is each option's own check on one step (``OPTION_CHECKS``), which a refutation's log reaches.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from referee.cards import Face, FaceClass
from referee.engine.engine import GAME_OVER, PLAYING, ROUND_OVER, Engine
from referee.log import events as ev
from referee.proof.claims.answering import finite
from referee.proof.claims.claim import SEARCH, Claim, ClaimForm, Written
from referee.proof.claims.figures import (
    NO_FIGURES,
    ClaimReader,
    Figures,
    NoFigures,
    option_value,
)
from referee.proof.claims.steps import Before, played_face, played_kind
from referee.records import dataclass
from referee.rules.compiler import FaceRules, Rules
from referee.spec.loader import Mapping, Node, Scalar, Sequence
from referee.spec.reader import stacking_by_value
from referee.spec.vocabulary import (
    STACKING_BY_VALUE,
    ClaimFormName,
    DealerRotation,
    FlipColourChooser,
    Reshuffling,
    Scoring,
    StartColourChooser,
    TwoPlayerReverse,
)

if TYPE_CHECKING:
    pass


StackingFigure = dict[str, frozenset[str]]  # option stacking: the kind of penalty owed -> the kinds that may go on it


OptionValue = bool | int | str | StackingFigure | frozenset[str]  # the last: a switch limited to kinds


@dataclass(frozen=True, slots=True)
class OptionFigures(Figures):
    """``option: {NAME: VALUE}``: the rulebook's value of one option (``referee.spec.vocabulary``), in the spec's
    own terms (stacking as the compiled rules' table)."""

    name: str
    value: OptionValue

    @classmethod
    def read(cls, reader: ClaimReader, node: Mapping) -> OptionFigures | NoFigures:
        from referee.spec.vocabulary import OPTION_WORD, OptionDomain

        where = node.position
        if len(node.entries) != 1:
            reader.error(where, "an option claim names one option: {OPTION: VALUE}")
            return NO_FIGURES
        ((name, value),) = node.entries.items()
        word = OPTION_WORD.get(name)
        if word is None:
            reader.error(where, f"unknown option '{name}' in an option claim")
            return NO_FIGURES
        if word.domain is OptionDomain.STACKING:
            return cls(name, _stacking_figure(reader, value))
        if word.by_kind and isinstance(value, Sequence):  # a switch limited to kinds: [skip]
            return cls(name, frozenset(reader.scalar(item, "a kind", where) for item in value.items) or False)
        if word.domain is OptionDomain.SWITCH:
            return cls(name, reader.choice(value, name, where, ("true", "false")) == "true")
        if word.domain is OptionDomain.NUMBER:
            return cls(name, reader.count(value, name, where))
        return cls(name, reader.choice(value, name, where, tuple(sorted(word.choice_values))))

    def by_key(self) -> dict[str, Any]:
        return {"name": self.name, "value": self.value}

    def written(self) -> dict[str, Any]:
        return {self.name: sorted(self.value) if isinstance(self.value, frozenset) else self.value}


def _stacking_figure(reader: ClaimReader, node: Node) -> StackingFigure:
    """Option stacking as a claim states it: ``[]`` (none), a list of kinds (each on its own kind) or a mapping
    (the kind of the penalty owed: the kinds that may go on it); as the compiled rules' table."""
    if isinstance(node, Mapping):
        return {
            owed: frozenset(reader.scalar(item, "a kind", node.position) for item in allowed.items)
            for owed, allowed in node.entries.items()
            if isinstance(allowed, Sequence) and allowed.items  # an empty list allows what a missing entry allows
        }
    if isinstance(node, Sequence):
        return {
            reader.scalar(item, "a kind", node.position): frozenset({reader.scalar(item, "a kind", node.position)}) for item in node.items
        }
    if isinstance(node, Scalar) and node.value == STACKING_BY_VALUE:
        return {STACKING_BY_VALUE: frozenset()}  # the spec's own draw cards decide the table (``_claimed``)
    reader.error(node.position, "stacking is a list of kinds or a mapping {KIND: [KINDS]}")
    return {}


def option_problem(claim: Claim[OptionFigures], rules: Rules) -> str | None:
    """An option claim: does the spec set the option to the rulebook's value? A spec that sets another value is a
    house rule only where it restates the claim with its own value."""
    figures = claim.figures
    if not isinstance(figures, OptionFigures):
        return None
    name, claimed = figures.name, _claimed(figures.value, rules)
    actual = option_value(rules, name)
    if actual != claimed:
        hint = " (a house spec restates this claim)" if not claim.restated else ""
        return f"the spec sets option {name} to {_shown(actual)}; {claim.whose} is {_shown(claimed)}{hint}"
    return None


def _claimed(value: OptionValue, rules: Rules) -> OptionValue:
    """A claim's value in the spec's terms: stacking ``by-value`` is the table of the spec's own draw cards."""
    if isinstance(value, dict) and STACKING_BY_VALUE in value:
        return {owed: frozenset(allowed) for owed, allowed in stacking_by_value(rules.spec.kinds) if allowed}
    return value


def _shown(value: Any) -> str:
    if isinstance(value, dict):
        return "; ".join(f"{' or '.join(sorted(allowed))} on {owed}" for owed, allowed in sorted(value.items())) or "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, frozenset):
        return "[" + ", ".join(sorted(value)) + "]"
    return str(value)


def option_violation(claim: Claim[OptionFigures], rules: Rules, previous: Before | None, engine: Engine, event: Any) -> str | None:
    """One step of a game that shows an option other than the claim's value: what the log a refutation comes with
    reaches (the finite check, ``option_problem``, is the proof). Each option has its own check (``OPTION_CHECKS``)."""
    figures = claim.figures
    if previous is None or not isinstance(figures, OptionFigures) or not engine.state.players:
        return None
    name, claimed = figures.name, _claimed(figures.value, rules)
    check = OPTION_CHECKS.get(name)
    return check(OptionStep(claim, rules, previous, engine, event, claimed)) if check is not None else None


@dataclass(frozen=True)
class OptionStep:
    """One step of a game, judged against the rulebook's value of an option (``claimed``)."""

    claim: Claim[OptionFigures]
    rules: Rules
    previous: Before
    engine: Engine
    event: Any
    claimed: Any

    @property
    def state(self) -> Any:
        return self.engine.state

    def play(self) -> tuple[int, str | None, bool] | None:
        """For a play made while the round goes on: the player's seat, the kind played, whether they owed a penalty."""
        state, event = self.state, self.event
        if not isinstance(event, ev.Play) or state.phase is not PLAYING:
            return None
        seat = state.seat[event.player]
        owed = any(p.player == seat for p in self.previous.penalties)
        return seat, played_kind(self.rules, event.card, self.previous.side), owed

    def probe(self, name: str) -> str | None:
        """What the engine accepts now of the plays the rulebook's jump-in or stacking allows or forbids."""
        state = self.state
        if state.phase is PLAYING and not isinstance(self.event, ev.Score):
            return _probe_option(name, self.claimed, state, self.engine, self.claim.whose)
        return None


def _target(step: OptionStep) -> str | None:
    state, claimed, whose = step.state, step.claimed, step.claim.whose
    if isinstance(claimed, int) and isinstance(step.event, ev.Play | ev.Draw | ev.Challenge | ev.Catch):
        top = max(state.totals, default=0)
        if state.phase is GAME_OVER and top < claimed:
            return f"the game ended with the best total {top}, under {whose} target {claimed}"
        if state.phase is ROUND_OVER and top >= claimed:
            return f"a player has {top} points, {whose} target is {claimed}, and the game goes on"
    return None


def _uno_catch_penalty(step: OptionStep) -> str | None:
    state, event = step.state, step.event
    caught = state.penalties[0] if isinstance(event, ev.Catch) and state.penalties and state.penalties[0].catch else None
    if caught is not None and caught.count != step.claimed:
        return f"{event.player} caught {event.target}: the catch costs {caught.count} cards, not {step.claimed}"
    return None


def _scoring(step: OptionStep) -> str | None:
    state, previous, claimed = step.state, step.previous, step.claimed
    ended = previous.phase is PLAYING and state.phase in (ROUND_OVER, GAME_OVER)  # this step ended the round
    if ended and previous.totals and state.last_result is not None:
        gained = [seat for seat, total in enumerate(state.totals) if total != previous.totals[seat]]
        winner = state.last_result.winner
        others_gain = any(state.players[seat] != winner for seat in gained)
        if others_gain != (claimed == Scoring.OWN_HAND_LOWEST_WINS):
            how = "each by their own hand" if others_gain else "by its winner alone"
            return f"round {state.last_result.number} is scored {how}; {step.claim.whose} scoring is {claimed}"
    return None


def _challenge_innocent_extra(step: OptionStep) -> str | None:
    state, event, first = step.state, step.event, step.previous.first
    if isinstance(event, ev.Challenge) and first is not None and not first[4] and state.penalties:
        penalty = state.penalties[0]
        extra = penalty.count - first[1] if first[2] is None else penalty.extra - first[3]
        if step.rules.spec.disputes.innocent.with_extra and extra != step.claimed:
            return f"{event.player}'s challenge failed: {extra} extra cards, not {step.claimed}"
    return None


def _two_player_reverse(step: OptionStep) -> str | None:
    state, played, claimed = step.state, step.play(), step.claimed
    if played is None or len(state.players) != 2:
        return None
    seat, kind, owed = played
    if kind is not None and _reverses(step.rules, kind) and not owed:
        skips = state.turn == seat
        if skips != (claimed == TwoPlayerReverse.SKIP):
            return (
                f"with two players {step.event.player}'s Reverse {'skips' if skips else 'passes the turn'}; {step.claim.whose} is {claimed}"
            )
    return None


def _jump_in(step: OptionStep) -> str | None:
    played, previous = step.play(), step.previous
    if played is not None and not _claimed_jump_in(step.claimed, step.state.top_face()):
        seat, _, owed = played
        if seat != previous.turn and not owed:
            implicit_pass = previous.drew and seat == (previous.turn + previous.direction) % len(step.state.players)
            if not implicit_pass:
                return f"{step.event.player} played out of turn (a jump-in), which the rulebook does not allow"
    return step.probe("jump-in")


def _claimed_jump_in(claimed: Any, top: Face | None) -> bool:
    """Whether the rulebook's value of jump-in lets a card identical to ``top`` be played out of turn."""
    if top is None or top.is_wild:
        return False
    return top.kind in claimed if isinstance(claimed, frozenset) else bool(claimed)


def _stacking(step: OptionStep) -> str | None:
    played, claimed = step.play(), step.claimed
    if played is not None and played[2]:
        kind = played[1]
        allowed = claimed.get(step.previous.penalties[0].stack_kind or "", frozenset()) if isinstance(claimed, dict) else frozenset()
        if kind not in allowed:
            return f"{step.event.player} owed a penalty and passed it on with a {kind}, which the rulebook does not allow"
    return step.probe("stacking")


def _hands_moved(number: int, name: str) -> Callable[[OptionStep], str | None]:
    """Seven swaps (``number`` 7) or zero rotates (0): whether the hands moved after that number is played."""

    def check(step: OptionStep) -> str | None:
        state, previous, played, event = step.state, step.previous, step.play(), step.event
        if played is None or not previous.hands or len(previous.hands) != len(state.players):
            return None
        face = played_face(step.rules, event.card, previous.side)
        if face is None or face.number != number or state.hand_sizes[played[0]] == 0:
            return None
        rearranged = tuple(id(hand) for hand in state.hands) != previous.hands
        happens = state.swap_by is not None if number == 7 else rearranged
        if happens != step.claimed:
            what = "a swap of hands" if number == 7 else "every hand passed on"
            follows = "follows" if happens else "does not follow"
            return f"{event.player} played {face.token}: {what} {follows}; {step.claim.whose} {name} is {_shown(step.claimed)}"
        return None

    return check


def _flip_colour_chooser(step: OptionStep) -> str | None:
    state, played, claimed, event, whose = step.state, step.play(), step.claimed, step.event, step.claim.whose
    if played is None:
        return None
    seat, kind = played[0], played[1]
    flipped = kind is not None and any(f.flip for f in step.rules.faces.values() if f.face.kind == kind)
    if flipped and state.colour is None and state.choose_by is None and claimed != FlipColourChooser.NOBODY:
        return f"after {event.player}'s Flip uncovered a wild, nobody names the colour; {whose} chooser is {claimed}"
    if flipped and state.choose_by is not None:
        expected = {FlipColourChooser.NEXT_PLAYER: state.turn, FlipColourChooser.PLAYER_WHO_FLIPPED: seat}.get(claimed)
        if state.choose_by != expected:
            who = state.players[state.choose_by]
            return f"after {event.player}'s Flip uncovered a wild, {who} names the colour; {whose} chooser is {claimed}"
    return None


def _draw_until_playable(step: OptionStep) -> str | None:
    state, event, claimed, engine = step.state, step.event, step.claimed, step.engine
    if not isinstance(event, ev.Draw) or step.previous.penalties:
        return None
    if not claimed and state.drawing:
        return f"{event.player} drew no playable card and must draw on, which the rulebook does not ask"
    drawn = state.drawn_card
    unplayable = drawn is not None and not engine.matches(drawn.faces[state.side])
    if claimed and unplayable and not state.drawing and engine.cards_remain():
        return f"{event.player} drew {drawn}, which cannot be played, and the draw is over; {step.claim.whose} draw goes on"
    return None


def _forced_play(step: OptionStep) -> str | None:
    """After a turn's draw of a card that can be played: whether the engine lets its drawer pass."""
    state, event, engine = step.state, step.event, step.engine
    if not isinstance(event, ev.Draw) or step.previous.penalties or not state.drew or state.drawing:
        return None
    drawn = state.drawn_card
    if drawn is None or drawn not in state.hands[state.turn] or not engine.matches(drawn.faces[state.side]):
        return None
    may_pass = engine.judge(ev.Pass(0, event.player)) is None
    if may_pass == bool(step.claimed):
        verb = "may" if may_pass else "may not"
        return (
            f"{event.player} drew {drawn}, which can be played, and {verb} pass; {step.claim.whose} forced-play is {_shown(step.claimed)}"
        )
    return None


def _doubles(step: OptionStep) -> str | None:
    """A play of several cards, or whether the engine takes two identical playable number cards of the turn player's
    hand as one play (``judge``: applied and undone)."""
    state, event, engine = step.state, step.event, step.engine
    if isinstance(event, ev.Play) and event.also and not step.claimed:
        return f"{event.player} played {1 + len(event.also)} cards at once; {step.claim.whose} doubles is {_shown(step.claimed)}"
    if state.phase is not PLAYING or state.penalties or state.choose_by is not None or state.due is not None or state.drawing or state.drew:
        return None
    seat, side = state.turn, state.side
    by_face: dict[Face, list[str]] = {}
    for card, count in sorted(state.hands[seat].items(), key=lambda item: item[0].token):
        face = card.faces[side]
        if face.face_class is FaceClass.NUMBER and engine.matches(face):
            by_face.setdefault(face, []).extend([card.token] * count)
    pair = next((tokens[:2] for tokens in by_face.values() if len(tokens) >= 2), None)
    if pair is None:
        return None
    name = state.players[seat]
    accepted = engine.judge(ev.Play(0, name, pair[0], None, (pair[1],))) is None
    if accepted != bool(step.claimed):
        verb = "may" if accepted else "may not"
        return f"{name} {verb} play {pair[0]} and {pair[1]} at once; {step.claim.whose} doubles is {_shown(step.claimed)}"
    return None


def _reshuffle(step: OptionStep) -> str | None:
    if isinstance(step.event, ev.Reshuffle):
        kept = len(step.state.discard_pile)
        if (kept == 1) != (step.claimed == Reshuffling.KEEP_TOP):
            return f"the reshuffle left {kept} cards on the discard pile; {step.claim.whose} reshuffle is {step.claimed}"
    return None


def _dealer_rotation(step: OptionStep) -> str | None:
    state, previous = step.state, step.previous
    if isinstance(step.event, ev.Dealer) and previous.dealer >= 0:
        expected = (previous.dealer + (1 if step.claimed == DealerRotation.LEFT else -1)) % len(state.players)
        if state.dealer != expected:
            names = state.players
            return f"{names[state.dealer]} deals, not {names[expected]}: {step.claim.whose} dealer rotation is {step.claimed}"
    return None


def _start_colour_chooser(step: OptionStep) -> str | None:
    state = step.state
    if isinstance(step.event, ev.Shuffle | ev.Start) and state.phase is PLAYING and state.choose_by is not None:
        expected = state.dealer if step.claimed == StartColourChooser.DEALER else (state.dealer + 1) % len(state.players)
        if state.choose_by != expected:
            return f"{state.players[state.choose_by]} names the colour of the wild turned up, not {state.players[expected]}"
    return None


# Each option's check on one step of a game (``option_violation``): an option not listed has none.
OPTION_CHECKS: dict[str, Callable[[OptionStep], str | None]] = {
    "target": _target,
    "uno-catch-penalty": _uno_catch_penalty,
    "scoring": _scoring,
    "challenge-innocent-extra": _challenge_innocent_extra,
    "two-player-reverse": _two_player_reverse,
    "jump-in": _jump_in,
    "stacking": _stacking,
    "seven-swaps": _hands_moved(7, "seven-swaps"),
    "zero-rotates": _hands_moved(0, "zero-rotates"),
    "flip-colour-chooser": _flip_colour_chooser,
    "draw-until-playable": _draw_until_playable,
    "forced-play": _forced_play,
    "doubles": _doubles,
    "reshuffle": _reshuffle,
    "dealer-rotation": _dealer_rotation,
    "start-colour-chooser": _start_colour_chooser,
}


def _probe_option(name: str, claimed: Any, state: Any, engine: Engine, whose: str) -> str | None:
    """Whether the engine, right now, accepts the plays the rulebook's value of jump-in or stacking allows or forbids:
    each candidate play is applied and undone (``snapshot``/``restore``), so a game shows a play the spec refuses."""
    names = state.players
    top = state.top_face()
    if top is None or state.choose_by is not None or state.swap_by is not None or state.drawing:
        return None
    candidates = _jump_ins(state, top, claimed) if name == "jump-in" else _stacks(state, claimed)
    for seat, card, allowed_by_rulebook in sorted(candidates, key=lambda item: (item[0], item[1].token)):
        face_rules = engine.rules.faces[card.faces[state.side]]
        colour = sorted(engine.rules.side_colours[state.side])[0] if face_rules.choose_colour else None
        accepted = engine.judge(ev.Play(0, names[seat], card.token, colour)) is None
        if accepted != allowed_by_rulebook:
            verb = "may" if accepted else "may not"
            what = "jump in with" if name == "jump-in" else "stack"
            return f"{names[seat]} {verb} {what} {card.token} here, which {whose} {name} {'forbids' if accepted else 'allows'}"
    return None


def _jump_ins(state: Any, top: Face, claimed: Any) -> list[tuple[int, Any, bool]]:
    """The jump-ins the seats could make now: (seat, card, whether the rulebook's value allows it)."""
    candidates: list[tuple[int, Any, bool]] = []
    if not state.penalties and not top.is_wild:
        for seat in range(len(state.players)):
            if seat != state.turn and not (state.drew and seat == state.next_player(state.turn)):
                candidates += [(seat, card, _claimed_jump_in(claimed, top)) for card in state.hands[seat] if card.faces[state.side] == top]
    return candidates


def _stacks(state: Any, claimed: Any) -> list[tuple[int, Any, bool]]:
    """The stacks the player owing a draw card's penalty could make now: (seat, card, whether the rulebook allows it)."""
    if not state.penalties or 0 in state.hand_sizes:
        return []
    penalty = state.penalties[0]
    if penalty.started or penalty.catch or penalty.ruled:  # only a draw card's penalty, none of it drawn
        return []
    owed_kind = state.discard_pile[-1].faces[state.side].kind
    table = claimed if isinstance(claimed, dict) else {}
    allowed = table.get(owed_kind, frozenset())
    stackers = {kind for kinds in table.values() for kind in kinds} | {owed_kind}
    return [
        (penalty.player, card, card.faces[state.side].kind in allowed)
        for card in state.hands[penalty.player]
        if card.faces[state.side].kind in stackers
    ]


def _reverses(rules: Rules, kind: str) -> bool:
    return any(face_rules.reverse for face_rules in rules.faces.values() if face_rules.face.kind == kind)


# An option no game of a spec can show: the faces it is about, as (what the faces are, the test of a face's rules).
_OPTION_FACES: dict[str, tuple[str, Callable[[FaceRules], bool]]] = {
    "flip-colour-chooser": ("a Flip", lambda face_rules: face_rules.flip),
    "zero-rotates": ("a 0", lambda face_rules: face_rules.face.number == 0),
    "seven-swaps": ("a 7", lambda face_rules: face_rules.face.number == 7),
}


def _option_written(claim: Claim[OptionFigures], rules: Rules, spec_path: str) -> Written:
    """For an option claim about faces the spec does not have (a Flip in classic UNO, a 0 in UNO Flip): no game can
    show the option at work, so the refutation is the state and the reason, not a log."""
    name = claim.figures.name if isinstance(claim.figures, OptionFigures) else ""
    if name not in _OPTION_FACES:
        return SEARCH
    what, has = _OPTION_FACES[name]
    if any(has(face_rules) for face_rules in rules.faces.values()):
        return SEARCH
    value = rules.spec.options.get(name)
    shown = str(value).lower() if isinstance(value, bool) else str(value)
    return True, (
        f"# refutation of {claim.id}: the spec sets option {name} to {shown}, not {claim.whose} value\n"
        f"# no game can show it: no face of this spec is {what}, so no state of any game differs by it;\n"
        f"# the state is the compiled rules themselves (referee rules --spec {rules.spec.path})\n"
    )


def restate(figures: OptionFigures, rules: Rules, players: tuple[int, ...]) -> OptionFigures | str:
    """The spec's own value of the option."""
    return OptionFigures(figures.name, option_value(rules, figures.name))


FORM = ClaimForm(
    ClaimFormName.OPTION,
    OptionFigures,
    finite(option_problem, "the spec's option has the rulebook's value"),
    option_violation,
    written=_option_written,
    read_back=restate,
)
