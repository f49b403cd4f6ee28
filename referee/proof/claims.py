"""Claims: what the rulebook says, as data, checked against the rules a spec compiles to.

A claim states the rulebook's figure (a Skip makes the next player lose the
turn; a Wild scores 40; each player gets 7 cards) and never reads it from the
spec under test, so a spec that slips is refuted. The claims of a game live
in ``specs/claims/GAME.yml``; a house spec restates, under its own
``claims:``, any claim it means to change (same id), and a claim may apply
only under an option's value (``if: {option: value}``): options are the
declared variation points.

Each claim form has a symbolic question and a concrete check:

- ``play`` and ``start`` are asked of the Z3 transition relation and deal
  compiled from the spec (``referee.proof.model``), for every player count;
- ``points``, ``matching``, ``deck`` and ``table`` are finite: every face,
  every pair of faces under every colour, every card of the deck, is
  enumerated against the compiled rules the engine itself uses (a proof by
  exhaustion); ``table.hand-size`` is asked of the deal relation.

The concrete check (``violation``) judges one step of a real game in the
engine; the counterexample search plays simulated games under the spec
until a step breaks the claim, and that game is the counterexample log.
"""

from __future__ import annotations

import dataclasses
import functools
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import field
from typing import Any, TypeVar

import z3

from referee.cards import Face, FaceClass
from referee.engine.engine import GAME_OVER, PLAYING, ROUND_OVER, Engine
from referee.errors import Position, SpecError, did_you_mean
from referee.log import events as ev
from referee.proof import restate
from referee.proof.figures import (
    NO_FIGURES,
    UNTIL_COLOUR,
    AnyFigures,
    CatchFigures,
    ChallengeFigures,
    ClaimReader,
    DeckFigures,
    MatchingFigures,
    OptionFigures,
    PlayFigures,
    PointsFigures,
    StackFigures,
    StartFigures,
    TableFigures,
)
from referee.proof.model import NONE, OWED_UNTIL_COLOUR, Model, State, faces_of, solver
from referee.proof.queries import Answer, Status, ask, first_sat, for_each_count
from referee.proof.restate import option_value
from referee.records import dataclass
from referee.rules.compiler import FaceRules, Rules
from referee.spec.loader import Mapping, Node, Scalar, Sequence, load_file
from referee.spec.model import Spec
from referee.spec.paths import SPECS
from referee.spec.vocabulary import CLAIM_FORMS, CLAIM_KEYS, ClaimFormName

FORMAT = "referee-claims/1"
FORMS = CLAIM_FORMS


@dataclass(frozen=True, slots=True)
class Claim:
    """One statement of the rulebook: an id, what it says, where, and its form (one of ``FORMS``) with its figures."""

    id: str
    statement: str
    source: str
    form: ClaimFormName
    figures: AnyFigures
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


F = TypeVar("F")


def figures_of(claim: Claim, form: type[F]) -> F:
    """The claim's figures as its form's record: a claim reaches only its own form's questions and checks."""
    figures = claim.figures
    if not isinstance(figures, form):
        raise TypeError(f"claim {claim.id} has {type(figures).__name__}, not {form.__name__}")
    return figures


def _kind(claim: Claim) -> str:
    """The kind of face a play, start or stack claim speaks of."""
    figures = claim.figures
    if not isinstance(figures, PlayFigures | StartFigures | StackFigures):
        raise TypeError(f"claim {claim.id} speaks of no kind of face")
    return figures.kind


def _option_text(value: object) -> str:
    return ", ".join(value) if isinstance(value, tuple) else str(value)


# -- reading claims


def read_claims(items: Sequence | None, path: str, sources: dict[str, tuple[str, str]]) -> list[Claim]:
    """Claims from a YAML list (a claims file's ``claims`` or a spec's ``claims``)."""
    reader = ClaimReader(path)
    claims: list[Claim] = []
    for item in items.items if items is not None else ():
        if not isinstance(item, Mapping):
            reader.error(item.position, "a claim is a mapping {id: ..., statement: ..., source: ..., FORM: ...}")
            continue
        withdrawn = reader.scalar(item.entries["withdrawn"], "withdrawn", item.position) if "withdrawn" in item.entries else ""
        if withdrawn and set(item.entries) == {"id", "withdrawn"}:  # the rulebook's claim no longer applies
            claim_id = reader.scalar(item.entries.get("id"), "id", item.position)
            claims.append(Claim(claim_id, "", "", ClaimFormName.WITHDRAWN, NO_FIGURES, position=item.position, withdrawn=withdrawn))
            continue
        reader.keys(item, CLAIM_KEYS, {"id", "statement", "source"}, "a claim")
        claim_id = reader.scalar(item.entries.get("id"), "id", item.position)
        forms = [form for form in FORMS if form in item.entries]
        if len(forms) != 1:
            reader.error(item.position, f"claim '{claim_id}' needs exactly one of {', '.join(FORMS)}")
            continue
        form = forms[0]
        source_node = item.entries.get("source")
        source = ""
        cites = ("", "")
        if isinstance(source_node, Mapping):
            key = reader.scalar(source_node.entries.get("key"), "key", source_node.position)
            section = reader.scalar(source_node.entries.get("section"), "section", source_node.position)
            title, publisher = sources.get(key, (key, ""))
            if key not in sources:
                known = sorted(sources)
                reader.error(
                    source_node.position,
                    f"claim '{claim_id}' cites unknown source '{key}'{did_you_mean(key, known)} (sources: {', '.join(known)})",
                )
            source = f"{title} ({publisher}), {section}"
            cites = (key, section)
        else:
            reader.error(item.position, f"claim '{claim_id}' needs a source {{key: KEY, section: SECTION}}")
        condition: list[tuple[str, str]] = []
        condition_node = item.entries.get("if")
        if condition_node is not None:
            if isinstance(condition_node, Mapping):
                for name, value in condition_node.entries.items():
                    condition.append((name, reader.scalar(value, f"if {name}", condition_node.position)))
            else:
                reader.error(condition_node.position, "if is a mapping {OPTION: VALUE}")
        figures = _read_form(reader, form, item.entries[form])
        claims.append(
            Claim(
                id=claim_id,
                statement=reader.scalar(item.entries.get("statement"), "statement", item.position),
                source=source,
                form=form,
                figures=figures,
                condition=tuple(condition),
                position=item.position,
                cites=cites,
                withdrawn=withdrawn,
            )
        )
    if reader.problems:
        raise SpecError(reader.problems)
    return claims


def _read_form(reader: ClaimReader, form: ClaimFormName, node: Node) -> AnyFigures:
    """A claim's figures, read by its form's reader (``ClaimForm.read``)."""
    if not isinstance(node, Mapping):
        reader.error(node.position, f"{form} is a mapping")
        return NO_FIGURES
    return FORMS_BY_NAME[form].read(reader, node)


def option_problem(claim: Claim, rules: Rules) -> str | None:
    """An option claim: does the spec set the option to the rulebook's value? A spec that sets another value is a
    house rule only where it restates the claim with its own value."""
    figures = claim.figures
    if not isinstance(figures, OptionFigures):
        return None
    name, claimed = figures.name, figures.value
    actual = option_value(rules, name)
    if actual != claimed:
        hint = " (a house spec restates this claim)" if not claim.restated else ""
        return f"the spec sets option {name} to {_shown(actual)}; {claim.whose} is {_shown(claimed)}{hint}"
    return None


def _shown(value: Any) -> str:
    if isinstance(value, dict):
        return "; ".join(f"{' or '.join(sorted(allowed))} on {owed}" for owed, allowed in sorted(value.items())) or "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def game_of(spec: Spec) -> str:
    """The rulebook whose claims a spec is held to.

    The root spec's ``game`` line, else its name; but a root spec that states
    no game and has no claims file of its own, while its sides and kinds are
    those of a shipped game, is that game under another name (a copy of its
    spec with something changed) and is held to that game's claims.
    """
    if spec.game_stated or has_claims_file(spec.game):
        return spec.game
    from referee.rules.compiler import load_rules
    from referee.spec.paths import shipped_spec_names

    shape = _shape(spec)
    for name in shipped_spec_names():
        shipped = load_rules(SPECS / f"{name}.yaml").spec
        if has_claims_file(shipped.game) and _shape(shipped) == shape:
            return shipped.game
    return spec.game


def _shape(spec: Spec) -> tuple[str, ...]:
    """What makes two specs the same game for their claims: the names of their kinds of face (a changed colour, count
    or effect is a slip to refute, not another game)."""
    return tuple(sorted(kind.name for kind in spec.kinds))


