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
from functools import partial

import numpy as np

from spoiler import plugins
from spoiler.agents import RandomAgent
from spoiler.commands.play import new_game
from spoiler.env import raw_env
from spoiler.rules.game import Seat


def decisions(game) -> int:
    return sum(len(r["selections"]) + len(r["answers"]) for r in game.decisions)


def env_game(env, rng: np.random.Generator, seed: int) -> int:
    """One seeded game through the environment, random masked actions: its decisions."""
    env.reset(seed=seed)
    steps = 0
    for _agent in env.agent_iter():
        observation, _reward, termination, truncation, _info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        allowed = np.flatnonzero(observation["action_mask"])
        env.step(allowed[rng.integers(len(allowed))])
        steps += 1
    # The same count as direct play's: each step was one of the game's decisions.
    assert steps == decisions(env.game), "a step that was no decision"
    return steps


def direct_game(registry, players: int, sets: list[str] | None, seed: int) -> int:
    """The game of that seed played directly, RandomAgent in every seat: its decisions."""
    seats = [Seat(f"player_{i}", RandomAgent(seed, i), "random") for i in range(players)]
    game = new_game(registry, seats, sets, seed, 100)
    game.play()
    return decisions(game)


def run_env(seconds: float, players: int, sets: list[str] | None) -> dict:
    env = raw_env(players, sets)
    rng = np.random.default_rng(0)
    steps = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        steps += env_game(env, rng, games)
        games += 1
    elapsed = time.process_time() - start
    return {"decisions_per_second": round(steps / elapsed), "games": games}


def run_direct(seconds: float, players: int, sets: list[str] | None) -> dict:
    registry = plugins.load()
    count = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        count += direct_game(registry, players, sets, games)
        games += 1
    elapsed = time.process_time() - start
    return {"decisions_per_second": round(count / elapsed), "games": games}


def play_env(games: int, players: int, sets: list[str] | None) -> int:
    """Seeded games 0 .. games-1 through the environment: the decisions made."""
    env = raw_env(players, sets)
    rng = np.random.default_rng(0)
    # What callgrind counts (--instructions): what runs inside this reduce.
    return functools.reduce(lambda n, seed: n + env_game(env, rng, seed), range(games), 0)


def play_direct(games: int, players: int, sets: list[str] | None) -> int:
    """The same seeded games played directly: the decisions made."""
    registry = plugins.load()
    play = partial(direct_game, registry, players, sets)
    return functools.reduce(lambda n, seed: n + play(seed), range(games), 0)


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
    games = f", {args.games} games"
    return show(args, env_run, direct_run, ratio, "instructions_per_decision", games)


def show(args, env_run: dict, direct_run: dict, ratio: float, key: str, more: str = "") -> int:
    """The figures: one line of JSON (``--json``), or three lines of text."""
    if args.json:
        print(json.dumps({"env": env_run, "direct": direct_run, "ratio": ratio}))
        return 0
    unit = key.replace("_per_", "/")
    table = f"{args.players} seats, sets: {args.sets or 'every installed set'}{more}"
    print(f"env (random masked actions): {env_run[key]:,} {unit}")
    print(f"direct play (RandomAgent):   {direct_run[key]:,} {unit}")
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
    return show(args, env_best, direct_best, ratio, "decisions_per_second")


if __name__ == "__main__":
    sys.exit(main())
