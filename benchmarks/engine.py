"""Engine throughput: seeded 4-player games of the base set between random bots.

    python benchmarks/engine.py [--seconds 3] [--players 4] [--fast] [--json]
                                [--compare PYTHON ... [--repeat 3]]

Plays whole games (new seed each) until the time is up and reports rounds and games per
second. ``--fast`` plays them in fast mode (``spoiler.fast``, as ``spoiler simulate`` does)
and reports normal mode too, the plain loop of ``benchmarks/baseline_loop.py`` (a
plugin-free loop of the same round structure: the target is at least a quarter of its speed),
and the ratios. ``--json`` prints one line: {"rounds_per_second": …, "games_per_second": …,
"mean_rounds": …} (with ``--fast``, also "normal", "speed_up", "plain_loop" and
"of_plain_loop": fast mode's rounds per second over the plain loop's).

``--compare``: fast and normal mode side by side, run by each given Python (another
checkout's, or a venv with the compiled engine: docs/architecture.md, "The compiled engine")
and by this one, in turn, ``--repeat`` times, the order reversed every other time; it prints
each one's median figures and its normal mode's ratio to the first given.

Plugins load once, as ``spoiler play`` loads them; the timed part is only the games, in CPU
time of this process (so other work on a busy machine does not count against it).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

import baseline_loop  # (beside this script)
from side_by_side import interleaved

from spoiler import plugins
from spoiler.rules.game import Game, GameError, Seat
from spoiler.search.fast import FastGame


def run(
    seconds: float, players: int = 4, set_name: str = "base", seed: int = 0, fast: bool = False
) -> dict:
    registry = plugins.load()
    card_set = registry.card_sets([set_name])[0]
    hooks = registry.game_hooks([set_name])
    random_bot = registry.agents["random"].factory
    games = rounds = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        game_seed = seed + games
        seats = [Seat(f"P{i}", random_bot(i, game_seed)) for i in range(players)]
        game = (FastGame if fast else Game)([card_set], seats, game_seed, hooks=hooks)
        game.play()
        games += 1
        rounds += game.round
    elapsed = time.process_time() - start
    return {
        "rounds_per_second": round(rounds / elapsed),
        "games_per_second": round(games / elapsed, 1),
        "mean_rounds": round(rounds / games, 2),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--set", default="base", dest="set_name")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--fast", action="store_true", help="fast mode, against normal mode")
    parser.add_argument("--json", action="store_true", help="print one line of JSON")
    parser.add_argument("--compare", nargs="+", metavar="PYTHON", help="side by side with these")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each, with --compare")
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    if args.compare:
        return compare(args)
    try:
        figures = run(args.seconds, args.players, args.set_name, args.seed)
        if args.fast:
            fast = run(args.seconds, args.players, args.set_name, args.seed, fast=True)
            ratio = round(fast["rounds_per_second"] / figures["rounds_per_second"], 2)
            plain = baseline_loop.run(args.seconds)
            of_plain = round(fast["rounds_per_second"] / plain["rounds_per_second"], 3)
            figures = {
                **fast,
                "normal": figures,
                "speed_up": ratio,
                "plain_loop": plain,
                "of_plain_loop": of_plain,
            }
    except (LookupError, ValueError, GameError) as exc:
        print(f"engine benchmark: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(figures))
        return 0
    table = f"{args.players} random bots, set {args.set_name}"
    if args.fast:
        normal = figures["normal"]
        print(
            f"normal: {normal['rounds_per_second']:,} rounds/s, "
            f"{normal['games_per_second']:,} games/s ({table})"
        )
        plain = figures["plain_loop"]["rounds_per_second"]
        print(
            f"fast:   {figures['rounds_per_second']:,} rounds/s, "
            f"{figures['games_per_second']:,} games/s: {figures['speed_up']}x normal"
        )
        print(
            f"plain loop: {plain:,} rounds/s: fast mode is {figures['of_plain_loop']}x it, "
            f"normal mode {round(normal['rounds_per_second'] / plain, 3)}x"
        )
    else:
        print(
            f"{figures['rounds_per_second']:,} rounds/s, {figures['games_per_second']:,} games/s, "
            f"{figures['mean_rounds']} rounds per game ({table})"
        )
    return 0


def compare(args) -> int:
    """Fast and normal mode run by each given Python and by this one, in turn (the pure and
    the compiled engine, say): the median of each one's figures, and its ratio to the first."""
    pythons = [*args.compare, sys.executable]
    argv = ["--fast", "--json", "--seconds", str(args.seconds), "--players", str(args.players)]
    argv += ["--set", args.set_name, "--seed", str(args.seed)]
    try:
        runs = interleaved(__file__, pythons, argv, args.repeat)
    except RuntimeError as exc:
        print(f"engine benchmark: {exc}", file=sys.stderr)
        return 2

    def median(python: str, figure) -> float:
        return statistics.median(figure(run) for run in runs[python])

    first = median(pythons[0], lambda run: run["normal"]["rounds_per_second"])
    for python in pythons:
        normal = median(python, lambda run: run["normal"]["rounds_per_second"])
        fast = median(python, lambda run: run["rounds_per_second"])
        of_plain = median(python, lambda run: run["of_plain_loop"])
        print(
            f"normal {normal:8,.0f} rounds/s ({normal / first:.2f}x), fast {fast:8,.0f} "
            f"rounds/s, fast mode {of_plain:.3f}x the plain loop: {python}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
