"""The replay page of ``referee view``: ``page.html``, one HTML file with its style and script inline.

``__TITLE__`` is replaced by the log's name (HTML-escaped) and ``__DATA__`` by
the game as JSON (every ``<``, ``>`` and ``&`` escaped), both in one pass, so
text in one is never taken for the other's placeholder. A
Content-Security-Policy forbids every request and allows only the page's own
script, by its SHA-256 hash (``__SCRIPT_HASH__``): not ``'unsafe-inline'``, so
even markup that got into the page could not run a script of its own.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import re
from importlib import resources

_PLACEHOLDER = re.compile(r"__TITLE__|__DATA__")
_SCRIPT = re.compile(r"<script>(.*?)</script>", re.DOTALL)


def template() -> str:
    """The page's HTML, shipped in the package beside this module."""
    return resources.files("referee.commands").joinpath("page.html").read_text(encoding="utf-8")


@functools.cache
def _hashed_template() -> str:
    """The template with the hash of its one inline script in the CSP."""
    page = template()
    scripts = _SCRIPT.findall(page)
    if len(scripts) != 1:
        raise RuntimeError("page.html must have exactly one inline script")
    digest = base64.b64encode(hashlib.sha256(scripts[0].encode("utf-8")).digest()).decode("ascii")
    return page.replace("__SCRIPT_HASH__", f"'sha256-{digest}'")


def fill_page(title: str, data: str) -> str:
    """The page with its title (already HTML-escaped) and data (already escaped JSON)."""
    values = {"__TITLE__": title, "__DATA__": data}
    return _PLACEHOLDER.sub(lambda found: values[found.group()], _hashed_template())