def game_claims(rules: Rules) -> list[Claim]:
    """The claims in force for a spec: its game's claims file, with the spec's own restated claims replacing them by id."""
    spec = rules.spec
    claims = {claim.id: claim for claim in _file_claims(game_of(spec))}
    own = spec.claims
    if own is not None:
        sources = {key: (source.title, source.publisher) for key, source in spec.sources.items()}
        problems = []
        for claim in read_claims(own, spec.path, sources):
            if claim.form is not ClaimFormName.WITHDRAWN:  # restated (or a house spec's own claim withdrawn by a spec built on it)
                if claim.withdrawn and not FORMS_BY_NAME[claim.form].withdrawable:
                    problems.append((claim.position, _not_withdrawable(claim.id, claim, [])))
                claims[claim.id] = dataclasses.replace(claim, restated=True)
                continue
            base = claims.get(claim.id)
            if base is None or not FORMS_BY_NAME[base.form].withdrawable:
                problems.append((claim.position, _not_withdrawable(claim.id, base, list(claims))))
                continue
            claims[claim.id] = dataclasses.replace(base, withdrawn=claim.withdrawn, restated=True, position=claim.position)
        if problems:
            raise SpecError(problems)
    return list(claims.values())


def _not_withdrawable(claim_id: str, base: Claim | None, known: list[str]) -> str:
    if base is None:
        return f"claim '{claim_id}' is withdrawn, but its rulebook has no such claim{did_you_mean(claim_id, known)}"
    article = "an" if base.form[0] in "aeiou" else "a"
    return (
        f"claim '{claim_id}' is {article} {base.form} claim, which always speaks of the spec: restate it with the spec's "
        f"figures instead ('referee prove --spec SPEC --declare' prints it); only {', '.join(WITHDRAWABLE)} claims can be withdrawn"
    )


def has_claims_file(game: str) -> bool:
    """Whether the rulebook ``game`` has a claims file (``specs/claims/GAME.yml``)."""
    return (SPECS / "claims" / f"{game}.yml").is_file()


@functools.cache
def _file_claims(game: str) -> tuple[Claim, ...]:
    """The claims of a game's file (``specs/claims/GAME.yml``), read once per process; none when there is no file."""
    path = SPECS / "claims" / f"{game}.yml"
    if not path.is_file():
        return ()
    tree = load_file(path)
    format_node = tree.entries.get("format")
    if not isinstance(format_node, Scalar) or format_node.value != FORMAT:
        raise SpecError([(tree.position, f"a claims file starts with format: {FORMAT}")])
    items = tree.entries.get("claims")
    return tuple(read_claims(items if isinstance(items, Sequence) else None, str(path), _sources(tree.entries.get("sources"))))


def _sources(node: Node | None) -> dict[str, tuple[str, str]]:
    result: dict[str, tuple[str, str]] = {}
    if isinstance(node, Mapping):
        for key, value in node.entries.items():
            if isinstance(value, Mapping):
                title, publisher = value.entries.get("title"), value.entries.get("publisher")
                result[key] = (
                    title.value if isinstance(title, Scalar) else key,
                    publisher.value if isinstance(publisher, Scalar) else "",
                )
    return result


# -- the symbolic questions


def restriction_problem(claim: Claim, rules: Rules) -> str | None:
    """A play claim's restriction: legal only without the colour in play (else a bluff), and open to a challenge."""
    figures = figures_of(claim, PlayFigures)
    for face_rules in faces_of(rules, figures.kind):
        token = face_rules.face.token
        if face_rules.restricted != figures.restricted:
            allowed = "only while holding no card of the colour in play" if figures.restricted else "at any time"
            return f"{token} should be playable {allowed}; the spec says otherwise"
        if face_rules.challengeable != figures.challengeable:
            return f"{token} should {'' if figures.challengeable else 'not '}be open to a challenge; the spec says otherwise"
    return None


def counts_for(claim: Claim, rules: Rules, players: tuple[int, ...]) -> tuple[int, ...]:
    """The player counts of ``players`` a claim speaks of (a play claim may speak of two players, or three and more)."""
    return claim.figures.counts(players) if isinstance(claim.figures, PlayFigures) else players


def _owes(state: State, model: Model, seat: Any, owes: int | str) -> Any:
    if owes == 0:
        return z3.And(state.owed_seat == NONE, state.owed == 0)
    amount = OWED_UNTIL_COLOUR if owes == UNTIL_COLOUR else owes
    return z3.And(state.owed_seat == seat, state.owed == amount)


def play_question(claim: Claim, rules: Rules, n: int, timeout_ms: int) -> list[z3.Solver]:
    """For each face of the kind: is there a play of it whose outcome differs from the claim? (sat: refuted)"""
    figures = figures_of(claim, PlayFigures)
    model = Model(rules, n, len(rules.deck))
    questions = []
    for face_rules in faces_of(rules, figures.kind):
        pre, post = State.make(n, "pre"), State.make(n, "post")
        seat, chosen, uncovered, face_colour = z3.Ints("seat chosen uncovered face_colour")
        moved = z3.Bool("moved")
        step = model.play(pre, post, seat, face_rules, face_colour, chosen, uncovered, moved)
        direction = pre.direction if figures.direction == "same" else -pre.direction
        side = pre.side if figures.side == "same" else 1 - pre.side
        expected = [
            post.direction == direction,
            post.side == side,
            post.turn == model.next_seat(seat, direction, figures.next),
            _owes(post, model, model.next_seat(seat, direction, 1), figures.owes),
        ]
        if figures.colour == "card":
            expected += [post.colour == face_colour, z3.Not(post.pending)]
        elif figures.colour == "chosen":
            expected += [post.colour == chosen, z3.Not(post.pending)]
        else:
            expected += [z3.Or(post.pending, model.in_side(post.colour, post.side))]
        check = solver(timeout_ms)
        goes_on = post.hand(seat) >= 1  # the claims speak of a round that goes on (a last card ends it)
        plain = pre.owed_seat != seat  # the claim speaks of a plain play, not of one stacked on a penalty (option stacking)
        check.add(model.conservation(pre), model.turn_valid(pre), step, goes_on, plain, z3.Not(z3.And(*expected)))
        questions.append(check)
    return questions


def stack_question(claim: Claim, rules: Rules, n: int, timeout_ms: int, possible: bool = False) -> list[z3.Solver]:
    """For each face of the kind played by the player who owes a penalty (option stacking): can anyone but the next
    player owe after it, or another total than the penalty plus the claim's ``adds``? (sat: refuted). With
    ``possible``: can such a stack be played at all? (unsat: refuted, the claim would hold of nothing)"""
    figures = figures_of(claim, StackFigures)
    model = Model(rules, n, len(rules.deck))
    questions = []
    for face_rules in faces_of(rules, figures.kind):
        pre, post = State.make(n, "pre"), State.make(n, "post")
        seat, chosen, uncovered, face_colour = z3.Ints("seat chosen uncovered face_colour")
        step = model.play(pre, post, seat, face_rules, face_colour, chosen, uncovered, z3.Bool("moved"))
        check = solver(timeout_ms)
        owing = z3.And(pre.owed_seat == seat, pre.owed >= 1)  # a count owed by the player who plays
        check.add(model.conservation(pre), model.turn_valid(pre), step, owing)
        if not possible:
            expected = [post.owed_seat == model.next_seat(seat, post.direction), post.owed == pre.owed + figures.adds]
            check.add(z3.Not(z3.And(*expected)))
        questions.append(check)
    return questions


def start_question(claim: Claim, rules: Rules, n: int, timeout_ms: int) -> list[z3.Solver]:
    """For each face of the kind turned up at the start: can the deal differ from the claim? (sat: refuted)"""
    figures = figures_of(claim, StartFigures)
    model = Model(rules, n, len(rules.deck))
    questions = []
    for face_rules in faces_of(rules, figures.kind):
        if face_rules.face.side != rules.spec.start_side:
            continue
        state = State.make(n, "start")
        dealer = z3.Int("dealer")
        dealt = z3.And(model.dealt(state), model.seat(dealer), model.deal_for(state, face_rules, dealer))
        check = solver(timeout_ms)
        if figures.returned:
            check.add(dealt)  # a card that goes back is never the start card: no deal has it on top
            questions.append(check)
            continue
        direction = 1 if figures.direction == "same" else -1
        side = rules.spec.start_side if figures.side == "same" else 1 - rules.spec.start_side
        turn = (dealer + figures.to_act) % n
        expected = [state.direction == direction, state.side == side, state.turn == turn, _owes(state, model, turn, figures.owes)]
        if figures.colour == "card":
            expected += [model.in_side(state.colour, state.side), z3.Not(state.pending)]
        elif figures.colour == "chosen":
            expected += [state.colour == NONE, state.pending]
        else:
            expected += [z3.Or(state.pending, model.in_side(state.colour, state.side))]
        check.add(dealt, z3.Not(z3.And(*expected)))
        questions.append(check)
    return questions


