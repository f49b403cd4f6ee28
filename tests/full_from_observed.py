"""Write the full-mode twin of an observed-mode scenario: the same game with the deck's order written out.

``python tests/full_from_observed.py IN.log OUT.log``: the ``hand`` lines and the ``start`` line become one
``shuffle`` line (the hands dealt one card at a time from the dealer's left, then the card turned up, then every
card the log draws, in order, then the rest of the deck); every other line, and its ``# expect:`` comment, stays.
Only for one-round logs without reshuffles (the house-rules scenarios).
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from referee.engine.deal import deal_order
from referee.rules.compiler import load_rules
from referee.spec.extends import resolve_spec


def convert(text: str) -> str:
    lines = text.split("\n")
    body = [line.split("#")[0].split() for line in lines]
    players = next(words[1:] for words in body if words[:1] == ["players"])
    spec = next(words[1] for words in body if words[:1] == ["spec"])
    dealer = players.index(next(words[1] for words in body if words[:1] == ["dealer"]))
    hands = {words[1]: list(words[2:]) for words in body if words[:1] == ["hand"]}
    start = next(words[1] for words in body if words[:1] == ["start"])
    rules = load_rules(resolve_spec(spec, None, ()))
    order = deal_order(dealer, len(players), rules.spec.hand_size)
    given = {name: iter(cards) for name, cards in hands.items()}
    pile = [next(given[players[seat]]) for seat in order] + [start]
    pile += [card for words in body if len(words) > 2 and words[1] == "draws" for card in words[2:]]
    rest = Counter(card.token for card in rules.deck) - Counter(pile)
    assert not (Counter(pile) - Counter(card.token for card in rules.deck)), "the log names more cards than the deck has"
    pile += sorted(rest.elements())
    out = []
    for line, words in zip(lines, body, strict=True):
        if words[:1] == ["hand"]:
            continue
        if words[:1] == ["start"]:
            out.append("shuffle " + " ".join(pile))
            continue
        out.append(line)
    return "\n".join(out)


if __name__ == "__main__":
    source, target = Path(sys.argv[1]), Path(sys.argv[2])
    target.write_text(convert(source.read_text(encoding="utf-8")).replace("# ", "# Full mode: ", 1), encoding="utf-8")
