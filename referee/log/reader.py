"""Log text -> events, streaming line by line, with every syntax error collected.

The reader owns the log format's grammar and line order (header, then rounds
of ``round``, ``dealer``, ``shuffle`` or ``hand``... ``start``..., then
events). It reads bytes, numbers lines itself, decodes each line as UTF-8,
bounds line length, and never holds more than one line. Syntax errors do not
stop it: they are collected in ``errors`` so that all are reported at once.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import BinaryIO, Final

from referee.errors import did_you_mean, escape
from referee.log import events as ev
from referee.records import dataclass
from referee.safe_io import checkpoint

MAX_LINE_BYTES = 64 * 1024
BLOCK_BYTES = 256 * 1024
MAX_SYNTAX_ERRORS = 1000

COLOURS = frozenset({"red", "yellow", "green", "blue", "pink", "teal", "orange", "purple"})
VERBS = frozenset(verb.value for verb in ev.Verb)
# The verbs of a card effect's line (``EventKind.effect``): read under every spec, but listed in messages and reserved
# as names only where a kind has the effect, so that no log of a game without it reads otherwise than before.
EFFECT_VERBS = frozenset(kind.keyword for kind in ev.KINDS.values() if kind.effect is not None)
_PLAYS: Final = ev.Verb.PLAYS.value  # the hot path compares with a plain string

# The words that start a line (every kind's keyword that is not a player's verb), and "uno", which no line starts with
# and no player is called.
KEYWORDS = frozenset(kind.keyword for kind in ev.KINDS.values() if kind.keyword not in VERBS) | {"uno"}
RESERVED = KEYWORDS | (VERBS - EFFECT_VERBS) | COLOURS
HEADER_KEYWORDS = frozenset({"players", "spec", "deck", "target"})


def _verb_hint(word: str) -> str:
    """The hint of an unknown verb: the verb another record's word means ('says': 'calls'), else the closest."""
    meant = ev.VERB_SYNONYMS.get(word)
    return f" (did you mean '{meant.value}'?)" if meant is not None else did_you_mean(word, VERBS)


_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,31}")
_FACE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_CARD = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*/[a-z0-9]+(?:-[a-z0-9]+)*")
_POSITIVE = re.compile(r"[1-9][0-9]{0,5}")
_NATURAL = re.compile(r"0|[1-9][0-9]{0,5}")
_ODD_SPACE = re.compile(r"[^\S \t]|[\x00-\x08\x0e-\x1f\x7f]")
_BOM = b"\xef\xbb\xbf"

# Tokens already validated, shared by all readers (validation depends only on the token and the card form); bounded.
_GOOD_NAMES: set[str] = set()
_GOOD_CARDS: dict[str, str] = {}
_GOOD_PLAYS: dict[str, str] = {}
_GOOD_FACES: dict[str, str] = {}  # a game of one side: any token is read, and judged by the spec during replay


@dataclass(frozen=True, slots=True)
class CardForm:
    """How the game in force writes cards and colours: ``pairs`` (a physical card is ``LIGHT/DARK``, the syntax the
    format requires of a two-sided game) or not (one side: the face is the card, and a card token has no syntax rule
    of its own); ``colours``: the colour words (the format's eight, and any colour of the spec); ``effect_verbs``: the
    verbs of card effects the game has, which messages list."""

    pairs: bool = True
    colours: frozenset[str] = COLOURS
    effect_verbs: frozenset[str] = frozenset()  # the verbs of the effects the game's kinds have (``EFFECT_VERBS``)
    doubles: bool = False  # a play may name several cards (the house rule doubles): ``P plays CARD CARD ... [COLOUR]``


PAIRS = CardForm()

# Where the reader is in the log's structure.
_HEADER, _ROUND, _DEALER, _HANDS, _STARTS, _EVENTS = range(6)


@dataclass(frozen=True, slots=True)
class SyntaxProblem:
    """A line the reader cannot read: its number and why."""

    line: int
    message: str