def challengeable_faces(rules: Rules) -> list[FaceRules]:
    """One face of each behaviour that gives a penalty open to a challenge."""
    model = Model(rules, 2, len(rules.deck))
    return [face_rules for face_rules in model.signatures if face_rules.challengeable and face_rules.gives_penalty]


def challenge_question(claim: Claim, rules: Rules, n: int, timeout_ms: int, possible: bool = False) -> list[z3.Solver]:
    """For each challengeable face: a play of it, then a challenge ruled as the claim says (guilty or innocent).
    Can the ruling differ from the claim: who draws, how many, who moves after? (sat: refuted). With ``possible``:
    can such a challenge be made at all? (unsat: the claim would hold of nothing, so it is refuted)."""
    figures = figures_of(claim, ChallengeFigures)
    model = Model(rules, n, len(rules.deck))
    questions = []
    for face_rules in challengeable_faces(rules):
        pre, mid, post = State.make(n, "pre"), State.make(n, "mid"), State.make(n, "post")
        seat, chosen, uncovered, face_colour = z3.Ints("seat chosen uncovered face_colour")
        play = model.play(pre, mid, seat, face_rules, face_colour, chosen, uncovered, z3.Bool("moved"))
        challenger = mid.owed_seat
        guilty = z3.Bool("guilty") if figures.never else z3.BoolVal(figures.guilty)  # never: either ruling
        ruled = model.challenge(mid, post, challenger, guilty)
        check = solver(timeout_ms)
        check.add(model.conservation(pre), model.turn_valid(pre), play, mid.hand(seat) >= 1, ruled)
        if not possible:
            extra = figures.extra if figures.cards == "penalty-and-extra" else 0  # the claim's figure, never the spec's
            until = mid.owed == OWED_UNTIL_COLOUR
            expected = [
                post.owed_seat == (seat if figures.draws == "player" else challenger),
                post.owed == z3.If(until, mid.owed, mid.owed + extra),
                post.extra == z3.If(until, mid.extra + extra, mid.extra),
                post.after == (challenger if figures.then == "challenger-plays" else model.next_seat(challenger, mid.direction)),
            ]
            check.add(z3.Not(z3.And(*expected)))
        questions.append(check)
    return questions


def catch_question(claim: Claim, rules: Rules, n: int, timeout_ms: int, possible: bool = False) -> list[z3.Solver]:
    """A valid catch: can the penalty fall on another player than the claim says, be other than the option
    uno-catch-penalty, or move the turn? (sat: refuted). With ``possible``: can a catch be made at all?"""
    model = Model(rules, n, len(rules.deck))
    pre, post = State.make(n, "pre"), State.make(n, "post")
    catcher, caught = z3.Ints("catcher caught")
    check = solver(timeout_ms)
    check.add(model.conservation(pre), model.turn_valid(pre), model.uno_window(pre), model.catch(pre, post, catcher, caught))
    if not possible:
        figures = figures_of(claim, CatchFigures)
        drawer = caught if figures.draws == "caught" else catcher
        check.add(z3.Not(z3.And(post.caught_seat == drawer, post.caught_owed == figures.cards, post.turn == pre.turn)))
    return [check]


def start_possible(claim: Claim, rules: Rules, n: int, timeout_ms: int) -> Answer:
    """'sat' when some face of the kind can start a round (a start claim that is not about a returned card needs one)."""
    model = Model(rules, n, len(rules.deck))
    options = []
    for face_rules in faces_of(rules, figures_of(claim, StartFigures).kind):
        if face_rules.face.side == rules.spec.start_side:
            state, dealer = State.make(n, "start"), z3.Int("dealer")
            options.append(z3.And(model.dealt(state), model.seat(dealer), model.deal_for(state, face_rules, dealer)))
    check = solver(timeout_ms)
    check.add(z3.Or(*options) if options else z3.BoolVal(False))
    return ask(check)  # a Ctrl-C that Z3 reports as unknown is an interrupt


def hand_size_question(claim: Claim, rules: Rules, n: int, timeout_ms: int) -> z3.Solver:
    model = Model(rules, n, len(rules.deck))
    state = State.make(n, "start")
    check = solver(timeout_ms)
    check.add(model.deal(state), z3.Or(*[hand != figures_of(claim, TableFigures).hand_size for hand in state.hands]))
    return check


# -- the finite questions: every case enumerated against the compiled rules


def points_problem(claim: Claim, rules: Rules) -> str | None:
    kinds = {face_rules.face.kind for face_rules in rules.faces.values()}
    for kind, figure in figures_of(claim, PointsFigures).points:
        if kind not in kinds:
            return f"the spec has no face of kind {kind}"
        for face_rules in rules.faces.values():
            face = face_rules.face
            if face.kind != kind:
                continue
            expected = face.number if figure == "face-value" else figure
            if face_rules.points != expected:
                return f"{face.token} scores {face_rules.points}, not {expected}"
    return None


def match_cases(rules: Rules) -> Iterator[tuple[Face, Face, str, bool]]:
    """Every face against every top face of its side under every colour it can have: (face, top, colour, the
    engine's own verdict). Finite, so a question about matching is answered by going through all of it."""
    engine = Engine(rules)
    state = engine.state
    for side in range(rules.spec.sides):
        tops = {card.faces[side]: card for card in sorted(rules.deck, key=lambda card: card.token)}
        faces = sorted(tops, key=lambda face: face.token)
        for top in faces:
            for colour in [top.colour] if top.colour is not None else sorted(rules.side_colours[side]):
                state.discard_pile, state.side, state.colour = [tops[top]], side, colour
                for face in faces:
                    yield face, top, colour, engine.matches(face)


def matching_problem(claim: Claim, rules: Rules) -> str | None:
    """Every face against every top face of its side under every colour: does the engine's matching say what the claim says?"""
    for face, top, colour, matches in match_cases(rules):
        expected = _claimed_match(figures_of(claim, MatchingFigures), face, top, colour)
        if matches != expected:
            verb = "may" if expected else "may not"
            return f"{face.token} {verb} be played on {top.token} (colour in play {colour}), but the spec says otherwise"
    return None


def _claimed_match(figures: MatchingFigures, face: Face, top: Face, colour: str) -> bool:
    if face.is_wild:
        return figures.wild_always
    if figures.same_colour and face.colour == colour:
        return True
    if figures.same_number and face.number is not None and face.number == top.number:
        return True
    both_actions = face.face_class is FaceClass.ACTION and top.face_class is FaceClass.ACTION
    return figures.same_action_kind and both_actions and face.kind == top.kind


def deck_problem(claim: Claim, rules: Rules) -> str | None:
    figures = figures_of(claim, DeckFigures)
    if len(rules.deck) != figures.cards:
        return f"the deck has {len(rules.deck)} cards, not {figures.cards}"
    for side_name, side in figures.sides or ():
        if side_name not in rules.spec.side_names:
            return f"the spec has no {side_name} side"
        index = rules.spec.side_names.index(side_name)
        expected: Counter[str] = Counter()
        colours = side.colours or ()
        if side.numbers is not None:
            low, high, copies = side.numbers
            particular = dict(side.number_copies)
            for colour in colours:
                for number in range(low, high + 1):
                    expected[f"{colour}-{number}"] = particular.get(number, copies)
        for kind, copies in side.kinds:
            wild = kind.startswith("wild")
            for coloured in (None,) if wild else colours:
                expected[kind if coloured is None else f"{coloured}-{kind}"] = copies
        actual = Counter(card.faces[index].token for card in rules.deck)
        if actual != expected:
            wrong = sorted(set(actual) ^ set(expected) | {t for t in actual if actual[t] != expected.get(t)})
            token = wrong[0]
            return f"the {side_name} side has {actual.get(token, 0)} x {token}, not {expected.get(token, 0)}"
    pairing = figures.pairing_counts()
    if pairing is not None:
        actual_cards = Counter(card.token for card in rules.deck)
        if actual_cards != pairing:
            missing = sorted((pairing - actual_cards).elements())
            extra = sorted((actual_cards - pairing).elements())
            return f"the deck pairs its faces differently: {', '.join(extra[:2])} instead of {', '.join(missing[:2])}"
    return None


