"""The PettingZoo environment's speed against direct play: decisions per second.

    python benchmarks/env.py [--seconds 3] [--players 4] [--sets NAMES] [--repeats 3] [--json]
    python benchmarks/env.py --instructions [--games 20] [--players 4] [--sets NAMES] [--json]

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

``--instructions`` counts CPU instructions instead (valgrind's callgrind), which a busy
machine does not change: each side plays ``--games`` seeded games (seeds 0, 1, ...) in a
process of its own under callgrind, and only the games are counted (what runs inside one
``functools.reduce`` call), not the start-up. The figure is instructions per decision.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import re
import shutil
import subprocess
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


def play_env(games: int, players: int, sets: list[str] | None) -> int:
    """Seeded games through the environment, random masked actions: the decisions made."""
    env = raw_env(players, sets)
    rng = np.random.default_rng(0)

    def game(steps: int, seed: int) -> int:
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            observation, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            allowed = np.flatnonzero(observation["action_mask"])
            env.step(allowed[rng.integers(len(allowed))])
            steps += 1
        return steps

    return functools.reduce(game, range(games), 0)  # what callgrind counts


def play_direct(games: int, players: int, sets: list[str] | None) -> int:
    """The same seeded games played directly, RandomAgent in every seat: the decisions."""
    registry = plugins.load()

    def game(count: int, seed: int) -> int:
        seats = [Seat(f"player_{i}", RandomAgent(seed, i), "random") for i in range(players)]
        played = new_game(registry, seats, sets, seed, 100)
        played.play()
        return count + decisions(played)

    return functools.reduce(game, range(games), 0)  # what callgrind counts


def count_instructions(side: str, args: argparse.Namespace) -> dict:
    """One side's games in a process of its own under callgrind: instructions per decision."""
    command = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        "--toggle-collect=functools_reduce",  # the games alone, not the start-up
        sys.executable,
        __file__,
        "--inside",
        side,
        "--games",
        str(args.games),
        "--players",
        str(args.players),
    ]
    if args.sets:
        command += ["--sets", args.sets]
    run = subprocess.run(command, capture_output=True, text=True, check=False)
    collected = re.search(r"Collected : ([\d,]+)", run.stderr)
    if run.returncode or collected is None:
        raise SystemExit(f"benchmarks/env.py: the {side} run under callgrind failed")
    count = int(run.stdout.split()[-1])
    total = int(collected.group(1).replace(",", ""))
    return {"instructions_per_decision": round(total / count), "decisions": count}


def instructions(args: argparse.Namespace) -> int:
    if shutil.which("valgrind") is None:
        print("benchmarks/env.py: --instructions needs valgrind", file=sys.stderr)
        return 1
    env_run, direct_run = (count_instructions(side, args) for side in ("env", "direct"))
    # Decisions per second go as 1 / instructions per decision.
    ratio = round(direct_run["instructions_per_decision"] / env_run["instructions_per_decision"], 2)
    figures = {"env": env_run, "direct": direct_run, "ratio": ratio}
    if args.json:
        print(json.dumps(figures))
        return 0
    table = f"{args.players} seats, sets: {args.sets or 'every installed set'}, {args.games} games"
    print(
        f"env (random masked actions): {env_run['instructions_per_decision']:,} instructions/decision"
    )
    print(
        f"direct play (RandomAgent):   {direct_run['instructions_per_decision']:,} instructions/decision"
    )
    print(f"ratio: {ratio} (target: at least 0.5; {table})")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per run")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--sets", help="comma-separated set names (default: every set)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="print one line of JSON")
    parser.add_argument(
        "--instructions", action="store_true", help="count instructions (callgrind), not time"
    )
    parser.add_argument("--games", type=int, default=20, help="per side, with --instructions")
    parser.add_argument("--inside", choices=["env", "direct"], help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    sets = args.sets.split(",") if args.sets else None
    if args.inside:  # one side's games, run under callgrind by --instructions
        play = play_env if args.inside == "env" else play_direct
        print(play(args.games, args.players, sets))
        return 0
    if args.instructions:
        return instructions(args)
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
