"""``python -m referee``: the same as the ``referee`` command."""

from referee.commands.entry import run

run()
