"""Every citation names a section its source has.

Each source key cites one document; ``SECTIONS`` lists, per key, the sections of that document a spec or a claim
may cite, read off the document itself (its headings; for the pages without headings, the paragraph meant). A
citation is ``HEADING[ / SUB-HEADING][ (a note)][; ANOTHER]``: every heading of it must be in the list, so that
a citation of a section the document does not have (the UNO Flip claims once cited the instruction sheet for the
Flip turned up at the start, which the sheet does not cover) fails here. Where the documents are at hand (the
project's shared folder beside the repository), the test also finds each listed heading in its document.
docs/spec-language.md ("Citations") says how the lists were made.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.spec.loader import Mapping, Scalar, Sequence, load_file
from referee.spec.model import rulings as shipped_rulings

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"

# The sections each source has, as printed (headings of the instruction sheet and the design pages).
SECTIONS: dict[str, set[str]] = {
    "manual": {  # the UNO Flip! instruction sheet
        "Contents",
        "Setup",
        "Let's Play",
        "Functions Of Action Cards",
        "Draw One Card",
        "Reverse Card",
        "Skip Card",
        "Wild Card",
        "Wild Draw 2 Card",
        "Flip Card",
        "Draw Five Card",
        "Skip Everyone Card",
        "Wild Draw Color Card",
        "Going Out",
        "Scoring",
        "Winning The Game",
        "Alternative Scoring And Winning",
    },
    "fan": {"the unheaded start-of-play paragraphs", "SCORING", "ALTERNATIVE SCORING", "ONE CARD LEFT", "FLIP CARDS"},
    "wiki": {"the Flip card paragraph"},  # the wiki page has no headings: its card paragraphs
    "deck": {"the card list"},
    "classic": {"Cards", "Rulings", "Precise points"},  # the project's classic UNO page
    "log-format": {"Lexical rules", "Cards", "Header", "Rounds", "Events", "Precise semantics", "Syntax and names", "Diagnostics"},
    "house": {"Seven swaps, zero rotates", "Jump-in", "Draw until playable", "Progressive stacking", "Precise points"},
    "rulings": {f"ruling {number}" for number in shipped_rulings()},  # specs/rulings.yml, which docs/rulings.md lists
}
# Where each document is, in the shared folder (when it is at hand), and how a heading shows in it.
DOCUMENTS = {
    "manual": ("rules-sources", "000_*.txt"),
    "classic": ("design", "classic-uno.md"),
    "log-format": ("design", "game-log-format.md"),
    "house": ("design", "house-rules.md"),
}


def _headings(section: str) -> list[str]:
    """The headings a citation names: each part (``;``) without its note in parentheses, split at `` / ``."""
    headings = []
    for part in section.split(";"):
        bare = re.sub(r"\s*\([^()]*\)\s*$", "", part.strip())
        headings += [heading.strip() for heading in bare.split(" / ")]
    return headings


def _citations() -> list[tuple[str, str, str]]:
    """(file, source key, section) for every rule and claim of every spec and claims file shipped or tested."""
    found = []
    files = sorted(ROOT.glob("specs/**/*.y*ml")) + sorted(ROOT.glob("tests/*_specs/**/*.yaml"))
    for path in files:
        tree = load_file(path)
        for part in ("rules", "claims"):
            items = tree.entries.get(part)
            for item in items.items if isinstance(items, Sequence) else ():
                source = item.entries.get("source") if isinstance(item, Mapping) else None
                if isinstance(source, Mapping):
                    key, section = source.entries.get("key"), source.entries.get("section")
                    if isinstance(key, Scalar) and isinstance(section, Scalar):
                        found.append((path.relative_to(ROOT).as_posix(), key.value, section.value))
    return found


CITATIONS = _citations()


def test_every_cited_section_is_one_its_source_has() -> None:
    wrong = [
        f"{path}: {key}: '{section}'"
        for path, key, section in CITATIONS
        if key in SECTIONS and any(heading not in SECTIONS[key] for heading in _headings(section))
    ]
    assert not wrong, wrong
    assert {key for _, key, _ in CITATIONS} <= set(SECTIONS), "a source key without its list of sections"
    assert len(CITATIONS) > 200


def test_the_listed_headings_are_the_documents_own() -> None:
    if not SHARED.is_dir():
        pytest.skip("the project's shared folder (the documents themselves) is not beside this clone")
    for key, (folder, pattern) in DOCUMENTS.items():
        (document,) = sorted((SHARED / folder).glob(pattern))
        text = document.read_text(encoding="utf-8").replace("\u2019", "'").lower()
        for heading in SECTIONS[key]:
            assert heading.lower() in text, f"{key}: '{heading}' is not in {document.name}"


def test_a_section_the_source_lacks_is_caught() -> None:
    assert _headings("Flip (turned up at the beginning)") == ["Flip"]
    assert "Flip" not in SECTIONS["manual"]
    assert _headings("Functions Of Action Cards / Draw Five Card (amount changed by house rule)") == [
        "Functions Of Action Cards",
        "Draw Five Card",
    ]
