"""A game -> seats -> the environment and the host: the library's playing side.

``game`` is ``referee.Game`` (push, pop, legal moves, python-chess style); ``seat`` is what one seat may
see and its encoding; ``table`` turns a game into one decision at a time; ``env`` is the PettingZoo environment; ``host`` runs
matches of bot programs, each in a ``sandbox``; ``simulate`` plays random legal games.
"""