class LogReader:
    """Reads one log; iterate ``events(stream)``, then look at ``errors``.

    ``card_form_of(spec_name)`` says how the game the header's ``spec`` line selects (None: no such line) writes
    cards; it is asked once, when the header ends, and the header's ``deck`` line is read then.
    """

    def __init__(self, card_form_of: Callable[[str | None], CardForm] | None = None) -> None:
        self.errors: list[SyntaxProblem] = []
        self.error_count = 0
        self.lines = 0
        self._state = _HEADER
        self._header_seen: set[str] = set()
        self._players_seen = False
        self._good_names = _GOOD_NAMES
        self._good_cards = _GOOD_CARDS
        self._good_plays = _GOOD_PLAYS
        self._fast = {_PLAYS: self._fast_play, ev.Verb.DRAWS.value: self._fast_draw, ev.Verb.PASSES.value: self._fast_pass}
        self._card_form_of = card_form_of
        self._pending_header: list[ev.Event] = []
        self._spec_name: str | None = None
        self._deck: tuple[int, list[str]] | None = None  # the header's deck line, read when the header ends
        self.form = PAIRS
        self._colours = COLOURS
        self._public = False  # the round being read is a public one (its draws are counts, its plays faces)

    def _end_header(self) -> Iterator[ev.Event]:
        """The header is over: learn the game's card form, then read the deck line by it."""
        if self._card_form_of is not None:
            self.set_form(self._card_form_of(self._spec_name))
            self._card_form_of = None
        if self._deck is not None:
            line, tokens = self._deck
            self._deck = None
            cards = self._cards(line, tokens)
            if cards is not None:
                yield ev.Deck(line, cards)

    def set_form(self, form: CardForm) -> None:
        """Read cards and colours as ``form`` says from now on."""
        self.form = form
        self._colours = form.colours
        if not form.pairs:
            self._good_cards = _GOOD_FACES
            self._good_plays = _GOOD_FACES

    def _error(self, line: int, message: str) -> None:
        if self.errors and (self.errors[-1].line == line or line < self.errors[-1].line and any(e.line == line for e in self.errors)):
            return
        self.error_count += 1
        if len(self.errors) < MAX_SYNTAX_ERRORS:
            self.errors.append(SyntaxProblem(line, message))

    def events(self, stream: BinaryIO) -> Iterator[ev.Event]:
        """Yield the events of the log in order; syntax errors go to ``errors``.

        The stream is read in blocks and split into lines in C; a line is never
        held beyond ``MAX_LINE_BYTES`` (a longer one is skipped to its end and
        reported), so memory is bounded whatever the input.
        """
        line_number = 0
        pending = b""
        too_long = False
        first_block = True
        read = stream.read
        while True:
            block = read(BLOCK_BYTES)
            checkpoint()
            if first_block:
                first_block = False
                if block.startswith(_BOM):
                    block = block[3:]
                wide = wide_encoding(block)
                if wide is not None:  # one line that says so, not one error per line for every NUL
                    self._error(1, f"the log is {wide} text, not UTF-8: convert it first ({_CONVERT.format(wide)})")
                    self.lines = 1
                    return
            if not block:
                if too_long or pending:
                    line_number += 1
                    if too_long:
                        self._error(line_number, f"line longer than {MAX_LINE_BYTES} bytes")
                    else:
                        yield from self._lines(line_number, pending)
                break
            first_newline = block.find(b"\n")
            if first_newline < 0:
                if not too_long:
                    pending += block
                    if len(pending) > MAX_LINE_BYTES:
                        pending = b""
                        too_long = True
                continue
            line_number += 1
            if too_long or len(pending) + first_newline > MAX_LINE_BYTES:
                self._error(line_number, f"line longer than {MAX_LINE_BYTES} bytes")
            else:
                yield from self._lines(line_number, pending + block[:first_newline])
            too_long = False
            last_newline = block.rfind(b"\n")
            if last_newline > first_newline:
                middle = block[first_newline + 1 : last_newline]
                yield from self._block(line_number, middle)
                line_number += middle.count(b"\n") + 1
            pending = block[last_newline + 1 :]
            if len(pending) > MAX_LINE_BYTES:
                pending = b""
                too_long = True
        self.lines = line_number
        if self._state == _HEADER:
            yield from self._end_header()
        if not self._players_seen:
            self._error(1, "the log has no 'players' line")
        self.errors.sort(key=lambda problem: problem.line)

    def _block(self, before: int, data: bytes) -> Iterator[ev.Event]:
        """Lines ``before + 1`` ... of a block of whole lines (no trailing newline)."""
        try:
            texts = data.decode("utf-8").split("\n")
        except UnicodeDecodeError:
            for offset, raw in enumerate(data.split(b"\n"), start=before + 1):
                yield from self._lines(offset, raw)
            return
        parse = self._parse
        good_names = self._good_names
        good_plays = self._good_plays
        Play = ev.Play  # noqa: N806 - a local alias on the hot path
        line_number = before
        for text in texts:
            line_number += 1
            if len(text) > MAX_LINE_BYTES // 4 and len(text.encode("utf-8")) > MAX_LINE_BYTES:
                self._error(line_number, f"line longer than {MAX_LINE_BYTES} bytes")
                continue
            hash_at = text.find("#")
            if hash_at >= 0:
                text = text[:hash_at]
            elif text and text[-1] == "\r":
                text = text[:-1]
            if not text.isprintable():
                found = _ODD_SPACE.search(text)
                if found is not None:
                    self._error(line_number, f"character {found.group()!r} is not allowed (tokens are separated by spaces or tabs)")
                    continue
            tokens = text.split()
            if not tokens:
                continue
            count = len(tokens)
            if count == 3 and tokens[1] == _PLAYS and self._state == _EVENTS and tokens[0] in good_names and not self._public:
                card = good_plays.get(tokens[2])
                if card is not None:
                    yield Play(line_number, tokens[0], card, None)
                    continue
            event = parse(line_number, tokens)
            if self._pending_header:
                yield from self._pending_header
                self._pending_header = []
            if event is not None:
                yield event

    def _lines(self, line_number: int, raw: bytes) -> Iterator[ev.Event]:
        """One line given as bytes (decoding errors are reported on it)."""
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as error:
            self._error(line_number, f"not valid UTF-8 (byte {error.start + 1} of the line)")
            return
        yield from self._block(line_number - 1, raw)

    def parse_event_line(self, line: int, text: str) -> ev.Event | None:
        """One event line on its own (as if inside a round), for a hypothetical move; errors go to ``errors``."""
        self._state = _EVENTS
        if _ODD_SPACE.search(text.replace("\t", " ")):
            self._error(line, "tokens are separated by spaces or tabs only; no other white space or control character")
            return None
        tokens = text.split()
        if not tokens:
            self._error(line, "empty")
            return None
        return self._parse(line, tokens)

    def _parse(self, line: int, tokens: list[str]) -> ev.Event | None:
        if self._state == _HEADER and tokens[0].lower() not in HEADER_KEYWORDS and (self._deck is not None or self._card_form_of):
            self._pending_header = list(self._end_header())
        if len(tokens) > 1 and self._state == _EVENTS and tokens[0] in self._good_names:
            fast = self._fast.get(tokens[1])
            if fast is not None:
                event = fast(line, tokens)
                if event is not None:
                    return event
        first = tokens[0]
        keyword = first.lower()
        if keyword in KEYWORDS:
            return self._keyword_line(line, keyword, tokens)
        if len(tokens) >= 2:
            verb = tokens[1].lower()
            if verb in VERBS:
                return self._event_line(line, first, verb, tokens)
        keyword_hint = did_you_mean(keyword, KEYWORDS - {"uno"})  # a mistyped keyword ('player Ann Bob')
        verb_hint = _verb_hint(tokens[1].lower()) if len(tokens) >= 2 else ""
        if _NAME.fullmatch(first) and keyword not in RESERVED and len(tokens) >= 2 and (verb_hint or not keyword_hint):
            listed = (VERBS - EFFECT_VERBS) | self.form.effect_verbs
            self._error(line, f"unknown verb '{_show(tokens[1])}'{verb_hint} (expected one of: {', '.join(sorted(listed))})")
        else:
            self._error(line, f"unknown line '{_show(first)}'{keyword_hint}")
        return None

    # -- header and round structure

    def _keyword_line(self, line: int, keyword: str, tokens: list[str]) -> ev.Event | None:
        """A line that starts with a keyword: read by that keyword's method (``_KEYWORD_LINES``)."""
        if keyword in HEADER_KEYWORDS:
            return self._header_line(line, keyword, tokens[1:])
        read = _KEYWORD_LINES.get(keyword)
        if read is None:
            self._error(line, f"'{_show(tokens[0])}' cannot start a line")
            return None
        return read(self, line, tokens[1:])

    def _header_line(self, line: int, keyword: str, args: list[str]) -> ev.Event | None:
        if self._state != _HEADER:
            self._error(line, f"'{keyword}' belongs in the header, before the first round")
            return None
        if keyword in self._header_seen:
            self._error(line, f"a second '{keyword}' line")
            return None
        self._header_seen.add(keyword)
        if keyword == "players":
            self._players_seen = True
            names = tuple(args)
            for name in names:
                if not self._check_name(line, name):
                    return None
            return ev.Players(line, names)
        if keyword == "spec":
            if len(args) != 1:
                return self._arity(line, ev.SpecName)
            self._spec_name = args[0]
            return ev.SpecName(line, args[0])
        if keyword == "deck":
            self._deck = (line, args)  # read once the header has said which game it is
            return None
        if len(args) != 1:
            return self._arity(line, ev.Target)
        if not _POSITIVE.fullmatch(args[0]):
            self._error(line, f"target must be a whole number of at least 1, written plainly, not '{_show(args[0])}'")
            return None
        return ev.Target(line, int(args[0]))

    def _round_line(self, line: int, args: list[str]) -> ev.Event | None:
        state = self._state
        if state == _HEADER and not self._players_seen:
            self._error(line, "'players' must come before the first round")
        elif state in (_ROUND, _DEALER, _HANDS):
            self._error(line, "a 'round' line before the previous round's setup is complete")
        self._state = _ROUND
        self._public = False
        if len(args) != 1:
            return self._arity(line, ev.Round)
        if not _POSITIVE.fullmatch(args[0]):
            self._error(line, f"a round number is a whole number of at least 1, not '{_show(args[0])}'")
            return None
        return ev.Round(line, int(args[0]))

    def _dealer_line(self, line: int, args: list[str]) -> ev.Event | None:
        if self._state != _ROUND:
            return self._misplaced(line, "dealer", "right after its 'round' line")
        self._state = _DEALER
        if len(args) != 1:
            return self._arity(line, ev.Dealer)
        return ev.Dealer(line, args[0]) if self._check_name(line, args[0]) else None

    def _shuffle_line(self, line: int, args: list[str]) -> ev.Event | None:
        if self._state != _DEALER:
            return self._misplaced(line, "shuffle", "right after the 'dealer' line")
        self._state = _EVENTS
        cards = self._cards(line, args)
        return ev.Shuffle(line, cards) if cards is not None else None

    def _hand_line(self, line: int, args: list[str]) -> ev.Event | None:
        if self._state not in (_DEALER, _HANDS) or self._public:
            if self._public:
                return self._misplaced(line, "hand", "in an observed round: a public round's hands are hidden")
            return self._misplaced(line, "hand", "after the 'dealer' line, before 'start'")
        self._state = _HANDS
        if not args:
            return self._arity(line, ev.Hand)
        if not self._check_name(line, args[0]):
            return None
        cards = self._cards(line, args[1:])
        return ev.Hand(line, args[0], cards) if cards is not None else None

    def _public_line(self, line: int, args: list[str]) -> ev.Event | None:
        if self._state != _DEALER:
            return self._misplaced(line, "public", "right after the 'dealer' line, in place of 'shuffle' or the 'hand' lines")
        self._state = _HANDS
        self._public = True
        if args:
            return self._arity(line, ev.Public)
        return ev.Public(line)

    def _shows_line(self, line: int, args: list[str]) -> ev.Event | None:
        if not self._in_events(line, "shows"):
            return None
        if not args:
            return self._arity(line, ev.Shows)
        if not self._check_name(line, args[0]):
            return None
        faces = self._faces(line, args[1:])
        return ev.Shows(line, args[0], faces) if faces is not None else None

    def _start_line(self, line: int, args: list[str]) -> ev.Event | None:
        if self._state not in (_DEALER, _HANDS, _STARTS):
            return self._misplaced(line, "start", "after the 'hand' lines")
        self._state = _STARTS
        if len(args) != 1:
            return self._arity(line, ev.Start)
        cards = self._cards(line, args)
        return ev.Start(line, cards[0]) if cards is not None else None

    def _reshuffle_line(self, line: int, args: list[str]) -> ev.Event | None:
        if not self._in_events(line, "reshuffle"):
            return None
        cards = self._cards(line, args)
        return ev.Reshuffle(line, cards) if cards is not None else None

    def _in_events(self, line: int, what: str) -> bool:
        if self._state in (_EVENTS, _STARTS):
            self._state = _EVENTS
            return True
        if self._state == _HEADER:
            self._error(line, f"'{what}' before the first round")
        else:
            self._error(line, f"'{what}' before the round's cards are dealt")
        return False

    # -- events (a fast path for the common, already-validated forms; the slow path reports errors)

    def _fast_play(self, line: int, tokens: list[str]) -> ev.Event | None:
        if self._public:
            return None
        count = len(tokens)
        card = self._good_plays.get(tokens[2]) if count in (3, 4) else None
        if card is None:
            return None
        if count == 3:
            return ev.Play(line, tokens[0], card, None)
        colour = tokens[3]
        return ev.Play(line, tokens[0], card, colour) if colour in self._colours else None

    def _fast_draw(self, line: int, tokens: list[str]) -> ev.Event | None:
        if self._public:
            return None
        known = self._good_cards
        cards = []
        for token in tokens[2:]:
            card = known.get(token)
            if card is None:
                return None
            cards.append(card)
        return ev.Draw(line, tokens[0], tuple(cards))

    def _fast_pass(self, line: int, tokens: list[str]) -> ev.Event | None:
        return ev.Pass(line, tokens[0]) if len(tokens) == 2 else None

    def _event_line(self, line: int, player: str, verb: str, tokens: list[str]) -> ev.Event | None:
        """A player's line (the slow path, which reports errors): read by its verb's method (``_VERB_LINES``)."""
        if not self._check_name(line, player):
            return None
        if not self._in_events(line, f"{player} {verb}"):
            return None
        return _VERB_LINES[verb](self, line, player, verb, tokens[2:])

    def _plays_line(self, line: int, player: str, verb: str, args: list[str]) -> ev.Event | None:
        doubles = self.form.doubles
        if not args or len(args) > 2 and not doubles:
            if doubles:
                self._error(line, "wrong number of words: the line is 'P plays CARD [CARD ...] [COLOUR]'")
                return None
            return self._arity(line, ev.Play)
        card = self._played(line, args[0])
        if card is None:
            return None
        rest = args[1:]
        colour = None
        if rest and (not doubles or rest[-1].lower() in self._colours):  # without doubles a second word is a colour
            colour = rest.pop().lower()
            if colour not in self._colours:
                self._error(line, f"'{_show(args[-1])}' is not a colour")
                return None
        also = []
        for token in rest:  # doubles: the cards played with the first
            other = self._played(line, token)
            if other is None:
                return None
            also.append(other)
        return ev.Play(line, player, card, colour, tuple(also))

    def _played(self, line: int, token: str) -> str | None:
        """A card of a ``plays`` line: a face or, outside a public round, a physical card."""
        card = token.lower()
        if self._public and "/" in card:
            self._error(line, f"'{_show(token)}' is a physical card: a public round's play names the face in play")
            return None
        if self.form.pairs and not (_FACE.fullmatch(card) or _CARD.fullmatch(card)):
            fixed = card.replace("_", "-")
            hint = f" (did you mean '{fixed}'?)" if _FACE.fullmatch(fixed) or _CARD.fullmatch(fixed) else ""
            self._error(line, f"'{_show(token)}' is not written as a face (red-7) or a card (red-7/teal-3){hint}")
            return None
        if len(self._good_plays) < 10_000 and not self._public:
            self._good_plays[token] = card
        return card

    def _draws_line(self, line: int, player: str, verb: str, args: list[str]) -> ev.Event | None:
        if not self._public:
            cards = self._cards(line, args)
            return ev.Draw(line, player, cards) if cards is not None else None
        if not args:
            return ev.Draw(line, player, ())
        if len(args) != 1 or not _POSITIVE.fullmatch(args[0]):
            if len(args) == 1 and args[0] == "0":
                self._error(line, f"a public draw is of at least 1 card: '{_DRAW_COUNT}' (a bare 'P draws' when nothing is left)")
            else:
                self._error(line, f"a public round's draw is a count, not cards: '{_DRAW_COUNT}', not '{_show(' '.join(args))}'")
            return None
        return ev.DrawCount(line, player, int(args[0]))

    def _passes_line(self, line: int, player: str, verb: str, args: list[str]) -> ev.Event | None:
        return ev.Pass(line, player) if not args else self._arity(line, ev.Pass)

    def _chooses_line(self, line: int, player: str, verb: str, args: list[str]) -> ev.Event | None:
        if len(args) != 1:
            return self._arity(line, ev.Choose)
        colour = args[0].lower()
        if colour not in self._colours:
            self._error(line, f"'{_show(args[0])}' is not a colour")
            return None
        return ev.Choose(line, player, colour)

    def _calls_line(self, line: int, player: str, verb: str, args: list[str]) -> ev.Event | None:
        if len(args) == 1 and args[0].lower() != "uno" and args[0].lower().strip("!.") == "uno":
            self._error(line, f"'{_show(args[0])}' is written 'uno': the line is 'P calls uno'")
            return None
        if len(args) != 1 or args[0].lower() != "uno":
            return self._arity(line, ev.Call)
        return ev.Call(line, player)

    def _names_line(self, line: int, player: str, verb: str, args: list[str]) -> ev.Event | None:
        """``P catches Q``, ``P challenges Q``, ``P swaps Q``: a verb and the player it is aimed at."""
        record = _AIMED[verb]
        if len(args) != 1:
            return self._arity(line, record)
        if not self._check_name(line, args[0]):
            return None
        return record(line, player, args[0])  # type: ignore[no-any-return]

    def _shuffles_line(self, line: int, player: str, verb: str, args: list[str]) -> ev.Event | None:
        cards = self._cards(line, args)
        return ev.ShuffleHands(line, player, cards) if cards is not None else None

    def _scores_line(self, line: int, player: str, verb: str, args: list[str]) -> ev.Event | None:
        if len(args) != 1:
            return self._arity(line, ev.Score)
        if not _NATURAL.fullmatch(args[0]):
            self._error(line, f"points must be a whole number written plainly, not '{_show(args[0])}'")
            return None
        return ev.Score(line, player, int(args[0]))

    # -- tokens

    def _check_name(self, line: int, name: str) -> bool:
        if name in self._good_names:
            return True
        problem = name_problem(name)
        if problem is not None:
            self._error(line, problem)
            return False
        if len(self._good_names) < 1000:
            self._good_names.add(name)
        return True

    def _cards(self, line: int, tokens: list[str]) -> tuple[str, ...] | None:
        known = self._good_cards
        cards = []
        for token in tokens:
            card = known.get(token)
            if card is None:
                card = token.lower()
                if self.form.pairs and not _CARD.fullmatch(card):
                    counted = "; a count of cards ('draws 6') is written only in a public round" if card.isdigit() else ""
                    self._error(line, f"'{_show(token)}' is not a physical card written LIGHT/DARK (e.g. red-7/teal-3){counted}")
                    return None
                if len(known) < 10_000:
                    known[token] = card
            cards.append(card)
        return tuple(cards)

    def _faces(self, line: int, tokens: list[str]) -> tuple[str, ...] | None:
        """The faces of a ``shows`` line: faces, never physical cards (``LIGHT/DARK``)."""
        faces = []
        for token in tokens:
            face = token.lower()
            if "/" in face or not _FACE.fullmatch(face):
                what = "a physical card" if _CARD.fullmatch(face) else "not a face"
                self._error(line, f"'{_show(token)}' is {what}: a 'shows' line lists faces on the side in play (red-7)")
                return None
            faces.append(face)
        return tuple(faces)

    def _arity(self, line: int, record: type) -> ev.Event | None:
        """Too few or too many words: the line's form, as its kind states it (``EventKind.form``)."""
        self._error(line, f"wrong number of words: the line is '{ev.KINDS[record].form}'")
        return None

    def _misplaced(self, line: int, what: str, where: str) -> ev.Event | None:
        self._error(line, f"'{what}' out of place: it comes {where}")
        return None


