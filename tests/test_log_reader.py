"""The lexical and structural rules of the log format (all reported as 'syntax', all at once)."""

from __future__ import annotations

import pytest

from helpers import HANDS_2P, check_bytes, check_text, codes


def test_valid_prefix_is_valid() -> None:
    verdict = check_text(HANDS_2P + "Ann plays red-1\n")
    assert verdict.valid and verdict.rounds[0].finished is False


def test_bom_and_crlf_and_comments_and_tabs() -> None:
    text = ("\ufeff" + HANDS_2P + "Ann\tplays   RED-1   # a comment\n\n# only a comment\n").replace("\n", "\r\n")
    assert check_text(text).valid


def test_bom_only_at_start() -> None:
    verdict = check_text(HANDS_2P + "\ufeffAnn plays red-1\n")
    assert codes(verdict) == [(7, "syntax")]


def test_bad_utf8_is_reported_on_its_line() -> None:
    data = HANDS_2P.encode() + b"Ann plays red-1 \xff\n"
    assert codes(check_bytes(data)) == [(7, "syntax")]


def test_lone_carriage_return_and_odd_spaces_are_syntax() -> None:
    assert codes(check_text(HANDS_2P + "Ann plays red-1\r\n")) == []
    assert codes(check_text(HANDS_2P + "Ann plays\u00a0red-1\n")) == [(7, "syntax")]
    assert codes(check_text(HANDS_2P + "Ann plays\x0bred-1\n")) == [(7, "syntax")]


def test_overlong_line_is_bounded_and_reported() -> None:
    data = HANDS_2P.encode() + b"Ann plays " + b"x" * 200_000 + b"\nAnn plays red-1\n"
    verdict = check_bytes(data)
    assert codes(verdict) == [(7, "syntax")]
    assert "longer than" in verdict.errors[0].message


def test_all_syntax_errors_at_once_and_no_replay() -> None:
    verdict = check_text(HANDS_2P + "Bob plays red-2\nAnn plays red-1 notacolour\nAnn hops\n")
    assert codes(verdict) == [(8, "syntax"), (9, "syntax")]
    assert verdict.rounds == [] and verdict.warnings == []


@pytest.mark.parametrize(
    ("line", "ok"),
    [
        ("target 200", True),
        ("target 0200", False),
        ("target 0", False),
        ("target ١٢٣", False),
        ("target 1_000", False),
        ("target 1234567", False),
    ],
)
def test_numbers_are_plain_decimal(line: str, ok: bool) -> None:
    verdict = check_text("players Ann Bob\n" + line + "\n")
    assert verdict.valid is ok


@pytest.mark.parametrize("name", ["red", "PLAYS", "Uno", "1abc", "a" * 33, "Ann-B"])
def test_bad_player_names(name: str) -> None:
    assert codes(check_text(f"players {name} Bob\n")) == [(1, "syntax")]


def test_wild_is_not_reserved() -> None:
    assert check_text("players wild Bob\n").valid


def test_empty_and_comment_only_files() -> None:
    assert codes(check_text("")) == [(1, "syntax")]
    assert codes(check_text("# nothing\n\n")) == [(1, "syntax")]


@pytest.mark.parametrize(
    "tail",
    [
        "players Ann Cat\n",  # header twice / after round
        "Ann passes extra\n",  # arity
        "Ann calls dos\n",  # calls needs 'uno'
        "Ann scores -1\n",  # not a number
        "Ann draws red-1\n",  # a physical card is required
        "reshuffle red-1/pink-3/x\n",
        "hand Ann red-1/pink-3\n",  # hand after start
        "dealer Bob\n",
    ],
)
def test_structure_and_forms(tail: str) -> None:
    assert codes(check_text(HANDS_2P + tail)) == [(7, "syntax")]


def test_keywords_colours_and_cards_are_case_insensitive() -> None:
    verdict = check_text(HANDS_2P.replace("hand Ann", "HAND Ann") + "Ann PLAYS Red-1/PINK-3\n")
    assert verdict.valid


def test_truncated_log_is_valid_so_far() -> None:
    verdict = check_text(HANDS_2P[:-1])
    assert verdict.valid and verdict.rounds and verdict.rounds[0].finished is False


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_a_utf16_or_utf32_log_is_one_line_that_says_so(encoding: str) -> None:
    """Issue 18: what Windows PowerShell 5's ``>`` writes gave 24 lines of 'not valid UTF-8' and NUL characters."""
    verdict = check_bytes("players Ann Bob\r\nround 1\r\ndealer Bob\r\n".encode(encoding))
    (error,) = verdict.errors
    assert error.line == 1 and "text, not UTF-8: convert it first (iconv -f UTF-" in error.message
    assert ("UTF-32" if "32" in encoding else "UTF-16") in error.message