def table_problem(claim: Claim, rules: Rules) -> str | None:
    spec = rules.spec
    figures = figures_of(claim, TableFigures)
    if figures.min_players is not None and spec.min_players != figures.min_players:
        return f"the spec is for at least {spec.min_players} players, not {figures.min_players}"
    if figures.max_players is not None and spec.max_players != figures.max_players:
        return f"the spec is for at most {spec.max_players} players, not {figures.max_players}"
    if figures.start_side is not None and spec.side_names[spec.start_side] != figures.start_side:
        return f"a round starts on the {spec.side_names[spec.start_side]} side, not the {figures.start_side} side"
    return None


# -- the concrete check: one step of a real game


@dataclass
class Before:
    """What a step is judged against: the state just before it."""

    turn: int
    direction: int
    side: int
    colour: str | None
    penalties: list[Any]
    first: tuple[int, int, str | None, int, bool, int | None] | None  # the first penalty owed, copied: (player, count,
    # until colour, extra, guilty, played by); the engine changes penalties in place
    drew: bool = False
    hands: tuple[int, ...] = ()  # which hand object each seat holds: a swap or a rotation moves them whole
    hand_sizes: tuple[int, ...] = ()
    dealer: int = -1
    discard: int = 0
    totals: tuple[int, ...] = ()
    phase: object = None


def before(engine: Engine) -> Before:
    state = engine.state
    first = state.penalties[0] if state.penalties else None
    copied = (first.player, first.count, first.until_colour, first.extra, first.guilty, first.played_by) if first else None
    return Before(
        state.turn,
        state.direction,
        state.side,
        state.colour,
        list(state.penalties),
        copied,
        state.drew,
        tuple(id(hand) for hand in state.hands),
        tuple(state.hand_sizes),
        state.dealer,
        len(state.discard_pile),
        tuple(state.totals),
        state.phase,
    )


def option_violation(claim: Claim, rules: Rules, previous: Before | None, engine: Engine, event: Any) -> str | None:
    """One step of a game that shows an option other than the claim's value: what the log a refutation comes with
    reaches (the finite check, ``option_problem``, is the proof). Each option has its own check (``OPTION_CHECKS``)."""
    figures = claim.figures
    if previous is None or not isinstance(figures, OptionFigures) or not engine.state.players:
        return None
    name, claimed = figures.name, figures.value
    check = OPTION_CHECKS.get(name)
    return check(OptionStep(claim, rules, previous, engine, event, claimed)) if check is not None else None


@dataclass(frozen=True)
class OptionStep:
    """One step of a game, judged against the rulebook's value of an option (``claimed``)."""

    claim: Claim
    rules: Rules
    previous: Before
    engine: Engine
    event: Any
    claimed: Any

    @property
    def state(self) -> Any:
        return self.engine.state

    def play(self) -> tuple[int, str | None, bool] | None:
        """For a play made while the round goes on: the player's seat, the kind played, whether they owed a penalty."""
        state, event = self.state, self.event
        if not isinstance(event, ev.Play) or state.phase is not PLAYING:
            return None
        seat = state.seat[event.player]
        owed = any(p.player == seat for p in self.previous.penalties)
        return seat, _played_kind(self.rules, event.card, self.previous.side), owed

    def probe(self, name: str) -> str | None:
        """What the engine accepts now of the plays the rulebook's jump-in or stacking allows or forbids."""
        state = self.state
        if state.phase is PLAYING and not isinstance(self.event, ev.Score):
            return _probe_option(name, self.claimed, state, self.engine, self.claim.whose)
        return None


def _target(step: OptionStep) -> str | None:
    state, claimed, whose = step.state, step.claimed, step.claim.whose
    if isinstance(claimed, int) and isinstance(step.event, ev.Play | ev.Draw | ev.Challenge | ev.Catch):
        top = max(state.totals, default=0)
        if state.phase is GAME_OVER and top < claimed:
            return f"the game ended with the best total {top}, under {whose} target {claimed}"
        if state.phase is ROUND_OVER and top >= claimed:
            return f"a player has {top} points, {whose} target is {claimed}, and the game goes on"
    return None


def _uno_catch_penalty(step: OptionStep) -> str | None:
    state, event = step.state, step.event
    caught = state.penalties[0] if isinstance(event, ev.Catch) and state.penalties and state.penalties[0].catch else None
    if caught is not None and caught.count != step.claimed:
        return f"{event.player} caught {event.target}: the catch costs {caught.count} cards, not {step.claimed}"
    return None


def _scoring(step: OptionStep) -> str | None:
    state, previous, claimed = step.state, step.previous, step.claimed
    ended = previous.phase is PLAYING and state.phase in (ROUND_OVER, GAME_OVER)  # this step ended the round
    if ended and previous.totals and state.last_result is not None:
        gained = [seat for seat, total in enumerate(state.totals) if total != previous.totals[seat]]
        winner = state.last_result.winner
        others_gain = any(state.players[seat] != winner for seat in gained)
        if others_gain != (claimed == "own-hand-lowest-wins"):
            how = "each by their own hand" if others_gain else "by its winner alone"
            return f"round {state.last_result.number} is scored {how}; {step.claim.whose} scoring is {claimed}"
    return None


def _challenge_innocent_extra(step: OptionStep) -> str | None:
    state, event, first = step.state, step.event, step.previous.first
    if isinstance(event, ev.Challenge) and first is not None and not first[4] and state.penalties:
        penalty = state.penalties[0]
        extra = penalty.count - first[1] if first[2] is None else penalty.extra - first[3]
        if step.rules.spec.disputes.innocent.with_extra and extra != step.claimed:
            return f"{event.player}'s challenge failed: {extra} extra cards, not {step.claimed}"
    return None


def _two_player_reverse(step: OptionStep) -> str | None:
    state, played, claimed = step.state, step.play(), step.claimed
    if played is None or len(state.players) != 2:
        return None
    seat, kind, owed = played
    if kind is not None and _reverses(step.rules, kind) and not owed:
        skips = state.turn == seat
        if skips != (claimed == "skip"):
            return (
                f"with two players {step.event.player}'s Reverse {'skips' if skips else 'passes the turn'}; {step.claim.whose} is {claimed}"
            )
    return None


def _jump_in(step: OptionStep) -> str | None:
    played, previous = step.play(), step.previous
    if played is not None and not step.claimed:
        seat, _, owed = played
        if seat != previous.turn and not owed:
            implicit_pass = previous.drew and seat == (previous.turn + previous.direction) % len(step.state.players)
            if not implicit_pass:
                return f"{step.event.player} played out of turn (a jump-in), which the rulebook does not allow"
    return step.probe("jump-in")


def _stacking(step: OptionStep) -> str | None:
    played, claimed = step.play(), step.claimed
    if played is not None and played[2]:
        kind = played[1]
        allowed = claimed.get(step.previous.penalties[0].stack_kind or "", frozenset()) if isinstance(claimed, dict) else frozenset()
        if kind not in allowed:
            return f"{step.event.player} owed a penalty and passed it on with a {kind}, which the rulebook does not allow"
    return step.probe("stacking")


def _hands_moved(number: int, name: str) -> Callable[[OptionStep], str | None]:
    """Seven swaps (``number`` 7) or zero rotates (0): whether the hands moved after that number is played."""

    def check(step: OptionStep) -> str | None:
        state, previous, played, event = step.state, step.previous, step.play(), step.event
        if played is None or not previous.hands or len(previous.hands) != len(state.players):
            return None
        face = _played_face(step.rules, event.card, previous.side)
        if face is None or face.number != number or state.hand_sizes[played[0]] == 0:
            return None
        rearranged = tuple(id(hand) for hand in state.hands) != previous.hands
        happens = state.swap_by is not None if number == 7 else rearranged
        if happens != step.claimed:
            what = "a swap of hands" if number == 7 else "every hand passed on"
            follows = "follows" if happens else "does not follow"
            return f"{event.player} played {face.token}: {what} {follows}; {step.claim.whose} {name} is {_shown(step.claimed)}"
        return None

    return check


