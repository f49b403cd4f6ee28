"""Legality: whether a card matches, which card a token names, whose turn it is.

Part of the engine (``referee.engine.engine``): these checks read the state and the
compiled rules and raise ``Reject`` with a stable code and the check whose
rule the diagnostic cites; the only change any of them makes is
``turn_gate``'s, which ends a turn whose draw was the last move (the next
player moving is what ends it, rule turn.draw). ``referee.engine.moves`` builds the
legal moves from the same ``matches``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from referee.cards import Card, Face, FaceClass
from referee.engine.reject import Reject
from referee.engine.state import ROUND_OVER, GameState, Penalty
from referee.rules.compiler import Rules
from referee.spec.vocabulary import Check
from referee.verdicts import Code

if TYPE_CHECKING:
    from referee.engine.state import EngineApi  # the engine as its parts see it: they never import referee.engine.engine


def matches(state: GameState, rules: Rules, face: Face) -> bool:
    """Whether ``face`` may be played on the top card (rule play.match): the spec's ``matching`` section."""
    return match_test(state, rules)(face)


def match_test(state: GameState, rules: Rules) -> Callable[[Face], bool]:
    """``matches`` for the state as it is now, with what the top card and the spec say read once: a hand's cards are
    tested in a row (``legal_moves``)."""
    matching = rules.spec.matching
    wild_always, same_colour, same_number = matching.wild_always, matching.same_colour, matching.same_number
    same_action_kind = matching.same_action_kind
    colour = state.colour
    top = state.top_face()
    number = top.number if top is not None else None
    action_kind = top.kind if top is not None and top.face_class is FaceClass.ACTION else None

    def test(face: Face) -> bool:
        if face.is_wild:
            return wild_always
        if same_colour and face.colour == colour:
            return True
        if top is None:
            return False
        if same_number and face.number is not None and face.number == number:
            return True
        return same_action_kind and action_kind is not None and face.face_class is FaceClass.ACTION and face.kind == action_kind

    return test


def not_in_play(state: GameState) -> None:
    """Plays, draws and passes need a round in play (replay never gets here before the deal; ``explain --move`` may)."""
    if state.phase is ROUND_OVER:
        raise Reject(Code.OUT_OF_TURN, Check.ROUND_OVER, f"round {state.round_number} is over")
    raise Reject(Code.OUT_OF_TURN, Check.TURN, "no round is in play: the cards are not dealt yet")


def turn_gate(state: GameState, seat: int) -> None:
    """``seat`` must hold the turn; a player who drew and did not play passes when the next player moves."""
    if state.turn != seat and state.drew:
        state.turn = state.next_player(state.turn)
        state.turn_rule = None
        state.drew = False
        state.drawn_card = None
    if state.turn != seat:
        name, holder = state.players[seat], state.players[state.turn]
        raise Reject(Code.OUT_OF_TURN, Check.TURN, f"{name} acted out of turn: it is {holder}'s turn", (holder,))


def turn_of(engine: EngineApi, seat: int) -> None:
    """``seat`` must hold the turn (``turn_gate``); a move by another player ends the turn of a player who drew, which
    forced play may forbid (``forced_play``)."""
    if seat != engine.state.turn:
        forced_play(engine, seat)
    turn_gate(engine.state, seat)


def forced_play(engine: EngineApi, seat: int) -> None:
    """Forced play (house rule): a card drawn for the turn that can be played is played before the turn ends, by a
    pass or by another player's move (``seat``'s), a jump-in included (must-play-drawn)."""
    state = engine.state
    if not engine.rules.forced_play or not state.drew or state.drawing or state.knowledge.drawn_playable(engine) is not True:
        return
    name = state.players[state.turn]
    drawn = state.drawn_card
    ends = "passing" if seat == state.turn else f"{state.players[seat]}'s move"
    what = f"drew {drawn}, which can be played" if drawn is not None else "drew a card that can be played"
    raise Reject(
        Code.MUST_PLAY_DRAWN,
        Check.FORCED_PLAY,
        f"{name} {what}: under forced play {name} must play it, not end the turn by {ends}",
        (drawn.token,) if drawn is not None else (),
    )


def must_not_choose(state: GameState, seat: int, *, play: bool = False) -> None:
    """Nothing but the colour choice while a colour is to be named (rule choose)."""
    if state.choose_by is None:
        return
    name = state.players[seat]
    if state.choose_by == seat:
        hint = f" ('{name} chooses COLOUR')" if play else ""
        raise Reject(Code.BAD_COLOUR, Check.CHOOSE, f"{name} must choose the colour first{hint}")
    raise Reject(Code.OUT_OF_TURN, Check.TURN, f"{state.players[state.choose_by]} must choose the colour first")


