"""referee: a formal rules checker and referee for UNO Flip and classic UNO.

The library: ``referee.Game`` (a game to push moves onto, python-chess style),
``referee.Move`` (one log line as a value) and ``referee.check`` (a log's
verdict, as ``referee check`` gives it). See docs/library.md.

The data flows one way, and the packages follow it (docs/architecture.md):
spec YAML -> ``spec`` (the spec model) -> ``rules`` (the engine's tables) -> ``engine`` (the game state);
log text -> ``log`` (events) -> ``checking`` (replay -> verdicts -> report) -> ``commands``;
a game -> ``play`` (seats, the PettingZoo environment, the match host); ``proof`` asks Z3 about the rules.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not ``typing.TYPE_CHECKING``: importing typing would lengthen the command's start-up

__version__ = "0.1.0"
__all__ = ["Game", "HeldCard", "IllegalMove", "Legality", "Move", "MoveError", "Report", "check"]

if TYPE_CHECKING:
    from referee.engine.moves import Move, MoveError
    from referee.errors import IllegalMove
    from referee.play.game import Game, HeldCard, Legality, Report, check

_LAZY = {
    "Game": "referee.play.game",
    "HeldCard": "referee.play.game",
    "Legality": "referee.play.game",
    "Report": "referee.play.game",
    "check": "referee.play.game",
    "Move": "referee.engine.moves",
    "MoveError": "referee.engine.moves",
    "IllegalMove": "referee.errors",
}


def __getattr__(name: str) -> object:
    """The library API, imported on first use: ``import referee`` stays as light as the command's start-up needs."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'referee' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    """The library's names too (they are imported on first use), so that ``dir(referee)`` and completion show them."""
    return sorted({*__all__, "__version__", *(name for name in globals() if name.startswith("__"))})
