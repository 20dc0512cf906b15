"""Does more thinking make the expert stronger? Its win rate against three greedy bots at
several ``--think`` budgets, on the very same games.

    python benchmarks/think.py [--think 100 400] [--games 900] [--seed 1] [--bot-key 1]
                               [--sets base] [--jobs N]

Runs ``spoiler simulate --bots expert,greedy,greedy,greedy`` once per budget with the same
seed and bot key (so the same deals), and prints, for each, the expert's win rate with its
95% interval and the median and 95th percentile of its decision times. A seeded expert counts
its budget in rollouts, so the win rates depend only on the options, not on the machine or
the engine (pure or compiled); the times do.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys


def measure(think: float, args) -> dict:
    command = [sys.executable, "-m", "spoiler", "simulate", "--json"]
    command += ["--bots", "expert,greedy,greedy,greedy", "--sets", args.sets]
    command += ["--games", str(args.games), "--seed", str(args.seed)]
    command += ["--bot-key", args.bot_key, "--think", f"{think:g}", "--jobs", str(args.jobs)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    figures = json.loads(done.stdout)
    low, high = figures["win_rate_by_kind_95"]["expert"]
    timing = figures["decision_time"]["expert"]
    return {
        "think": think,
        "win_rate": figures["win_rate_by_kind"]["expert"],
        "low": low,
        "high": high,
        "median_ms": timing["median_ms"],
        "p95_ms": timing["p95_ms"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--think", type=float, nargs="+", default=[100.0, 400.0])
    parser.add_argument("--games", type=int, default=900)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot-key", default="1")
    parser.add_argument("--sets", default="base")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    print(f"One expert against three greedy bots, {args.games} games of seed {args.seed}:")
    for think in args.think:
        r = measure(think, args)
        print(
            f"  --think {think:<6g} {100 * r['win_rate']:5.1f}% "
            f"({100 * r['low']:.1f} to {100 * r['high']:.1f}%), decision median "
            f"{r['median_ms']:.0f} ms, p95 {r['p95_ms']:.0f} ms",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
