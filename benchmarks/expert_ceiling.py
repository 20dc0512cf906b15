"""What holds the expert back: its thinking time, or what it cannot see?

    python benchmarks/expert_ceiling.py [--games 300] [--seed 1] [--sets base]
                                        [--think MS ...] [--jobs N]

Plays one expert against three greedy bots on the same games (those of ``spoiler simulate
--games --seed``, through ``spoiler.simulate.run``) and prints its win rate, with a 95%
interval, for each ``--think`` given and once more for an expert that is *told every other
hand* (the deck order stays hidden). That last expert cheats, so it is never a bot
anyone can play: it is the ceiling that better reading of the other hands could reach, to
set beside what more thinking gives.
"""

from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ProcessPoolExecutor

from spoiler import search
from spoiler import simulate as sim

BOTS = ("expert", "greedy", "greedy", "greedy")


def _sees_every_hand(game, seat: int) -> dict[int, list[str]]:
    """In place of ``search.known_cards``: every other hand, as it really is."""
    return {p.seat: sorted(c.id for c in p.hand) for p in game.state.players if p.seat != seat}


def _tell_every_hand() -> None:
    """A worker's initializer: its experts are told every other hand."""
    search.known_cards = _sees_every_hand


def measure(plan: sim.Plan, jobs: int, sees_hands: bool = False) -> dict:
    start = time.perf_counter()
    # A pool of its own each time, so that a worker told every hand plays no honest game.
    with ProcessPoolExecutor(jobs, initializer=_tell_every_hand if sees_hands else None) as pool:
        games = sim.run(plan, pool, jobs)
    won = sum(0 in game["winners"] for game in games)
    low, high = sim.interval(won, len(games))
    return {
        "win_rate": won / len(games),
        "low": low,
        "high": high,
        "median_ms": sim.thinking(games)["expert"]["median_ms"],
        "seconds": time.perf_counter() - start,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sets", default="base", help="comma-separated set names")
    parser.add_argument("--think", type=float, nargs="+", default=[200.0])
    parser.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)))
    args = parser.parse_args()
    sets = tuple(args.sets.split(","))
    print(
        f"One expert against three greedy bots, sets {args.sets}, "
        f"{args.games} games of seed {args.seed}:"
    )
    runs = [(f"--think {t:g}", t, False) for t in args.think]
    runs.append((f"--think {args.think[0]:g}, told every other hand", args.think[0], True))
    for label, think, sees_hands in runs:
        plan = sim.Plan(args.games, BOTS, sets, args.seed, think_ms=think)
        r = measure(plan, args.jobs, sees_hands)
        print(
            f"  {label:<40} {100 * r['win_rate']:5.1f}% "
            f"({100 * r['low']:.1f} to {100 * r['high']:.1f}%), "
            f"median decision {r['median_ms']:.0f} ms, {r['seconds']:.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
