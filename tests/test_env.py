"""spoiler.env: Spoiler as a PettingZoo AEC environment (issue 19, part 5; docs/learning.md).

Skipped without the ``rl`` extra (pettingzoo, gymnasium, numpy); the ``test`` extra pulls
it in, so CI runs these."""

from __future__ import annotations

import re
import runpy
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from spoiler.agents.wire import view_to_wire  # noqa: E402
from spoiler.env import Observer, env, raw_env  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
#: What api_test says of every environment whose observation holds an action mask (as
#: PettingZoo's own classic games do): a Dict, not a bare array.
DICT_OBSERVATIONS = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
]


def play_out(game, rng, steps=None):
    """Random masked actions until the game (or ``steps`` decisions) is over."""
    done = 0
    for _agent in game.agent_iter():
        observation, _reward, termination, truncation, _info = game.last()
        if termination or truncation:
            game.step(None)
            continue
        allowed = np.flatnonzero(observation["action_mask"])
        game.step(allowed[rng.integers(len(allowed))])  # a numpy integer
        done += 1
        if steps is not None and done >= steps:
            return done
    return done


@DICT_OBSERVATIONS[0]
@DICT_OBSERVATIONS[1]
def test_the_pettingzoo_api_test_passes():
    api_test(env(players=4), num_cycles=300)


@DICT_OBSERVATIONS[0]
@DICT_OBSERVATIONS[1]
def test_the_api_test_passes_against_bots_and_with_one_set():
    api_test(env(players=3, sets=["base"], opponents="random"), num_cycles=200)


def test_the_pettingzoo_seed_test_passes():
    seed_test(lambda: env(players=3), num_cycles=300)


def test_the_same_seed_plays_the_same_game():
    logs = []
    for _ in range(2):
        game = raw_env(players=4)
        game.reset(seed=11)
        play_out(game, np.random.default_rng(5))
        logs.append([event.as_dict() for event in game.game.every_event()])
    assert logs[0] == logs[1]
    assert logs[0][-1]["kind"] == "game_over"


def test_a_numpy_integer_seed_plays_the_game_of_that_number():
    logs = []
    for seed in (11, np.int64(11), np.uint32(11)):
        game = raw_env(players=4)
        game.reset(seed=seed)
        play_out(game, np.random.default_rng(5))
        logs.append([event.as_dict() for event in game.game.every_event()])
    assert logs[0] == logs[1] == logs[2]
    first = raw_env(players=3, seed=np.int32(4))
    first.reset()
    assert first.game.seed == 4 and type(first.game.seed) is int


@pytest.mark.parametrize(
    ("seed", "error", "message"),
    [
        ("7", TypeError, "seed must be a whole number or None, not '7'"),
        (1.5, TypeError, "seed must be a whole number or None, not 1.5"),
        (2**64, ValueError, f"seed must be a whole number of at most 64 bits, not {2**64}"),
    ],
)
def test_a_seed_that_is_no_game_seed_is_refused_naming_it(seed, error, message):
    game = raw_env(players=3)
    game.reset(seed=1)
    with pytest.raises(error, match=re.escape(message)):
        game.reset(seed=seed)
    assert game.game.seed == 1  # the game under way is still there
    with pytest.raises(error, match=re.escape(message)):
        raw_env(players=3, seed=seed)


def test_sets_given_as_one_string_are_the_names_as_sets_takes_them():
    assert raw_env(players=3, sets="base").encoding.card_names == (
        raw_env(players=3, sets=["base"]).encoding.card_names
    )
    installed = sorted(raw_env(players=3).registry.sets)
    both = raw_env(players=3, sets=", ".join(installed))
    assert both.encoding.card_names == raw_env(players=3, sets=installed).encoding.card_names


def test_numpy_integers_are_actions():
    game = env(players=4)
    game.reset(seed=3)
    for kind in (np.int64, np.int32, np.int16, np.uint32):
        observation, *_ = game.last()
        action = kind(np.flatnonzero(observation["action_mask"])[0])
        game.step(action)
    assert game.unwrapped.game.round >= 1


def test_an_illegal_action_is_refused_naming_it():
    game = env(players=4)
    game.reset(seed=3)
    observation, *_ = game.last()
    forbidden = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=rf"action {forbidden} \(.*\) is not legal for player_0"):
        game.step(forbidden)
    with pytest.raises(ValueError, match="action -1 is not one of"):
        game.step(-1)
    with pytest.raises(ValueError, match="'Guard' is not an action number"):
        game.step("Guard")
    # Refused, nothing was played: the same decision is still waiting.
    again, *_ = game.last()
    assert np.array_equal(again["action_mask"], observation["action_mask"])
    game.step(np.flatnonzero(observation["action_mask"])[0])


