"""``referee cache``: the cache of compiled rules."""

from __future__ import annotations

import click

from referee import errors


@click.group()
def cache() -> None:
    """The cache of compiled rules: where it is, and removing it.

    Compiled specs are kept so that a check starts fast; an entry is used only
    while every file it was built from is unchanged, so there is rarely a
    reason to clear it, except before uninstalling or to reclaim the space.

    \b
    Examples:
      referee cache path
      referee cache clear
    """


@cache.command("path")
def cache_path() -> None:
    """Print the cache folder (nothing, exit 2, when no absolute folder is configured)."""
    from referee.log.inputs import display_name
    from referee.rules import cache as rules_cache

    place = rules_cache.folder()
    if place is None:
        raise errors.UsageError("no cache folder: neither REFEREE_CACHE_DIR, XDG_CACHE_HOME nor HOME is an absolute path")
    click.echo(display_name(str(place)))


@cache.command("clear")
def cache_clear() -> None:
    """Remove every entry of the cache of compiled rules."""
    from referee.log.inputs import display_name
    from referee.rules import cache as rules_cache

    place, removed = rules_cache.clear()
    if place is None:
        click.echo("no cache folder: nothing to clear")
        return
    click.echo(f"removed {removed} entr{'y' if removed == 1 else 'ies'} from {display_name(str(place))}")
