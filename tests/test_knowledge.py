"""Card knowledge, one object per mode: chosen by the line that deals the round, and the only place that knows the mode.

The engine keeps the checks in their order; what a take, a play from a hand, a counted draw, a flip or a reshuffle
does to the cards is the mode's (the Knowledge classes of referee/engine/state.py, and referee/engine/public_knowledge.py). These tests pin
that the deal line chooses the mode, that the engine and its parts never ask which mode they are in, and that a
full-mode check does not load the public mode at all.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

from referee.checking.replay import card_form, check_path
from referee.engine.engine import Engine
from referee.engine.state import DEALT, FULL, OBSERVED, FullKnowledge, Knowledge, ObservedKnowledge
from referee.log.reader import LogReader
from referee.rules.compiler import load_rules

ROOT = Path(__file__).resolve().parent.parent

FULL_LOG = ROOT / "scenarios" / "classic" / "r17-reshuffle.log"
OBSERVED_LOG = ROOT / "scenarios" / "classic" / "invalid-catch.log"
PUBLIC_LOG = ROOT / "scenarios" / "public" / "overplayed-face.log"


def _modes(log: Path) -> list[str]:
    """The knowledge after each line of ``log``, by name (the engine as replay drives it)."""
    text = log.read_text(encoding="utf-8")
    spec = next((line.split()[1] for line in text.splitlines() if line.startswith("spec ")), "uno-flip")
    rules = load_rules(ROOT / "specs" / f"{spec}.yaml")
    engine = Engine(rules)
    names = []
    for event in LogReader(lambda _name: card_form(rules)).events(io.BytesIO(text.encode())):
        if engine.apply(event) is not None:
            break
        names.append(engine.state.knowledge.name)
    return names


@pytest.mark.parametrize(
    ("log", "mode"), [(FULL_LOG, "full"), (OBSERVED_LOG, "observed"), (PUBLIC_LOG, "public")], ids=["shuffle", "hand", "public"]
)
def test_the_line_that_deals_the_round_chooses_the_knowledge(log: Path, mode: str) -> None:
    modes = _modes(log)
    assert mode in modes
    assert modes[-1] == mode
    assert set(modes) <= {"observed", mode}  # observed before the first deal (nothing is known yet), then the mode


def test_the_modes_are_shared_values_and_a_copy_shares_them() -> None:
    engine = Engine(load_rules(ROOT / "specs" / "uno-flip.yaml"))
    assert engine.state.knowledge is OBSERVED
    assert isinstance(FULL, FullKnowledge) and isinstance(OBSERVED, ObservedKnowledge) and not isinstance(OBSERVED, FullKnowledge)
    assert not isinstance(FULL, ObservedKnowledge)  # the base is abstract, not a mode the others inherit
    assert FULL.takes_top() and not OBSERVED.takes_top()
    assert DEALT == {"full": FULL, "observed": OBSERVED}
    engine.state.knowledge = FULL
    assert engine.state.copy().knowledge is FULL


def test_the_engine_and_its_parts_never_ask_which_mode_they_are_in() -> None:
    """Only the knowledge modules (and the hidden records) read the public round's state or a mode flag."""
    asks = re.compile(r"\.hidden\b(?!\s*=[^=])|full_mode|hidden is (not )?None|isinstance\([^)]*Knowledge")  # reads, not resets
    found = [
        f"{path.name}:{number}: {line.strip()}"
        for path in sorted((ROOT / "referee" / "engine").glob("*.py"))
        if path.name not in {"knowledge.py", "public_knowledge.py", "hidden.py", "state.py"}
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if asks.search(line)
    ]
    assert not found, found


