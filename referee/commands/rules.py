"""``referee rules``: a spec's rules, deck or claims."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from referee import errors
from referee.commands.options import compiled_rules, format_option, spec_option


@click.command()
@click.argument("rule_id", required=False)
@spec_option(True)
@format_option
@click.option(
    "--deck",
    is_flag=True,
    help="Print the spec's deck instead: every physical card, grouped by its first face (in UNO Flip, what each light "
    "face is paired with), with how many there are.",
)
@click.option(
    "--claims",
    is_flag=True,
    help="Print the claims 'referee prove' holds the spec to instead (its rulebook's, and those it restates or "
    "withdraws): id and statement; with a CLAIM-ID, that claim's source and figures.",
)
@click.option(
    "--lint",
    is_flag=True,
    help="Check the rules' words against the spec's figures instead: each summary, and each ruling cited, that "
    "still states the rulebook's number for a figure the spec changes (exit 1 if any).",
)
def rules(rule_id: str | None, spec_path: Path, output_format: str, deck: bool, claims: bool, lint: bool) -> None:
    """List the spec's rules, or show one: id, summary, source, options.

    Summaries show the option values in force under the spec (a house spec
    with a 300-point target says 300). Shipped specs: uno-flip (the official
    rules of UNO Flip), uno (classic UNO), uno-2018 (classic UNO's
    112-card deck: Wild Shuffle Hands), house-dealer-chooses,
    house-lowest-score, house-short-game, house-stacking, house-forced-play,
    house-doubles, uno-seven-zero, uno-jump-in, uno-draw-to-match,
    uno-progressive, uno-party and uno-flip-party (what most tables play);
    any spec file may be given instead.

    \b
    Examples:
      referee rules                          # every rule of the official spec
      referee rules challenge.innocent       # one rule, with the options that change it
      referee rules --spec house-stacking penalty.no-stacking
      referee rules --deck                   # which dark face each light face is paired with
      referee rules --claims --spec uno      # the claims 'referee prove' checks
      referee rules --lint --spec my-house-rules.yaml   # words the figures contradict
    """
    import json

    from referee.checking.explain import rule_data

    compiled = compiled_rules(spec_path)
    spec = compiled.spec
    if lint:
        if claims or deck or rule_id is not None:
            raise click.UsageError("--lint checks every rule: give no rule id, --claims or --deck with it")
        _lint(spec, output_format)
    if claims:
        if deck:
            raise click.UsageError("give --claims or --deck, not both")
        _print_claims(compiled, rule_id, output_format)
        return
    if deck:
        if rule_id is not None:
            raise click.UsageError("--deck prints the whole deck: give no rule id with it")
        _print_deck(compiled, output_format)
        return
    chosen = list(spec.rules)
    if rule_id is not None:
        chosen = [rule for rule in spec.rules if rule.id == rule_id]
        if not chosen:
            hint = errors.did_you_mean(rule_id, [rule.id for rule in spec.rules], 3)
            raise click.UsageError(f"spec {spec.name} has no rule '{errors.escape(rule_id)}'{hint}")
    data = [rule_data(rule, compiled) for rule in chosen]
    if output_format == "json":
        click.echo(json.dumps({"spec": spec.name, "rules": data}, indent=1, ensure_ascii=False))
        return
    for item in data:
        if rule_id is None:
            click.echo(errors.escape(f"{item['id']:<24} {item['summary']}"))
            continue
        click.echo(errors.escape(f"{item['id']}: {item['summary']}"))
        click.echo(errors.escape(f"  source: {item['source']}"))
        if item["ruling"] is not None:
            changed = _ruling_changes(spec, rule_id)
            click.echo(errors.escape(f"  ruling {item['ruling']['number']}{changed}: {item['ruling']['text']}"))
        for name, value in item["options"].items():
            click.echo(errors.escape(f"  option {name}: {json.dumps(value)}"))
        if item["checks"]:
            click.echo(errors.escape(f"  enforced by the checks: {', '.join(item['checks'])}"))


def _lint(spec: Any, output_format: str) -> None:
    """``rules --lint``: each finding of ``referee.proof.wording``, one line each; exit 1 if any."""
    import json

    from referee.proof.wording import lint

    findings = lint(spec)
    if output_format == "json":
        data = [
            {
                "rule": f.rule,
                "where": f.where,
                "ruling": f.ruling,
                "figure": f.figure.label,
                "rulebook": f.figure.rulebook,
                "spec": f.figure.spec,
            }
            for f in findings
        ]
        click.echo(json.dumps({"spec": spec.name, "findings": data}, indent=1, ensure_ascii=False))
    else:
        for finding in findings:
            click.echo(errors.escape(finding.message()))
        count = len(findings)
        click.echo(f"{spec.name}: {count or 'no'} text{'s' if count != 1 else ''} that the spec's figures contradict")
    raise SystemExit(errors.EXIT_FINDINGS if findings else errors.EXIT_CLEAN)


def _ruling_changes(spec: Any, rule_id: str) -> str:
    """For a ruling that states the rulebook's figure for one the spec changes: "(the rulebook's; this spec's ...)"."""
    from referee.proof.wording import rulebook_of, word_rule

    rulebook = rulebook_of(spec)
    rule = next(rule for rule in spec.rules if rule.id == rule_id)
    if rulebook is None:
        return ""
    worded = word_rule(rule, spec, rulebook)
    stale = [*worded.changed, *(finding.figure for finding in worded.findings if finding.ruling is not None)]
    if not stale:
        return ""
    return " (the rulebook's; this spec's " + ", ".join(f"{figure.label} is {figure.spec}" for figure in stale) + ")"


