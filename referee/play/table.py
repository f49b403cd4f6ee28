"""A hosted game: who decides next, and the table's own moves.

``Game`` lists every legal move of every player at once (a catch is anyone's,
a jump-in anyone's who holds the twin). A host has to ask one player at a
time, so ``Table`` turns the game into a sequence of decisions:

- the table makes its own moves itself: a reshuffle when the draw pile is
  empty, each player's score claim once a round is over, and the next round's
  deal (the dealer moves on as the spec says; the cards come from the table's
  seeded shuffle);
- while a round is played, each player who may act out of turn (an UNO call,
  a catch, a jump-in) is asked once, in the order ``legal_moves()`` lists
  them, and may ``wait``; then the player who must act (``Game.turn``) is
  asked, and must move. Any move made starts the asking again. After a turn's
  draw, the next player is not asked out of turn: the drawer plays or passes
  first.

The environment (``referee.play.env``) and the match host (``referee.play.host``) both
play through a ``Table``, so they ask the same questions in the same order.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from referee.engine.moves import Move
from referee.log import events as ev
from referee.play.game import Game
from referee.records import dataclass
from referee.rules.compiler import Rules

# The verbs the table asks about, as plain strings (compiled code compares them on every decision).
_PASSES: Final = ev.Verb.PASSES.value
_DRAWS: Final = ev.Verb.DRAWS.value
_CALLS_OR_CATCHES: Final = (ev.Verb.CALLS.value, ev.Verb.CATCHES.value)


@dataclass(frozen=True, slots=True)
class Decision:
    """One player's turn to answer: the moves they may make now, and whether they may ``wait`` instead (an out-of-turn
    chance: a call, a catch, a jump-in)."""

    player: str
    moves: tuple[Move, ...]
    optional: bool

    def __reduce__(self) -> tuple[type[Decision], tuple[str, tuple[Move, ...], bool]]:
        """Pickled as a constructor call, as every compiled record is (``setup.py``)."""
        return (Decision, (self.player, self.moves, self.optional))


@dataclass(frozen=True, slots=True)
class RoundEnd:
    """A round as it ended, for every seat to hear (the match host's ``round-over`` message): who won it, the points
    the winner scored, every total after it, and each hand as shown (the faces on the side in play)."""

    round: int
    winner: str | None
    points: int
    scores: dict[str, int]
    shown: dict[str, tuple[str, ...]]

    def __reduce__(self) -> tuple[type[RoundEnd], tuple[object, ...]]:
        return (RoundEnd, (self.round, self.winner, self.points, self.scores, self.shown))

    def to_json(self) -> dict[str, object]:
        return {
            "round": self.round,
            "winner": self.winner,
            "points": self.points,
            "scores": dict(self.scores),
            "shown": {name: list(faces) for name, faces in self.shown.items()},
        }


class Table:
    """One game hosted from its deal to its end, one decision at a time (see the module's docstring)."""

    def __init__(
        self,
        spec: str | Path | Rules | None,
        players: Sequence[str],
        seed: int,
        dealer: str | None = None,
        target: int | None = None,
        spec_line: str | None = None,
        game: Game | None = None,
    ) -> None:
        self.random = random.Random(seed)
        if game is None:
            game = Game.new(spec, players, dealer=dealer, seed=self.random.randrange(2**32), target=target, spec_line=spec_line)
        self.game = game  # a game given is one already under way (a table unpickled)
        self.game.undo_limit = 0  # the table never pops: no state kept per move, so a long game's memory stays small
        self.moves = 0  # moves made by players (not the table's own)
        self.winners: list[str | None] = []  # each round's winner, as rounds end
        self.ended: list[RoundEnd] = []  # each round as it ended, in order (a host tells its seats)
        self._asked: set[str] = set()
        self._scored = False
        self._decision: Decision | None = None

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickled as its game, its random state and what it has told (the compiled class pickles no other way)."""
        return (_restored, (self.game, self.random.getstate(), self.moves, self.winners, self.ended, sorted(self._asked), self._scored))

    def decision(self) -> Decision | None:
        """Who answers next and from which moves; None once the game is over. Makes the table's own moves first."""
        if self._decision is None:
            self._decision = self._next()
        return self._decision

    def play(self, move: Move) -> None:
        """The current decision's player makes ``move`` (one of its ``moves``; ``referee.IllegalMove`` otherwise)."""
        decision = self.decision()
        if decision is None or move not in decision.moves:
            raise ValueError(f"'{move}' is not one of the moves asked for")
        self.game.push(move)
        self.moves += 1
        self._asked.clear()
        self._decision = None

    def wait(self) -> None:
        """The current decision's player lets an out-of-turn chance go by."""
        decision = self.decision()
        if decision is None or not decision.optional:
            raise ValueError("only an out-of-turn chance can be let go by")
        self._asked.add(decision.player)
        self._decision = None

    def _next(self) -> Decision | None:
        game = self.game
        while True:
            if game.is_round_over():
                if not self._scored:  # the round just ended: each player claims its score
                    winner = game.round_winner
                    self.winners.append(winner)
                    self._scored = True
                    shown = {name: tuple(sorted(card.face.token for card in game.hand(name))) for name in game.players}
                    points = 0
                    for claim in game.legal_moves():
                        game.push(claim)
                        if isinstance(claim.event, ev.Score) and claim.event.player == winner:
                            points = claim.event.points
                    self.ended.append(RoundEnd(len(self.ended) + 1, winner, points, game.scores, shown))
                if game.is_game_over():
                    return None
                game.next_round(seed=self.random.randrange(2**32))
                self._scored = False
                continue
            moves = game.legal_moves()
            reshuffle = next((move for move in moves if isinstance(move.event, ev.Reshuffle)), None)
            if reshuffle is not None:
                game.push(reshuffle)
                continue
            shuffle = next((move for move in moves if isinstance(move.event, ev.ShuffleHands)), None)
            if shuffle is not None:  # the table shuffles and deals the hands collected (a move listing them is no seat's to see)
                game.push(self._shuffled(shuffle))
                continue
            return self._ask(game.turn, moves)

    def _shuffled(self, move: Move) -> Move:
        """A shuffle of hands in an order of the table's random (``legal_moves`` lists the cards sorted)."""
        event = move.event
        assert isinstance(event, ev.ShuffleHands)
        cards = list(event.cards)
        self.random.shuffle(cards)
        return Move(ev.ShuffleHands(0, event.player, tuple(cards)))

    def _ask(self, turn: str | None, moves: list[Move]) -> Decision:
        if turn is not None and moves and all(move.player == turn for move in moves):
            return Decision(turn, tuple(moves), optional=False)  # the common case: only the player to move may act
        by_player: dict[str, list[Move]] = {}
        for move in moves:
            player = move.player
            if player is not None:
                by_player.setdefault(player, []).append(move)
        mine = by_player.get(turn or "", [])
        if any(move.verb == _PASSES for move in mine):  # after a draw: the next player waits for the pass
            for player, theirs in by_player.items():
                if player != turn and any(move.verb == _DRAWS for move in theirs):
                    by_player[player] = [move for move in theirs if move.verb in _CALLS_OR_CATCHES]
        for player, theirs in by_player.items():
            if player != turn and theirs and player not in self._asked:
                return Decision(player, tuple(theirs), optional=True)
        if turn is None or not mine:  # pragma: no cover - a round being played always has a player to move
            raise RuntimeError(f"nobody can move: {moves}")
        return Decision(turn, tuple(mine), optional=False)


def _restored(
    game: Game, state: object, moves: int, winners: list[str | None], ended: list[RoundEnd], asked: list[str], scored: bool
) -> Table:
    """A pickled table again (``Table.__reduce__``): the next decision is worked out anew, as it was."""
    table = Table(None, game.players, 0, game=game)
    table.random.setstate(state)  # type: ignore[arg-type]
    table.moves, table.winners, table.ended, table._asked, table._scored = moves, winners, ended, set(asked), scored
    return table
