"""Peak memory of a simulation against its number of games: ``spoiler simulate`` tallies each
batch where it is played, so its memory stays flat; keeping every game's summary (what it
did before, and what the ladder still does) grows with the games.

    python benchmarks/simulate_memory.py [--games 1000,10000,100000] [--jobs 2] [--modes tally,summaries]

Each run is a fresh process playing random bots, 2 players, the base set, in fast mode (the
cheapest games: their figures are not the point), through ``spoiler.session.simulate`` as
the command runs it (``run`` then ``report``), on ``--jobs`` processes. It prints the peak
resident set size (``getrusage`` ``ru_maxrss``) of the process that runs the simulation and
of its largest worker, and how much the first grew per game from the smallest run. A run
past ``--limit`` seconds is stopped and reported as such (100000 games take about 3 minutes
on one free core of the machines this project is tested on).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

#: What each measured process runs: a simulation, then its own and its workers' peak RSS.
CHILD = r"""
import json, resource, sys
from concurrent.futures import ProcessPoolExecutor
from spoiler.session import simulate as sim
games, jobs, tally = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "tally"
plan = sim.Plan(games, ("random", "random"), ("base",), seed=1, bot_key="memory")
sim.check(plan)
if jobs > 1:
    with ProcessPoolExecutor(jobs, initializer=sim.stop_between_games) as pool:
        played = sim.run(plan, pool, jobs, tally=tally)
else:
    played = sim.run(plan, tally=tally)
figures = sim.report(plan, played, ["base"])
assert figures["games"] == games
kib = 1 if sys.platform != "darwin" else 1 / 1024  # (macOS counts bytes)
print(json.dumps({
    "parent_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * kib,
    "worker_kib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * kib,
    "median": figures["length"]["median"],
}))
"""


def measure(games: int, jobs: int, mode: str, limit: float) -> dict | None:
    start = time.monotonic()
    try:
        done = subprocess.run(
            [sys.executable, "-c", CHILD, str(games), str(jobs), mode],
            capture_output=True,
            text=True,
            timeout=limit,
            check=True,
        )
    except subprocess.TimeoutExpired:
        return None
    figures = json.loads(done.stdout)
    figures["seconds"] = time.monotonic() - start
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="1000,10000,100000")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--modes", default="tally,summaries")
    parser.add_argument("--limit", type=float, default=240.0, help="seconds per run")
    args = parser.parse_args()
    counts = [int(n) for n in args.games.split(",")]
    for mode in args.modes.split(","):
        first: tuple[int, float] | None = None
        for games in counts:
            got = measure(games, args.jobs, mode, args.limit)
            if got is None:
                print(f"{mode:9} {games:>7} games: stopped after {args.limit:g} s")
                continue
            parent = got["parent_kib"] / 1024
            growth = ""
            if first is None:
                first = (games, parent)
            elif games > first[0]:
                per_game = (parent - first[1]) * 1024 / (games - first[0])
                growth = f", {per_game:.2f} KiB more per game than at {first[0]}"
            print(
                f"{mode:9} {games:>7} games: peak RSS {parent:.1f} MiB (simulation), "
                f"{got['worker_kib'] / 1024:.1f} MiB (largest worker){growth}; "
                f"{got['seconds']:.0f} s"
            )


if __name__ == "__main__":
    main()