def test_a_full_mode_check_does_not_load_the_public_mode() -> None:
    code = (
        "import sys; from pathlib import Path; from referee.checking.replay import check_path;"
        f"v = check_path(Path({str(FULL_LOG)!r}), 'x', None);"
        "print(sorted(m for m in sys.modules if m.startswith(('referee.engine.hidden', 'referee.engine.public_', 'referee.public'))))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert result.stdout.strip() == "[]"
    code = code.replace(repr(str(FULL_LOG)), repr(str(PUBLIC_LOG)))
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert "referee.engine.public_knowledge" in result.stdout and "referee.engine.hidden" in result.stdout


@pytest.mark.parametrize("log", [FULL_LOG, OBSERVED_LOG, PUBLIC_LOG], ids=["full", "observed", "public"])
def test_each_mode_judges_its_scenario_as_its_golden_says(log: Path) -> None:
    """The scenario goldens are compared whole elsewhere; here, one per mode, the verdict's code is the golden's."""
    import json

    golden = json.loads(log.with_suffix(".json").read_text(encoding="utf-8"))
    verdict = check_path(log, log.name, None)
    codes = [error.code for error in verdict.errors]
    assert codes == [error["code"] for error in golden["files"][0]["errors"]] and codes


def test_codes_and_checks_are_named_by_their_enums_not_spelt_out() -> None:
    """Every ``Reject`` and warning names its code and check by ``Code`` and ``Check`` members (a misspelt string
    would raise KeyError at the check_rules lookup only when that line is judged)."""
    import ast

    spelt = []
    for path in sorted((ROOT / "referee").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr if isinstance(node.func, ast.Attribute) else ""
            arguments = node.args[:2] if name == "Reject" else node.args[1:3] if name == "warn" else []
            if any(isinstance(argument, ast.Constant) and isinstance(argument.value, str) for argument in arguments):
                spelt.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not spelt, spelt


def test_the_code_and_check_enums_are_the_format_s_and_the_vocabulary_s_words() -> None:
    from referee.spec.vocabulary import CHECKS, Check
    from referee.verdicts import ERROR_CODES, WARNING_CODES, Code

    assert [code.value for code in Code] == [*ERROR_CODES, *WARNING_CODES, "undetermined"]  # no verdict: neither
    assert not Code.UNDETERMINED.is_error and not Code.UNDETERMINED.is_warning and Code.SWAP_MISSING.is_error
    assert Code.ILLEGAL_PLAY == "illegal-play" and f"{Code.UNCAUGHT_UNO}" == "uncaught-uno" and Code.UNCAUGHT_UNO.is_warning
    assert {check.value for check in Check} == CHECKS and Check.DRAW_UNTIL_PLAYABLE == "draw-until-playable"
    rules = load_rules(ROOT / "specs" / "uno-flip.yaml")
    assert rules.check_rules[Check.MATCH] is rules.check_rules["match"]


def test_option_choices_are_enums_read_from_the_spec_s_words() -> None:
    """An option of choices is compared as its enum member, never as text: the compiled rules read the members."""
    from referee.spec.vocabulary import OPTION_CHOICES, OPTION_ENUMS, DealerRotation, FlipColourChooser, Reshuffling

    assert {name: frozenset(enum) for name, enum in OPTION_ENUMS.items()} == OPTION_CHOICES
    flip = load_rules(ROOT / "specs" / "uno-flip.yaml")
    assert flip.spec.options["flip-colour-chooser"] == flip.flip_chooser and isinstance(flip.flip_chooser, FlipColourChooser)
    settings = flip.spec.settings
    assert isinstance(settings.reshuffle, Reshuffling) and isinstance(settings.dealer_rotation, DealerRotation)
    assert flip.dealer_step == (1 if DealerRotation(flip.spec.options["dealer-rotation"]) is DealerRotation.LEFT else -1)
    assert flip.reshuffle_keeps_top == (Reshuffling(flip.spec.options["reshuffle"]) is Reshuffling.KEEP_TOP)


def test_the_verbs_are_one_enum_that_the_reader_the_writer_and_moves_share() -> None:
    from referee.engine.moves import Move
    from referee.log.events import Verb
    from referee.log.reader import VERBS
    from referee.log.writer import format_event

    assert {verb.value for verb in Verb} == VERBS
    for line, verb in [("Ann plays red-5", Verb.PLAYS), ("Ann draws", Verb.DRAWS), ("Ann catches Bob", Verb.CATCHES)]:
        move = Move.parse(line)
        assert move.verb == verb and type(move.verb) is str  # the move's verb is the plain word (its repr stays 'plays')
        assert format_event(move.event) == line


def test_the_abstract_knowledge_leaves_each_mode_to_say_how_its_pile_works() -> None:
    from referee.engine.state import GameState

    bare = Knowledge("none")
    with pytest.raises(NotImplementedError):
        bare.pile_size(GameState())
    with pytest.raises(NotImplementedError):
        bare.bare_draw()


def test_each_mode_answers_what_its_callers_ask() -> None:
    """Which card is on top, what a reshuffle names and whether the hands are hidden are the mode's answers."""
    from referee.engine.public_knowledge import PUBLIC

    engine = Engine(load_rules(ROOT / "specs" / "uno-flip.yaml"))
    state = engine.state
    card = engine.rules.deck[0]
    state.draw_pile = [engine.rules.deck[1], card]
    assert FULL.top_card(state) is card and OBSERVED.top_card(state) is None and PUBLIC.top_card(state) is None
    assert FULL.reshuffled([engine.rules.deck[1], card]) == (card.token, engine.rules.deck[1].token)
    assert OBSERVED.reshuffled([card]) == () and PUBLIC.reshuffled([card]) == ()
    assert PUBLIC.hides_hands() and not FULL.hides_hands() and not OBSERVED.hides_hands()
    assert FULL.pile(state) == (engine.rules.deck[1], card)


def test_no_module_asks_a_mode_flag_and_the_simulator_no_mode_string() -> None:
    """Callers ask the mode what they want (``takes_top``, ``top_card``, ``hides_hands``); the simulator holds no
    mode string after it is made."""
    asks = re.compile(r"knowledge\.ordered|\.hidden is (not )?None")
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sorted((ROOT / "referee").rglob("*.py"))
        if path.name not in {"public_knowledge.py", "hidden.py", "state.py", "rounds.py"}
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if asks.search(line)
    ]
    assert not found, found
    simulator = (ROOT / "referee" / "play" / "simulate.py").read_text(encoding="utf-8")
    assert "self.mode" not in simulator and 'mode == "observed"' not in simulator
