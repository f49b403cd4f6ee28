"""Events -> verdict: drive the log reader and the engine over one log, streaming.

Parsing and replay run in one pass so that memory does not grow with the log;
syntax errors still win: when the reader finds any, the verdict holds exactly
those (the format says they are found before replay), and replay results are
discarded.
"""

from __future__ import annotations

import errno
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from referee.engine.engine import Engine
from referee.errors import InputError, Position, ReportedError, SpecError, escape
from referee.log import events as ev
from referee.log.inputs import LogSource
from referee.log.reader import COLOURS, PAIRS, CardForm, LogReader
from referee.rules.compiler import Rules, load_rules
from referee.spec.extends import default_spec_name, resolve_spec
from referee.spec.vocabulary import Check
from referee.verdicts import Code, Consistency, Diagnostic, FileVerdict

if TYPE_CHECKING:  # a public round's modules load when a log has one: a full-mode check does not pay for them
    from referee.public.rounds import Branches

DEFAULT_TIMEOUT = 60.0  # seconds for the solver on one log's public rounds (check --timeout)
UNJUDGED = CardForm(pairs=False)  # the card form while the log's spec cannot be read
_HEADER_TYPES = (ev.Players, ev.SpecName, ev.Deck, ev.Target)


def rules_for(spec_name: str | None, relative_to: Path | None, spec_override: Path | None, roots: tuple[Path, ...] = ()) -> Rules:
    """The compiled rules a log asks for (``--spec`` wins over the log's ``spec`` line).

    The log's line may name a shipped spec or a file in the log's folder tree
    or in ``roots`` (``--spec-path``) only: a log decides no file outside them.
    """
    if spec_override is not None:
        return load_rules(spec_override, roots)
    return load_rules(resolve_spec(spec_name or default_spec_name(), relative_to, roots, confined=True), roots)