def no_catch_owed(state: GameState) -> None:
    """An UNO catch's penalty is drawn before anything else is said or chosen."""
    penalties = state.penalties
    if penalties and penalties[0].catch:
        catch = penalties[0]
        name = state.players[catch.player]
        raise Reject(Code.BAD_PENALTY, Check.PENALTY, f"{name} must first draw {catch.describe()} for the UNO catch")


def why_unknown(rules: Rules, token: str) -> str:
    """Why ``token`` names no card of this game, in the spec's own side names, with the nearest face if one is near."""
    catalogue = rules.catalogue
    names = rules.spec.side_names
    if token.isdigit():  # 'Bob draws 6' outside a public round
        return f"a count of cards ('draws {token}') is written only in a public round (after a 'public' line); here name each card drawn"
    if len(names) == 1:
        if "/" in token:
            return "a card of this game is written as its face (red-7)"
        return f"'{token}' is not a face of this game{nearest_face(rules, token, 0)}"
    light, _, dark = token.partition("/")
    if catalogue.face(light, 0) is None:
        if catalogue.face(light, 1) is not None:
            return f"'{light}' is not a {names[0]} face (it is a {names[1]} face)"
        return f"'{light}' is not a {names[0]} face{nearest_face(rules, light, 0)}"
    if catalogue.face(dark, 1) is None and catalogue.face(dark, 0) is not None:
        return f"'{dark}' is not a {names[1]} face (it is a {names[0]} face)"
    return f"'{dark}' is not a {names[1]} face{nearest_face(rules, dark, 1)}"


def nearest_face(rules: Rules, token: str, side: int | None) -> str:
    """`` (did you mean 'X'?)`` with the face of ``side`` (None: of any side) nearest to a mistyped ``token`` (``_``
    read as ``-``)."""
    from referee.errors import did_you_mean

    faces = {face.token for face in rules.faces if side is None or face.side == side}
    fixed = token.replace("_", "-").lower()
    if fixed in faces:
        return f" (did you mean '{fixed}'?)"
    return did_you_mean(fixed, faces, 3)


def pairing(rules: Rules, deck: object, token: str) -> str:
    """What the light face of a physical card that is not in this deck is paired with here: ``; red-1 is red-1/pink-3
    or red-1/purple-2 here`` (the UNO Flip deck pairs each light face with one or two dark faces)."""
    light = token.partition("/")[0]
    cards = sorted({card.token for card in deck if card.token.partition("/")[0] == light})  # type: ignore[attr-defined]
    if not cards:
        return ""
    return f"; {light} is {' or '.join(cards)} here"


def any_side(rules: Rules) -> str:
    return "either side" if rules.spec.sides == 2 else "this game"


def not_a_face(rules: Rules, token: str) -> str:
    """The message for a face that no side has, with the nearest face of any side."""
    return f"'{token}' is not a face of {any_side(rules)}{nearest_face(rules, token, None)}"


def resolve_in_hand(engine: EngineApi, seat: int, token: str) -> Card:
    """The physical card a ``plays`` token names in ``seat``'s hand; ``Reject`` (card-not-in-hand, ambiguous-card,
    unknown-card) when it names none, or more than one."""
    state = engine.state
    hand = state.hands[seat]
    seen = state.knowledge.card_in_hand(engine, token)
    if seen is not None:  # the hands are hidden (a public round)
        return seen
    if "/" in token:
        card = engine.card(token)
        if hand.get(card, 0) <= 0:
            raise Reject(Code.CARD_NOT_IN_HAND, Check.IN_HAND, f"{state.players[seat]} does not hold {card}")
        return card
    rules = engine.rules
    catalogue = rules.catalogue
    side = state.side
    face = catalogue.faces[side].get(token)
    if face is not None:
        found = [card for card in hand if card.faces[side] is face]
        if len(found) == 1:
            return found[0]
    if face is None:
        names = rules.spec.side_names
        other = next((other for other in range(len(names)) if other != side and catalogue.face(token, other)), None)
        if other is None:
            raise Reject(Code.UNKNOWN_CARD, Check.KNOWN_CARD, not_a_face(rules, token))
        raise Reject(Code.CARD_NOT_IN_HAND, Check.IN_HAND, f"{token} is a {names[other]} face; the {names[side]} side is in play")
    found = [card for card in hand if card.faces[side] == face]
    if not found:
        raise Reject(Code.CARD_NOT_IN_HAND, Check.IN_HAND, f"{state.players[seat]} holds no {face}")
    if len(found) > 1:
        tokens = tuple(sorted(c.token for c in found))
        raise Reject(Code.AMBIGUOUS_CARD, Check.AMBIGUOUS, f"{face} could be {' or '.join(tokens)}: write the physical card", tokens)
    return found[0]


