"""The ``play`` claim form: what follows a card of a kind played (who moves, which way, which side, what is owed,
where the colour comes from), asked of the Z3 transition relation for every player count it concerns."""

from __future__ import annotations

import dataclasses
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from referee.engine.engine import PLAYING, Engine
from referee.log import events as ev
from referee.proof.answers import Status
from referee.proof.claims.answering import card, owes
from referee.proof.claims.claim import Answered, Claim, ClaimForm, kind_of
from referee.proof.claims.figures import (
    UNTIL_COLOUR,
    ClaimReader,
    ColourFrom,
    Direction,
    Figures,
    Owes,
    Side,
    Unreadable,
    one,
    without_defaults,
)
from referee.proof.claims.steps import Before, compare_after, played_kind
from referee.proof.faces import faces_of
from referee.records import dataclass
from referee.rules import effects
from referee.rules.compiler import FaceRules, Rules
from referee.spec.loader import Mapping
from referee.spec.vocabulary import ClaimFormName

if TYPE_CHECKING:
    import z3


class PlayerCount(StrEnum):
    """The player counts a play claim speaks of (a Reverse with two players, say)."""

    ANY = "any"
    TWO = "2"
    THREE_OR_MORE = "3+"

    def concerns(self, n: int) -> bool:
        return self is PlayerCount.ANY or (self is PlayerCount.TWO and n == 2) or (self is PlayerCount.THREE_OR_MORE and n >= 3)


PLAY_KEYS = frozenset({"kind", "players", "next", "direction", "side", "owes", "colour", "restricted", "challengeable"})


@dataclass(frozen=True, slots=True)
class PlayFigures(Figures):
    """``play``: after a card of ``kind`` is played, who moves (``next`` seats on), which way, which side is up,
    what the next player owes, where the colour comes from, and whether the card is restricted and challengeable."""

    kind: str
    next: int
    colour: ColourFrom
    players: PlayerCount = PlayerCount.ANY  # the player counts the claim speaks of
    direction: Direction = Direction.SAME
    side: Side = Side.SAME
    owes: Owes = 0
    restricted: bool = False
    challengeable: bool = False

    @classmethod
    def read(cls, reader: ClaimReader, node: Mapping) -> PlayFigures:
        where, entries = node.position, node.entries
        reader.keys(node, PLAY_KEYS, {"kind", "next", "colour"}, "a play claim")
        kind = reader.scalar(entries.get("kind"), "kind", where)
        players = reader.member(entries.get("players"), "players", where, PlayerCount, PlayerCount.ANY)
        following = reader.whole_number(entries.get("next"), "next", where)
        direction = reader.member(entries.get("direction"), "direction", where, Direction, Direction.SAME)
        side = reader.member(entries.get("side"), "side", where, Side, Side.SAME)
        owes = reader.count(entries.get("owes"), "owes", where, (UNTIL_COLOUR,)) if "owes" in entries else 0
        colour = reader.member(entries.get("colour"), "colour", where, ColourFrom)
        restricted = reader.true_false(entries.get("restricted"), "restricted", where)
        challengeable = reader.true_false(entries.get("challengeable"), "challengeable", where)
        return cls(kind, following, colour, players, direction, side, owes, restricted, challengeable)

    def counts(self, players: tuple[int, ...]) -> tuple[int, ...]:
        """The player counts of ``players`` the claim speaks of."""
        return tuple(n for n in players if self.players.concerns(n))

    def by_key(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "players": self.players,
            "next": self.next,
            "direction": self.direction,
            "side": self.side,
            "owes": self.owes,
            "colour": self.colour,
            "restricted": self.restricted,
            "challengeable": self.challengeable,
        }

    def written(self) -> dict[str, Any]:
        return without_defaults(self.by_key())


def restriction_problem(claim: Claim[PlayFigures], rules: Rules) -> str | None:
    """A play claim's restriction: legal only without the colour in play (else a bluff), and open to a challenge."""
    figures = claim.figures
    for face_rules in faces_of(rules, figures.kind):
        token = face_rules.face.token
        if face_rules.restricted != figures.restricted:
            allowed = "only while holding no card of the colour in play" if figures.restricted else "at any time"
            return f"{token} should be playable {allowed}; the spec says otherwise"
        if face_rules.challengeable != figures.challengeable:
            return f"{token} should {'' if figures.challengeable else 'not '}be open to a challenge; the spec says otherwise"
    return None


def counts_for(claim: Claim[PlayFigures], players: tuple[int, ...]) -> tuple[int, ...]:
    """The player counts of ``players`` a play claim speaks of (two players, or three and more, or any)."""
    return claim.figures.counts(players)


