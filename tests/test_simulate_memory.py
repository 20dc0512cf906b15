"""`simulate` in flat memory (issue 24, item 5): "each worker aggregates its games' figures and
sends summaries, so memory does not grow with --games"; everything it prints stays the same
for the same seed and bot key.

A ``Tally`` is what a batch sends and what the run keeps: counters whose size depends on the
cards and the game lengths, not on the number of games.
"""

from __future__ import annotations

import gc
import itertools
import json
import pickle
import random
import tracemalloc
from concurrent.futures import ProcessPoolExecutor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from spoiler import simulate as sim
from spoiler.cli import app

PLAN = sim.Plan(120, ("greedy", "random", "random"), ("base",), seed=5, max_rounds=40, bot_key="k")


@pytest.fixture(scope="module")
def summaries() -> list[dict]:
    return list(sim.run(PLAN))


def test_a_tally_gives_the_very_figures_of_the_summaries_it_counts(summaries):
    tallied = sim.run(PLAN, tally=True)
    assert isinstance(tallied, sim.Tally) and len(tallied) == PLAN.games
    assert not tallied.partial and tallied.stopped is None
    assert sim.report(PLAN, tallied, ["base"]) == sim.report(PLAN, summaries, ["base"])


def test_batches_tallied_in_other_processes_give_the_same_figures(summaries):
    with ProcessPoolExecutor(2, initializer=sim.stop_between_games) as pool:
        tallied = sim.run(PLAN, pool, 2, tally=True)
    assert sim.report(PLAN, tallied, ["base"]) == sim.report(PLAN, summaries, ["base"])


@settings(max_examples=25, deadline=None)
@given(cuts=st.lists(st.integers(0, PLAN.games), max_size=6), order=st.randoms())
def test_tallies_add_up_to_the_same_figures_whatever_the_batches_and_their_order(
    summaries, cuts, order
):
    """However the games are cut into batches, and in whatever order the batches end."""
    edges = sorted({0, PLAN.games, *cuts})
    parts = [sim.Tally.of(summaries[a:b]) for a, b in itertools.pairwise(edges)]
    order.shuffle(parts)
    whole = sim.Tally()
    for part in parts:
        whole.merge(pickle.loads(pickle.dumps(part)))  # as a batch sends it
    assert sim.report(PLAN, whole, ["base"]) == sim.report(PLAN, summaries, ["base"])


def test_decision_times_from_a_tally_are_those_of_the_summaries_to_a_tenth_of_a_ms():
    """The one figure a tally rounds (to a hundredth of a ms): the bots' thinking time, a
    measure of the machine reported to a tenth."""
    rng = random.Random(3)
    games = [
        {**g, "thinking": {"expert": [rng.uniform(1, 400) for _ in range(rng.randrange(1, 30))]}}
        for g in sim.run(sim.Plan(40, ("random",) * 2, ("base",), seed=1, max_rounds=20))
    ]
    exact, tallied = sim.thinking(games), sim.thinking(sim.Tally.of(games))
    assert tallied["expert"]["decisions"] == exact["expert"]["decisions"]
    for key in ("median_ms", "p95_ms"):
        assert abs(tallied["expert"][key] - exact["expert"][key]) <= 0.1


def test_what_a_batch_sends_does_not_grow_with_its_games(summaries):
    """A summary per game grew a batch's answer with every game; its tally stays the size
    of the cards' counters and the lengths seen."""
    few, many = sim.Tally.of(summaries[:20]), sim.Tally.of(summaries)
    assert len(pickle.dumps(many)) < 1.5 * len(pickle.dumps(few))
    assert len(pickle.dumps(summaries)) > 4 * len(pickle.dumps(summaries[:20]))


def held_after(plan: sim.Plan, tally: bool) -> int:
    """The memory (bytes, traced) a run of ``plan`` still holds when it has played its games:
    what it keeps of them for the figures."""
    tracemalloc.start()
    try:
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        played = sim.run(plan, tally=tally)
        gc.collect()  # (a game's cycles are garbage, not kept)
        held = tracemalloc.get_traced_memory()[0] - before
        assert len(played) == plan.games
        return held
    finally:
        tracemalloc.stop()


def test_a_simulation_keeps_no_more_memory_for_eight_times_the_games():
    plan = sim.Plan(50, ("random",) * 2, ("base",), seed=2, max_rounds=30, bot_key="m")
    longer = sim.Plan(400, ("random",) * 2, ("base",), seed=2, max_rounds=30, bot_key="m")
    held_after(longer, True)  # (the engine's caches, once)
    grown = held_after(longer, True) - held_after(plan, True)
    kept = held_after(longer, False) - held_after(plan, False)  # every summary kept
    assert kept > 350 * 1000  # about 1.7 KiB a game of two players
    # A tally's counters still gain a few keys (decision times to 0.01 ms, game lengths)
    # over more games, bounded by their ranges: an order of magnitude below the summaries
    # (Python 3.13's allocator counts about 5% of them).
    assert grown < kept / 10


def test_simulate_prints_the_figures_of_every_game_summary():
    """The command (tallied) reports exactly what the summaries of the same run give."""
    args = ["simulate", "--games", "120", "--bots", "greedy,random,random", "--sets", "base"]
    args += ["--seed", "5", "--bot-key", "k", "--max-rounds", "40", "--jobs", "2", "--json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    for key in ("schema", "spoiler_game", "decision_time", "partial", "warnings"):
        printed.pop(key, None)
    expected = sim.report(PLAN, sim.run(PLAN), ["base"])
    expected.pop("warnings")
    assert printed == expected
