"""The deal as OpenSpiel chance nodes: core deals are chance paths, resampling for ISMCTS, and
OpenSpiel's algorithms (CFR, MCCFR, ISMCTS, DQN through rl_environment) on a small variant."""

import math

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as policy_lib
from open_spiel.python import rl_environment
from open_spiel.python.jax import dqn  # needs flax, optax, chex, orbax-checkpoint (python/test.sh)
from open_spiel.python.algorithms import (
    cfr,
    exploitability,
    external_sampling_mccfr,
    ismcts,
    mcts,
    minimax,
    outcome_sampling_mccfr,
)

import arbiter.openspiel  # noqa: F401  (registers the games)
from arbiter import Nantong, TripleTriad, ffxiv

# Closed hands of two cards from three, three empty cells, blue first: 36 deals of 24 lines of play.
SMALL = {"preset": "mush", "hand": 2, "pool": 3, "elemental": False, "first": "blue"}


def _names():
    return [c["name"] for c in TripleTriad.ff8_cards()]


def _deal(state, rng):
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(actions, p=probs)))
    return state


def _ffxiv_outcomes(card):
    """The two chance outcomes of a FFXIV card of a round's JSON: its stars - 1, then its index
    among the cards of that rarity by id."""
    every = ffxiv.cards()
    found = [c for c in every if c["name"]["en"] == card["name"] and c["ranks"] == card["ranks"]]
    assert len(found) == 1, card
    stars = found[0]["rarity"]
    return [stars - 1, [c["id"] for c in every if c["rarity"] == stars].index(found[0]["id"])]


@pytest.mark.parametrize("preset", TripleTriad.presets)
def test_a_core_deal_is_a_chance_path_that_plays_the_same_round(preset):
    names = _names()
    game = pyspiel.load_game("arbiter_triple_triad", {"preset": preset})
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    for seed in range(5):
        core = TripleTriad.from_preset(preset, seed)
        j = core.to_json()
        cards = j["hands"]["blue"] + j["hands"]["red"]
        if preset == "ffxiv":
            path = [o for c in cards for o in _ffxiv_outcomes(c)]
        else:
            path = [names.index(c["name"]) for c in cards]
        path.append(["blue", "red"].index(j["to_move"]))
        kinds = ["none", "fire", "ice", "thunder", "earth", "poison", "wind", "water", "holy"]
        # Elements are drawn only under the Elemental rule (the ffxiv preset has none).
        if j["rules"].get("elemental"):
            path += [kinds.index(e or "none") for e in j.get("elements", [None] * 9)]
        state = game.new_initial_state()
        for outcome in path:
            assert state.is_chance_node()
            assert outcome in dict(state.chance_outcomes())
            state.apply_action(outcome)
        assert not state.is_chance_node()
        assert state.engine.to_json() == j
        assert state.legal_actions() == core.legal_actions().tolist()


def test_ffxiv_decks_are_dealt_as_chance_uniform_among_the_decks_the_rule_allows():
    game = pyspiel.load_game("arbiter_triple_triad", {"preset": "ffxiv"})
    assert game.max_chance_outcomes() == max(
        sum(1 for c in ffxiv.cards() if c["rarity"] == s) for s in range(1, 6)
    )
    # The first card's rarity against a count of the unordered decks the rule allows (at most
    # two cards of 4 or 5 stars, one of 5): a card of the deck is first with probability 1/5.
    n = {s: sum(1 for c in ffxiv.cards() if c["rarity"] == s) for s in range(1, 6)}
    common = n[1] + n[2] + n[3]
    decks = {
        (b4, b5): math.comb(common, 5 - b4 - b5) * math.comb(n[4], b4) * math.comb(n[5], b5)
        for b4 in range(3) for b5 in range(2) if b4 + b5 <= 2
    }
    total = sum(decks.values())
    first = dict(game.new_initial_state().chance_outcomes())
    assert math.isclose(first[4], sum(b5 * d for (_, b5), d in decks.items()) / (5 * total))
    assert math.isclose(first[3], sum(b4 * d for (b4, _), d in decks.items()) / (5 * total))
    assert math.isclose(sum(first.values()), 1.0)
    rng = np.random.default_rng(9)
    for _ in range(20):
        state = game.new_initial_state()
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert math.isclose(sum(p for _, p in outcomes), 1.0)
            actions, probs = zip(*outcomes)
            state.apply_action(int(rng.choice(actions, p=probs)))
        for hand in state.engine.to_json()["hands"].values():
            ids = [_ffxiv_id(c) for c in hand]
            stars = [next(c["rarity"] for c in ffxiv.cards() if c["id"] == i) for i in ids]
            assert len(set(ids)) == 5 and sum(s >= 4 for s in stars) <= 2 and stars.count(5) <= 1
    # A seed is still the core's deal.
    seeded = pyspiel.load_game("arbiter_triple_triad", {"preset": "ffxiv", "seed": 3}).new_initial_state()
    assert seeded.engine.to_json() == TripleTriad.from_preset("ffxiv", 3).to_json()
    with pytest.raises(Exception, match="FFXIV decks"):
        pyspiel.load_game("arbiter_triple_triad", {"preset": "ffxiv", "hand": 2})


