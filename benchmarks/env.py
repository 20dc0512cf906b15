"""The PettingZoo environment's speed against direct play: decisions per second.

    python benchmarks/env.py [--seconds 3] [--players 4] [--sets NAMES] [--repeats 3] [--json]

(a) ``spoiler.env``: every seat a learner, each action drawn at random among those its
    action mask allows (the loop of docs/learning.md), with the observation, the mask and
    the infos (the wire view, the legal selections) made at every step;
(b) direct play: ``Game.play()`` with ``RandomAgent`` in every seat.

A decision is a selection or an answer to a card's question that a seat was asked (the
entries of ``game.decisions``, which both count alike; a question with one option is not
asked, in either). Both play whole seeded games (seed 0, 1, ...) until the time is up, in
CPU time of this process; the two take turns ``--repeats`` times and the best of each is
kept, so that other work on a busy machine weighs on both alike. Target (issue 19): the
environment at least half as fast as direct play.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

import numpy as np

from spoiler import plugins
from spoiler.agents import RandomAgent
from spoiler.commands.play import new_game
from spoiler.env import raw_env
from spoiler.rules.game import Seat


def decisions(game) -> int:
    return sum(len(r["selections"]) + len(r["answers"]) for r in game.decisions)


def run_env(seconds: float, players: int, sets: list[str] | None) -> dict:
    env = raw_env(players, sets)
    rng = np.random.default_rng(0)
    steps = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        env.reset(seed=games)
        games += 1
        before = steps
        for _agent in env.agent_iter():
            observation, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            allowed = np.flatnonzero(observation["action_mask"])
            env.step(allowed[rng.integers(len(allowed))])
            steps += 1
        # The same count as direct play's: each step was one of the game's decisions.
        assert steps - before == decisions(env.game), "a step that was no decision"
    elapsed = time.process_time() - start
    return {"decisions_per_second": round(steps / elapsed), "games": games}


def run_direct(seconds: float, players: int, sets: list[str] | None) -> dict:
    registry = plugins.load()
    count = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        seats = [Seat(f"player_{i}", RandomAgent(games, i), "random") for i in range(players)]
        game = new_game(registry, seats, sets, games, 100)
        game.play()
        count += decisions(game)
        games += 1
    elapsed = time.process_time() - start
    return {"decisions_per_second": round(count / elapsed), "games": games}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per run")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--sets", help="comma-separated set names (default: every set)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="print one line of JSON")
    args = parser.parse_args(argv)
    sets = args.sets.split(",") if args.sets else None
    random.seed(0)
    env_best: dict = {"decisions_per_second": 0}
    direct_best: dict = {"decisions_per_second": 0}
    for _ in range(max(1, args.repeats)):
        env_run = run_env(args.seconds, args.players, sets)
        direct_run = run_direct(args.seconds, args.players, sets)
        if env_run["decisions_per_second"] > env_best["decisions_per_second"]:
            env_best = env_run
        if direct_run["decisions_per_second"] > direct_best["decisions_per_second"]:
            direct_best = direct_run
    ratio = round(env_best["decisions_per_second"] / direct_best["decisions_per_second"], 2)
    figures = {"env": env_best, "direct": direct_best, "ratio": ratio}
    if args.json:
        print(json.dumps(figures))
        return 0
    table = f"{args.players} seats, sets: {args.sets or 'every installed set'}"
    print(f"env (random masked actions): {env_best['decisions_per_second']:,} decisions/s")
    print(f"direct play (RandomAgent):   {direct_best['decisions_per_second']:,} decisions/s")
    print(f"ratio: {ratio} (target: at least 0.5; {table})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
