"""``referee view``'s page: the data of ``referee.checking.timeline`` rendered as one self-contained HTML file.

The page (``referee.commands.page_template``, ``page.html``) embeds the data
as JSON: no network, no CDN. This module holds nothing of the rules.
"""

from __future__ import annotations

import json
from typing import Any

from referee.errors import InputError, Position

MAX_PAGE_BYTES = 20 * 1024 * 1024


def embedded_json(value: Any) -> str:
    """JSON safe inside a ``<script>`` element: ``<``, ``>``, ``&``, U+2028 and U+2029 as ``\\uXXXX`` escapes, so no
    text of a log or spec can end the element, open a comment (``<!--``) or break a line of script."""
    text = json.dumps(value, ensure_ascii=True, separators=(",", ":"))  # U+2028/2029 are escaped by ensure_ascii
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def render_page(data: dict[str, Any], initial_line: int | None = None) -> str:
    """The HTML page: the title and the data filled in at once (text in one never reaches the other's placeholder)."""
    from referee.commands.page_template import fill_page

    page = fill_page(_html(data["path"]), embedded_json({**data, "initial": initial_line}))
    if len(page.encode("utf-8")) > MAX_PAGE_BYTES:
        raise InputError(f"the page would be larger than {MAX_PAGE_BYTES // (1024 * 1024)} MB", Position(data["path"]))
    return page


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
