"""Words that the figures contradict: a rule's summary, or the ruling it cites, that still states the rulebook's
number for a figure the spec changes (``referee rules --lint``, and a section of ``referee prove``'s report).

A house spec inherits its rulebook's rules with their summaries and rulings. Change a figure (the catch penalty, a
Draw Five's amount, the deck's size) and an inherited text can go on saying the old number: ``rules uno.catch``
printed "draws 4" in the summary (its placeholder follows the option) above ruling 22's "draws two cards". This module
lists, for each rule, the figures tied to it whose value differs from the rulebook's (the spec at the root of its
``extends`` chain): the options the rule names, the effects' amounts of the kinds whose rule (or start rule) it is,
the deck's size and each kind's copies for a rule that checks the deck, each kind's points for a rule that checks the
score, the hand size for a rule that checks the deal. A text is flagged when it states the rulebook's number for such
a figure (in digits or in words) and nowhere the spec's: a sentence that gives both is taken as already reworded.
Card names that carry a number ("Draw Two", "Wild Draw Four") and references ("ruling 21") are not figures.

A ruling is the project's text, which a spec cannot edit: a rule whose summary says ``House rule - ...`` declares
that it changes what its ruling says, so its ruling is shown as the rulebook's (``Worded.changed``) and not flagged.
"""

from __future__ import annotations

import re

from referee.records import dataclass
from referee.spec.model import Kind, Rule, Spec, ruling_text

