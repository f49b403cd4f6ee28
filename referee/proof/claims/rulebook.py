"""The claims in force for a spec: its rulebook's claims file (``specs/claims/GAME.yml``), with the spec's own
restated or withdrawn claims in their place; and the reader of a list of claims, each read by its form."""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

from referee.errors import SpecError, did_you_mean
from referee.proof.claims.claim import Claim
from referee.proof.claims.figures import NO_FIGURES, ClaimReader, Figures
from referee.proof.claims.forms import FORMS_BY_NAME, WITHDRAWABLE
from referee.rules.compiler import Rules
from referee.spec.kind_changes import rename_in_claims
from referee.spec.loader import Mapping, Node, Scalar, Sequence, load_file
from referee.spec.model import Spec
from referee.spec.paths import SPECS
from referee.spec.vocabulary import CLAIM_FORMS, CLAIM_KEYS, ClaimFormName

CLAIMS_FORMAT = "referee-claims/1"
FORMS = CLAIM_FORMS  # the keys that name a claim's form, in the order a problem lists them


def read_claims(items: Sequence | None, path: str, sources: dict[str, tuple[str, str]]) -> list[Claim[Any]]:
    """Claims from a YAML list (a claims file's ``claims`` or a spec's ``claims``)."""
    reader = ClaimReader(path)
    claims: list[Claim[Any]] = []
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


def _read_form(reader: ClaimReader, form: ClaimFormName, node: Node) -> Figures:
    """A claim's figures, read by its form's reader (``ClaimForm.read``)."""
    if not isinstance(node, Mapping):
        reader.error(node.position, f"{form} is a mapping")
        return NO_FIGURES
    return FORMS_BY_NAME[form].read(reader, node)


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


def game_claims(rules: Rules) -> list[Claim[Any]]:
    """The claims in force for a spec: its game's claims file, with the spec's own restated claims replacing them by id."""
    spec = rules.spec
    colours = frozenset(colour for side in spec.colours for colour in side)
    claims = {claim.id: claim for claim in _file_claims(game_of(spec), spec.kinds_renamed, colours)}
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


def rulebook_claim(spec: Spec, claim_id: str) -> Claim[Any] | None:
    """The rulebook's claim ``claim_id`` as ``spec`` names its kinds (a kind renamed by the spec, or by a spec it
    extends, under its new name); None when the rulebook has no such claim."""
    colours = frozenset(colour for side in spec.colours for colour in side)
    return next((claim for claim in _file_claims(game_of(spec), spec.kinds_renamed, colours) if claim.id == claim_id), None)


def _not_withdrawable(claim_id: str, base: Claim[Any] | None, known: list[str]) -> str:
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
def _file_claims(game: str, renamed: tuple[tuple[str, str], ...] = (), colours: frozenset[str] = frozenset()) -> tuple[Claim[Any], ...]:
    """The claims of a game's file (``specs/claims/GAME.yml``), read once per process; none when there is no file. A
    kind the spec renamed is named as the spec names it (``referee.spec.kind_changes.rename_in_claims``)."""
    path = SPECS / "claims" / f"{game}.yml"
    if not path.is_file():
        return ()
    tree = load_file(path)
    if renamed:
        tree = rename_in_claims(tree, renamed, colours)
    format_node = tree.entries.get("format")
    if not isinstance(format_node, Scalar) or format_node.value != CLAIMS_FORMAT:
        raise SpecError([(tree.position, f"a claims file starts with format: {CLAIMS_FORMAT}")])
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
