"""A comparison rendered at the edge: as text for a person, as JSON for a program (docs/json.md)."""

from __future__ import annotations

import os
import re

from referee.diff.compare import Comparison, Conclusion, Named, ShownGame, where
from referee.diff.declared import ABSENT, Difference

WIDE = 72  # a value longer than this is cut in text (JSON keeps it whole)
TAIL = 4  # the last lines of a game shown in text
WHOLE = 12  # a game this short is shown whole


def file_name(number: int, item: str) -> str:
    """The file a game is written to in ``--out``: its number and its item, in letters a file name keeps."""
    return f"{number:02d}-{re.sub(r'[^A-Za-z0-9.-]+', '-', item)}.log"


def _cut(text: str, width: int = WIDE) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def _apart(a: str, b: str, width: int = 40) -> tuple[str, str]:
    """Two values as text, each at most ``width`` characters, cut so that where they differ shows: a long beginning
    they share is left out (``...``) up to ten characters before their first difference, so no change prints as two
    equal strings."""
    if len(a) <= width and len(b) <= width:
        return a, b
    shared = len(os.path.commonprefix([a, b]))
    start = shared - 10 if shared > 10 else 0
    return _window(a, start, width), _window(b, start, width)


def _window(text: str, start: int, width: int) -> str:
    head = "..." if start else ""
    return head + _cut(text[start:], width - len(head))


def _declared_line(difference: Difference, a: Named, b: Named) -> str:
    places = [
        f"{spec.name}: {where(position) or 'not written (the default)' if value != ABSENT else 'not there'}"
        for spec, position, value in ((a, difference.a_at, difference.a), (b, difference.b_at, difference.b))
    ]
    shown_a, shown_b = _apart(difference.a, difference.b)
    return f"  {difference.item}: {shown_a} -> {shown_b}  ({'; '.join(places)})"


def _game_lines(shown: ShownGame, file: str | None) -> list[str]:
    accepted, rejected = shown.accepted_by.name, shown.rejected_by.name
    also = f" (and {len(shown.items) - 1} items that move only with it: {', '.join(shown.items[1:])})" if len(shown.items) > 1 else ""
    lines = [
        f"  {shown.item}{also}: {shown.lines} lines, {shown.players} players; {accepted} accepts it, {rejected} rejects line {shown.line}",
        f"    {rejected}, line {shown.line}: {shown.code}: {shown.message}",
        f"      rule {shown.rejecting_rule.id}: {shown.rejecting_rule.summary}".rstrip(": "),
    ]
    if shown.accepting_rule is not None:
        lines.append(f"    {accepted}, line {shown.line}: legal under rule {shown.accepting_rule.id}: {shown.accepting_rule.summary}")
    else:
        lines.append(f"    {accepted}, line {shown.line}: legal (no rule of {accepted} forbids it)")
    log = shown.log.splitlines()
    shown_lines = log if len(log) <= WHOLE else log[-TAIL:]
    lines.append("    the game:" if len(log) <= WHOLE else "    the game's last lines:")
    lines.extend(f"    {number:>5}  {_cut(text, WIDE)}" for number, text in enumerate(shown_lines, start=len(log) - len(shown_lines) + 1))
    if file:
        lines.append(f"    the whole game: {file}")
    else:
        lines.append("    (--out DIR writes it as a log)" if len(log) <= WHOLE else "    (--out DIR writes the whole game)")
    return lines


def _conclusion(comparison: Comparison) -> str:
    a, b = comparison.a.name, comparison.b.name
    seconds = f"{comparison.seconds:.3f} s"
    if comparison.status is Conclusion.SAME:
        return (
            f"{a} and {b} accept the same games: every item their engines read is equal, so they decide every line "
            f"alike (proved for every player count and every length of game; {seconds})"
        )
    if comparison.status is Conclusion.DIFFERENT:
        shown = sum(len(game.items) for game in comparison.games)
        text = f"{a} and {b} accept different games: {shown} difference{'s' if shown != 1 else ''} in play shown by a game"
        claims = len(comparison.solver.claims) if comparison.solver is not None else 0
        if claims:
            text += f", {claims} claim{'s' if claims != 1 else ''} of the rulebook answered differently by the solver"
        if comparison.unshown:
            text += f"; neither a game nor a claim shows {', '.join(comparison.unshown)}"
        return text + f" ({seconds})"
    return (
        f"undecided: {a} and {b} differ in {', '.join(comparison.unshown)}, which the engine reads, but no game showing "
        f"it was found (the search's games or --timeout, {comparison.timeout:g} s each, ran out) and no claim of the "
        f"rulebook tells them apart ({seconds})"
    )


def render_text(comparison: Comparison, files: dict[str, str]) -> str:
    """The comparison for a person: the declared differences, in play and in wording, each game, the conclusion."""
    a, b = comparison.a, comparison.b
    play = comparison.behaviour
    wording = [difference for difference in comparison.declared if not difference.behaviour]
    lines = [f"{a.name} ({a.path}) -> {b.name} ({b.path}): {len(play)} in play, {len(wording)} not"]
    if play:
        lines += ["", "Declared differences in play (the engine reads these):"]
        lines += [_declared_line(difference, a, b) for difference in play]
    if wording:
        lines += ["", "Declared differences no game shows (the rules' and claims' wording; an option no card reads):"]
        lines += [_declared_line(difference, a, b) for difference in wording]
    if comparison.games:
        lines += ["", "Games (each accepted by one spec and rejected by the other):"]
        for shown in comparison.games:
            lines += _game_lines(shown, files.get(shown.item))
    lines += _solver_lines(comparison)
    lines += ["", _conclusion(comparison)]
    return "\n".join(lines) + "\n"


def _solver_lines(comparison: Comparison) -> list[str]:
    """The claims of the rulebook the two Z3 models answer differently."""
    asked = comparison.solver
    if asked is None:
        return []
    if not asked.players:
        return ["", f"The rulebook's claims, asked of both specs' Z3 models: {asked.note}"]
    lines = ["", f"The rulebook's claims, asked of both specs' Z3 models (for {asked.note}):"]
    if not asked.claims:
        lines.append("  every claim in force gets the same answer from both")
    for claim in asked.claims:
        lines.append(f"  {claim.id}, {claim.whose}: {claim.statement}")
        changed = f"; changed alone by {', '.join(claim.items)}" if claim.items else ""
        lines.append(f"    {comparison.a.name}: {claim.a}; {comparison.b.name}: {claim.b}{changed}")
    return lines
