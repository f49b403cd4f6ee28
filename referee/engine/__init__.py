"""The rules engine: one mutable game state, owned by the engine, changed only by legal moves.

``state`` is the table (piles, hands, side, direction, phase); ``legality`` answers what may be played on
what; ``deal``, ``disputes`` (challenges, UNO calls, jump-ins) and ``scoring`` are the parts of a round the
``engine`` orders; ``hidden`` holds what a public round does not say (unknown cards and the facts about them);
``moves`` are the immutable values a game is pushed with, and the listing of the legal ones.
"""
