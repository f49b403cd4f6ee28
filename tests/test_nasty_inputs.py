"""The bad inputs of robustness.md: each gets the referee's own one-line error with a position, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.errors import SpecError
from referee.spec.extends import load_spec
from referee.spec.loader import load_text
from referee.spec.reader import build_spec

from helpers import run_referee

NASTY_YAML = [
    ("'!!int'\n", "must be a mapping"),  # a quoted tag is only a string: not a mapping
    ("a: !!int\n", "explicit tags"),
    ("a: !!bool\n", "explicit tags"),
    ("d: !!timestamp 2001-02-30\n", "explicit tags"),
    ("a: &x [1, 2]\nb: *x\n", "anchors"),
    ("a: &a [x, x, x]\nb: &b [*a, *a, *a]\nc: [*b, *b, *b]\n", "anchors"),
    ("<<: {a: 1}\n", "unknown key '<<'"),
    ("a: !!python/object/apply:os.system ['true']\n", "explicit tags"),
    ("a: 1\na: 2\n", "duplicate key 'a'"),
    ("[" * 450 + "]" * 450 + "\n", "nesting deeper"),
    ("a: [\n", "not valid YAML"),
    ("\t- x\n", "not valid YAML"),
]


@pytest.mark.parametrize(("text", "expected"), NASTY_YAML)
def test_nasty_yaml(text: str, expected: str, tmp_path: Path) -> None:
    path = tmp_path / "nasty.yaml"
    with pytest.raises(SpecError) as caught:
        build_spec(load_text(text, str(path)), str(path))  # what load_spec does with a file that looks like a spec
    rendered = caught.value.render()
    assert expected in rendered or expected in str(caught.value.problems)
    assert rendered.startswith(str(path))


@pytest.mark.parametrize(("text", "_"), NASTY_YAML)
def test_nasty_yaml_that_names_no_spec_key_is_not_a_spec_file_and_nothing_of_it_is_quoted(text: str, _: str, tmp_path: Path) -> None:
    path = tmp_path / "nasty.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        load_spec(path)
    assert caught.value.render() == f"{path}: error: not a spec file: a spec is YAML text whose top level has 'format', 'name', 'extends'"


def test_nasty_spec_through_the_cli_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "nasty.yaml"
    path.write_text("name: nasty\na: !!python/object/apply:os.system ['echo pwned']\n", encoding="utf-8")
    log = tmp_path / "game.log"
    log.write_text("players Ann Bob\n", encoding="utf-8")
    result = run_referee("check", "--spec", str(path), str(log), text=True, timeout=60)
    assert result.returncode == 2 and "pwned" not in result.stdout
    assert result.stderr.count("\n") == 1 and f"{path}:2:4: error: explicit tags" in result.stderr


def test_escape_control_characters_in_messages(tmp_path: Path) -> None:
    log = tmp_path / "evil.log"
    log.write_bytes(b"players Ann Bob\nround 1\ndealer \x1b[31mEve\n")
    result = run_referee("check", str(log), text=True, timeout=60)
    assert "\x1b" not in result.stdout and result.returncode == 1


yaml_text = st.recursive(
    st.one_of(
        st.sampled_from(["a", "1", "yes", "~", "''", "!!int", "&x", "*x", "[", "]", "{", "}", ":", "-", "<<", "---"]), st.text(max_size=8)
    ),
    lambda children: st.lists(children, max_size=5).map(" ".join) | st.lists(children, max_size=4).map("\n".join),
    max_leaves=25,
)


@settings(max_examples=200, deadline=None)
@given(yaml_text)
def test_arbitrary_yaml_only_raises_spec_errors(text: str) -> None:
    try:
        load_text(text, "fuzz.yaml")
    except SpecError as error:
        assert error.problems and all(position.path == "fuzz.yaml" for position, _ in error.problems)
