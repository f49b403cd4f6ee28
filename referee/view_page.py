"""The replay page of ``referee view``: ``view_page.html``, one HTML file with its style and script inline.

``__DATA__`` is replaced by the game as JSON and ``__TITLE__`` by the log's
name. A Content-Security-Policy forbids every request, so the page cannot
load or send anything even from a hostile log.
"""

from __future__ import annotations

from importlib import resources


def template() -> str:
    """The page's HTML, shipped in the package beside this module."""
    return resources.files("referee").joinpath("view_page.html").read_text(encoding="utf-8")