def _ffxiv_id(card):
    return next(c["id"] for c in ffxiv.cards() if c["name"]["en"] == card["name"] and c["ranks"] == card["ranks"])


def test_openspiels_random_simulation_test_passes_on_ffxiv_deals():
    game = pyspiel.load_game("arbiter_triple_triad", {"preset": "ffxiv"})
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_ffxiv_resampling_keeps_what_the_player_saw_and_the_deck_rule():
    game = pyspiel.load_game("arbiter_triple_triad", {"preset": "ffxiv"})
    rng = np.random.default_rng(3)
    state = _deal(game.new_initial_state(), rng)
    for _ in range(3):
        state.apply_action(int(rng.choice(state.legal_actions())))
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    hands = set()
    for _ in range(10):
        sample = state.resample_from_infostate(player, sampler)
        assert sample.information_state_string(player) == state.information_state_string(player)
        theirs = sample.engine.to_json()["hands"][["blue", "red"][1 - player]]
        stars = [next(c["rarity"] for c in ffxiv.cards() if c["id"] == _ffxiv_id(h)) for h in theirs]
        assert sum(s >= 4 for s in stars) <= 2 and stars.count(5) <= 1
        hands.add(str(theirs))
    assert len(hands) > 1


def test_a_core_nantong_deal_is_a_chance_path_that_plays_the_same_deal():
    game = pyspiel.load_game("arbiter_nantong")
    core = Nantong(6)
    j = core.to_json()
    kinds = sorted(set(j["deck"]))
    state = game.new_initial_state()
    for outcome in [j["dealer"]] + [kinds.index(k) for k in j["deck"]]:
        assert outcome in dict(state.chance_outcomes())
        state.apply_action(outcome)
    rng = np.random.default_rng(1)
    while not state.is_terminal():
        assert state.legal_actions() == core.legal_actions().tolist()
        player = state.current_player()
        assert state.observation_string(player) == arbiter.openspiel._observation_string(core, player)
        action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        core.play(action)
    assert state.returns() == core.returns()


def test_chance_outcomes_are_distributions_and_keep_the_level_limit():
    names = TripleTriad.ff8_cards()
    game = pyspiel.load_game("arbiter_triple_triad", {"preset": "mush"})
    rng = np.random.default_rng(5)
    for _ in range(30):
        state = game.new_initial_state()
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert math.isclose(sum(p for _, p in outcomes), 1.0)
            assert [a for a, _ in outcomes] == sorted({a for a, _ in outcomes})
            actions, probs = zip(*outcomes)
            state.apply_action(int(rng.choice(actions, p=probs)))
        hands = state.engine.to_json()["hands"]
        for hand in hands.values():
            assert sum(c["level"] for c in hand) <= 20 and len({c["name"] for c in hand}) == 5
    assert len(names) == 110


def test_the_first_cards_share_the_hands_under_the_level_limit():
    # Under mush's limit of 20 a level-10 card leaves 10 for four cards: a few hands only.
    state = pyspiel.load_game("arbiter_triple_triad", {"preset": "mush"}).new_initial_state()
    odds = dict(state.chance_outcomes())
    levels = [c["level"] for c in TripleTriad.ff8_cards()]
    strong, weak = levels.index(10), levels.index(1)
    assert 0 < odds[strong] < odds[weak]
    assert math.isclose(sum(odds.values()), 1.0)


def test_rl_environment_deals_a_new_round_every_episode():
    # (Keywords of Environment are game parameters: `seed=` would fix the deal.)
    env = rl_environment.Environment("arbiter_triple_triad", chance_event_sampler=rl_environment.ChanceEventSampler(3))
    seen = set()
    for _ in range(5):
        step = env.reset()
        seen.add(str(env.get_state.engine.to_json()["hands"]))
        while not step.last():
            player = step.observations["current_player"]
            step = env.step([step.observations["legal_actions"][player][0]])
    assert len(seen) == 5
    # The old behaviour on demand: a seed is one deal.
    same = rl_environment.Environment("arbiter_triple_triad", seed=7)
    hands = set()
    for _ in range(3):
        same.reset()
        hands.add(str(same.get_state.engine.to_json()["hands"]))
    assert len(hands) == 1


def test_resampling_keeps_what_the_player_saw_and_redraws_the_rest():
    game = pyspiel.load_game("arbiter_triple_triad", {"preset": "mush"})
    rng = np.random.default_rng(2)
    state = _deal(game.new_initial_state(), rng)
    for _ in range(3):
        state.apply_action(int(rng.choice(state.legal_actions())))
    player = state.current_player()
    other = 1 - player
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    hands = set()
    for _ in range(20):
        sample = state.resample_from_infostate(player, sampler)
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.current_player() == player
        assert sample.history()[len(sample.drawn) :] == state.history()[len(state.drawn) :]
        theirs = sample.engine.to_json()["hands"][["blue", "red"][other]]
        assert sum(c["level"] for c in theirs) <= 20
        hands.add(str(theirs))
    assert len(hands) > 1


