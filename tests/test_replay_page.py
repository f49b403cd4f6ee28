"""`referee view`: the replay page, opened and driven in a real (headless) Chromium.

The browser is Debian's Chromium driven by Playwright (`.ci/run` installs it
when missing). Without it these tests skip, unless REFEREE_REQUIRE_BROWSER is
set (CI sets it), when they fail. Screenshots go to REFEREE_ARTIFACTS (default
``tests/artifacts/``, not committed).
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from helpers import run_referee, write_spec

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"
ARTIFACTS = Path(os.environ.get("REFEREE_ARTIFACTS", ROOT / "tests" / "artifacts"))
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


referee = partial(run_referee, text=True)


def test_view_writes_the_page_beside_the_log_and_prints_its_path(tmp_path: Path) -> None:
    log = tmp_path / "game.log"
    log.write_bytes((SCENARIOS / "codes" / "illegal-play.log").read_bytes())
    result = referee("view", str(log))
    assert result.returncode == 0 and result.stdout.strip() == str(tmp_path / "game.html")
    page = (tmp_path / "game.html").read_text(encoding="utf-8")
    assert "http://" not in page and "https://" not in page and "<link" not in page and "src=" not in page
    assert "default-src 'none'" in page


def test_view_standard_input_needs_out(tmp_path: Path) -> None:
    data = (SCENARIOS / "codes" / "illegal-play.log").read_bytes()
    assert referee("view", "-", stdin=data).returncode == 2
    out = tmp_path / "stdin.html"
    result = referee("view", "-", "--out", str(out), stdin=data)
    assert result.returncode == 0 and out.is_file()


def test_view_refuses_a_log_too_long_for_a_page(tmp_path: Path) -> None:
    log = tmp_path / "long.log"
    log.write_text("# comment\n" * 20_001)
    result = referee("view", str(log), "--out", str(tmp_path / "long.html"))
    assert result.returncode == 2 and "more than 20,000 lines" in result.stderr
    assert not (tmp_path / "long.html").exists()


def test_log_text_cannot_break_out_of_the_page(tmp_path: Path) -> None:
    log = tmp_path / "nasty.log"
    log.write_text("players Ann Bob\n# </script><script>alert(1)</script> <!--\nround 1\n")
    result = referee("view", str(log))
    page = (tmp_path / "nasty.html").read_text(encoding="utf-8")
    assert result.returncode == 0 and page.count("</script>") == 2  # only the page's own two scripts close


# -- in a real browser


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if CHROMIUM is None or not _playwright_available():
        if os.environ.get("REFEREE_REQUIRE_BROWSER"):
            pytest.fail("Chromium or Playwright is missing, and REFEREE_REQUIRE_BROWSER is set")
        pytest.skip("no Chromium (install Debian's chromium) or no Playwright")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


def _playwright_available() -> bool:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return False
    return True


class Opened:
    def __init__(self, page: Any, requests: list[str], problems: list[str]) -> None:
        self.page, self.requests, self.problems = page, requests, problems

    def text(self, selector: str) -> str:
        return str(self.page.locator(selector).inner_text())

    def shot(self, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        self.page.screenshot(path=str(path))
        return path


def _open(browser: Any, log: Path, tmp_path: Path, fragment: str = "", width: int = 1280, *extra: str) -> Opened:
    out = tmp_path / (log.stem + ".html")
    result = referee("view", str(log), "--out", str(out), *extra)
    assert result.returncode == 0, result.stderr
    page = browser.new_page(viewport={"width": width, "height": 900})
    requests: list[str] = []
    problems: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.on("console", lambda message: problems.append(message.text) if message.type in ("error", "warning") else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.goto(out.as_uri() + fragment)
    page.wait_for_selector("#timeline li")
    return Opened(page, requests, problems)


def _no_traffic(opened: Opened) -> None:
    assert all(url.startswith("file://") for url in opened.requests), opened.requests
    assert len(opened.requests) == 1, opened.requests  # the page itself, nothing else
    assert not opened.problems, opened.problems


HOSTILE = ["<!--", "</script><script>alert(1)</script>", "__TITLE__", "__DATA__", "\u2028", "\u2029", "<\\!--", "&lt;b&gt;", "]]>"]


@pytest.mark.parametrize(
    "name",
    [pytest.param("a\\q.log", marks=pytest.mark.slow), "__DATA__.log", pytest.param("__TITLE__ <!-- x.log", marks=pytest.mark.slow)],
    ids=["backslash", "data", "title-comment"],
)
def test_hostile_text_in_the_log_and_its_name_still_shows_the_page(browser: Any, tmp_path: Path, name: str) -> None:
    """Issue 17's page cases: `<!--` anywhere, `__TITLE__`/`__DATA__` in the text or the name, a backslash in the
    name, U+2028/2029: the page opens, shows every line as text, runs no script but its own and reports no error."""
    text = (SCENARIOS / "codes" / "illegal-play.log").read_text(encoding="utf-8")
    comments = "".join(f"# {piece}\n" for piece in HOSTILE)
    log = tmp_path / name
    log.write_text(text.replace("round 1\n", f"{comments}round 1\n", 1), encoding="utf-8")
    dialogs: list[str] = []
    opened = _open(browser, log, tmp_path)
    opened.page.on("dialog", lambda dialog: dialogs.append(dialog.message))
    timeline = opened.text("#timeline")
    for piece in HOSTILE:
        assert piece.strip() in timeline, piece
    assert opened.page.title() == f"{log} - referee view"
    opened.page.keyboard.press("End")
    assert "Line 16: illegal-play [play.match]" in opened.text("#error-panel")
    assert not dialogs
    if name == "__DATA__.log":
        opened.shot("view-hostile-text")
    _no_traffic(opened)


def test_step_to_the_error_with_the_keyboard(browser: Any, tmp_path: Path) -> None:
    opened = _open(browser, SCENARIOS / "codes" / "illegal-play.log", tmp_path)
    page = opened.page
    page.keyboard.press("Home")
    assert opened.text("#position") == "line 1 of 7"
    for _ in range(6):
        page.keyboard.press("ArrowRight")
    assert opened.text("#position") == "line 7 of 7" and page.evaluate("location.hash") == "#line-7"
    panel = opened.text("#error-panel")
    assert "Line 7: illegal-play [play.match]" in panel and "Ann played blue-3 on red-9" in panel
    assert "Rule play.match:" in panel and "Source: UNO Flip! instruction sheet" in panel and "Ann plays red-1/pink-3" in panel
    assert "red 9" in opened.text("#top-card") and opened.text("#fact-colour").endswith("red")
    ann = opened.text("#player-Ann")
    assert "Ann \u2014 7 cards" in ann and "to move" in ann
    assert page.locator("#player-Ann .card[aria-label^='blue 3']").count() == 1  # the card, named in text as well as colour
    assert "error" in (page.locator("#timeline li").nth(6).get_attribute("class") or "")
    opened.shot("view-illegal-play")
    _no_traffic(opened)


def test_a_log_with_an_error_opens_at_it(browser: Any, tmp_path: Path) -> None:
    """Issue 27, point 13: no --line and no fragment: the page opens at the first error, not at line 1."""
    opened = _open(browser, SCENARIOS / "codes" / "illegal-play.log", tmp_path)
    assert opened.text("#position") == "line 7 of 7"
    assert "Line 7: illegal-play [play.match]" in opened.text("#error-panel")
    _no_traffic(opened)


def test_a_public_round_error_box_agrees_with_check(browser: Any, tmp_path: Path) -> None:
    """Issue 27, point 3: the error box of an inconsistent public line cites the rule check cites, and shows that rule."""
    opened = _open(browser, SCENARIOS / "public" / "innocent-then-colour.log", tmp_path)
    panel = opened.text("#error-panel")
    assert "Line 12: inconsistent [play.in-hand]" in panel and "Rule play.in-hand:" in panel
    assert "Rule play.match:" not in panel
    opened.shot("view-public-inconsistent")
    _no_traffic(opened)


def test_a_public_round_not_settled_in_time_reads_undetermined_not_valid(browser: Any, tmp_path: Path) -> None:
    """Issue 29, point 5: ``view --timeout`` bounds a public record's judgement; a record not settled in time reads
    "undetermined" (its reason on hover), never "valid"."""
    opened = _open(browser, SCENARIOS / "public" / "games" / "uno-flip-4p.log", tmp_path, "", 1280, "--timeout", "0.001")
    verdict = opened.page.locator("#verdict")
    assert opened.text("#verdict") == "? undetermined" and "valid" not in opened.text("#verdict")
    assert "could not settle this public round" in (verdict.get_attribute("title") or "")
    opened.shot("view-public-undetermined")
    _no_traffic(opened)


def test_a_valid_game_steps_clicks_and_charts(browser: Any, tmp_path: Path) -> None:
    # A long path with no break in it becomes the page's title: it must still fit a phone.
    deep = tmp_path / ("a-folder-with-a-long-name-and-no-spaces-" * 3) / "another-level-of-tournament-records"
    deep.mkdir(parents=True)
    log = deep / "game-full-4p.log"
    log.write_bytes((SCENARIOS / "games" / "game-full-4p.log").read_bytes())
    opened = _open(browser, log, tmp_path)
    page = opened.page
    assert "valid" in opened.text("#verdict")
    assert opened.text("#title") == "game-full-4p.log (uno-flip)"
    assert page.locator("#title").get_attribute("title") == str(log)
    page.keyboard.press("End")
    lines = len(log.read_text(encoding="utf-8").split("\n")) - 1
    assert opened.text("#position") == f"line {lines} of {lines}"
    page.click("#line-40")
    assert opened.text("#position") == f"line 40 of {lines}"
    assert page.locator("#chart svg polyline").count() == 4
    ends = json.loads(referee("check", "--format", "json", str(log)).stdout)["files"][0]["rounds"]
    assert ends and page.locator("#timeline li.warning").count() >= 1
    opened.shot("view-valid-game")
    for phone in (390, 320):
        page.set_viewport_size({"width": phone, "height": 844})
        page.wait_for_timeout(100)
        assert page.evaluate("document.documentElement.scrollWidth") <= phone + 1
        assert page.evaluate("document.getElementById('table').scrollWidth") <= phone + 1
    opened.shot("view-valid-game-phone")
    _no_traffic(opened)


@pytest.mark.slow  # the quick tier keeps others of its kind; .ci/run's slow tier runs it
def test_a_classic_game_draws_its_cards_from_what_they_do(browser: Any, tmp_path: Path) -> None:
    """The page names no game's cards: the referee gives each face its symbol (view.symbol), so classic UNO's Draw Two
    and Wild Draw Four show +2 and W+4 on a one-sided card."""
    opened = _open(browser, SCENARIOS / "classic" / "games" / "classic-3p-full.log", tmp_path, "#line-30")
    page = opened.page
    assert opened.text("#title") == "classic-3p-full.log (uno)"
    symbols = set(page.evaluate("D.cards.flatMap((card) => card.map((face) => face.s))"))
    assert {"+2", "W+4", "W", "\u21c4", "\u2298"} <= symbols and "0" in symbols and "draw-two" not in symbols
    shown = page.locator(".player .card .sym").all_inner_texts()
    assert shown and set(shown) <= symbols
    assert page.locator(".player .card .small").count() == 0  # one side: no second face under the first
    opened.shot("view-classic")
    _no_traffic(opened)


def test_a_dispute_shows_its_ruling(browser: Any, tmp_path: Path) -> None:
    opened = _open(browser, SCENARIOS / "disputes" / "challenge-guilty-wild-draw-two.log", tmp_path, "#line-10")
    panel = opened.text("#dispute-panel")
    assert "challenge by Ann against Bob: guilty [challenge.guilty]" in panel
    assert "Evidence: red-2/orange-reverse, red-skip/wild" in panel and "Penalty: Bob draws 2 cards; then Ann plays" in panel
    # issue 43 item 6: Bob, who owes the guilty challenge's cards, is outlined as the one to move, not Ann
    assert opened.text("#fact-turn") == "Turn: Ann (once Bob has acted)"
    assert "to move" in opened.text("#player-Bob h3") and "to move" not in opened.text("#player-Ann h3")
    assert "turn" in (opened.page.locator("#player-Bob").get_attribute("class") or "").split()
    assert "turn" not in (opened.page.locator("#player-Ann").get_attribute("class") or "").split()
    opened.shot("view-dispute")
    _no_traffic(opened)


@pytest.mark.slow  # the quick tier keeps others of its kind; .ci/run's slow tier runs it
def test_a_house_rule_game_shows_the_swap_and_the_draw_until_playable(browser: Any, tmp_path: Path) -> None:
    """Seven swaps and draw until playable on the page: the swap due after the 7, the hands changing owner at the
    swap, the draw going on (scenarios/house-rules/two/party.log, spec uno-party)."""
    opened = _open(browser, SCENARIOS / "house-rules" / "two" / "party.log", tmp_path, "#line-17")
    page = opened.page
    assert "Bob played a 7 and names whom to swap hands with" in opened.text("#fact-swap")
    assert opened.text("#player-Ann h3").startswith("Ann \u2014 11 cards") and opened.text("#player-Bob h3").startswith(
        "Bob \u2014 3 cards"
    )
    opened.shot("view-house-swap-due")
    page.keyboard.press("ArrowRight")  # line 18: Bob swaps Ann
    assert opened.text("#position").startswith("line 18 of ")
    assert opened.text("#player-Ann h3").startswith("Ann \u2014 3 cards") and opened.text("#player-Bob h3").startswith(
        "Bob \u2014 11 cards"
    )
    assert page.locator("#fact-swap").count() == 0
    opened.shot("view-house-swapped")
    _no_traffic(opened)


@pytest.mark.slow  # the quick tier keeps others of its kind; .ci/run's slow tier runs it
def test_an_observed_game_and_the_line_option(browser: Any, tmp_path: Path) -> None:
    opened = _open(browser, SCENARIOS / "games" / "game-observed-4p.log", tmp_path, "", 1280, "--line", "20")
    page = opened.page
    assert opened.text("#position").startswith("line 20 of ")
    page.keyboard.press("ArrowRight")
    assert opened.text("#position").startswith("line 21 of ")
    assert page.locator(".player .card").count() > 10 and opened.text("#fact-draw")
    opened.shot("view-observed")
    _no_traffic(opened)


@pytest.mark.slow  # the quick tier keeps others of its kind; .ci/run's slow tier runs it
def test_a_long_game_is_small_and_steps_without_lag(browser: Any, tmp_path: Path) -> None:
    spec = write_spec(tmp_path, "long-game", "extends: uno-flip\noptions:\n  target: {value: 2500}\n")
    games = tmp_path / "games"
    simulated = referee("simulate", "--spec", str(spec), "--players", "6", "--seed", "3", "--games", "2", "--out", str(games))
    assert simulated.returncode == 0, simulated.stderr
    longest = max(games.glob("*.log"), key=lambda log: log.stat().st_size)
    count = len(longest.read_text().split("\n"))
    assert count > 2000
    opened = _open(browser, longest, tmp_path, "", 1280, "--spec-path", str(tmp_path))  # the spec beside the games' folder
    size = (tmp_path / (longest.stem + ".html")).stat().st_size
    assert size < 5 * 1024 * 1024, size
    page = opened.page
    started = time.perf_counter()
    page.keyboard.press("End")
    for _ in range(30):
        page.keyboard.press("ArrowLeft")
    page.keyboard.press("Home")
    elapsed = time.perf_counter() - started
    assert opened.text("#position") == f"line 1 of {count - 1}"
    print(f"\n{count - 1} lines: page {size / 1024:.0f} KiB, 32 steps in {elapsed:.2f} s")
    assert elapsed < 10
    _no_traffic(opened)


@pytest.mark.slow  # the quick tier keeps others of its kind; .ci/run's slow tier runs it
def test_lines_after_the_first_error_are_marked_not_replayed(browser: Any, tmp_path: Path) -> None:
    """Issue 18: lines after the first error looked like replayed lines but showed the state from before it."""
    log = tmp_path / "after-error.log"
    text = (SCENARIOS / "codes" / "illegal-play.log").read_text(encoding="utf-8")
    log.write_text(text + "Ann plays red-1/pink-3\nBob draws\n", encoding="utf-8")
    opened = _open(browser, log, tmp_path)
    page = opened.page
    items = page.locator("#timeline li")
    assert items.count() == 9
    assert "unplayed" not in (items.nth(6).get_attribute("class") or "") and "error" in (items.nth(6).get_attribute("class") or "")
    assert all("unplayed" in (items.nth(i).get_attribute("class") or "") for i in (7, 8))
    page.keyboard.press("End")
    assert opened.text("#position") == "line 9 of 9"
    panel = opened.text("#unplayed-panel")
    assert "Line 9 is not replayed" in panel and "first error (line 7)" in panel
    assert page.locator("#line-9").get_attribute("aria-label").startswith("line 9: not replayed: ")  # type: ignore[union-attr]
    opened.shot("view-after-error")
    page.keyboard.press("Home")
    assert page.locator("#unplayed-panel").count() == 0
    _no_traffic(opened)
