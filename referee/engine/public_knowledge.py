"""A public round's knowledge: nobody wrote down which cards were dealt or drawn (docs/log-format.md, "Public records").

Every card that leaves the draw pile unseen is an unknown (a batch of them per line), every play from a
hidden hand picks one card showing the face played, and every line that tells something of the unknowns
adds a fact (``referee.engine.hidden``) that ``referee.public.consistency`` later asks the solver about. Where
a line's meaning depends on an unknown card (a draw that may or may not end on a playable card, a challenge
of a hidden hand, the face a Flip uncovers), the replay takes one branch per way
(``EngineApi.decide``) and ``referee.public.rounds`` tries each.

Imported when a round is dealt ``public``: a log without one never loads it.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import TYPE_CHECKING

from referee.cards import Card
from referee.engine.hidden import (
    Batch,
    Fixed,
    Held,
    HiddenDeck,
    HiddenState,
    Pick,
    Put,
    Question,
    Refill,
    Same,
    Shown,
    hand_story,
    is_unseen,
    seen_card,
    term_add,
)
from referee.engine.legality import not_a_face
from referee.engine.reject import Reject
from referee.engine.state import OBSERVED, ROUND_OVER, DrawKind, Knowledge, ObservedKnowledge
from referee.rules import effects
from referee.spec.vocabulary import Check
from referee.verdicts import Code, RoundResult

if TYPE_CHECKING:
    from referee.engine.state import EngineApi, GameState, Penalty
    from referee.log import events as ev
    from referee.rules.compiler import FaceRules


def hidden_of(state: GameState) -> HiddenState:
    """The hidden cards of a state dealt in public mode (a public round's state always has them)."""
    hidden = state.hidden
    assert hidden is not None
    return hidden


class PublicKnowledge(ObservedKnowledge):
    """A public round (a ``public`` line): the hands and the draw pile are unknowns; draws are counts, plays faces."""

    def __init__(self) -> None:
        super().__init__("public")

    def hides_hands(self) -> bool:
        return True

    def bare_draw(self) -> None:
        raise Reject(Code.WRONG_DRAW, Check.DRAW_SOURCE, "cards remain to be drawn: a public round's draw gives its count ('P draws N')")

    def draw_count(self, engine: EngineApi, seat: int, event: ev.DrawCount) -> None:
        """``P draws N``: the same gates as a draw of named cards; the cards are unknowns."""
        state = engine.state
        hidden = hidden_of(state)
        kind = engine.draw_kind(seat, event.player, event.count)
        if kind is DrawKind.PENALTY:
            if hidden.ruling is not None:  # this draw shows the challenge's ruling
                hidden.add(dataclasses.replace(hidden.ruling, line=event.line))
                hidden.ruling = None
            _penalty_draw(engine, seat, event.count, event.line)
        elif kind is DrawKind.UNTIL_PLAYABLE:
            _draw_until_playable(engine, seat, event.count, event.line)
        else:
            engine.pile_has(1)
            engine.close_window()
            types = _forced_split(engine, hidden)
            hidden.drawn = draw_unseen(engine, seat, 1, types, event.line, "draw-source", f"{event.player} draws 1")
            state.drew = True
            state.drawn_card = None

    def drawn_playable(self, engine: EngineApi) -> bool | None:
        """The card drawn is hidden: whether it is playable is what this replay of the round took it to be."""
        state = engine.state
        return hidden_of(state).drawn_playable if state.drew else None

    def drawn_unknown(self, state: GameState) -> int | None:
        return hidden_of(state).drawn

    def play_from_hand(self, engine: EngineApi, seat: int, card: Card, line: int, same_as: int | None) -> None:
        """One card showing the face leaves the hidden hand (a pick), and goes on the discard pile."""
        state = engine.state
        hidden = hidden_of(state)
        face = card.faces[state.side]
        pick = engine.new_id()
        name = state.players[seat]
        hidden.add(Pick(pick, line, "in-hand", hidden.hand_terms(seat), hidden.deck.showing(face, state.side), f"{name} plays {face}"))
        if same_as is not None:
            hidden.add(Same(engine.new_id(), line, "drawn-card-only", pick, same_as, f"{name} plays the card just drawn"))
        term_add(hidden.hands[seat], pick, -1)
        state.hand_sizes[seat] -= 1
        hidden.discard.append(pick)

    def held_colour(self, engine: EngineApi, seat: int, line: int, colour: str | None) -> tuple[tuple[Card, ...], int]:
        """The hand is hidden: record the question whether its player held the colour in play (a challenge asks it)."""
        state = engine.state
        hidden = hidden_of(state)
        types = hidden.deck.where(state.side, lambda face: colour is not None and face.colour == colour)
        question = Question(line, state.players[seat], colour or "", hidden.hand_terms(seat), types)
        hidden.questions = (*hidden.questions, question)
        return (), len(hidden.questions) - 1

    def pass_hands(self, state: GameState, sources: list[tuple[int, int]]) -> None:
        hidden = hidden_of(state)
        terms = list(hidden.hands)
        for seat, source in sources:
            hidden.hands[seat] = terms[source]

    def shuffled_hands(self, state: GameState) -> tuple[str, ...]:
        return ()

    def shuffle_hands(self, engine: EngineApi, cards: list[Card], order: list[int], line: int) -> None:
        """The hands collected are a pile of their own (a ``Refill`` of their sums) and each seat of ``order`` is
        dealt its share of it unseen (a ``Batch`` from it); the draw pile is untouched."""
        if cards:
            raise Reject(Code.INVALID_SHUFFLE, Check.SHUFFLE_HANDS, "in a public round a shuffle of hands names no cards")
        state = engine.state
        hidden = hidden_of(state)
        collected: dict[int, int] = {}
        for hand in hidden.hands:
            for term, coef in hand.items():
                term_add(collected, term, coef)
        total = sum(state.hand_sizes)
        pool = engine.new_id()
        terms = tuple(sorted((term, coef) for term, coef in collected.items() if coef))
        hidden.add(Refill(pool, line, Check.SHUFFLE_HANDS, terms, (), "the hands collected by the shuffle"))
        players = state.player_count
        pile = pool
        for seat in order:
            size = effects.shuffle_share(seat, order[-1], total, total // players, players, effects.python_choice)
            hidden.hands[seat] = {}
            state.hand_sizes[seat] = 0
            if size:
                batch = engine.new_id()
                name = state.players[seat]
                hidden.add(Batch(batch, line, Check.SHUFFLE_HANDS, size, None, pile, seat, f"{name}'s hand dealt: {size} cards"))
                pile = batch
                term_add(hidden.hands[seat], batch, 1)
                state.hand_sizes[seat] = size

    def flip(self, engine: EngineApi, face_rules: FaceRules) -> None:
        """The unknowns of the discard pile turn with it; a card played from a hidden hand uncovers its other face."""
        state = engine.state
        hidden = hidden_of(state)
        effects.turn_over(hidden.discard, face_rules.flip_discard_pile)
        top = state.discard_pile[-1]
        if is_unseen(top.faces[state.side]):
            _uncover(engine, top)

    def reshuffle(self, engine: EngineApi, cards: list[Card], rest: list[Card], line: int) -> None:
        if cards:
            raise Reject(Code.INVALID_RESHUFFLE, Check.RESHUFFLE, "in a public round a reshuffle names no cards")
        state = engine.state
        hidden = hidden_of(state)
        beneath = hidden.discard[: len(rest)]
        refill = engine.new_id()
        terms = tuple((term, 1) for term in beneath if term is not None)
        known = tuple(hidden.deck.index[card] for card, term in zip(rest, beneath, strict=True) if term is None)
        hidden.add(Refill(refill, line, "reshuffle", terms, known, "the reshuffled draw pile"))
        hidden.pile = refill
        del hidden.discard[: len(rest)]
        state.observed_size = len(rest)

    def start(self, engine: EngineApi, card: Card, first: bool) -> None:
        state = engine.state
        if state.draw_pile_size() <= 0:
            raise Reject(Code.BAD_SETUP, Check.START_CARD, f"the start card {card} is not in the draw pile")
        index = hidden_of(state).deck.index[card]
        draw_unseen(engine, None, 1, (index,), engine.line, "start-card", f"the card turned up, {card}")

    def put_back(self, engine: EngineApi, card: Card) -> Card | None:
        state = engine.state
        hidden = hidden_of(state)
        back = engine.new_id()
        hidden.add(Put(back, engine.line, "start-again", hidden.deck.index[card], hidden.pile, f"{card} goes back into the draw pile"))
        hidden.pile = back
        state.observed_size += 1
        return None

    def next_round(self) -> Knowledge:
        return OBSERVED

    def turned_up(self, state: GameState) -> None:
        hidden_of(state).discard = [None]

    def rule_challenge(self, engine: EngineApi, penalty: Penalty, event: ev.Challenge) -> None:
        """The hands are hidden, so the record's next draw shows the ruling; each ruling is a branch, with the fact
        that the challenged hand held (or did not hold) the colour."""
        hidden = hidden_of(engine.state)
        guilty = engine.decide(2) == 0
        penalty.guilty = guilty
        question = hidden.questions[penalty.asked]
        what = f"{event.target} held {'a' if guilty else 'no'} {question.colour} card ({'guilty' if guilty else 'innocent'})"
        # the ruling is what the next draw line shows: the fact is that line's (draw_count)
        hidden.ruling = Held(engine.new_id(), event.line, "challenge", question.hand, question.types, guilty, what)
        questions = list(hidden.questions)
        questions[penalty.asked] = dataclasses.replace(question, challenge=event.line, guilty=guilty)
        hidden.questions = tuple(questions)

    def round_won(self, engine: EngineApi, winner: int) -> bool:
        """The round is scored once its hands are shown (``shows``)."""
        state = engine.state
        hidden = hidden_of(state)
        if hidden.winner is not None:
            return False
        hidden.winner = winner
        state.phase = ROUND_OVER
        engine.rounds[-1] = RoundResult(state.round_number, True, state.players[winner], engine.rules.spec.side_names[state.side])
        return True

    def shows_done(self, engine: EngineApi) -> None:
        state = engine.state
        hidden = hidden_of(state)
        if hidden.winner is None:
            return
        missing = [name for seat, name in enumerate(state.players) if seat != hidden.winner and seat not in hidden.shown]
        if missing:
            raise Reject(
                Code.MISSING_SHOWS,
                Check.SCORE,
                f"round {state.round_number} is public: show the hand of {' and '.join(missing)} first",
                tuple(f"shows {name}" for name in missing),
            )

    def shows(self, engine: EngineApi, seat: int, event: ev.Shows) -> tuple[int, list[int]] | None:
        """A hand at the round's end; once the last one is shown, the winner and each hand's points."""
        state = engine.state
        rules = engine.rules
        hidden = hidden_of(state)
        if hidden.winner is None:
            raise Reject(Code.BAD_SHOWS, Check.SCORE, f"round {state.round_number} is not over: hands are shown once it ends")
        if seat == hidden.winner:
            raise Reject(Code.BAD_SHOWS, Check.SCORE, f"{event.player} won the round and holds no card to show")
        if seat in hidden.shown:
            raise Reject(Code.BAD_SHOWS, Check.SCORE, f"{event.player}'s hand was already shown")
        side = state.side
        catalogue = rules.catalogue
        faces = []
        for token in event.faces:
            face = catalogue.faces[side].get(token)
            if face is None:
                if any(catalogue.face(token, other) for other in range(rules.spec.sides)):
                    side_name = rules.spec.side_names[side]
                    raise Reject(Code.BAD_SHOWS, Check.SCORE, f"{token} is not a face of the {side_name} side, the side in play")
                raise Reject(Code.UNKNOWN_CARD, Check.KNOWN_CARD, not_a_face(rules, token))
            faces.append(face)
        held = state.hand_sizes[seat]
        if len(faces) != held:  # a count the record fixes: inconsistent at this line, with the lines that fix it
            story = hand_story(hidden, seat, state.players)
            message = f"{event.player} holds {held} card{'' if held == 1 else 's'} ({story.text()}); {len(faces)} shown"
            raise Reject(Code.INCONSISTENT, Check.SCORE, message, reasons=story.lines)
        counts = Counter(faces)
        groups = tuple((hidden.deck.showing(face, side), counts.get(face, 0)) for face in catalogue.faces[side].values())
        hidden.add(Shown(engine.new_id(), event.line, "score", hidden.hand_terms(seat), groups, f"{event.player}'s hand shown"))
        hidden.shown[seat] = tuple(faces)
        if len(hidden.shown) < state.player_count - 1:
            return None
        points = [sum(rules.faces[face].points for face in hidden.shown.get(other, ())) for other in range(state.player_count)]
        return hidden.winner, points

    def card_in_hand(self, engine: EngineApi, token: str) -> Card | None:
        """The card a ``plays`` face stands for (whether the hand can hold it is a fact for
        ``referee.public.consistency``): the face's card in a game of one side, else a card of which only that face is
        known."""
        state = engine.state
        rules = engine.rules
        side = state.side
        face = rules.catalogue.faces[side].get(token)
        if face is None:
            names = rules.spec.side_names
            other = next((other for other in range(len(names)) if other != side and rules.catalogue.face(token, other)), None)
            if other is None:
                raise Reject(Code.UNKNOWN_CARD, Check.KNOWN_CARD, not_a_face(rules, token))
            raise Reject(Code.CARD_NOT_IN_HAND, Check.IN_HAND, f"{token} is a {names[other]} face; the {names[side]} side is in play")
        if rules.spec.sides == 1:
            return engine.card(token)
        return seen_card(face, rules.spec.sides)

    def cards_named(self, engine: EngineApi, token: str) -> list[Card] | None:
        state = engine.state
        face = engine.rules.catalogue.faces[state.side].get(token)
        seen = self.card_in_hand(engine, token) if face is not None else None
        return [seen] if seen is not None else []


PUBLIC = PublicKnowledge()


def deal_unseen(engine: EngineApi, line: int) -> None:
    """``public``: the hands are dealt unseen, a batch of unknown cards each, from the whole deck."""
    state = engine.state
    state.knowledge = PUBLIC
    deck = HiddenDeck.of(state.deck_counts)
    whole = engine.new_id()
    known = tuple(k for k, count in enumerate(deck.counts) for _ in range(count))
    hidden = HiddenState(deck, [{} for _ in state.players], [], whole)
    hidden.add(Refill(whole, line, "shuffle", (), known, "the deal, unseen, from the whole deck"))
    state.hidden = hidden
    state.observed_size = len(state.deck)
    hand_size = engine.rules.spec.hand_size
    for seat, name in enumerate(state.players):
        draw_unseen(engine, seat, hand_size, None, line, "hands", f"{name}'s hand dealt")
    state.hands_given = state.player_count


def draw_unseen(engine: EngineApi, seat: int | None, size: int, types: tuple[int, ...] | None, line: int, check: str, what: str) -> int:
    """``size`` cards leave the draw pile unseen, to ``seat``'s hand (None: onto no hand); ``types``: the kinds of
    physical card they may be (None: any)."""
    state = engine.state
    hidden = hidden_of(state)
    batch = engine.new_id()
    hidden.add(Batch(batch, line, check, size, types, hidden.pile, seat, what))
    hidden.pile = batch
    state.observed_size -= size
    if seat is not None:
        term_add(hidden.hands[seat], batch, 1)
        state.hand_sizes[seat] += size
    return batch


def _uncover(engine: EngineApi, top: Card) -> None:
    """A Flip uncovers the other face of a card played from a hidden hand: each face it can have is one branch of
    the replay (the record's next lines rule out the others)."""
    state = engine.state
    hidden = hidden_of(state)
    pick = hidden.discard[-1]
    assert pick is not None
    played = next(face for face in top.faces if not is_unseen(face))
    types = hidden.deck.showing(played, played.side)
    chosen = types[engine.decide(len(types))]
    card = hidden.deck.types[chosen]
    hidden.add(Fixed(engine.new_id(), engine.line, "match", pick, chosen, f"the card uncovered is {card}"))
    state.discard_pile[-1] = card


def _split_draw(engine: EngineApi, seat: int, count: int, ending: tuple[int, ...], line: int, check: str, what: str) -> bool:
    """``count`` hidden cards drawn until one of the types ``ending``: either the last of them is the first such
    card (True), or none is (False); the replay tries both."""
    others = tuple(k for k in range(len(hidden_of(engine.state).deck.types)) if k not in set(ending))
    if engine.last_cards(count):  # nothing is left after these: the draw ends either way, the last card is any
        if count > 1:
            draw_unseen(engine, seat, count - 1, others, line, check, f"{what}: the cards before the last")
        draw_unseen(engine, seat, 1, None, line, check, f"{what}: the last card there was")
        return True
    ends = engine.decide(2) == 0
    if ends:
        if count > 1:
            draw_unseen(engine, seat, count - 1, others, line, check, f"{what}: the cards before the last")
        draw_unseen(engine, seat, 1, ending, line, check, f"{what}: the last card")
    else:
        draw_unseen(engine, seat, count, others, line, check, f"{what}: none ends the draw")
    return ends


def _penalty_draw(engine: EngineApi, seat: int, count: int, line: int) -> None:
    """Draw ``count`` hidden cards of the penalties ``seat`` owes (ruling 17 and the penalty's kind)."""
    state = engine.state
    name = state.players[seat]
    while count > 0:
        if not state.penalties or state.penalties[0].player != seat:
            raise Reject(Code.BAD_PENALTY, Check.PENALTY, f"{name} drew more cards than the penalty ({count} too many)")
        penalty = state.penalties[0]
        engine.pile_has(1)
        room = state.draw_pile_size()
        penalty.started = True
        penalty.challengeable = False
        if penalty.into_discard:
            raise Reject(Code.WRONG_DRAW, Check.DRAW_SOURCE, "a penalty drawn into the discard pile is not judged in a public round")
        if penalty.count > 0:
            taken = min(count, penalty.count, room)
            draw_unseen(engine, seat, taken, None, line, "penalty", f"{name} draws {taken} of a penalty")
            penalty.count -= taken
        elif penalty.until_colour is not None:
            taken, settled = _until_colour(engine, seat, penalty, min(count, room), line)
            if settled:
                count -= taken
                continue
        else:
            taken = min(count, penalty.extra, room)
            draw_unseen(engine, seat, taken, None, line, "penalty", f"{name} draws {taken} more")
            penalty.extra -= taken
        count -= taken
        _paid(engine, penalty)


def _until_colour(engine: EngineApi, seat: int, penalty: Penalty, taken: int, line: int) -> tuple[int, bool]:
    """Up to ``taken`` hidden cards of a penalty drawn until a colour: where the first card of the colour is among them
    (the rest are the extra cards), or nowhere. How many were drawn, and whether the penalty was settled here (nothing
    was left to draw)."""
    state = engine.state
    hidden = hidden_of(state)
    name = state.players[seat]
    colour = penalty.until_colour
    ending = hidden.deck.where(state.side, lambda face, colour=colour: face.colour == colour)
    others = tuple(k for k in range(len(hidden.deck.types)) if k not in set(ending))
    places = [place for place in range(taken, 0, -1) if taken - place <= penalty.extra]
    what = f"{name} draws until a {colour} card"
    if not penalty.extra and engine.last_cards(taken):  # the penalty ends either way: the last card is any
        if taken > 1:
            draw_unseen(engine, seat, taken - 1, others, line, "penalty", f"{what}: the cards before the last")
        draw_unseen(engine, seat, 1, None, line, "penalty", f"{what}: the last card there was")
        penalty.until_colour = None
        _paid(engine, penalty)
        return taken, True
    choice = engine.decide(len(places) + 1)
    if choice < len(places):
        taken = places[choice]
        if taken > 1:
            draw_unseen(engine, seat, taken - 1, others, line, "penalty", f"{what}: the cards before it")
        draw_unseen(engine, seat, 1, ending, line, "penalty", f"{what}: the {colour} card")
        penalty.until_colour = None
    else:
        draw_unseen(engine, seat, taken, others, line, "penalty", f"{what}: none of the colour")
    return taken, False


def _paid(engine: EngineApi, penalty: Penalty) -> None:
    """After a part of a penalty is drawn: a penalty paid leaves the queue, and what can no longer be drawn is dropped."""
    state = engine.state
    if not penalty.owed:
        state.penalties.pop(0)
        engine.penalty_ends(penalty)
    engine.settle()


def _forced_split(engine: EngineApi, hidden: HiddenState) -> tuple[int, ...] | None:
    """A turn's one-card draw under forced play: the replay follows both answers to whether the card drawn can be
    played (the next line rules one out: a pass, or a play of it); the types the card may be in this replay, or None
    (any) without forced play."""
    if not engine.rules.forced_play:
        hidden.drawn_playable = None
        return None
    playable = hidden.deck.where(engine.state.side, engine.matches)
    hidden.drawn_playable = engine.decide(2) == 0
    if hidden.drawn_playable:
        return playable
    chosen = set(playable)
    return tuple(k for k in range(len(hidden.deck.types)) if k not in chosen)


def _draw_until_playable(engine: EngineApi, seat: int, count: int, line: int) -> None:
    """Draw until playable with hidden cards: the line's last card is the first playable one, or none is."""
    state = engine.state
    hidden = hidden_of(state)
    name = state.players[seat]
    if state.drew and not state.drawing:
        if hidden.drawn is not None:
            raise Reject(Code.DRAW_TOO_MANY, Check.DRAW_UNTIL_PLAYABLE, f"{name} already drew a playable card: play it or pass")
        raise Reject(Code.WRONG_DRAW, Check.TURN_DRAW, f"{name} already drew this turn and nothing is left to draw: pass")
    engine.pile_has(count)
    engine.close_window()
    playable = hidden.deck.where(state.side, engine.matches)
    ends = _split_draw(engine, seat, count, playable, line, "draw-until-playable", f"{name} draws until playable")
    state.drew = True
    state.drawn_card = None
    hidden.drawn = hidden.pile if ends else None
    hidden.drawn_playable = ends if engine.rules.forced_play else None  # the draw stops at the first playable card
    state.drawing = not ends and engine.cards_remain()
