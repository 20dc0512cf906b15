"""`spoiler simulate` throughput: games per second and CPU time per game, by --jobs.

    python benchmarks/simulate.py [--games 2000] [--bots random] [--sets base] [--jobs 1 2]
                                  [--think MS] [--json]

Runs the same simulation once per --jobs value (a process pool, as `spoiler simulate` does;
--jobs 1 plays in this process) and prints, for each, games per second of wall-clock time
and CPU seconds per game of this process and its children (on a shared machine the CPU
figure is the one to compare), and checks the figures are the same for every --jobs.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from spoiler.session import simulate as sim


def cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def measure(plan: sim.Plan, jobs: int) -> tuple[dict, list]:
    start_wall, start_cpu = time.perf_counter(), cpu()
    if jobs == 1:
        games = sim.run(plan)
    else:
        with ProcessPoolExecutor(jobs) as pool:
            games = sim.run(plan, pool, jobs)
    wall, used = time.perf_counter() - start_wall, cpu() - start_cpu
    return {
        "jobs": jobs,
        "games_per_second": round(plan.games / wall, 1),
        "cpu_ms_per_game": round(1000 * used / plan.games, 2),
    }, games


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--bots", default="random")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--sets", default="base")
    parser.add_argument("--think", type=float, default=None)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    kinds = tuple(args.bots.split(","))
    if len(kinds) == 1:
        kinds *= args.players
    think = (("think", f"{args.think:g}"),) if args.think is not None else ()
    plan = sim.Plan(args.games, kinds, tuple(args.sets.split(",")), 0, 100, think)
    try:
        sim.check(plan)
    except sim.PlanError as exc:
        print(f"simulate benchmark: {exc}", file=sys.stderr)
        return 2
    rows, results = [], []
    for jobs in args.jobs:
        row, games = measure(plan, jobs)
        rows.append(row)
        results.append(games)
    # Thinking times are a measure of the machine; everything else must be the same.
    plays = [[{k: v for k, v in g.items() if k != "thinking"} for g in r] for r in results]
    same = all(p == plays[0] for p in plays)
    if args.json:
        print(json.dumps({"runs": rows, "same_games": same}))
        return 0
    for row in rows:
        print(
            f"--jobs {row['jobs']}: {row['games_per_second']:,} games/s, "
            f"{row['cpu_ms_per_game']} ms CPU per game ({args.games} games, {args.bots}, "
            f"{args.sets})"
        )
    print("same games for every --jobs" if same else "GAMES DIFFER between --jobs values")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
