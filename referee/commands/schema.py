"""``referee schema``: the JSON Schema of the spec language."""

from __future__ import annotations

import click


@click.command()
def schema() -> None:
    """Print the JSON Schema of the spec language, for editors and CI.

    The schema checks a spec file's structure as you type: every key, effect,
    start action, check and option of the vocabulary, with the values each
    takes (a misspelt key or option is an error). It is generated from the
    vocabulary the loader reads, and shipped in the package as
    referee/spec/spec.schema.json; what needs the whole spec at once (a rule a kind
    cites, a check governed twice) is only the loader's. docs/spec-language.md
    says how to use it in an editor.

    \b
    Examples:
      referee schema > referee-spec.schema.json
      # in a spec file, for the YAML language server:
      # yaml-language-server: $schema=./referee-spec.schema.json
    """
    from referee.spec.schema import schema_text

    click.echo(schema_text(), nl=False)