def test_writing_to_the_action_mask_changes_nothing_legal():
    """The mask is the learner's own array: what it writes there (masking actions out as it
    chooses) neither allows an illegal action nor forbids a legal one."""
    game = env(players=4)
    game.reset(seed=3)
    observation, *_ = game.last()
    mask = observation["action_mask"]
    legal, forbidden = np.flatnonzero(mask)[0], np.flatnonzero(mask == 0)[0]
    mask[legal], mask[forbidden] = 0, 1
    with pytest.raises(ValueError, match=rf"action {forbidden} \(.*\) is not legal"):
        game.step(forbidden)
    game.step(legal)


def test_a_whole_game_against_greedy_bots():
    game = env(players=4, opponents="greedy")
    assert game.possible_agents == ["player_0"]
    game.reset(seed=21)
    assert play_out(game, np.random.default_rng(0)) > 0
    raw = game.unwrapped
    result = raw.game.result
    assert result is not None and not game.agents
    # Every decision the learner made was one of the game's, and the bots decided the rest.
    assert all(s.kind == "greedy" for s in raw.game.seats[1:])


def test_rewards_are_given_at_the_end():
    game = raw_env(players=4)
    game.reset(seed=8)
    rng = np.random.default_rng(1)
    totals = dict.fromkeys(game.possible_agents, 0.0)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        totals[agent] += reward
        if termination or truncation:
            assert info["result"]["kind"] == game.game.result.kind
            game.step(None)
            continue
        assert reward == 0
        allowed = np.flatnonzero(observation["action_mask"])
        game.step(allowed[rng.integers(len(allowed))])
    result = game.game.result
    for agent, total in totals.items():
        seat = int(agent.split("_")[1])
        expected = 0.0 if result.kind == "draw" else (1.0 if seat in result.winners else -1.0)
        assert total == expected


def test_the_round_limit_ends_the_game_as_a_draw_truncated():
    """A draw by the round limit: reward 0, and truncations (not terminations) set."""
    game = raw_env(players=4, sets=["base"], max_rounds=1)
    rng = np.random.default_rng(0)
    for seed in range(20):
        game.reset(seed=seed)
        seen = []
        for _agent in game.agent_iter():
            observation, reward, termination, truncation, _info = game.last()
            if termination or truncation:
                seen.append((reward, termination, truncation))
                game.step(None)
                continue
            allowed = np.flatnonzero(observation["action_mask"])
            game.step(allowed[rng.integers(len(allowed))])
        if game.game.result.kind == "draw":
            assert seen == [(0.0, False, True)] * 4
            return
        assert all(flags[1] and not flags[2] for flags in seen)
    pytest.fail("no draw in 20 one-round games")


def test_infos_hold_the_wire_view_and_the_legal_selections():
    game = raw_env(players=4)
    game.reset(seed=4)
    rng = np.random.default_rng(2)
    kinds = set()
    for _ in range(400):
        agent = game.agent_selection
        observation, _r, termination, truncation, info = game.last()
        if termination or truncation:
            break
        pending = game._decision.pending
        assert info["view"] == view_to_wire(pending.view)  # the events kept, the same form
        assert info["view"]["seat"] == int(agent.split("_")[1])
        allowed = list(np.flatnonzero(observation["action_mask"]))
        assert sorted(info["actions"]) == allowed
        kinds.add(info["kind"])
        if info["kind"] == "select":
            assert len(info["legal"]) == len(info["actions"])
        else:
            assert len(info["actions"]) == len(info["question"]["options"])
        game.step(allowed[rng.integers(len(allowed))])
    assert kinds == {"select", "answer"}


def test_answers_to_questions_are_their_own_actions():
    game = raw_env(players=4)
    enc = game.encoding
    game.reset(seed=4)
    rng = np.random.default_rng(2)
    answered = 0
    for _ in range(3000):
        observation, _r, termination, truncation, info = game.last()
        if termination or truncation:
            game.reset(seed=int(rng.integers(1000)))
            continue
        allowed = np.flatnonzero(observation["action_mask"])
        if info["kind"] == "answer":
            assert allowed.min() >= enc.answer_card  # no selection allowed
            answered += 1
        else:
            assert allowed.max() < enc.answer_card
        game.step(allowed[rng.integers(len(allowed))])
    assert answered


def test_the_enumeration_is_fixed_by_the_card_list_and_the_players():
    one, two = raw_env(players=5), raw_env(players=5, seed=99)
    assert one.encoding.actions == two.encoding.actions
    assert one.encoding.selections == two.encoding.selections
    assert one.encoding.size == two.encoding.size
    assert one.observation_space("player_0") == two.observation_space("player_0")
    assert raw_env(players=3).encoding.actions < one.encoding.actions
    describe = one.encoding.describe
    assert describe(0).startswith("base:")
    assert describe(one.encoding.answer_card).startswith("answer: ")


