"""Verdicts as data: diagnostics, round results and the verdict on one log.

Rendering to text or JSON happens at the edge (``referee.checking.report``).
"""

from __future__ import annotations

from dataclasses import field
from enum import StrEnum
from typing import Any

from referee.records import dataclass


class Code(StrEnum):
    """The stable code of every error and warning (docs/log-format.md, "Codes"), each defined once. A member is the
    string itself (``Code.ILLEGAL_PLAY == "illegal-play"``), so JSON, text and the report formats write it unchanged."""

    SYNTAX = "syntax"
    UNKNOWN_CARD = "unknown-card"
    UNKNOWN_PLAYER = "unknown-player"
    BAD_SETUP = "bad-setup"
    OUT_OF_TURN = "out-of-turn"
    CARD_NOT_IN_HAND = "card-not-in-hand"
    AMBIGUOUS_CARD = "ambiguous-card"
    ILLEGAL_PLAY = "illegal-play"
    BAD_COLOUR = "bad-colour"
    WRONG_DRAW = "wrong-draw"
    BAD_PENALTY = "bad-penalty"
    INVALID_CALL = "invalid-call"
    INVALID_CATCH = "invalid-catch"
    INVALID_CHALLENGE = "invalid-challenge"
    INVALID_RESHUFFLE = "invalid-reshuffle"
    WRONG_SCORE = "wrong-score"
    AFTER_GAME_END = "after-game-end"
    SWAP_MISSING = "swap-missing"  # a house rule's (docs/house-rules.md): seven swaps
    DRAW_TOO_FEW = "draw-too-few"  # a house rule's: draw until playable
    DRAW_TOO_MANY = "draw-too-many"  # a house rule's: draw until playable
    MUST_PLAY_DRAWN = "must-play-drawn"  # a house rule's: forced play
    SHUFFLE_MISSING = "shuffle-missing"  # an edition's card (docs/log-format.md, "Cards that shuffle hands")
    INVALID_SHUFFLE = "invalid-shuffle"  # an edition's card: the cards a shuffle of hands names
    INCONSISTENT = "inconsistent"  # a public round's (docs/log-format.md, "Public records")
    MISSING_SHOWS = "missing-shows"  # a public round's
    BAD_SHOWS = "bad-shows"  # a public round's
    UNCHALLENGED_BLUFF = "unchallenged-bluff"  # a warning
    UNCAUGHT_UNO = "uncaught-uno"  # a warning
    UNDETERMINED = "undetermined"  # no verdict: the solver could not settle a public round in time (explain, adjudicate)

    @property
    def is_warning(self) -> bool:
        """A warning: the log stays valid."""
        return self in (Code.UNCHALLENGED_BLUFF, Code.UNCAUGHT_UNO)

    @property
    def is_error(self) -> bool:
        """An error: the log is invalid at its line (``undetermined`` is neither: it says no verdict was reached)."""
        return not self.is_warning and self is not Code.UNDETERMINED


class Consistency(StrEnum):
    """What the solver says of a log's public rounds (docs/log-format.md, "Public records"): a deal of physical cards
    makes every round hold, none does, or it could not tell in time."""

    CONSISTENT = "consistent"
    INCONSISTENT = "inconsistent"
    UNDETERMINED = "undetermined"


class Bluff(StrEnum):
    """Whether the player of an unchallenged wild draw card held the colour in play, over every deal the public record
    allows (``adjudicate``): in all of them, in none, or the solver could not tell in time."""

    CERTAIN = "certain"
    IMPOSSIBLE = "impossible"
    UNDETERMINED = "undetermined"

    @property
    def said(self) -> str:
        """The answer in words, after the player's name (``Ann held a red card``)."""
        return {Bluff.CERTAIN: "held", Bluff.IMPOSSIBLE: "did not hold", Bluff.UNDETERMINED: "may or may not have held"}[self]


class Forced(StrEnum):
    """Whether a challenge's ruling shown in a public record is the only one the hidden hands allow."""

    FORCED = "forced"
    NOT_FORCED = "not-forced"
    UNDETERMINED = "undetermined"

    @property
    def said(self) -> str:
        """The answer in words (``the guilty ruling ... is the only ruling the hidden hands allow``)."""
        return {
            Forced.FORCED: "the only ruling",
            Forced.NOT_FORCED: "not the only ruling",
            Forced.UNDETERMINED: "maybe not the only ruling",
        }[self]