def _flip_colour_chooser(step: OptionStep) -> str | None:
    state, played, claimed, event, whose = step.state, step.play(), step.claimed, step.event, step.claim.whose
    if played is None:
        return None
    seat, kind = played[0], played[1]
    flipped = kind is not None and any(f.flip for f in step.rules.faces.values() if f.face.kind == kind)
    if flipped and state.colour is None and state.choose_by is None and claimed != "nobody":
        return f"after {event.player}'s Flip uncovered a wild, nobody names the colour; {whose} chooser is {claimed}"
    if flipped and state.choose_by is not None:
        expected = {"next-player": state.turn, "player-who-flipped": seat}.get(str(claimed))
        if state.choose_by != expected:
            who = state.players[state.choose_by]
            return f"after {event.player}'s Flip uncovered a wild, {who} names the colour; {whose} chooser is {claimed}"
    return None


def _draw_until_playable(step: OptionStep) -> str | None:
    state, event, claimed, engine = step.state, step.event, step.claimed, step.engine
    if not isinstance(event, ev.Draw) or step.previous.penalties:
        return None
    if not claimed and state.drawing:
        return f"{event.player} drew no playable card and must draw on, which the rulebook does not ask"
    drawn = state.drawn_card
    unplayable = drawn is not None and not engine.matches(drawn.faces[state.side])
    if claimed and unplayable and not state.drawing and engine.cards_remain():
        return f"{event.player} drew {drawn}, which cannot be played, and the draw is over; {step.claim.whose} draw goes on"
    return None


def _reshuffle(step: OptionStep) -> str | None:
    if isinstance(step.event, ev.Reshuffle):
        kept = len(step.state.discard_pile)
        if (kept == 1) != (step.claimed == "keep-top"):
            return f"the reshuffle left {kept} cards on the discard pile; {step.claim.whose} reshuffle is {step.claimed}"
    return None


def _dealer_rotation(step: OptionStep) -> str | None:
    state, previous = step.state, step.previous
    if isinstance(step.event, ev.Dealer) and previous.dealer >= 0:
        expected = (previous.dealer + (1 if step.claimed == "left" else -1)) % len(state.players)
        if state.dealer != expected:
            names = state.players
            return f"{names[state.dealer]} deals, not {names[expected]}: {step.claim.whose} dealer rotation is {step.claimed}"
    return None


def _start_colour_chooser(step: OptionStep) -> str | None:
    state = step.state
    if isinstance(step.event, ev.Shuffle | ev.Start) and state.phase is PLAYING and state.choose_by is not None:
        expected = state.dealer if step.claimed == "dealer" else (state.dealer + 1) % len(state.players)
        if state.choose_by != expected:
            return f"{state.players[state.choose_by]} names the colour of the wild turned up, not {state.players[expected]}"
    return None


# Each option's check on one step of a game (``option_violation``): an option not listed has none.
OPTION_CHECKS: dict[str, Callable[[OptionStep], str | None]] = {
    "target": _target,
    "uno-catch-penalty": _uno_catch_penalty,
    "scoring": _scoring,
    "challenge-innocent-extra": _challenge_innocent_extra,
    "two-player-reverse": _two_player_reverse,
    "jump-in": _jump_in,
    "stacking": _stacking,
    "seven-swaps": _hands_moved(7, "seven-swaps"),
    "zero-rotates": _hands_moved(0, "zero-rotates"),
    "flip-colour-chooser": _flip_colour_chooser,
    "draw-until-playable": _draw_until_playable,
    "reshuffle": _reshuffle,
    "dealer-rotation": _dealer_rotation,
    "start-colour-chooser": _start_colour_chooser,
}


def _probe_option(name: str, claimed: Any, state: Any, engine: Engine, whose: str) -> str | None:
    """Whether the engine, right now, accepts the plays the rulebook's value of jump-in or stacking allows or forbids:
    each candidate play is applied and undone (``snapshot``/``restore``), so a game shows a play the spec refuses."""
    names = state.players
    top = state.top_face()
    if top is None or state.choose_by is not None or state.swap_by is not None or state.drawing:
        return None
    candidates = _jump_ins(state, top, claimed) if name == "jump-in" else _stacks(state, claimed)
    for seat, card, allowed_by_rulebook in sorted(candidates, key=lambda item: (item[0], item[1].token)):
        face_rules = engine.rules.faces[card.faces[state.side]]
        colour = sorted(engine.rules.side_colours[state.side])[0] if face_rules.choose_colour else None
        accepted = engine.judge(ev.Play(0, names[seat], card.token, colour)) is None
        if accepted != allowed_by_rulebook:
            verb = "may" if accepted else "may not"
            what = "jump in with" if name == "jump-in" else "stack"
            return f"{names[seat]} {verb} {what} {card.token} here, which {whose} {name} {'forbids' if accepted else 'allows'}"
    return None


def _jump_ins(state: Any, top: Face, claimed: Any) -> list[tuple[int, Any, bool]]:
    """The jump-ins the seats could make now: (seat, card, whether the rulebook's value allows it)."""
    candidates: list[tuple[int, Any, bool]] = []
    if not state.penalties and not top.is_wild:
        for seat in range(len(state.players)):
            if seat != state.turn and not (state.drew and seat == state.next_player(state.turn)):
                candidates += [(seat, card, bool(claimed)) for card in state.hands[seat] if card.faces[state.side] == top]
    return candidates


def _stacks(state: Any, claimed: Any) -> list[tuple[int, Any, bool]]:
    """The stacks the player owing a draw card's penalty could make now: (seat, card, whether the rulebook allows it)."""
    if not state.penalties or 0 in state.hand_sizes:
        return []
    penalty = state.penalties[0]
    if penalty.started or penalty.catch or penalty.ruled:  # only a draw card's penalty, none of it drawn
        return []
    owed_kind = state.discard_pile[-1].faces[state.side].kind
    table = claimed if isinstance(claimed, dict) else {}
    allowed = table.get(owed_kind, frozenset())
    stackers = {kind for kinds in table.values() for kind in kinds} | {owed_kind}
    return [
        (penalty.player, card, card.faces[state.side].kind in allowed)
        for card in state.hands[penalty.player]
        if card.faces[state.side].kind in stackers
    ]


def _reverses(rules: Rules, kind: str) -> bool:
    return any(face_rules.reverse for face_rules in rules.faces.values() if face_rules.face.kind == kind)


def _played_face(rules: Rules, token: str, side: int) -> Face | None:
    token = token.lower()
    if "/" in token:
        card = rules.catalogue.card(token)
        return card.faces[side] if card is not None else None
    return rules.catalogue.face(token, side)


def violation(claim: Claim, rules: Rules, previous: Before | None, engine: Engine, event: Any) -> str | None:
    """Whether this step of a game (from ``previous`` by ``event``) breaks the claim; the reason, or None. Each claim
    form has its own check (``ClaimForm.check``)."""
    if not engine.state.players or not claim.applies(rules):
        return None
    return FORMS_BY_NAME[claim.form].check(claim, rules, previous, engine, event)


FormCheck = Callable[[Claim, Rules, Before | None, Engine, Any], str | None]  # a claim form's check on one step


def _table_step(claim: Claim, rules: Rules, previous: Before | None, engine: Engine, event: Any) -> str | None:
    state, figures, names = engine.state, figures_of(claim, TableFigures), rules.spec.side_names
    wrong_side = figures.start_side is not None and names[state.side] != figures.start_side
    if isinstance(event, ev.Round) and wrong_side:
        return f"round {state.round_number} starts on the {names[state.side]} side, not the {figures.start_side} side"
    if isinstance(event, ev.Shuffle | ev.Start) and state.phase is PLAYING:
        size = figures.hand_size
        if size is not None and any(hand != size for hand in state.hand_sizes):
            return f"hands of {sorted(set(state.hand_sizes))} cards were dealt, not {size}"
    return None


def _deck_step(claim: Claim, rules: Rules, previous: Before | None, engine: Engine, event: Any) -> str | None:
    if isinstance(event, ev.Shuffle | ev.Start) and engine.state.phase is PLAYING:
        return deck_problem(claim, rules)
    return None


def _matching_step(claim: Claim, rules: Rules, previous: Before | None, engine: Engine, event: Any) -> str | None:
    state = engine.state
    if state.phase is not PLAYING or state.penalties or state.choose_by is not None:
        return None
    top = state.top_face()
    if top is None or state.colour is None:
        return None
    for card in sorted(state.hands[state.turn], key=lambda card: card.token):
        face = card.faces[state.side]
        expected = _claimed_match(figures_of(claim, MatchingFigures), face, top, state.colour)
        if engine.matches(face) != expected:
            verb = "lets" if expected else "does not let"
            return (
                f"{state.players[state.turn]} holds {face.token}: the rulebook {verb} it be played on {top.token} "
                f"(colour in play {state.colour}), the spec says otherwise"
            )
    return None