def test_nantong_resampling_keeps_what_the_seat_saw():
    game = pyspiel.load_game("arbiter_nantong")
    rng = np.random.default_rng(4)
    state = _deal(game.new_initial_state(), rng)
    for _ in range(12):
        state.apply_action(int(rng.choice(state.legal_actions())))
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    decks = set()
    for _ in range(3):
        sample = state.resample_from_infostate(player, sampler)
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.current_player() == player
        decks.add(sample.drawn)
    assert len(decks - {state.drawn}) >= 1
    # ISMCTS searches from such samples.
    while len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    rng = np.random.RandomState(2)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, max_simulations=4, random_state=rng)
    assert bot.step(state) in state.legal_actions()


@pytest.mark.parametrize("params", [SMALL, {"preset": "mush"}])
def test_ismcts_plays_whole_rounds(params):
    game = pyspiel.load_game("arbiter_triple_triad", params)
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=20, random_state=rng)
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=probs)))
            elif state.current_player() == 0:
                action = bot.step(state)
                assert action in state.legal_actions()
                state.apply_action(action)
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        assert sum(state.returns()) == 0


@pytest.fixture(scope="module")
def small():
    """The small variant and the exploitability of the uniform policy there (what CFR starts from)."""
    game = pyspiel.load_game("arbiter_triple_triad", SMALL)
    return game, exploitability.exploitability(game, policy_lib.UniformRandomPolicy(game))


def test_cfr_solves_the_small_variant(small):
    game, uniform = small
    solver = cfr.CFRSolver(game)
    values = [uniform]
    for iterations in (3, 5):
        for _ in range(iterations):
            solver.evaluate_and_update_policy()
        values.append(exploitability.exploitability(game, solver.average_policy()))
    assert values == sorted(values, reverse=True) and values[-1] < values[0] / 3, values


@pytest.mark.parametrize(
    "solver_class", [outcome_sampling_mccfr.OutcomeSamplingSolver, external_sampling_mccfr.ExternalSamplingSolver]
)
def test_mccfr_samples_deals_of_the_small_variant(small, solver_class):
    game, uniform = small
    np.random.seed(1)
    solver = solver_class(game)
    for _ in range(200):
        solver.iteration()
    assert exploitability.exploitability(game, solver.average_policy()) < uniform


def test_dqn_trains_through_rl_environment():
    sampler = rl_environment.ChanceEventSampler(1)
    env = rl_environment.Environment(pyspiel.load_game("arbiter_triple_triad", SMALL), chance_event_sampler=sampler)
    size = env.observation_spec()["info_state"][0]
    actions = env.action_spec()["num_actions"]
    agents = [
        dqn.DQN(p, size, actions, hidden_layers_sizes=[16], batch_size=16, min_buffer_size_to_learn=32,
                    learn_every=4, replay_buffer_capacity=500, allow_checkpointing=False, seed=p)
        for p in range(2)
    ]
    deals, steps = set(), 0
    while steps < 300:
        step = env.reset()
        deals.add(str(env.get_state.engine.to_json()["hands"]))
        while not step.last():
            player = step.observations["current_player"]
            out = agents[player].step(step)
            step = env.step([out.action])
            steps += 1
        for agent in agents:
            agent.step(step)
    assert len(deals) > 5
    assert any(agent.loss is not None and np.isfinite(agent.loss) for agent in agents)


def test_expectiminimax_solves_the_dealt_open_hand_variant_as_the_core_solver_does():
    # Open hands: once dealt nothing is hidden, so the dealt game is perfect information with
    # chance, which alpha-beta refuses and expectiminimax takes: 36 deals of two cards each.
    game = pyspiel.load_game("arbiter_triple_triad", dict(SMALL, preset="ff8"))
    assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    value, _ = minimax.expectiminimax(game.new_initial_state(), 10, None, 0)

    def dealt(state, p):
        if not state.is_chance_node():
            yield state, p
            return
        for outcome, q in state.chance_outcomes():
            yield from dealt(state.child(outcome), p * q)

    expected = 0.0
    for state, p in dealt(game.new_initial_state(), 1.0):
        # The core's exact solver: the score difference for the player to move.
        margin = state.engine.solve()["value"]
        expected += p * np.sign(margin) * (1 if state.current_player() == 0 else -1)
    assert math.isclose(value, expected) and 0 < value < 1, (value, expected)


def test_openspiels_random_simulation_test_passes_on_the_small_variant():
    pyspiel.random_sim_test(pyspiel.load_game("arbiter_triple_triad", SMALL), num_sims=10, serialize=True, verbose=False)


@pytest.mark.parametrize(
    "params, words",
    [
        ({"hand": 0}, "hand"),
        ({"hand": 3, "pool": 2}, "pool"),
        ({"pool": 111}, "pool"),
        ({"first": "green"}, "first"),
        ({"hand": 2, "seed": 4}, "seed"),
    ],
)
def test_a_bad_variant_is_an_error_of_load_game(params, words):
    with pytest.raises(Exception, match=words):
        pyspiel.load_game("arbiter_triple_triad", {"preset": "mush", **params})