def test_plain_bytes_are_not_taken_for_utf16() -> None:
    from referee.log.reader import wide_encoding

    assert wide_encoding(b"players Ann Bob\n") is None
    assert wide_encoding(b"\x00" * 40) is None
    assert wide_encoding("players Ann".encode("utf-16-le")) == "UTF-16LE"


def test_every_event_kind_is_written_as_it_is_read() -> None:
    """The writer (one line per event type, looked up by type) covers every kind of event, and reading what it writes
    gives the same events: full games of three specs (seven swaps included) and their public records."""
    import io
    import typing

    from referee.checking.replay import card_form
    from referee.engine.moves import at_line
    from referee.log import events as ev
    from referee.log.reader import LogReader
    from referee.log.writer import format_event
    from referee.play.simulate import simulate_events
    from referee.public.projection import public_record
    from referee.rules.compiler import load_rules
    from referee.spec.paths import shipped_spec_path

    seen: set[type] = set()
    games = (
        ("uno", 4, 11, "full"),
        ("uno", 3, 1, "observed"),
        ("uno-flip", 2, 2, "full"),
        ("uno-seven-zero", 4, 3, "full"),
        ("uno-2018", 4, 1, "full"),
    )
    for spec, players, seed, mode in games:
        path = shipped_spec_path(spec)
        assert path is not None
        rules = load_rules(path)
        full = list(simulate_events(rules, players, seed, mode, spec_line=spec, max_rounds=6, target=200))
        for events in (full, list(public_record(full, rules))):
            text = "".join(format_event(event) + "\n" for event in events)
            reader = LogReader(lambda _name, rules=rules: card_form(rules))  # type: ignore[misc]
            again = sorted(reader.events(io.BytesIO(text.encode())), key=lambda event: event.line)  # the deck comes late
            assert not reader.errors, (spec, reader.errors[:3])
            assert [at_line(event, 0) for event in again] == [at_line(event, 0) for event in events]
            seen |= {type(event) for event in events}
    assert seen == set(typing.get_args(ev.Event))


def test_every_verb_and_keyword_has_its_reader() -> None:
    """The reader's lines are read by tables (a method per verb and per keyword): none is left out."""
    from referee.log import reader as log_reader

    assert set(log_reader._VERB_LINES) == log_reader.VERBS
    assert set(log_reader._KEYWORD_LINES) | log_reader.HEADER_KEYWORDS | {"uno"} == log_reader.KEYWORDS


# A line of each kind with a word too many (or too few), and where it goes: after the hands, or in the header.
WRONG_ARITY = {
    "SpecName": ("spec uno-flip extra", "header"),
    "Target": ("target 500 points", "header"),
    "Round": ("round", "events"),
    "Dealer": ("dealer Ann Bob", "round"),
    "Hand": ("hand", "dealer"),
    "Public": ("public now", "dealer"),
    "Start": ("start red-9/purple-5 red-1/pink-3", "hands"),
    "Shows": ("shows", "events"),
    "Play": ("Ann plays red-1 red green", "events"),
    "Pass": ("Ann passes now", "events"),
    "Choose": ("Ann chooses", "events"),
    "Call": ("Ann calls", "events"),
    "Catch": ("Ann catches", "events"),
    "Challenge": ("Ann challenges Bob Bob", "events"),
    "Swap": ("Ann swaps", "events"),
    "Score": ("Ann scores", "events"),
}


@pytest.mark.parametrize("record", sorted(WRONG_ARITY))
def test_a_line_of_the_wrong_length_is_told_its_kinds_form(record: str) -> None:
    """The reader quotes each kind's grammar from its one definition (``EventKind.form``)."""
    from referee.log import events as ev

    kind = ev.KINDS[getattr(ev, record)]
    line, where = WRONG_ARITY[record]
    header, rest = HANDS_2P.split("round 1\n")
    prefix = {
        "header": "players Ann Bob\n",
        "round": header + "round 1\n",
        "dealer": header + "round 1\ndealer Bob\n",
        "hands": HANDS_2P.rsplit("start", 1)[0],
        "events": HANDS_2P,
    }[where]
    verdict = check_text(prefix + line + "\n")
    number = prefix.count("\n") + 1
    assert (number, "syntax") in codes(verdict)
    messages = [error.message for error in verdict.errors if error.line == number]
    assert f"wrong number of words: the line is '{kind.form}'" in messages, messages


def test_every_kind_states_its_form_beginning_with_its_word() -> None:
    from referee.log import events as ev

    for kind in ev.KINDS.values():
        words = kind.form.split()
        assert words and kind.keyword in (words[0], words[1] if len(words) > 1 else ""), kind