def _points_step(claim: Claim, rules: Rules, previous: Before | None, engine: Engine, event: Any) -> str | None:
    state, figures = engine.state, figures_of(claim, PointsFigures)
    if state.phase is not PLAYING and state.last_result is not None and isinstance(event, ev.Play | ev.Draw):
        result = state.last_result
        if result.winner is None:  # the round points are the cards left in hands, under either scoring
            return None
        total = 0
        for hand in state.hands:
            for card, count in hand.items():
                face = card.faces[state.side]
                figure = figures.get(face.kind)
                if figure is not None:
                    total += count * ((face.number or 0) if figure == PointsFigures.FACE_VALUE else int(figure))
                else:
                    total += count * engine.rules.faces[face].points
        if result.points != total:
            return f"{result.winner} scored {result.points} for the round; {claim.whose} values give {total}"
    return None


def _start_step(claim: Claim, rules: Rules, previous: Before | None, engine: Engine, event: Any) -> str | None:
    state, figures, names, n = engine.state, figures_of(claim, StartFigures), rules.spec.side_names, len(engine.state.players)
    if isinstance(event, ev.Shuffle | ev.Start) and state.phase is PLAYING:
        start_side = rules.spec.start_side
        if not figures.returned and not any(f.face.side == start_side for f in faces_of(rules, figures.kind)):
            return f"cards are turned up on the {names[start_side]} side, where there is no {figures.kind}: it never starts a round"
        start_card = state.discard_pile[0] if len(state.discard_pile) == 1 else None
        kind = start_card.faces[rules.spec.start_side].kind if start_card is not None else None
        if kind != figures.kind:
            return None
        if figures.returned:
            return f"a {kind} stayed turned up at the start"
        dealer = state.dealer
        expected_turn = (dealer + figures.to_act) % n
        return _compare(figures, state, expected_turn, 1, rules.spec.start_side, "the start card", rules.spec.side_names)
    return None


def _stack_step(claim: Claim, rules: Rules, previous: Before | None, engine: Engine, event: Any) -> str | None:
    state, figures = engine.state, figures_of(claim, StackFigures)
    if isinstance(event, ev.Play) and previous is not None and previous.first is not None:
        seat = state.seat[event.player]
        player, count = previous.first[0], previous.first[1]
        if player == seat and _played_kind(rules, event.card, previous.side) == figures.kind and state.penalties:
            passed = state.penalties[-1]
            receiver = state.next_player(seat)
            if passed.player != receiver or passed.count != count + figures.adds:
                return (
                    f"{event.player} stacked a {figures.kind} on {count} cards: {state.players[passed.player]} owes {passed.count}, "
                    f"not {state.players[receiver]} {count + figures.adds}"
                )
    return None


def _challenge_step(claim: Claim, rules: Rules, previous: Before | None, engine: Engine, event: Any) -> str | None:
    state, figures = engine.state, figures_of(claim, ChallengeFigures)
    if figures.never:
        if isinstance(event, ev.Challenge):
            return f"{event.player} challenged {event.target}'s wild draw card: the claim is that no challenge can arise"
        return None
    if isinstance(event, ev.Challenge) and previous is not None and previous.first is not None:
        return _challenge_violation(figures, rules, previous, engine, event)
    if isinstance(event, ev.Play) and previous is not None and state.discard_pile:
        face = state.discard_pile[-1].faces[previous.side]
        penalty = state.penalties[-1] if state.penalties else None
        wild_draw = face.is_wild and engine.rules.faces[face].gives_penalty  # faces are the engine's
        if wild_draw and penalty is not None and penalty.played_by == state.seat[event.player] and not penalty.challengeable:
            victim = state.players[penalty.player]
            return f"{event.player} played {face.token}, a wild draw card: the rulebook lets {victim} challenge it, the spec does not"
    return None


def _catch_step(claim: Claim, rules: Rules, previous: Before | None, engine: Engine, event: Any) -> str | None:
    state, figures = engine.state, figures_of(claim, CatchFigures)
    if isinstance(event, ev.Catch) and state.penalties and state.penalties[0].catch:
        caught = state.penalties[0]
        drawer = state.seat[event.target if figures.draws == "caught" else event.player]
        if caught.player != drawer or caught.count != figures.cards:
            return (
                f"{event.player} caught {event.target}: {state.players[caught.player]} owes {caught.count} cards, "
                f"not {state.players[drawer]} {figures.cards}"
            )
    return None


def _play_step(claim: Claim, rules: Rules, previous: Before | None, engine: Engine, event: Any) -> str | None:
    state, figures, n = engine.state, figures_of(claim, PlayFigures), len(engine.state.players)
    if isinstance(event, ev.Play) and previous is not None and state.phase is PLAYING:
        if _played_kind(rules, event.card, previous.side) != figures.kind:
            return None
        problem = restriction_problem(claim, rules)
        if problem:
            return f"{event.player} played it: {problem}"
        if figures.players == "2" and n != 2 or figures.players == "3+" and n < 3:
            return None
        seat = state.seat[event.player]
        direction = previous.direction if figures.direction == "same" else -previous.direction
        expected_turn = (seat + direction * figures.next) % n
        if any(p.player == seat for p in previous.penalties):  # a stacked play: the claim speaks of a plain play
            return None
        return _compare(
            figures, state, expected_turn, previous.direction, previous.side, f"{event.player}'s {figures.kind}", rules.spec.side_names
        )
    return None


def _challenge_violation(figures: ChallengeFigures, rules: Rules, previous: Before, engine: Engine, event: ev.Challenge) -> str | None:
    """A challenge ruled as the claim's ruling: does the penalty now owed say what the claim says?"""
    state = engine.state
    player, count, until_colour, extra_before, guilty, played_by = previous.first  # type: ignore[misc]
    if guilty != figures.guilty or not state.penalties or played_by is None:
        return None  # another ruling, or the penalty was dropped at once (nothing left to draw)
    penalty = state.penalties[0]
    names = state.players
    challenger = state.seat[event.player]
    drawer = played_by if figures.draws == "player" else challenger
    extra = figures.extra if figures.cards == "penalty-and-extra" else 0
    following = challenger if figures.then == "challenger-plays" else (challenger + state.direction) % len(names)
    what = f"after {event.player}'s challenge, ruled {figures.ruling},"
    if penalty.player != drawer:
        return f"{what} {names[penalty.player]} draws the penalty, not {names[drawer]}"
    owed_now = (penalty.count, penalty.extra) if until_colour is None else (penalty.extra,)
    owed_claimed = (count + extra, extra_before) if until_colour is None else (extra_before + extra,)
    if owed_now != owed_claimed:
        more = extra_before + extra
        claimed = f"{count + extra} cards" if until_colour is None else f"cards until a {until_colour} one, then {more} more"
        return f"{what} {names[drawer]} owes {penalty.describe()}, not {claimed}"
    if penalty.next_turn != following:
        moves = names[penalty.next_turn] if penalty.next_turn is not None else "nobody new"
        return f"{what} {moves} moves once it is drawn, not {names[following]}"
    return None


def _played_kind(rules: Rules, token: str, side: int) -> str | None:
    face = _played_face(rules, token, side)
    return face.kind if face is not None else None


def _compare(
    figures: PlayFigures | StartFigures, state: Any, turn: int, direction_before: int, side_before: int, what: str, names: tuple[str, ...]
) -> str | None:
    direction = direction_before if figures.direction == "same" else -direction_before
    side = side_before if figures.side == "same" else (side_before + 1) % len(names)
    if state.side != side:
        return f"after {what} the {names[state.side]} side is in play, not the {names[side]} side"
    if state.direction != direction:
        return f"after {what} play moves {'left' if state.direction == 1 else 'right'}"
    if figures.owes == 0 and state.penalties:
        return f"after {what} {state.players[state.penalties[-1].player]} owes a penalty"
    if state.phase is not PLAYING:  # the card ended the round: nobody moves next
        return None
    if state.turn != turn:
        return f"after {what} it is {state.players[state.turn]}'s turn, not {state.players[turn]}'s"
    owes = figures.owes
    if owes != 0:
        penalty = state.penalties[-1] if state.penalties else None
        if penalty is None or penalty.player != turn:
            return f"after {what} {state.players[turn]} owes nothing"
        if owes == "until-colour" and penalty.until_colour is None:
            return f"after {what} {state.players[turn]} owes {penalty.count} cards, not cards until the colour"
        if owes != "until-colour" and penalty.count != owes:
            return f"after {what} {state.players[turn]} owes {penalty.count} cards, not {owes}"
    return _compare_colour(figures.colour, state, what)