HOUSE_RULE = "House rule"
_WORDS = [
    *("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
    *("eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"),
]
_TENS = {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
NUMBER_WORDS = {word: value for value, word in enumerate(_WORDS)} | _TENS
# A number that names a card or points at a ruling is not a figure.
_NOT_FIGURES = re.compile(r"\b(?:Wild )?Draw (?:One|Two|Four|Five|Six|Ten)s?\b|\b(?:ruling|rulings|rule) \d+\b|\b\d+-\d+\b")
_NUMBER = re.compile(r"\b(\d+|" + "|".join(NUMBER_WORDS) + r")\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Figure:
    """A figure tied to a rule, under the rulebook and under the spec: ``option target``, 500 and 200."""

    label: str
    rulebook: int
    spec: int


@dataclass(frozen=True, slots=True)
class StaleWords:
    """A text that states the rulebook's number for a figure the spec changes: the rule's summary (``ruling`` None)
    or the ruling it cites."""

    rule: str
    where: str  # the rule's place (the file that states its summary)
    ruling: int | None
    figure: Figure

    def problem(self) -> str:
        """Which text states which number, and the spec's figure."""
        said, figure = self.figure.rulebook, self.figure
        text = "its summary says" if self.ruling is None else f"it cites ruling {self.ruling}, which says"
        return f"{text} {said} where the spec's {figure.label} is {figure.spec}"

    def message(self) -> str:
        """One line: where, the problem, and what fixes it."""
        if self.ruling is None:
            fix = "restate the rule in the spec with the spec's figure"
        else:
            fix = f"restate the rule with a summary that starts '{HOUSE_RULE} - ', or without the ruling"
        return f"{self.where}: rule {self.rule}: {self.problem()} ({fix})"


def numbers_stated(text: str) -> set[int]:
    """The numbers a text states, in digits or words, leaving out card names and references."""
    cleaned = _NOT_FIGURES.sub(" ", text)
    found = set()
    for match in _NUMBER.finditer(cleaned):
        token = match.group(1).lower()
        found.add(int(token) if token.isdigit() else NUMBER_WORDS[token])
    return found


def with_figures(text: str, figures: list[Figure]) -> str:
    """The text with each figure's rulebook number replaced by the spec's, written as it was (digits, or a word where
    the spec's number has one), card names and references untouched: a first rewording, for the author to check."""
    protected = [match.span() for match in _NOT_FIGURES.finditer(text)]
    new_of = {figure.rulebook: figure.spec for figure in figures}
    words = {value: word for word, value in NUMBER_WORDS.items()}
    parts, end = [], 0
    for match in _NUMBER.finditer(text):
        token = match.group(1)
        value = int(token) if token.isdigit() else NUMBER_WORDS[token.lower()]
        if value not in new_of or any(start <= match.start() < stop for start, stop in protected):
            continue
        new = new_of[value]
        written = str(new) if token.isdigit() or new not in words else words[new]
        parts += [text[end : match.start()], written.capitalize() if token[0].isupper() and not token.isdigit() else written]
        end = match.end()
    return "".join(parts) + text[end:]


def contradicted(text: str, figures: list[Figure]) -> list[Figure]:
    """The figures whose rulebook number the text states while it states nowhere the spec's."""
    stated = numbers_stated(text)
    return [figure for figure in figures if figure.rulebook in stated and figure.spec not in stated]


def rule_figures(rule: Rule, spec: Spec, rulebook: Spec) -> list[Figure]:
    """The figures tied to ``rule`` that the spec sets otherwise than its rulebook."""
    pairs: list[tuple[str, object, object]] = [
        (f"option {name}", rulebook.options.get(name), spec.options.get(name)) for name in rule.options
    ]
    theirs = {spec.root_name(kind.name): kind for kind in rulebook.kinds}
    for kind in spec.kinds:
        base = theirs.get(spec.root_name(kind.name))
        if base is None:
            continue
        if rule.id in (kind.rule, kind.start_rule):
            pairs += _effect_amounts(kind, base)
        if "deck" in rule.checks:
            pairs.append((f"copies of {kind.name}", base.copies, kind.copies))
        if "score" in rule.checks:
            pairs.append((f"points of {kind.name}", base.points, kind.points))
    if "deck" in rule.checks:
        pairs.append(("cards in the deck", len(rulebook.deck), len(spec.deck)))
    if "hands" in rule.checks:
        pairs.append(("hand size", rulebook.hand_size, spec.hand_size))
    return [Figure(label, old, new) for label, old, new in pairs if _numbers(old, new) and old != new]  # type: ignore[arg-type]


def _numbers(*values: object) -> bool:
    return all(isinstance(value, int) and not isinstance(value, bool) for value in values)


def _effect_amounts(kind: Kind, base: Kind) -> list[tuple[str, object, object]]:
    """Each effect's amount in the spec's kind against the same effect's in the rulebook's."""
    amounts = {effect.name: effect.amount for effect in base.effects}
    return [
        (f"{effect.name} of {kind.name}", amounts[effect.name], effect.amount)
        for effect in kind.effects
        if effect.name in amounts and effect.amount is not None
    ]


@dataclass(frozen=True, slots=True)
class Worded:
    """What the lint says of one rule: its findings, and whether its ruling states figures the spec changes while
    the rule declares itself a house rule (``changed``: shown as the rulebook's ruling)."""

    findings: tuple[StaleWords, ...]
    changed: tuple[Figure, ...]


def word_rule(rule: Rule, spec: Spec, rulebook: Spec) -> Worded:
    """The lint of one rule: its summary against its figures, then its ruling's text."""
    figures = rule_figures(rule, spec, rulebook)
    if not figures:
        return Worded((), ())
    from referee.spec.paths import shipped_file

    shipped = shipped_file(rule.position.path)
    where = str(rule.position) if shipped is None else f"{shipped}:{rule.position.line}"
    findings = [StaleWords(rule.id, where, None, figure) for figure in contradicted(rule.summary, figures)]
    changed: list[Figure] = []
    if rule.ruling is not None:
        stale = contradicted(ruling_text(rule.ruling, spec.game), figures)
        if rule.summary.startswith(HOUSE_RULE):
            changed = stale
        else:
            findings += [StaleWords(rule.id, where, rule.ruling, figure) for figure in stale]
    return Worded(tuple(findings), tuple(changed))


def rulebook_of(spec: Spec) -> Spec | None:
    """The spec a house spec's figures are compared with: the shipped spec of its rulebook (None: the spec is it, or
    its rulebook is no shipped spec)."""
    from referee.proof.claims.rulebook import game_of
    from referee.spec.extends import load_spec, shipped_spec_path

    game = game_of(spec)
    path = shipped_spec_path(game)
    if game == spec.name or path is None:
        return None
    return load_spec(path)


def lint(spec: Spec) -> list[StaleWords]:
    """Every finding of the spec's rules, in the order of its rules (none for a rulebook's own spec)."""
    rulebook = rulebook_of(spec)
    if rulebook is None:
        return []
    return [finding for rule in spec.rules for finding in word_rule(rule, spec, rulebook).findings]