class Replay:
    """One log's replay; ``engine`` is available after the header for ``explain``/``adjudicate``."""

    def __init__(
        self,
        display_path: str,
        base_dir: Path | None,
        spec_override: Path | None = None,
        stop_at_line: int | None = None,
        on_event: Callable[[Engine, ev.Event], None] | None = None,
        after_event: Callable[[Engine, ev.Event, Diagnostic | None], None] | None = None,
        continue_after: frozenset[str] = frozenset(),
        record_disputes: bool = False,
        spec_roots: tuple[Path, ...] = (),
        timeout: float = DEFAULT_TIMEOUT,
        witness: bool = False,
        answers: bool = True,
        rules: Rules | None = None,
    ) -> None:
        self.display_path = display_path
        self.rules = rules  # compiled rules to judge by, whatever the log's spec line says (``referee diff``)
        self.base_dir = base_dir
        self.spec_roots = spec_roots
        self.spec_override = spec_override
        self.stop_at_line = stop_at_line
        self.on_event = on_event
        self.after_event = after_event
        self.continue_after = continue_after
        self.record_disputes = record_disputes
        self.engine: Engine | None = None
        self.verdict = FileVerdict(path=display_path)
        self.reader = LogReader(self._card_form)
        self._header_rules: tuple[str | None, Rules] | None = None
        self.stopped_event: ev.Event | None = None
        self.timeout = timeout  # seconds the solver may spend on the log's public rounds, in all
        self.want_witness = witness
        self.want_answers = answers  # the hidden hands' answers on wild draw cards (JSON, adjudicate): extra solving
        self.branches: Branches | None = None  # the public round being replayed, if any
        self.round_started = 0.0  # when it began (time.monotonic()): its replays count against ``timeout``
        self.halted = False  # a public round could not be settled: nothing after it is judged
        self.header: list[ev.Event] = []  # the header lines, once replay has started

    def _card_form(self, spec_name: str | None) -> CardForm:
        """How the log's game writes cards (asked by the reader when the header ends); an unusable spec is reported
        when replay starts, as the log's error."""
        try:
            rules = self._rules_for(spec_name)
            self._header_rules = (spec_name, rules)  # _start uses them: the spec is resolved once per log
        except (SpecError, OSError):
            return UNJUDGED  # the spec's problem is the one to report: no card is a syntax error for want of it
        return card_form(rules)

    def _rules_for(self, spec_name: str | None) -> Rules:
        return self.rules if self.rules is not None else rules_for(spec_name, self.base_dir, self.spec_override, self.spec_roots)

    def run_source(self, source: LogSource) -> FileVerdict:
        """Replay a log file or standard input; a log that cannot be read, or whose spec is invalid, raises.

        ``InputError`` for a read failure, ``ReportedError`` (already rendered) for an unusable spec.
        """
        stream = source.open()
        try:
            verdict = self.run(stream)
        except OSError as error:
            raise InputError(f"cannot read: {read_problem(source, error)}", Position(source.display)) from None
        finally:
            if not source.is_stdin:
                stream.close()
        if verdict.input_error is not None:
            raise ReportedError(verdict.input_error)
        return verdict

    def run(self, stream: BinaryIO) -> FileVerdict:
        reader = self.reader
        header: list[ev.Event] = []
        stopped = False
        events = reader.events(stream)
        syntax_errors = reader.errors
        plain = self.stop_at_line is None and self.on_event is None and self.after_event is None
        for event in events:
            if stopped or syntax_errors:
                stopped = True
                continue
            if plain and self.engine is not None:
                stopped = self._replay_rest(event, events, syntax_errors)
                continue
            if self.engine is None:
                if isinstance(event, _HEADER_TYPES):
                    header.append(event)
                    continue
                if not self._start(header):
                    stopped = True
                    continue
            stopped = self._watched(event)
        if self.engine is None and not stopped and not reader.errors and header:
            self._start(header)
        if self.branches is not None and not reader.errors and not stopped:
            diagnostic = self._judge()
            if diagnostic is not None:
                self.verdict.errors.append(diagnostic)
        return self._verdict()

    def _watched(self, event: ev.Event) -> bool:
        """One event replayed for a caller who watches (``explain``, ``view``, a stop line): whether to stop here."""
        assert self.engine is not None
        if self.stop_at_line is not None and event.line >= self.stop_at_line:
            self.stopped_event = event
            return True
        if self.on_event is not None:
            self.on_event(self.engine, event)
        diagnostic = self._apply(event)
        if self.halted:
            return True
        if self.after_event is not None:
            self.after_event(self.engine, event, diagnostic)
        if diagnostic is not None:
            self.verdict.errors.append(diagnostic)
            return diagnostic.code not in self.continue_after
        return False

    def _verdict(self) -> FileVerdict:
        """The verdict once the log is read: its syntax errors alone if it has any, else the engine's findings, with
        the rules they cite."""
        verdict, reader = self.verdict, self.reader
        verdict.lines = reader.lines
        if reader.errors:
            verdict.input_error = None
            rules = self.engine.rules if self.engine is not None else rules_for(None, None, None)
            rule = rules.check_rules[Check.SYNTAX].id  # before the header is read, the default spec's rule
            verdict.errors = [Diagnostic(problem.line, Code.SYNTAX, problem.message, rule) for problem in reader.errors]
            if reader.error_count > len(reader.errors):
                verdict.errors[-1] = Diagnostic(
                    verdict.errors[-1].line,
                    Code.SYNTAX,
                    verdict.errors[-1].message + f" (and {reader.error_count - len(reader.errors)} more syntax errors not listed)",
                    rule,
                )
            verdict.warnings = []
            verdict.rounds = []
            verdict.game_winner = None
            if self.engine is not None:
                _cite(verdict, self.engine.rules)
            return verdict
        if self.engine is not None:
            verdict.warnings = sorted(self.engine.warnings, key=lambda warning: warning.line)
            verdict.rounds = list(self.engine.rounds)
            verdict.game_winner = self.engine.state.game_winner
            _cite(verdict, self.engine.rules)
        return verdict

    def _replay_rest(self, first: ev.Event, events: Iterator[ev.Event], syntax_errors: list[Any]) -> bool:
        """The hot loop, once the header is done and nobody is watching: apply events until one is illegal."""
        assert self.engine is not None
        errors = self.verdict.errors
        apply = self.engine.apply if type(first) is not ev.Public else self._apply
        diagnostic = apply(first)
        if diagnostic is not None or self.halted:
            if diagnostic is not None:
                errors.append(diagnostic)
            return True
        for event in events:
            if syntax_errors:
                return True
            if type(event) is ev.Public:
                apply = self._apply  # from the first public round on, each line may have more than one replay
            diagnostic = apply(event)
            if diagnostic is not None or self.halted:
                if diagnostic is not None:
                    errors.append(diagnostic)
                return True
        return False

    def _apply(self, event: ev.Event) -> Diagnostic | None:
        """Apply one event; in a public round, to each of its branches (``referee.public.rounds``), judging the round
        when it is over or when no branch survives a line."""
        engine = self.engine
        assert engine is not None
        if self.branches is not None:
            if type(event) is not ev.Round:
                if self.branches.apply(event):
                    return None
                return self._judge()
            failure = self._judge()
            if failure is not None or self.halted:
                return failure
        diagnostic = engine.apply(event)
        if diagnostic is None and type(event) is ev.Public:  # the log's time left bounds the round's replays too
            from referee.public.rounds import Branches

            self.branches = Branches(engine, time.monotonic() + max(0.001, self.timeout))
            self.branches.events.append(event)
            self.round_started = time.monotonic()
        return diagnostic

    def _judge(self) -> Diagnostic | None:
        """Settle the public round just replayed: go on from a consistent branch, or say where it fails."""
        branches = self.branches
        engine = self.engine
        assert branches is not None and engine is not None
        self.branches = None
        from referee.public.rounds import judge_round, rule_of

        outcome = judge_round(branches, max(0.001, self.timeout), self.want_witness, rule_of(engine.rules), self.want_answers)
        self.timeout -= time.monotonic() - self.round_started  # the replays and the judgement: one budget for the log
        verdict = self.verdict
        if outcome.undetermined is not None:
            verdict.consistency = Consistency.UNDETERMINED
            verdict.undetermined = outcome.undetermined
            self.halted = True
            return None
        if outcome.diagnostic is not None:
            if outcome.diagnostic.code == Code.INCONSISTENT:
                verdict.consistency = Consistency.INCONSISTENT
            return outcome.diagnostic
        assert outcome.chosen is not None
        branches.restore(outcome.chosen)
        verdict.consistency = verdict.consistency or Consistency.CONSISTENT
        verdict.answers.extend(outcome.answers)
        verdict.witness.update(outcome.witness)
        return None

    def _start(self, header: list[ev.Event]) -> bool:
        """Resolve the spec, build the engine and apply the header lines in order."""
        spec_name = next((event for event in header if isinstance(event, ev.SpecName)), None)
        try:
            name = spec_name.name if spec_name else None
            known = self._header_rules
            rules = known[1] if known is not None and known[0] == name else self._rules_for(name)
        except SpecError as error:
            if spec_name is not None and self.spec_override is None and error.position and error.position.path == spec_name.name:
                message = f"{Position(self.display_path, spec_name.line)}: error: {error.message}"
            else:
                message = error.render()
            self.verdict.input_error = message
            return False
        self.engine = Engine(rules, record_disputes=self.record_disputes)
        self.header = list(header)
        for event in sorted(header, key=lambda event: event.line):
            diagnostic = self.engine.apply(event)
            if diagnostic is not None:
                self.verdict.errors.append(diagnostic)
                return False
        return True