def _compare_colour(colour: str, state: Any, what: str) -> str | None:
    """The colour in play after a card, against the claim's: the card's, one chosen, or the uncovered card's."""
    if colour == "chosen" and state.choose_by is None and state.colour is None:
        return f"after {what} nobody names the colour"
    if colour == "card" and (state.colour is None or state.choose_by is not None):
        return f"after {what} the colour in play is not the card's"
    if colour == "uncovered" and state.choose_by is None and state.colour is None:
        return f"after {what} the uncovered card has no colour and nobody names one"
    return None


# -- how the prover answers each form over the compiled rules (and Z3); a withdrawn claim's answer

Answered = tuple[Status, list[int], str]  # proved / refuted (for which player counts) / unknown, and a detail
ENUMERATED = "by enumeration of every case against the compiled rules"
Answering = Callable[[Claim, Rules, tuple[int, ...], int], Answered]


def _finite(problem: Callable[[Claim, Rules], str | None], proved: str) -> Answering:
    """A claim checked case by case against the compiled rules (points, matching, deck, an option)."""

    def answer(claim: Claim, rules: Rules, players: tuple[int, ...], timeout_ms: int) -> Answered:
        found = problem(claim, rules)
        return (Status.REFUTED, list(players), found) if found else (Status.PROVED, [], proved)

    return answer


def _table_answer(claim: Claim, rules: Rules, players: tuple[int, ...], timeout_ms: int) -> Answered:
    """The table: the player range, the side, case by case; the hand size dealt, asked of the model."""
    problem = table_problem(claim, rules)
    if problem:
        return Status.REFUTED, list(players), problem
    hand_size = figures_of(claim, TableFigures).hand_size
    if hand_size is None:
        return Status.PROVED, [], ENUMERATED
    status, refuted = for_each_count(players, lambda n: ask(hand_size_question(claim, rules, n, timeout_ms)))
    return status, refuted, f"a deal gives a hand of other than {hand_size} cards" if refuted else ""


def _dispute(question: Callable[..., list[z3.Solver]], what: str) -> Answering:
    """A challenge or a catch claim: asked of the transition relation, after showing that one can be made at all."""

    def answer(claim: Claim, rules: Rules, players: tuple[int, ...], timeout_ms: int) -> Answered:
        never_arises = isinstance(claim.figures, ChallengeFigures) and claim.figures.never
        if never_arises:  # the claim is that no challenge can arise: refuted where one can
            can = [n for n in players if first_sat(question(claim, rules, n, timeout_ms, True)) != "unsat"]
            if can:
                return Status.REFUTED, can, f"a {what} can be made under the spec"
            return Status.PROVED, [], f"no {what} can be made under the spec"
        never = [n for n in players if first_sat(question(claim, rules, n, timeout_ms, True)) == "unsat"]
        if never:  # the claim must hold of something: a spec where it can never happen breaks it
            return Status.REFUTED, never, f"no {what} can be made under the spec"
        status, refuted = for_each_count(players, lambda n: first_sat(question(claim, rules, n, timeout_ms)))
        return status, refuted, ""

    return answer


def _stack_answer(claim: Claim, rules: Rules, players: tuple[int, ...], timeout_ms: int) -> Answered:
    never = [n for n in players if first_sat(stack_question(claim, rules, n, timeout_ms, True)) == "unsat"]
    if never:
        return Status.REFUTED, never, f"no {figures_of(claim, StackFigures).kind} can be stacked on a penalty under the spec"
    status, refuted = for_each_count(players, lambda n: first_sat(stack_question(claim, rules, n, timeout_ms)))
    return status, refuted, ""


def _card(asked: Callable[[Claim, Rules, int, int], list[z3.Solver]], first: Callable[..., Answered | None]) -> Answering:
    """A play or a start claim: what follows a card of its kind, for each player count it concerns (``first``: the
    form's own question before it, a refutation or None)."""

    def answer(claim: Claim, rules: Rules, players: tuple[int, ...], timeout_ms: int) -> Answered:
        counts = counts_for(claim, rules, players)
        if not counts:
            return Status.PROVED, [], "no player count of the spec's range is concerned"
        kind = _kind(claim)
        if not faces_of(rules, kind):
            return Status.REFUTED, list(counts), f"the spec has no face of kind {kind}"
        found = first(claim, rules, counts, timeout_ms)
        if found is not None:
            return found
        status, refuted = for_each_count(counts, lambda n: first_sat(asked(claim, rules, n, timeout_ms)))
        return status, refuted, ""

    return answer


def _restricted(claim: Claim, rules: Rules, counts: tuple[int, ...], timeout_ms: int) -> Answered | None:
    problem = restriction_problem(claim, rules)
    return (Status.REFUTED, list(counts), problem) if problem else None


def _ever_starts(claim: Claim, rules: Rules, counts: tuple[int, ...], timeout_ms: int) -> Answered | None:
    figures = figures_of(claim, StartFigures)
    if figures.returned:
        return None
    never = [n for n in counts if start_possible(claim, rules, n, timeout_ms) == "unsat"]
    return (Status.REFUTED, never, f"a {figures.kind} turned up never starts a round") if never else None


def _withdrawn(arises: Callable[[Claim, Rules, int, int], Answer], of_a_kind: bool = False) -> Answering:
    """A claim a house spec withdraws holds of nothing under it: proved when what it speaks of never arises, for
    every player count; refuted where it still can (``arises``: whether it can, for one player count; ``of_a_kind``:
    it speaks of a kind of face, so a spec without one has nothing it speaks of)."""

    def answer(claim: Claim, rules: Rules, players: tuple[int, ...], timeout_ms: int) -> Answered:
        why = f"withdrawn by the spec ({claim.withdrawn})"
        if of_a_kind and not faces_of(rules, _kind(claim)):
            return Status.PROVED, [], f"{why}: the spec has no face of kind {_kind(claim)}"
        answers = {n: arises(claim, rules, n, timeout_ms) for n in players}
        still = [n for n, found in answers.items() if found is Answer.SAT]
        if still:
            return Status.REFUTED, still, f"{why}, but what it speaks of still arises under the spec: restate the claim instead"
        if any(found is not Answer.UNSAT for found in answers.values()):
            return Status.UNKNOWN, [], f"{why}: the solver could not settle whether what it speaks of arises"
        return Status.PROVED, [], f"{why}: what it speaks of never arises under the spec"

    return answer


def _withdrawn_play(claim: Claim, rules: Rules, players: tuple[int, ...], timeout_ms: int) -> Answered:
    why = f"withdrawn by the spec ({claim.withdrawn})"
    kind = _kind(claim)
    if not faces_of(rules, kind):
        return Status.PROVED, [], f"{why}: the spec has no face of kind {kind}"
    counts = counts_for(claim, rules, players)
    if not counts:
        return Status.PROVED, [], f"{why}: no player count of the spec's range is concerned"
    return Status.REFUTED, list(counts), f"{why}, but a {kind} is still played: restate the claim instead"


def _withdrawn_stack(claim: Claim, rules: Rules, players: tuple[int, ...], timeout_ms: int) -> Answered:
    """The compiled stacking table is what the engine asks: exact, and finite."""
    why = f"withdrawn by the spec ({claim.withdrawn})"
    kind = _kind(claim)
    owed = sorted(owed for owed, allowed in (rules.stacking or {}).items() if kind in allowed)
    if not owed:
        return Status.PROVED, [], f"{why}: the spec's option stacking lets no {kind} go on any penalty"
    return Status.REFUTED, list(players), f"{why}, but a {kind} may still go on {', '.join(owed)}: restate the claim instead"


# -- refutations a form writes without searching for a game (``ClaimForm.written``): (decided, the text or None)

Written = tuple[bool, str | None]
_SEARCH: Written = (False, None)