_WIDE_MARKS = ((b"\xff\xfe\x00\x00", "UTF-32LE"), (b"\x00\x00\xfe\xff", "UTF-32BE"), (b"\xff\xfe", "UTF-16LE"), (b"\xfe\xff", "UTF-16BE"))
_CONVERT = "iconv -f {0} -t UTF-8 game.log > game-utf8.log; in PowerShell: Get-Content game.log | Set-Content -Encoding utf8 game-utf8.log"


# Each verb's reader of a player's line (``LogReader._event_line``).
_VERB_LINES: dict[str, Callable[[LogReader, int, str, str, list[str]], ev.Event | None]] = {
    ev.Verb.PLAYS: LogReader._plays_line,
    ev.Verb.DRAWS: LogReader._draws_line,
    ev.Verb.PASSES: LogReader._passes_line,
    ev.Verb.CHOOSES: LogReader._chooses_line,
    ev.Verb.CALLS: LogReader._calls_line,
    ev.Verb.CATCHES: LogReader._names_line,
    ev.Verb.CHALLENGES: LogReader._names_line,
    ev.Verb.SWAPS: LogReader._names_line,
    ev.Verb.SHUFFLES: LogReader._shuffles_line,
    ev.Verb.SCORES: LogReader._scores_line,
}
# The kinds of line a verb aims at a player with (``LogReader._names_line``).
_AIMED: dict[str, type] = {ev.Verb.CATCHES: ev.Catch, ev.Verb.CHALLENGES: ev.Challenge, ev.Verb.SWAPS: ev.Swap}
_DRAW_COUNT = ev.KINDS[ev.DrawCount].form
# Each keyword line's reader (``LogReader._keyword_line``), the header's excepted.
_KEYWORD_LINES: dict[str, Callable[[LogReader, int, list[str]], ev.Event | None]] = {
    "round": LogReader._round_line,
    "dealer": LogReader._dealer_line,
    "shuffle": LogReader._shuffle_line,
    "hand": LogReader._hand_line,
    "public": LogReader._public_line,
    "shows": LogReader._shows_line,
    "start": LogReader._start_line,
    "reshuffle": LogReader._reshuffle_line,
}