def card_form(rules: Rules) -> CardForm:
    """A game of two sides writes a physical card ``LIGHT/DARK``; a game of one side writes the face. Colour words are
    the format's eight and the spec's own."""
    colours = COLOURS | {colour for side in rules.spec.colours for colour in side}
    used = {effect.name for kind in rules.spec.kinds for effect in kind.effects}
    verbs = frozenset(kind.keyword for kind in ev.KINDS.values() if kind.effect is not None and kind.effect in used)
    if colours == COLOURS and rules.spec.sides > 1 and not verbs and not rules.doubles:
        return PAIRS
    return CardForm(pairs=rules.spec.sides > 1, colours=frozenset(colours), effect_verbs=verbs, doubles=rules.doubles)


def _cite(verdict: FileVerdict, rules: Rules) -> None:
    """Keep the summary and citation of each rule the verdict names (SARIF describes its rules)."""
    for diagnostic in (*verdict.errors, *verdict.warnings):
        rule = rules.rules_by_id.get(diagnostic.rule)
        if rule is not None and diagnostic.rule not in verdict.rule_texts:
            verdict.rule_texts[diagnostic.rule] = (rule.summary, rule.citation.render(rules.spec.sources))


def check_stream(
    stream: BinaryIO,
    display_path: str,
    base_dir: Path | None,
    spec_override: Path | None = None,
    spec_roots: tuple[Path, ...] = (),
    timeout: float = DEFAULT_TIMEOUT,
    witness: bool = False,
    answers: bool = True,
) -> FileVerdict:
    """Replay one log from a binary stream (``timeout``: the solver's seconds for its public rounds; ``witness``:
    keep an assignment of their hidden cards, ``FileVerdict.witness``; ``answers``: say what the hidden hands
    determine of each wild draw card, ``FileVerdict.answers``)."""
    replay = Replay(display_path, base_dir, spec_override, spec_roots=spec_roots, timeout=timeout, witness=witness, answers=answers)
    return replay.run(stream)