def _table_written(claim: Claim, rules: Rules, spec_path: str) -> Written:
    """The player range: the table of one player too many or too few that the spec turns away or accepts."""
    figures = figures_of(claim, TableFigures)
    if figures.min_players is None and figures.max_players is None:
        return _SEARCH
    spec = rules.spec
    low = spec.min_players if figures.min_players is None else figures.min_players
    high = spec.max_players if figures.max_players is None else figures.max_players
    if spec.min_players > low or spec.max_players < high:  # a table the rulebook allows, turned away
        wanted, verdict = (low if spec.min_players > low else high), "the spec turns the table away (bad-setup at line 3)"
    elif spec.max_players > high or spec.min_players < low:  # a table the rulebook does not allow, accepted
        wanted, verdict = (high + 1 if spec.max_players > high else low - 1), "the spec accepts it"
    else:
        return True, None
    names = " ".join(f"Player{index + 1}" for index in range(wanted))
    return True, (
        f"# counterexample to {claim.id}: the rulebook is for {low} to {high} players; a table of {wanted}: {verdict}\n"
        f"# replay: referee check --spec {spec_path} THIS-LOG\n"
        f"players {names}\nround 1\ndealer Player1\n"
    )


# An option no game of a spec can show: the faces it is about, as (what the faces are, the test of a face's rules).
_OPTION_FACES: dict[str, tuple[str, Callable[[FaceRules], bool]]] = {
    "flip-colour-chooser": ("a Flip", lambda face_rules: face_rules.flip),
    "zero-rotates": ("a 0", lambda face_rules: face_rules.face.number == 0),
    "seven-swaps": ("a 7", lambda face_rules: face_rules.face.number == 7),
}


def _option_written(claim: Claim, rules: Rules, spec_path: str) -> Written:
    """For an option claim about faces the spec does not have (a Flip in classic UNO, a 0 in UNO Flip): no game can
    show the option at work, so the refutation is the state and the reason, not a log."""
    name = claim.figures.name if isinstance(claim.figures, OptionFigures) else ""
    if name not in _OPTION_FACES:
        return _SEARCH
    what, has = _OPTION_FACES[name]
    if any(has(face_rules) for face_rules in rules.faces.values()):
        return _SEARCH
    value = rules.spec.options.get(name)
    shown = str(value).lower() if isinstance(value, bool) else str(value)
    return True, (
        f"# refutation of {claim.id}: the spec sets option {name} to {shown}, not {claim.whose} value\n"
        f"# no game can show it: no face of this spec is {what}, so no state of any game differs by it;\n"
        f"# the state is the compiled rules themselves (referee rules --spec {rules.spec.path})\n"
    )


def _stack_written(claim: Claim, rules: Rules, spec_path: str) -> Written:
    """A kind the spec's option stacking never lets go on a penalty: no game shows it stacked."""
    kind = _kind(claim)
    if any(f.stackable for f in rules.faces.values() if f.face.kind == kind):
        return _SEARCH
    return True, (
        f"# refutation of {claim.id}: a {kind} is meant to be stacked on a penalty owed\n"
        f"# no game can show it: the spec's option stacking lets no {kind} go on any penalty;\n"
        f"# the state: a player owes a penalty and holds a {kind}; playing it is illegal-play\n"
    )


def _start_written(claim: Claim, rules: Rules, spec_path: str) -> Written:
    """A start claim about a kind that never stays turned up (its ``at-start`` sends it back to the draw pile): no game
    can reach a round it starts, so the refutation is the state and the reason, not a log."""
    figures = figures_of(claim, StartFigures)
    if figures.returned:
        return _SEARCH
    kind = figures.kind
    start_side = rules.spec.start_side
    faces = [f for f in rules.faces.values() if f.face.kind == kind and f.face.side == start_side]
    if not faces or not all("return-to-draw-pile" in f.at_start for f in faces):
        return _SEARCH
    side = rules.spec.side_names[start_side]
    return True, (
        f"# refutation of {claim.id}: a {kind} turned up is meant to start the round, but the spec sends it back\n"
        f"# no game can show it: every {kind} on the {side} side has at-start return-to-draw-pile, so no round starts on one;\n"
        f"# the state: the {kind} is the card turned up, it goes back into the draw pile and another card is turned up\n"
    )


def _searched(claim: Claim, rules: Rules, spec_path: str) -> Written:
    return _SEARCH


# -- the spec's own figures, read back for ``prove --declare`` (``ClaimForm.restate``)

Restating = Callable[[Claim, Rules, tuple[int, ...]], AnyFigures | str]  # the spec's figures, or why they cannot be read


def _restating(form: type[F], restate: Callable[[F, Rules, tuple[int, ...]], F | str]) -> Restating:
    def read_back(claim: Claim, rules: Rules, players: tuple[int, ...]) -> AnyFigures | str:
        found: Any = restate(figures_of(claim, form), rules, players)
        return found  # type: ignore[no-any-return]

    return read_back


# -- the forms, each defined once


@dataclass(frozen=True)
class ClaimForm:
    """One claim form, defined once as ``InvariantForms`` defines an invariant: how its figures are read from a
    claims file (``read``), how the prover answers it over the compiled rules and Z3 (``answer``), how one step of a
    concrete game is checked against it (``check``), for a claim a house spec may withdraw, how the withdrawal is
    proved (``withdraw``), and the refutation it writes without searching for a game (``written``; the prover's
    counterexample search runs otherwise), and how the figures the spec's compiled rules have are read back for
    ``prove --declare`` (``restate``; None: they are restated by hand)."""

    name: ClaimFormName
    read: Callable[[ClaimReader, Mapping], AnyFigures]
    answer: Answering
    check: FormCheck
    withdraw: Answering | None = None
    written: Callable[[Claim, Rules, str], Written] = _searched
    restate: Restating | None = None

    @property
    def withdrawable(self) -> bool:
        return self.withdraw is not None


FORMS_BY_NAME: dict[ClaimFormName, ClaimForm] = {
    form.name: form
    for form in (
        ClaimForm(
            ClaimFormName.PLAY,
            PlayFigures.read,
            _card(play_question, _restricted),
            _play_step,
            _withdrawn_play,
            restate=_restating(PlayFigures, restate.play),
        ),
        ClaimForm(
            ClaimFormName.START,
            StartFigures.read,
            _card(start_question, _ever_starts),
            _start_step,
            _withdrawn(lambda claim, rules, n, timeout_ms: start_possible(claim, rules, n, timeout_ms), of_a_kind=True),
            _start_written,
            _restating(StartFigures, restate.start),
        ),
        ClaimForm(
            ClaimFormName.CHALLENGE,
            ChallengeFigures.read,
            _dispute(challenge_question, "challenge of a wild draw card"),
            _challenge_step,
            _withdrawn(lambda claim, rules, n, timeout_ms: first_sat(challenge_question(claim, rules, n, timeout_ms, True))),
            restate=_restating(ChallengeFigures, restate.challenge),
        ),
        ClaimForm(
            ClaimFormName.CATCH,
            CatchFigures.read,
            _dispute(catch_question, "catch"),
            _catch_step,
            _withdrawn(lambda claim, rules, n, timeout_ms: first_sat(catch_question(claim, rules, n, timeout_ms, True))),
            restate=_restating(CatchFigures, restate.catch),
        ),
        ClaimForm(
            ClaimFormName.STACK,
            StackFigures.read,
            _stack_answer,
            _stack_step,
            _withdrawn_stack,
            _stack_written,
            _restating(StackFigures, restate.stack),
        ),
        ClaimForm(
            ClaimFormName.POINTS,
            PointsFigures.read,
            _finite(points_problem, ENUMERATED),
            _points_step,
            restate=_restating(PointsFigures, restate.points),
        ),
        ClaimForm(
            ClaimFormName.MATCHING,
            MatchingFigures.read,
            _finite(matching_problem, ENUMERATED),
            _matching_step,
            restate=_restating(MatchingFigures, restate.matching),
        ),
        ClaimForm(ClaimFormName.DECK, DeckFigures.read, _finite(deck_problem, ENUMERATED), _deck_step),
        ClaimForm(
            ClaimFormName.TABLE,
            TableFigures.read,
            _table_answer,
            _table_step,
            written=_table_written,
            restate=_restating(TableFigures, restate.table),
        ),
        ClaimForm(
            ClaimFormName.OPTION,
            OptionFigures.read,
            _finite(option_problem, "the spec's option has the rulebook's value"),
            option_violation,
            written=_option_written,
            restate=_restating(OptionFigures, restate.option),
        ),
    )
}
WITHDRAWABLE = tuple(form.name for form in FORMS_BY_NAME.values() if form.withdrawable)