ERROR_CODES = tuple(code.value for code in Code if code.is_error)
# The codes only a house rule of docs/house-rules.md can give (seven swaps; draw until playable).
HOUSE_ERROR_CODES = (Code.SWAP_MISSING.value, Code.DRAW_TOO_FEW.value, Code.DRAW_TOO_MANY.value, Code.MUST_PLAY_DRAWN.value)
# The codes only a card that shuffles hands (an effect of an edition's kind, uno-2018's Wild Shuffle Hands) can give.
EDITION_ERROR_CODES = (Code.SHUFFLE_MISSING.value, Code.INVALID_SHUFFLE.value)
# The codes only a public round (docs/log-format.md, "Public records") can give.
PUBLIC_ERROR_CODES = (Code.INCONSISTENT.value, Code.MISSING_SHOWS.value, Code.BAD_SHOWS.value)
WARNING_CODES = tuple(code.value for code in Code if code.is_warning)


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A rule violation (error) or a warning at one line of a log."""

    line: int
    code: Code
    message: str
    rule: str
    allowed: tuple[str, ...] = ()
    reasons: tuple[tuple[int, str], ...] = ()  # inconsistent: the earlier lines that contradict this one, and what each says

    def to_json(self, with_rule: bool = True) -> dict[str, Any]:
        """As ``check --format json`` writes it: an error with its rule, a warning without (docs/json.md)."""
        data: dict[str, Any] = {"line": self.line, "code": self.code, "message": self.message}
        if with_rule:
            data["rule"] = self.rule
        if self.reasons:
            data["reasons"] = [{"line": line, "says": says} for line, says in self.reasons]
        return data


@dataclass(frozen=True, slots=True)
class LogError:
    """Why the log gives no verdict on the line asked about: its first error before it, or an undetermined public
    round (``code`` ``undetermined``, no rule). ``explain`` and ``adjudicate`` give it."""

    line: int
    code: Code
    message: str
    rule: str | None

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "code": self.code, "message": self.message, "rule": self.rule}


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How one round of a checked log ended: finished or not, its winner, side, points and totals."""

    number: int
    finished: bool
    winner: str | None = None
    side: str | None = None
    points: int | None = None
    totals: dict[str, int] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.number,
            "finished": self.finished,
            "winner": self.winner,
            "side": self.side,
            "points": self.points,
            "totals": dict(self.totals) if self.totals is not None else None,
        }


@dataclass(frozen=True, slots=True)
class HiddenAnswer:
    """What a public round's hidden hands say of a wild draw card: ``bluff`` (unchallenged: did its player hold the
    colour in play? certain, impossible or undetermined) or ``ruling`` (challenged: is the ruling shown the only one
    the hands allow? forced, not-forced or undetermined)."""

    line: int
    kind: str
    player: str
    colour: str
    answer: Bluff | Forced
    challenge: int | None = None
    ruling: str | None = None

    def to_json(self) -> dict[str, Any]:
        """A wild draw card of a public round: what the hidden hands say of it."""
        data: dict[str, Any] = {"line": self.line, "player": self.player, "colour": self.colour}
        if self.kind == "bluff":
            data["bluff"] = self.answer
        else:
            data.update(challenge=self.challenge, ruling=self.ruling, forced=self.answer)
        return data


@dataclass(frozen=True, slots=True)
class Expectations:
    """What a log's ``# expect:`` comments say its verdict is (``check --expect``; ``referee.checking.expectations``):
    the errors and the warnings, each a line and a code."""

    errors: tuple[tuple[int, str], ...] = ()  # (line, code), in the log's order
    warnings: tuple[tuple[int, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "errors": [{"line": line, "code": code} for line, code in self.errors],
            "warnings": [{"line": line, "code": code} for line, code in self.warnings],
        }

    def text(self) -> str:
        """``valid``, or the codes at their lines (``illegal-play at line 7; warning uncaught-uno at line 12``)."""
        if not self.errors and not self.warnings:
            return "valid, no warning"
        said = [f"{code} at line {line}" for line, code in self.errors]
        said += [f"warning {code} at line {line}" for line, code in self.warnings]
        return "; ".join(said)


@dataclass(slots=True)
class FileVerdict:
    """Everything ``referee check`` says about one log."""

    path: str
    errors: list[Diagnostic] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)
    rounds: list[RoundResult] = field(default_factory=list)
    game_winner: str | list[str] | None = None
    input_error: str | None = None
    lines: int = 0
    # rule id -> (summary, citation) for the rules this verdict cites, from the log's spec (for SARIF)
    rule_texts: dict[str, tuple[str, str]] = field(default_factory=dict)
    consistency: Consistency | None = None  # of its public rounds (None: the log has none)
    undetermined: str | None = None  # why, when the solver could not settle a public round
    answers: list[HiddenAnswer] = field(default_factory=list)
    witness: dict[int, tuple[str, ...]] = field(default_factory=dict)  # line -> what the witness writes there
    expected: Expectations | None = None  # what the log's comments say its verdict is (check --expect), when asked

    @property
    def valid(self) -> bool:
        return not self.errors and self.input_error is None and self.consistency is not Consistency.UNDETERMINED

    def to_json(self) -> dict[str, Any]:
        """One entry of ``check --format json``'s ``files`` (docs/json.md; ``checking.report`` writes the whole)."""
        data: dict[str, Any] = {
            "path": self.path,
            "valid": self.valid,
            "errors": [error.to_json() for error in self.errors],
            "warnings": [warning.to_json(with_rule=False) for warning in self.warnings],
            "rounds": [result.to_json() for result in self.rounds],
            "game_winner": self.game_winner,
        }
        if self.input_error is not None:
            data["input_error"] = self.input_error
        if self.consistency is not None:
            data["consistency"] = self.consistency
            data["hidden"] = [answer.to_json() for answer in self.answers]
            if self.undetermined is not None:
                data["undetermined"] = self.undetermined
        return data
