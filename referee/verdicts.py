"""Verdicts as data: diagnostics, round results and the verdict on one log.

Rendering to text or JSON happens at the edge (``referee.checking.report``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

ERROR_CODES = (
    "syntax",
    "unknown-card",
    "unknown-player",
    "bad-setup",
    "out-of-turn",
    "card-not-in-hand",
    "ambiguous-card",
    "illegal-play",
    "bad-colour",
    "wrong-draw",
    "bad-penalty",
    "invalid-call",
    "invalid-catch",
    "invalid-challenge",
    "invalid-reshuffle",
    "wrong-score",
    "after-game-end",
    "swap-missing",
    "draw-too-few",
    "draw-too-many",
    "inconsistent",
    "missing-shows",
    "bad-shows",
)
# The codes only a house rule of docs/house-rules.md can give (seven swaps; draw until playable).
HOUSE_ERROR_CODES = ("swap-missing", "draw-too-few", "draw-too-many")
# The codes only a public round (docs/log-format.md, "Public records") can give.
PUBLIC_ERROR_CODES = ("inconsistent", "missing-shows", "bad-shows")
WARNING_CODES = ("unchallenged-bluff", "uncaught-uno")


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A rule violation (error) or a warning at one line of a log."""

    line: int
    code: str
    message: str
    rule: str
    allowed: tuple[str, ...] = ()
    reasons: tuple[tuple[int, str], ...] = ()  # inconsistent: the earlier lines that contradict this one, and what each says


@dataclass(frozen=True, slots=True)
class RoundResult:
    number: int
    finished: bool
    winner: str | None = None
    side: str | None = None
    points: int | None = None
    totals: dict[str, int] | None = None


@dataclass(frozen=True, slots=True)
class HiddenAnswer:
    """What a public round's hidden hands say of a wild draw card: ``bluff`` (unchallenged: did its player hold the
    colour in play? certain, impossible or undetermined) or ``ruling`` (challenged: is the ruling shown the only one
    the hands allow? forced, not-forced or undetermined)."""

    line: int
    kind: str
    player: str
    colour: str
    answer: str
    challenge: int | None = None
    ruling: str | None = None


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
    # public rounds: "consistent", "inconsistent" or "undetermined" (None: the log has none)
    consistency: str | None = None
    undetermined: str | None = None  # why, when the solver could not settle a public round
    answers: list[HiddenAnswer] = field(default_factory=list)
    witness: dict[int, tuple[str, ...]] = field(default_factory=dict)  # line -> what the witness writes there

    @property
    def valid(self) -> bool:
        return not self.errors and self.input_error is None and self.consistency != "undetermined"