def _print_claims(compiled: Any, claim_id: str | None, output_format: str) -> None:
    """``rules --claims``: the claims in force for a spec (one, with its figures, when ``claim_id`` is given)."""
    import json

    from referee.proof.claims import game_claims

    every = game_claims(compiled)
    chosen = every if claim_id is None else [claim for claim in every if claim.id == claim_id]
    if not chosen:
        hint = errors.did_you_mean(claim_id or "", [claim.id for claim in every])
        raise click.UsageError(f"spec {compiled.spec.name} has no claim '{errors.escape(claim_id or '')}'{errors.escape(hint)}")
    data = [claim.to_json() for claim in chosen]
    if output_format == "json":
        click.echo(json.dumps({"spec": compiled.spec.name, "claims": data}, indent=1, ensure_ascii=False))
        return
    for item in data:
        where = " (withdrawn: " + item["withdrawn"] + ")" if item["withdrawn"] else " (restated by the spec)" if item["restated"] else ""
        if claim_id is None:
            click.echo(errors.escape(f"{item['id']:<28} {item['statement']}{where}"))
            continue
        click.echo(errors.escape(f"{item['id']}: {item['statement']}{where}"))
        click.echo(errors.escape(f"  source: {item['source']}"))
        if item["if"]:
            click.echo(errors.escape(f"  in force when: {json.dumps(item['if'])}"))
        click.echo(errors.escape(f"  {item['form']}: {json.dumps(item['figures'])}"))


def _print_deck(compiled: Any, output_format: str) -> None:
    """The deck, a line per first face: ``red-1  2  red-1/pink-3 red-1/purple-2`` (how many, then the cards)."""
    import json
    from collections import Counter

    counts = Counter(card.token for card in compiled.deck)
    groups: dict[str, list[str]] = {}
    for token in sorted(counts):
        groups.setdefault(token.partition("/")[0], []).append(token)
    if output_format == "json":
        cards = [{"card": token, "count": counts[token]} for token in sorted(counts)]
        click.echo(json.dumps({"spec": compiled.spec.name, "cards": sum(counts.values()), "deck": cards}, indent=1))
        return
    width = max(len(face) for face in groups)
    for face, tokens in groups.items():
        total = sum(counts[token] for token in tokens)
        shown = " ".join(f"{token}" + (f" x{counts[token]}" if counts[token] > 1 else "") for token in tokens)
        click.echo(errors.escape(f"{face:<{width}}  {total}  {shown}"))
