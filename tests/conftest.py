from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

# The tests' compiled-rules cache is their own, not the user's (~/.cache/referee); a private folder, as the cache demands.
if "REFEREE_CACHE_DIR" not in __import__("os").environ:
    import os
    import tempfile

    _cache = Path(tempfile.gettempdir()) / f"referee-tests-cache-{os.getuid() if hasattr(os, 'getuid') else 0}"
    _cache.mkdir(mode=0o700, exist_ok=True)
    os.environ["REFEREE_CACHE_DIR"] = str(_cache)


# The README's quick tier (under two minutes on two busy cores) runs every Nth case of these parametrized tests;
# the slow tier (``pytest -m slow``, run by .ci/run) runs the others. Each family keeps cases in the quick tier.
EVERY_NTH_QUICK = {
    "test_control_characters_in_a_spec_are_a_loader_error_everywhere": 7,  # 55 cases: command x control character
    "test_control_characters_in_a_log_never_reach_the_output": 3,
    "test_simulate_keeps_the_spec_target_unless_told": 6,  # one case per shipped spec
    "test_a_closed_pipe_ends_quietly_with_141": 2,
    "test_concrete_forms_never_fire_on_rules_that_prove": 8,
    "test_a_ruling_says_who_draws_how_many_and_who_plays_as_the_spec_says": 3,
    "test_ctrl_c_during_each_long_command": 2,
    "test_a_misbehaving_bot_is_recorded_and_the_match_ends": 3,
    "test_every_game_the_environment_plays_checks_valid": 5,
    "test_dask_addresses_that_are_not_addresses_are_one_line_errors": 5,
    "test_corpus_projections_are_consistent_and_mutants_inconsistent_where_the_family_says": 2,
    "test_file_names_found_in_a_folder_are_escaped": 2,
    "test_a_spec_file_name_in_a_spec_error_is_escaped": 2,
    "test_a_killed_worker_leaves_a_whole_report": 2,
    "test_pettingzoo_api_and_seed_tests_quick": 2,  # the other case in the slow tier, with every spec
    "test_dispute_scenario": 2,
    "test_explain_golden": 2,
    "test_house_rules_change_the_verdict": 2,
    "test_hostile_text_in_the_log_and_its_name_still_shows_the_page": 2,  # a real browser (CI): seconds a case
    "test_a_hidden_card_changes_no_other_seat_s_view": 3,  # one spec in three quick; every spec in the slow tier
    "test_a_random_bot_always_ends_its_game_and_no_listed_move_changes_nothing": 2,
    "test_declare_prints_every_claim_the_change_makes_untrue_and_the_spec_then_proves": 2,  # whole proofs of a spec
    "test_the_history_since_k_is_the_whole_history_from_k": 3,
}
# Long single cases the quick tier leaves to the slow one, each covered quick by a smaller case of its family.
SLOW_CASES = {
    # explain and adjudicate on the two whole public games (seconds each): every other public scenario stays quick
    "test_explain_and_adjudicate_agree_with_check[public/games/uno-flip-4p.log]",
    "test_explain_and_adjudicate_agree_with_check[public/games/uno-3p.log]",
}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    seen: dict[str, int] = {}
    for item in items:
        if item.name in SLOW_CASES:
            item.add_marker(pytest.mark.slow)
            continue
        name = getattr(item, "originalname", item.name)
        stride = EVERY_NTH_QUICK.get(name)
        if stride is None:
            continue
        index = seen.get(name, 0)
        seen[name] = index + 1
        if index % stride:
            item.add_marker(pytest.mark.slow)


def pytest_sessionstart(session: pytest.Session) -> None:
    """Byte-compile the package once: hundreds of tests start ``python -m referee``, and where the environment sets
    PYTHONDONTWRITEBYTECODE (as this workplace does) each would compile every module it imports afresh (0.1 s)."""
    if hasattr(session.config, "workerinput"):  # an xdist worker: the controller has done it
        return
    import compileall

    import referee

    compileall.compile_dir(Path(referee.__file__).parent, quiet=2)