def doubles(engine: EngineApi, seat: int, card: Card, tokens: tuple[str, ...]) -> tuple[Card, ...]:
    """The cards a play under the house rule doubles puts down with ``card`` (``P plays CARD CARD ...``, ruling 29):
    number cards identical to it on the side in play, held with it; ``Reject`` when they are not."""
    state = engine.state
    side = state.side
    face = card.faces[side]
    name = state.players[seat]
    if face.face_class is not FaceClass.NUMBER:
        raise Reject(Code.ILLEGAL_PLAY, Check.DOUBLES, f"only number cards are played together: {face} is played alone")
    cards = []
    for token in tokens:
        other = resolve_in_hand(engine, seat, token)
        if other.faces[side] != face:
            raise Reject(Code.ILLEGAL_PLAY, Check.DOUBLES, f"{other.faces[side]} is not {face}: the cards played together are identical")
        cards.append(other)
    count = 1 + len(cards)
    if state.hand_sizes[seat] < count:
        raise Reject(Code.CARD_NOT_IN_HAND, Check.IN_HAND, f"{name} holds {state.hand_sizes[seat]} cards, not the {count} played")
    if not state.knowledge.hides_hands():
        for held in {card, *cards}:
            wanted = (card, *cards).count(held)
            if state.hands[seat].get(held, 0) < wanted:
                raise Reject(Code.CARD_NOT_IN_HAND, Check.IN_HAND, f"{name} holds {state.hands[seat].get(held, 0)} {held}, not {wanted}")
    return tuple(cards)


def named_in_hand(engine: EngineApi, seat: int, token: str) -> list[Card]:
    """The distinct cards of ``seat``'s hand that a ``plays`` token names (a face: every card showing it on the side in
    play; a physical card: itself), without judging which one is meant."""
    state = engine.state
    hand = state.hands[seat]
    named = state.knowledge.cards_named(engine, token)
    if named is not None:  # the hands are hidden (a public round)
        return named
    if "/" in token:
        card = engine.rules.catalogue.card(token)
        return [card] if card is not None and hand.get(card, 0) > 0 else []
    face = engine.rules.catalogue.faces[state.side].get(token)
    if face is None:
        return []
    return [card for card in hand if card.faces[state.side] == face]


def stacking(engine: EngineApi, seat: int, token: str, penalty: Penalty) -> Penalty | None:
    """The owed penalty, when the house rule stacking lets this play pass it on: the penalty is from a draw card (not a
    catch, not a challenge's ruling), none of it drawn, nobody has gone out, and a card the token names in the hand
    is of a kind the option lets go on the penalty's kind."""
    state = engine.state
    table = engine.rules.stacking
    if not table or penalty.started or penalty.catch or penalty.stack_kind is None or 0 in state.hand_sizes:
        return None
    allowed = table.get(penalty.stack_kind, frozenset())
    side = state.side
    if any(card.faces[side].kind in allowed for card in named_in_hand(engine, seat, token)):
        return penalty
    return None


def may_jump_in_on(rules: Rules, top: Face | None) -> bool:
    """Whether a card identical to ``top`` may be played out of turn (house rule jump-in): never on a wild, and under a
    jump-in limited to kinds only on a face of one of them."""
    if top is None or top.is_wild:
        return False
    return rules.jump_in_kinds is None or top.kind in rules.jump_in_kinds


def jumps_in(engine: EngineApi, seat: int, token: str) -> bool:
    """Whether a play out of turn is a jump-in (house rule jump-in): the player holds a card the token names whose face
    is the top card's, on which a jump-in may be made (``may_jump_in_on``). The caller has checked the format's gates
    (no penalty owed, no colour to choose, no swap due, no draw going on)."""
    state = engine.state
    top = state.top_face()
    if top is None or not may_jump_in_on(engine.rules, top):
        return False
    return any(card.faces[state.side] == top for card in named_in_hand(engine, seat, token))