def wide_encoding(start: bytes) -> str | None:
    """UTF-16 or UTF-32 (what Windows PowerShell 5's ``>`` writes), told by a byte-order mark or by NULs every other (or
    every fourth) byte at the start; None for anything else (UTF-8, or bytes that are no text at all)."""
    for mark, name in _WIDE_MARKS:
        if start.startswith(mark):
            return name
    sample = start[:64]
    if len(sample) < 8:
        return None
    if not any(byte for index, byte in enumerate(sample[: len(sample) // 4 * 4]) if index % 4) and all(sample[0::4]):
        return "UTF-32LE"
    if not any(sample[1::2]) and all(sample[0::2]):
        return "UTF-16LE"
    if not any(sample[0::2]) and all(sample[1::2]):
        return "UTF-16BE"
    return None


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's name in a log (None if it can): the one rule the reader and the library share."""
    if not _NAME.fullmatch(name):
        return f"'{_show(name)}' is not a player name (a letter, then up to 31 letters, digits or _)"
    if name.lower() in RESERVED:
        return f"'{_show(name)}' is a reserved word and cannot be a player name"
    return None


def _show(token: str) -> str:
    """A token as it may be echoed: control characters escaped, long ones cut."""
    shown = escape(token)
    return shown if len(shown) <= 40 else shown[:37] + "..."
