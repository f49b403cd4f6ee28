"""referee.env: PettingZoo's own API and seed tests, on every shipped spec (slow tier) and two in the quick tier;
the games it plays check valid; masks, rewards, truncation and illegal actions behave as docs/library.md says."""

from __future__ import annotations

import random
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pettingzoo_test = pytest.importorskip("pettingzoo.test")

import referee  # noqa: E402
from referee.env import Actions, env, raw_env  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SPECS = sorted(path.stem for path in (ROOT / "specs").glob("*.yaml"))
# What PettingZoo's api_test says of every environment with a Dict observation (its own classic games are listed
# in the test so that it does not say it of them): advice, not a failure. Anything else it warns of fails here.
DICT_OBSERVATION_ADVICE = ("Observation is not a NumPy array", "Observation space for each agent probably should be")


def _pettingzoo_tests(spec: str, players: int, cycles: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pettingzoo_test.api_test(env(spec=spec, players=players), num_cycles=cycles)
        pettingzoo_test.seed_test(lambda: env(spec=spec, players=players), num_cycles=cycles // 2)
    unexpected = {str(warning.message) for warning in caught if not str(warning.message).startswith(DICT_OBSERVATION_ADVICE)}
    assert not unexpected


@pytest.mark.parametrize(("spec", "players"), [("uno-flip", 4), ("uno", 2)])
def test_pettingzoo_api_and_seed_tests_quick(spec: str, players: int) -> None:
    _pettingzoo_tests(spec, players, 1000)


@pytest.mark.slow
@pytest.mark.parametrize("players", range(2, 11))
@pytest.mark.parametrize("spec", SPECS)
def test_pettingzoo_api_and_seed_tests_on_every_spec(spec: str, players: int) -> None:
    _pettingzoo_tests(spec, players, 1000)


def _play(environment: raw_env, seed: int) -> dict[str, float]:
    """A whole episode with uniform masked actions; the total reward of each agent."""
    rng = random.Random(seed)
    environment.reset(seed=seed)
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    for agent in environment.agent_iter():
        observation, reward, termination, truncation, _ = environment.last()
        totals[agent] += reward
        if termination or truncation:
            environment.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        environment.step(int(rng.choice(list(legal))))
    return totals


@pytest.mark.parametrize("spec", ["uno", "uno-flip", "uno-seven-zero", "uno-jump-in", "house-stacking", "house-doubles"])
def test_every_game_the_environment_plays_checks_valid(spec: str) -> None:
    environment = raw_env(spec=spec, players=3, target=60)
    for seed in range(3):
        totals = _play(environment, seed)
        game = environment.game
        assert game.is_game_over()
        report = referee.check(game.log())
        assert report.valid, report.errors
        rounds = len(environment.table.winners)  # type: ignore[union-attr]
        assert abs(sum(totals.values())) < 1e-9  # each round gives +1 and -1/(n-1) to each other agent
        assert totals[game.winner] > -rounds  # type: ignore[index]
        wins = {agent: environment.table.winners.count(agent) for agent in totals}  # type: ignore[union-attr]
        for agent, total in totals.items():
            assert total == pytest.approx(wins[agent] - (rounds - wins[agent]) / 2)


@pytest.mark.parametrize("spec", ["uno-seven-zero", "house-doubles"])
def test_the_mask_is_exactly_the_decision_s_moves(spec: str) -> None:
    environment = raw_env(spec=spec, players=4)
    environment.reset(seed=5)
    actions = environment.actions
    rng = random.Random(5)
    for _ in range(400):
        agent = environment.agent_selection
        observation, *_ = environment.last()
        decision = environment.table.decision()  # type: ignore[union-attr]
        assert decision is not None and decision.player == agent
        seats = {name: seat for seat, name in enumerate(environment.possible_agents)}
        expected = {actions.index[actions.key(move, seats)] for move in decision.moves}
        if decision.optional:
            expected.add(actions.index[("wait",)])
        assert set(np.flatnonzero(observation["action_mask"])) == expected
        assert len(expected) == len(decision.moves) + decision.optional  # no two moves share an action
        for other in environment.possible_agents:
            if other != agent:
                assert not environment.observe(other)["action_mask"].any()
        environment.step(int(rng.choice(sorted(expected))))


def test_an_illegal_action_is_an_error_unwrapped_and_a_loss_wrapped() -> None:
    environment = raw_env(spec="uno", players=2)
    environment.reset(seed=1)
    mask = environment.observe(environment.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="is not legal now"):
        environment.step(illegal)
    wrapped = env(spec="uno", players=2)
    wrapped.reset(seed=1)
    agent = wrapped.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the wrapper warns that the action was illegal: that is its point
        wrapped.step(illegal)
    assert all(wrapped.terminations.values()) and wrapped.rewards[agent] == -1


def test_truncation_after_max_steps() -> None:
    environment = raw_env(spec="uno-flip", players=3, max_steps=25)
    environment.reset(seed=2)
    steps = 0
    for _agent in environment.agent_iter():
        observation, _, termination, truncation, _ = environment.last()
        if termination or truncation:
            assert truncation and not termination
            environment.step(None)
            continue
        steps += 1
        environment.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert steps == 25 and environment.agents == []


def test_the_observation_is_the_view_encoded() -> None:
    environment = raw_env(spec="uno-flip", players=3)
    environment.reset(seed=4)
    agent = environment.agent_selection
    vector = environment.observe(agent)["observation"]
    encoding = environment.encoding
    view = environment.game.view(agent)
    assert vector[encoding.parts["hand"]].sum() == len(view.hand)
    assert vector[encoding.parts["hand_sizes"]][0] == len(view.hand)
    assert vector[encoding.parts["backs"]].sum() == sum(view.hand_sizes) - len(view.hand)
    assert vector[encoding.parts["draw_pile"]][0] == view.draw_pile
    assert vector[encoding.parts["top"]].sum() == 1 and vector[encoding.parts["draw_pile_back"]].sum() == 1
    assert environment.observation_space(agent).contains(environment.observe(agent))


def test_action_spaces_are_fixed_per_spec_and_described() -> None:
    rules = raw_env(spec="uno", players=4).rules
    actions = Actions(rules, 4)
    assert ("plays", "wild", "red") in actions.index and ("plays", "red-5", None) in actions.index
    assert ("swaps", 0) not in actions.index
    assert ("swaps", 3) in Actions(raw_env(spec="uno-seven-zero", players=4).rules, 4).index
    assert actions.describe(actions.index[("catches", 2)], ["a", "b", "c", "d"]) == "catches c"
    flip = Actions(raw_env(spec="uno-flip", players=2).rules, 2)
    wild_faces = [key for key in flip.keys if key[0] == "plays" and key[2] is not None]
    assert {key[2] for key in wild_faces} >= {"red", "pink"}  # a light wild names a light colour, a dark one a dark colour
    with pytest.raises(ValueError, match="2 to 10"):
        raw_env(spec="uno", players=1)
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(spec="uno", players=2, render_mode="rgb_array")


def test_render_shows_the_acting_seat_only() -> None:
    environment = raw_env(spec="uno", players=2, render_mode="ansi")
    environment.reset(seed=3)
    agent = environment.agent_selection
    text = environment.render()
    assert text is not None and f"{agent} holds " in text
    hand = " ".join(environment.game.view(agent).hand)
    assert hand in text
    other = next(name for name in environment.possible_agents if name != agent)
    assert f"{other} holds" not in text


def test_cards_owed_are_encoded_by_seat() -> None:
    environment = raw_env(spec="uno", players=3)
    environment.reset(seed=8)
    rng = random.Random(8)
    for _ in range(3000):
        agent = environment.agent_selection
        observation = environment.observe(agent)
        view = environment.game.view(agent, history=False)
        if view.owed and view.owed[0].cards is not None:
            owed = view.owed[0]
            seat = (view.players.index(owed.player) - view.players.index(agent)) % len(view.players)
            assert observation["observation"][environment.encoding.parts["owes"]][seat] == owed.cards
            assert owed.owes == f"{owed.cards} card{'s' if owed.cards != 1 else ''}"
            return
        environment.step(int(rng.choice(list(np.flatnonzero(observation["action_mask"])))))
    raise AssertionError("no penalty owed in 3,000 steps")


@pytest.mark.parametrize("wrapped", [False, True])
def test_the_environment_copies_and_pickles_mid_game(wrapped: bool) -> None:
    """Issue 28, point 6 (for search, and multiprocessing): a deep copy and a pickle mid-game go on exactly as the
    original, on the pure and the compiled build alike; the hosted table pickles too."""
    import copy
    import pickle

    from referee.play.table import Table

    environment = env(spec="uno-flip", players=3) if wrapped else raw_env(spec="uno-flip", players=3)
    environment.reset(seed=4)
    rng = random.Random(4)
    for _ in range(40):
        observation = environment.observe(environment.agent_selection)
        environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    copies = [copy.deepcopy(environment), pickle.loads(pickle.dumps(environment))]
    for _ in range(60):
        if not environment.agents:
            break
        agent = environment.agent_selection
        observation = environment.observe(agent)
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        for other in copies:
            assert other.agent_selection == agent
            assert np.array_equal(other.observe(agent)["observation"], observation["observation"])
            other.step(action)
        environment.step(action)
    table = Table("uno", ["Ann", "Bob"], seed=3)
    table.decision()
    again = pickle.loads(pickle.dumps(table))
    assert again.decision() == table.decision() and again.game == table.game and again.game.undo_limit == 0


@pytest.mark.parametrize(("spec", "players"), [("uno", 2), ("uno-flip", 3), ("uno-flip-party", 4), ("uno-progressive", 5)])
def test_observations_lie_within_their_true_bounds_and_name_their_spec(spec: str, players: int) -> None:
    """Issue 28, point 8: per-dimension bounds that every observation meets (one-hots 0..1, counts bounded by the
    deck), a name per spec, render_fps, and no always-zero UNO Flip parts in a game of one side."""
    environment = raw_env(spec=spec, players=players)
    assert environment.metadata["name"] == f"referee_{spec.replace('-', '_')}_v1" and environment.metadata["render_fps"] == 1
    space = environment.observation_space("player_0")["observation"]
    parts = environment.encoding.parts
    two_sides = spec.startswith("uno-flip")
    assert ({"side", "backs", "draw_pile_back"} <= set(parts)) == two_sides
    assert not two_sides or len(environment.rules.spec.side_names) == 2
    for name in ("top", "colour", "to_act", "uno", "direction", "optional"):
        assert float(space.high[parts[name]].max()) == 1.0
    assert float(space.high[parts["hand"]].max()) <= len(environment.rules.deck)
    environment.reset(seed=2)
    rng = random.Random(2)
    for step in range(600):
        if not environment.agents:
            break
        agent = environment.agent_selection
        observation = environment.observe(agent)
        assert space.contains(observation["observation"]), (step, np.flatnonzero(observation["observation"] > space.high))
        environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


def _from_the_view(environment: raw_env, agent: str) -> np.ndarray:
    """The observation's meaning, spelt out from ``Game.view`` (the slow way the fast encoding must agree with)."""
    encoding, parts = environment.encoding, environment.encoding.parts
    view = environment.game.view(agent, history=False)
    decision = environment.table.decision() if environment.table is not None else None
    vector = np.zeros(encoding.size, dtype=np.float32)
    n, me = len(view.players), view.players.index(agent)

    def relative(name: str) -> int:
        return (view.players.index(name) - me) % n

    for token in view.hand:
        vector[parts["hand"].start + encoding.types[token]] += 1
    for token in view.discard_pile:
        vector[parts["discard_pile"].start + encoding.types[token]] += 1
    if view.top is not None:
        vector[parts["top"].start + encoding.faces[view.top]] = 1
    if view.colour is not None:
        vector[parts["colour"].start + encoding.colours[view.colour]] = 1
    vector[parts["direction"].start] = float(view.direction == "left")
    for seat in range(n):
        vector[parts["hand_sizes"].start + seat] = view.hand_sizes[(me + seat) % n]
        vector[parts["scores"].start + seat] = min(view.scores[(me + seat) % n], 1_000_000)
    vector[parts["draw_pile"].start] = view.draw_pile
    if decision is not None:
        vector[parts["to_act"].start + relative(decision.player)] = 1
        vector[parts["optional"].start] = float(decision.optional and decision.player == agent)
    for owed in view.owed:
        vector[parts["owes"].start + relative(owed.player)] += owed.cards if owed.cards is not None else 1
    if view.uno is not None:
        vector[parts["uno"].start + relative(view.uno)] = 1
    if "backs" in parts:
        vector[parts["side"].start] = float(view.side != encoding.sides[0])
        for seat in range(1, n):
            for token in view.backs[(me + seat) % n]:
                vector[parts["backs"].start + (seat - 1) * len(encoding.faces) + encoding.faces[token]] += 1
        if view.draw_pile_back is not None:
            vector[parts["draw_pile_back"].start + encoding.faces[view.draw_pile_back]] = 1
    return vector


QUICK_ENCODED = ("uno", "uno-flip", "uno-party", "house-forced-play")  # the quick tier's sample; the slow tier has every spec


@pytest.mark.parametrize(
    "spec",
    [
        spec if spec in QUICK_ENCODED else pytest.param(spec, marks=pytest.mark.slow)
        for spec in sorted(path.stem for path in (Path(__file__).resolve().parent.parent / "specs").glob("*.yaml"))
    ],
)
def test_the_fast_encoding_is_the_view_encoded_on_every_spec(spec: str) -> None:
    """Issue 28, point 7: the observation is read from the state directly (``Game.encode``), for speed; at every step
    of random games, for every agent, it equals the encoding of ``Game.view`` spelt out above."""
    rng = random.Random(spec)
    players = rng.randrange(2, 6)
    environment = raw_env(spec=spec, players=players, target=30)  # a low target: rounds end, scores count
    environment.reset(seed=rng.randrange(1000))
    after = 0  # steps into the second round (scores encoded)
    for _ in range(5000):
        if not environment.agents or environment.terminations[environment.agent_selection] or after == 30:
            break
        assert environment.table is not None
        after += bool(environment.table.ended)
        decision = environment.table.decision()
        assert decision is not None
        for agent in environment.possible_agents:
            assert np.array_equal(environment.observe(agent)["observation"], _from_the_view(environment, agent)), (spec, agent)
            listed = environment.game.encode(agent, environment.encoding, decision.player, decision.optional)  # a list
            assert isinstance(listed, list) and listed == list(environment.observe(agent)["observation"])
        observation = environment.observe(environment.agent_selection)
        environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


@pytest.mark.parametrize("action", ["3", 1.7, True, -1, 10_000, None])
def test_an_action_that_is_not_a_whole_number_in_range_is_a_value_error(action: object) -> None:
    """Issue 29, point 9: ``raw_env.step`` takes a whole number in the action space (a numpy integer too), and
    nothing else: not a string, a float, a bool, or a number out of range (a ValueError, never an IndexError)."""
    environment = raw_env(spec="uno", players=2)
    environment.reset(seed=1)
    with pytest.raises(ValueError, match="whole number|not legal"):
        environment.step(action)  # type: ignore[arg-type]
    legal = np.flatnonzero(environment.observe(environment.agent_selection)["action_mask"])
    environment.step(legal[0])  # a numpy integer is an action


def test_the_hosting_records_pickle_on_either_build() -> None:
    """The compiled build compiles moves, seats and the table too (setup.py): each of their records pickles and
    compares equal again, as on the pure build (a view, its lines, a decision, a round's end, the encoding)."""
    import pickle

    from referee.play.seat import Encoding
    from referee.play.table import Table

    table = Table("uno", ["Ann", "Bob"], seed=5)
    rng = random.Random(5)
    while not table.ended:
        decision = table.decision()
        assert decision is not None
        table.play(decision.moves[rng.randrange(len(decision.moves))]) if not decision.optional else table.wait()
    decision = table.decision()
    view = table.game.view("Ann")
    records: list[object] = [decision, table.ended[0], view, view.history[0], referee.Move.parse("Ann draws")]
    records += list(view.owed)
    for record in records:
        assert pickle.loads(pickle.dumps(record)) == record, record
    encoding = Encoding(table.game.rules, 2)
    again = pickle.loads(pickle.dumps(encoding))
    assert again.parts == encoding.parts and again.high == encoding.high
    copy = pickle.loads(pickle.dumps(table))
    assert copy.decision() == table.decision() and copy.ended == table.ended and copy.moves == table.moves


def _pettingzoo_wrapped(spec: str, players: int) -> object:
    from pettingzoo.utils import wrappers

    inner = wrappers.TerminateIllegalWrapper(raw_env(spec=spec, players=players), illegal_reward=-1)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(inner))


def _outcome(call: Any, *arguments: object) -> object:
    """What a call gives, or the kind of error it raises (the two wrappings must agree on both)."""
    try:
        return ("value", call(*arguments))
    except (AssertionError, AttributeError, ValueError) as error:
        return ("raises", type(error).__name__)


@pytest.mark.parametrize("spec", ["uno", "uno-flip", "uno-seven-zero"])
def test_env_behaves_as_pettingzoo_s_three_wrappers(spec: str) -> None:
    """Issue 28, point 7: ``env()`` is one wrapper (``Enforced``) for speed, and must be PettingZoo's
    OrderEnforcing(AssertOutOfBounds(TerminateIllegal(-1))) in behaviour: the same attributes before reset, the same
    ``last()`` at every step, the same end after an illegal or out-of-range action, the same dead steps after."""
    from referee.env import Enforced

    ours, theirs = env(spec=spec, players=3), _pettingzoo_wrapped(spec, 3)
    assert isinstance(ours, Enforced) and str(ours) == str(theirs)
    for name in ("agents", "agent_selection", "rewards", "terminations", "truncations", "infos", "num_agents"):
        assert _outcome(getattr, ours, name) == _outcome(getattr, theirs, name) == ("raises", "AttributeError")
    rng = random.Random(spec)
    for game in range(12):
        ours.reset(seed=game)
        theirs.reset(seed=game)  # type: ignore[attr-defined]
        ending = rng.choice(["illegal", "out of range", "none", "numpy", "play on"])
        for step, agent in enumerate(ours.agent_iter(400)):
            assert agent == theirs.agent_selection  # type: ignore[attr-defined]
            mine, other = ours.last(), theirs.last()  # type: ignore[attr-defined]
            assert np.array_equal(mine[0]["observation"], other[0]["observation"])
            assert np.array_equal(mine[0]["action_mask"], other[0]["action_mask"]) and mine[1:] == other[1:]
            mask = mine[0]["action_mask"]
            action: object = int(rng.choice(np.flatnonzero(mask))) if not (mine[2] or mine[3]) else None
            if step == 30 and action is not None:  # the game ends here, one way or another
                action = {
                    "illegal": int(np.flatnonzero(mask == 0)[0]),
                    "out of range": len(mask) + 3,
                    "none": None,
                    "numpy": np.int64(action),  # type: ignore[call-overload]
                    "play on": action,
                }[ending]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # PettingZoo warns of an illegal action: both must, neither fails
                assert _outcome(ours.step, action) == _outcome(theirs.step, action)  # type: ignore[attr-defined]
            assert ours.agents == theirs.agents and ours.rewards == theirs.rewards  # type: ignore[attr-defined]
            assert ours.terminations == theirs.terminations and ours.truncations == theirs.truncations  # type: ignore[attr-defined]
            assert ours._cumulative_rewards == theirs._cumulative_rewards  # type: ignore[attr-defined]
            if step == 30 and ending in ("out of range", "none"):
                break  # an assertion failed in both: the game stands where it was
        assert _outcome(ours.step, 0) == _outcome(theirs.step, 0)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("spec", "steps"),
    [
        ("uno", 150),
        ("uno-flip", 150),
        pytest.param("uno", 1500, marks=pytest.mark.slow),
        pytest.param("uno-flip", 1500, marks=pytest.mark.slow),
    ],
)
def test_the_kept_discard_counts_follow_pushes_pops_flips_and_reshuffles(spec: str, steps: int) -> None:
    """Issue 28, point 7: an encoding keeps the discard pile's counts between observations and counts only what was
    added; after any other change (a pop, a reshuffle, a flip that turns the pile over) it must count anew. One
    encoding, used throughout a random walk of pushes and pops, agrees with a fresh one at every position (the
    slow tier walks five times as far, past reshuffles)."""
    from referee.play.seat import Encoding

    rng = random.Random(spec)
    game = referee.Game.new(spec, ["Ann", "Bob", "Cy"], seed=5)
    rules = game.rules
    kept = Encoding(rules, 3)
    for _ in range(steps):
        moves = game.legal_moves()
        if game.is_game_over():
            break
        if not moves or (rng.random() < 0.2 and game.move_stack):
            game.pop()
        else:
            game.push(moves[rng.randrange(len(moves))])
        if game.is_round_over() or game.turn is None:
            continue
        for seat, player in enumerate(game.players):
            assert game.encode(player, kept) == game.encode(player, Encoding(rules, 3)), (seat, len(game.move_stack))


def test_the_environment_s_public_name_is_referee_env() -> None:
    """docs/library.md's one line, ``from referee.env import env``: the public name of ``referee.play.env``."""
    import referee.env
    import referee.play.env

    assert referee.env.env is referee.play.env.env and referee.env.raw_env is referee.play.env.raw_env
    assert referee.env.Enforced is referee.play.env.Enforced and set(referee.env.__all__) == {"Actions", "Enforced", "env", "raw_env"}
