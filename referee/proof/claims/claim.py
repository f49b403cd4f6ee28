"""A claim: one statement of the rulebook with its form's typed figures; and what a claim form is (``ClaimForm``).

A claim states the rulebook's figure (a Skip makes the next player lose the turn; a Wild scores 40) and never
reads it from the spec under test, so a spec that slips is refuted. Each form (``play``, ``deck``...) is one
module of this package that builds its ``ClaimForm``; ``referee.proof.claims.forms`` lists them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from referee.engine.engine import Engine
from referee.errors import Position
from referee.proof.answers import Status
from referee.proof.claims.figures import ClaimReader, Figures
from referee.proof.claims.steps import Before
from referee.records import dataclass
from referee.rules.compiler import Rules
from referee.spec.loader import Mapping
from referee.spec.vocabulary import ClaimFormName

if TYPE_CHECKING:
    pass


F = TypeVar("F", bound=Figures)


@dataclass(frozen=True, slots=True)
class Claim(Generic[F]):
    """One statement of the rulebook: an id, what it says, where, and its form (one of ``FORMS``) with its figures,
    typed by the form's record (``Claim[PlayFigures]``): a form's questions and checks read them without a cast. The
    claims reader builds each claim with the figures its form read (``ClaimForm.read``), so the type holds."""

    id: str
    statement: str
    source: str
    form: ClaimFormName
    figures: F
    condition: tuple[tuple[str, str], ...] = ()
    position: Position = field(default_factory=lambda: Position("?"))
    cites: tuple[str, str] = ("", "")  # the source's key and section, as written
    withdrawn: str = ""  # why a house spec says the claim no longer applies ({id: ..., withdrawn: REASON})
    restated: bool = False  # stated by the spec itself (a house rule's own claim), not by its rulebook's claims file

    @property
    def whose(self) -> str:
        """Whose value a refutation compares with: the rulebook's, or the spec's own restated claim's (with its place)."""
        return f"the spec's own claim's ({self.position})" if self.restated else "the rulebook's"

    def to_json(self) -> dict[str, Any]:
        """The claim as ``referee rules --claims --format json`` shows it (sets as sorted lists)."""
        return {
            "id": self.id,
            "statement": self.statement,
            "source": self.source,
            "form": self.form,
            "figures": self.figures.to_json(),
            "if": dict(self.condition),
            "restated": self.restated,
            "withdrawn": self.withdrawn or None,
        }

    def applies(self, rules: Rules) -> bool:
        """Whether the claim is in force under the spec's options (``if``)."""
        return all(str(_option_text(rules.spec.options.get(name))) == value for name, value in self.condition)


def kind_of(claim: Claim[Any]) -> str:
    """The kind of face a play, start or stack claim speaks of."""
    kind = getattr(claim.figures, "kind", None)
    if not isinstance(kind, str):
        raise TypeError(f"claim {claim.id} speaks of no kind of face")
    return kind


def _option_text(value: object) -> str:
    return ", ".join(value) if isinstance(value, tuple) else str(value)


# -- what a form gives the prover

Answered = tuple[Status, list[int], str]  # proved / refuted (for which player counts) / unknown, and a detail
Answering = Callable[[Claim[F], Rules, tuple[int, ...], int], Answered]  # a claim, the rules, the player counts, the timeout
FormCheck = Callable[[Claim[F], Rules, Before | None, Engine, Any], str | None]  # a claim form's check on one step
Written = tuple[bool, str | None]  # a refutation written without a search: (decided, the text or None)
SEARCH: Written = (False, None)  # not decided: the prover searches for a game
ENUMERATED = "by enumeration of every case against the compiled rules"


def searched(claim: Claim[Any], rules: Rules, spec_path: str) -> Written:
    """The default: a refutation is a game the prover's counterexample search finds."""
    return SEARCH


@dataclass(frozen=True)
class ClaimForm(Generic[F]):
    """One claim form, defined once as ``InvariantForms`` defines an invariant, in its own module of this package:
    the record of its figures (``figures``, which reads itself from a claims file), how the prover answers it over
    the compiled rules and Z3 (``answer``), how one step of a concrete game is checked against it (``check``), for
    a claim a house spec may withdraw, how the withdrawal is proved (``withdraw``), the refutation it writes without
    searching for a game (``written``; the prover's counterexample search runs otherwise), and how the figures the
    spec's compiled rules have are read back for ``prove --declare`` (``read_back``; None: restated by hand)."""

    name: ClaimFormName
    figures: type[F]
    answer: Answering[F]
    check: FormCheck[F]
    withdraw: Answering[F] | None = None
    written: Callable[[Claim[F], Rules, str], Written] = searched
    read_back: Callable[[F, Rules, tuple[int, ...]], F | str] | None = None

    @property
    def withdrawable(self) -> bool:
        return self.withdraw is not None

    def read(self, reader: ClaimReader, node: Mapping) -> Figures:
        """A claim's figures of this form, from its YAML mapping."""
        return self.figures.read(reader, node)

    def restate(self, claim: Claim[F], rules: Rules, players: tuple[int, ...]) -> Figures | str:
        """The spec's own figures for the claim (``prove --declare``), or why they are not read back."""
        if self.read_back is None:
            return f"the {claim.form} of a spec is not read back into a claim"
        return self.read_back(claim.figures, rules, players)
