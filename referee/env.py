"""``referee.env``: the PettingZoo environment, imported from where PettingZoo users and docs/library.md look for it.

The environment itself lives with the rest of the playing side (``referee.play.env``); this module is its public
name, so that ``from referee.env import env`` stays the one line a learning agent needs (``pip install
'referee[rl]'``).
"""

from __future__ import annotations

from referee.play.env import Actions, Enforced, env, raw_env

__all__ = ["Actions", "Enforced", "env", "raw_env"]
