"""Fuzzing targets for docs/security.md (issue 17), slow tier: each a hypothesis property over hostile input.

- spec lines and ``extends`` values: a path, ``..``, links, absolute names; nothing outside the trusted folders is
  ever resolved, and an error never quotes a private file;
- the replay page's data: any text survives embedding, and none of it can close the element or open a comment;
- player names: ``Game.new`` either refuses a name (``ValueError``) or writes a log whose players read back the same;
- cache entries: any bytes in an entry are a miss, never an exception and never a call;
- log arguments that look like URLs: chained ones are refused in one line.
"""

from __future__ import annotations

import io
import json
import os
import pickle
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import referee
from referee.errors import SpecError
from referee.spec.extends import inside, resolve_spec

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parent.parent
BUDGET = settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
SECRET = "fuzz-secret-5f3a"


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """logs/ (with a spec, a link out, a link in) beside secret/ (a private file) and specs/."""
    top = tmp_path_factory.mktemp("tree")
    (top / "secret").mkdir()
    (top / "secret" / "shadow").write_text(f"root: {SECRET}\n")
    (top / "logs" / "sub").mkdir(parents=True)
    (top / "logs" / "house.yaml").write_bytes((ROOT / "specs" / "house-short-game.yaml").read_bytes())
    (top / "logs" / "out.yaml").symlink_to(top / "secret" / "shadow")
    (top / "logs" / "outdir").symlink_to(top / "secret")
    (top / "logs" / "sub" / "in.yaml").symlink_to(top / "logs" / "house.yaml")
    return {"top": top, "logs": top / "logs", "secret": top / "secret" / "shadow"}


_PARTS = st.sampled_from(["..", ".", "logs", "sub", "secret", "shadow", "house.yaml", "out.yaml", "outdir", "in.yaml", "", "etc", "uno"])


@BUDGET
@given(parts=st.lists(_PARTS, min_size=1, max_size=6), absolute=st.booleans())
def test_a_confined_name_never_resolves_outside_the_trusted_folders(tree: dict[str, Path], parts: list[str], absolute: bool) -> None:
    name = "/".join(parts)
    if absolute:
        name = str(tree["top"]) + "/" + name
    try:
        found = resolve_spec(name, tree["logs"], confined=True)
    except SpecError as error:
        assert SECRET not in error.render()
        return
    from referee.spec.extends import SPECS

    assert inside(found, tree["logs"]) or inside(found, SPECS), found
    assert not inside(found, tree["secret"].parent)


@BUDGET
@given(parts=st.lists(_PARTS, min_size=1, max_size=5))
def test_a_log_naming_any_path_never_prints_a_private_file(tree: dict[str, Path], parts: list[str]) -> None:
    text = f"players Ann Bob\nspec {'/'.join(parts) or 'x'}\nround 1\n"
    log = tree["logs"] / "fuzz.log"
    log.write_text(text)
    report = referee.check(log)
    assert SECRET not in json.dumps(report.to_json())


@BUDGET
@given(st.text(max_size=60))
def test_any_text_is_embedded_in_the_page_without_breaking_it(text: str) -> None:
    from referee.commands.page import embedded_json
    from referee.commands.page_template import fill_page

    data = embedded_json({"lines": [text], "path": text})
    assert not set("<>&\u2028\u2029") & set(data)
    assert json.loads(data) == {"lines": [text], "path": text}
    page = fill_page(text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;"), data)
    assert page.count("</script>") == 2 and page.count("<!--") == 0


@BUDGET
@given(st.lists(st.text(max_size=12), min_size=2, max_size=4))
def test_game_new_refuses_a_name_or_writes_a_log_that_reads_back_the_same(names: list[str]) -> None:
    try:
        game = referee.Game.new("uno-flip", names, seed=3)
    except ValueError:
        return
    assert referee.Game.from_log(game.log()).players == tuple(names)


@BUDGET
@given(st.binary(max_size=300))
def test_any_bytes_in_a_cache_entry_are_a_miss(data: bytes) -> None:
    from referee.rules import cache as rules_cache
    from referee.rules.compiler import Rules

    for payload in (data, pickle.dumps(("referee-rules/2", [], data)), pickle.dumps(("referee-rules/2", [(data, "x")], data))):
        try:
            record = rules_cache._RecordsOnly(io.BytesIO(payload)).load()
        except Exception:  # noqa: BLE001 - refused: what _read turns into a miss
            continue
        assert not isinstance(record, Rules)


@BUDGET
@given(st.text(alphabet="ab:/.-_", max_size=20))
def test_a_chained_url_is_refused_in_one_line(tail: str) -> None:
    from referee.commands.cli import execute

    code = execute(["check", f"memory://x{tail}::file:///etc/passwd"])
    assert code == 2


def test_fuzz_targets_are_listed_in_the_security_page() -> None:
    text = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")
    assert "tests/test_security.py" in text and "fuzz" in text
    assert os.path.exists(ROOT / "tests" / "test_security_fuzz.py")