def check_source(
    source: LogSource,
    spec_override: Path | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    witness: bool = False,
    answers: bool = True,
    expect: bool = False,
) -> FileVerdict:
    """Replay one log (file or standard input); an unreadable one becomes the verdict's ``input_error``. ``expect``:
    also note the log's ``# expect:`` comments (``FileVerdict.expected``), from the same bytes."""
    if source.problem is not None:
        return FileVerdict(source.display, input_error=f"{source.display}: error: {source.problem}")
    try:
        stream = source.open()
    except InputError as error:
        return FileVerdict(source.display, input_error=error.render())
    try:
        if expect:
            return _check_expected(stream, source, spec_override, timeout, answers)
        return check_stream(stream, source.display, source.base_dir, spec_override, source.spec_roots, timeout, witness, answers)
    except OSError as error:
        return FileVerdict(source.display, input_error=f"{source.display}: error: cannot read: {read_problem(source, error)}")
    finally:
        if not source.is_stdin:
            stream.close()


def _check_expected(stream: BinaryIO, source: LogSource, spec_override: Path | None, timeout: float, answers: bool) -> FileVerdict:
    from referee.checking.expectations import tapped

    read, tap = tapped(stream)
    verdict = check_stream(read, source.display, source.base_dir, spec_override, source.spec_roots, timeout, False, answers)
    tap.drain()
    verdict.expected = tap.expectations()
    return verdict


def read_problem(source: LogSource, error: OSError) -> str:
    """Why a log could not be read, in words (a closed standard input says so)."""
    if source.is_stdin and error.errno == errno.EBADF:
        return "standard input is closed"
    return error.strerror or str(error)


def check_path(path: Path, display_path: str | None = None, spec_override: Path | None = None) -> FileVerdict:
    """Replay one log file (``-`` is standard input); an unreadable file becomes the verdict's ``input_error``."""
    if str(path) == "-":
        return check_source(LogSource("-", None), spec_override)
    return check_source(LogSource(display_path if display_path is not None else escape(str(path)), path), spec_override)