def play_question(claim: Claim[PlayFigures], rules: Rules, n: int, timeout_ms: int) -> list[z3.Solver]:
    """For each face of the kind: is there a play of it whose outcome differs from the claim? (sat: refuted)"""
    import z3

    from referee.proof.model import Model, State, solver

    figures = claim.figures
    model = Model(rules, n, len(rules.deck))
    questions = []
    for face_rules in faces_of(rules, figures.kind):
        pre, post = State.make(n, "pre"), State.make(n, "post")
        seat, chosen, uncovered, face_colour = z3.Ints("seat chosen uncovered face_colour")
        moved = z3.Bool("moved")
        step = model.play(pre, post, seat, face_rules, face_colour, chosen, uncovered, moved)
        direction = pre.direction if figures.direction is Direction.SAME else -pre.direction
        side = pre.side if figures.side is Side.SAME else 1 - pre.side
        expected = [
            post.direction == direction,
            post.side == side,
            post.turn == model.next_seat(seat, direction, figures.next),
            owes(post, model, model.next_seat(seat, direction, 1), figures.owes),
        ]
        if figures.colour is ColourFrom.CARD:
            expected += [post.colour == face_colour, z3.Not(post.pending)]
        elif figures.colour is ColourFrom.CHOSEN:
            expected += [post.colour == chosen, z3.Not(post.pending)]
        else:
            expected += [z3.Or(post.pending, model.in_side(post.colour, post.side))]
        check = solver(timeout_ms)
        goes_on = post.hand(seat) >= 1  # the claims speak of a round that goes on (a last card ends it)
        plain = pre.owed_seat != seat  # the claim speaks of a plain play, not of one stacked on a penalty (option stacking)
        check.add(model.conservation(pre), model.turn_valid(pre), step, goes_on, plain, z3.Not(z3.And(*expected)))
        questions.append(check)
    return questions


def _play_step(claim: Claim[PlayFigures], rules: Rules, previous: Before | None, engine: Engine, event: Any) -> str | None:
    state, figures, n = engine.state, claim.figures, len(engine.state.players)
    if isinstance(event, ev.Play) and previous is not None and state.phase is PLAYING:
        if played_kind(rules, event.card, previous.side) != figures.kind:
            return None
        problem = restriction_problem(claim, rules)
        if problem:
            return f"{event.player} played it: {problem}"
        if not figures.players.concerns(n):
            return None
        seat = state.seat[event.player]
        direction = previous.direction if figures.direction is Direction.SAME else -previous.direction
        expected_turn = (seat + direction * figures.next) % n
        if any(p.player == seat for p in previous.penalties):  # a stacked play: the claim speaks of a plain play
            return None
        return compare_after(
            figures, state, expected_turn, previous.direction, previous.side, f"{event.player}'s {figures.kind}", rules.spec.side_names
        )
    return None


def _restricted(claim: Claim[PlayFigures], rules: Rules, counts: tuple[int, ...], timeout_ms: int) -> Answered | None:
    problem = restriction_problem(claim, rules)
    return (Status.REFUTED, list(counts), problem) if problem else None


def _withdrawn_play(claim: Claim[PlayFigures], rules: Rules, players: tuple[int, ...], timeout_ms: int) -> Answered:
    why = f"withdrawn by the spec ({claim.withdrawn})"
    kind = kind_of(claim)
    if not faces_of(rules, kind):
        return Status.PROVED, [], f"{why}: the spec has no face of kind {kind}"
    counts = counts_for(claim, players)
    if not counts:
        return Status.PROVED, [], f"{why}: no player count of the spec's range is concerned"
    return Status.REFUTED, list(counts), f"{why}, but a {kind} is still played: restate the claim instead"


def restate(figures: PlayFigures, rules: Rules, players: tuple[int, ...]) -> PlayFigures | str:
    """What a card of the kind does under the spec, when every face of it does the same."""
    kind = figures.kind
    faces = faces_of(rules, kind)
    counts = figures.counts(players)
    if not faces or not counts:
        return f"no face of kind {kind} is played under the spec"
    try:
        return one([_play_of(figures, face, rules, counts) for face in faces], kind)
    except Unreadable as why:
        return str(why)


def _play_of(figures: PlayFigures, face: FaceRules, rules: Rules, counts: tuple[int, ...]) -> PlayFigures:
    n = max(counts)  # an offset below every count reads the same at each: the largest is unambiguous
    nexts = set()
    for count in counts:
        effect = effects.play(face, 0, 1, count, rules.two_player_reverse_skips)
        nexts.add((effect.following * effect.direction) % count)
    effect = effects.play(face, 0, 1, n, rules.two_player_reverse_skips)
    following = (effect.following * effect.direction) % n
    if len(nexts) != 1 and following not in nexts:
        raise Unreadable("the seat that moves next differs between player counts")
    return dataclasses.replace(
        figures,
        next=following,
        direction=Direction.REVERSED if effect.direction == -1 else Direction.SAME,
        side=Side.FLIPPED if face.flip else Side.SAME,
        owes=UNTIL_COLOUR if face.draw_until_colour else face.draw,
        colour=ColourFrom.CHOSEN if face.choose_colour else ColourFrom.UNCOVERED if face.flip else ColourFrom.CARD,
        restricted=face.restricted,
        challengeable=face.challengeable,
    )


FORM = ClaimForm(
    ClaimFormName.PLAY,
    PlayFigures,
    card(play_question, _restricted, counts_for),
    _play_step,
    _withdrawn_play,
    read_back=restate,
)