def test_the_observation_never_encodes_another_seats_hand():
    """Another seat's hand changed behind the scenes (a clone, cards swapped): the seat's
    own observation stays the same, since the observer reads its view alone."""
    game = raw_env(players=4, sets=["base"])
    game.reset(seed=6)
    play_out(game, np.random.default_rng(3), steps=9)
    real = game.game
    twin = real.clone()  # never played: it keeps the same agents
    mine, theirs = twin.state.players[0].hand, twin.state.players[2].hand
    deck = twin.state.deck
    theirs[:], deck[: len(theirs)] = deck[: len(theirs)], list(theirs)
    assert [c.id for c in twin.state.players[2].hand] != [c.id for c in real.state.players[2].hand]
    assert mine == real.state.players[0].hand
    before = Observer(game.encoding).observe(real.view(0))
    after = Observer(game.encoding).observe(twin.view(0))
    assert np.array_equal(before, after)


def test_the_observer_reads_nothing_of_the_game():
    """Like the console and the host (tests/test_front_ends.py): no ``game.state``, and
    nothing private of a game."""
    reads_of_the_engine = runpy.run_path(str(ROOT / "tests" / "test_front_ends.py"))[
        "reads_of_the_engine"
    ]
    assert reads_of_the_engine(ROOT / "core" / "spoiler" / "env.py") == []


def test_observations_stay_within_their_space_over_many_games():
    game = raw_env(players=3)
    space = game.observation_space("player_0")
    rng = np.random.default_rng(9)
    for seed in range(6):
        game.reset(seed=seed)
        for _agent in game.agent_iter():
            observation, _r, termination, truncation, _info = game.last()
            assert space.contains(observation)
            if termination or truncation:
                game.step(None)
                continue
            allowed = np.flatnonzero(observation["action_mask"])
            game.step(allowed[rng.integers(len(allowed))])


@settings(max_examples=12, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_a_fresh_observer_agrees_with_the_one_that_remembers(players, seed):
    """The observer keeps what it worked out (each event's columns, the discard pile counted
    as it grows, each seat's row): over whole games, through reshuffles and counters, every
    observation is the one an observer that saw nothing before makes of the same view."""
    game = raw_env(players=players)
    game.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _agent in game.agent_iter():
        observation, _r, termination, truncation, _info = game.last()
        if termination or truncation:
            game.step(None)
            continue
        pending = game._decision.pending
        fresh = Observer(game.encoding).observe(pending.view, pending.question)
        assert np.array_equal(observation["observation"], fresh)
        allowed = np.flatnonzero(observation["action_mask"])
        game.step(allowed[rng.integers(len(allowed))])


def test_a_discard_pile_that_shrinks_is_counted_again():
    """A reshuffle takes the pile back into the deck: the observer, which counts the pile as
    it grows, counts it again from nothing."""
    game = raw_env(players=3)
    game.reset(seed=5)
    play_out(game, np.random.default_rng(5), steps=12)
    view = game._decision.pending.view
    assert len(view.discard) > 3
    observer = Observer(game.encoding)
    for discard in (view.discard, view.discard[:2], (), view.discard[1:]):
        later = replace(view, discard=discard)
        fresh = Observer(game.encoding).observe(later)
        assert np.array_equal(observer.observe(later), fresh)


def test_bad_options_are_refused():
    with pytest.raises(ValueError, match="opponents"):
        raw_env(players=4, opponents=["greedy"])
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="rgb_array")


def test_render_ansi_shows_the_table():
    game = raw_env(players=2, render_mode="ansi")
    game.reset(seed=1)
    text = game.render()
    assert "player_0" in text and "round" in text


def test_a_views_events_since_a_point_are_its_events_from_there():
    """``PlayerView.events_since(k)`` (what the observer reads, one view after another) is
    ``view.events[k:]``, secrets as the seat saw them, for every seat at every decision."""
    game = raw_env(3, ["base"])
    game.reset(seed=4)
    checked = 0
    for _agent in game.agent_iter():
        observation, _reward, termination, truncation, _info = game.last()
        if termination or truncation:
            game.step(None)
            continue
        for seat in range(3):
            view = game.game.view(seat)
            events = view.events
            assert view.event_count == len(events)
            for start in (0, len(events) // 2, max(0, len(events) - 3), len(events)):
                assert view.events_since(start) == list(events[start:])
                # ... and is what everyone saw, with this seat's own secrets in their places.
                public = view.public_events_since(start)
                assert public == list(game.game.events_seen_by(None)[start : len(events)])
                secrets = view.secrets_since(start)
                for index, event in secrets:
                    assert seat in event.secret_to and public[index - start].secret is None
                    public[index - start] = event
                assert public == list(events[start:])
                checked += 1
        game.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert checked > 40
