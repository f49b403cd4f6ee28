"""The rules engine: one mutable game state, owned by the engine, changed only by legal moves.

``state`` is the table (piles, hands, side, direction, phase); ``legality`` answers what may be played on
what; ``deal``, ``disputes`` (challenges, UNO calls, jump-ins), ``hands`` (seven swaps, zero rotates) and
``scoring`` are the parts of a round the
``engine`` orders; the state's ``Knowledge`` is how the cards of a round are known, abstract, one subclass per mode (full,
observed, and ``public_knowledge`` with its records in ``hidden``: the unknown cards and the facts about them),
so that the engine keeps the checks in their order and never asks which mode it is in; ``reject`` is a rule broken;
``moves`` are the immutable values a game is pushed with, and the listing of the legal ones.
"""
