"""What holds the expert back: its thinking time, or what it cannot see?

    python benchmarks/expert_ceiling.py [--games 300] [--first 0] [--seed 1] [--sets base]
                                        [--think MS ...] [--jobs N]

Plays one expert against three greedy bots on the same games (numbers ``--first`` to
``--first + --games - 1`` of ``spoiler simulate --seed``) and prints its win rate, with a
95% interval, for each ``--think`` given and once more for an expert that is *told every
other hand* (the deck order stays hidden). That last expert cheats, so it is never a bot
anyone can play: it is the ceiling that better reading of the other hands could reach, to
set beside what more thinking gives.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from spoiler import search
from spoiler import simulate as sim

BOTS = ("expert", "greedy", "greedy", "greedy")


def _sees_every_hand(game, seat: int) -> dict[int, list[str]]:
    """In place of ``search.known_cards``: every other hand, as it really is."""
    return {p.seat: sorted(c.id for c in p.hand) for p in game.state.players if p.seat != seat}


def _batch(plan: sim.Plan, numbers: range, sees_hands: bool) -> list[dict]:
    if sees_hands:
        search.known_cards = _sees_every_hand  # this worker process only
    return sim.play_batch(plan, numbers)


def measure(plan: sim.Plan, first: int, jobs: int, sees_hands: bool = False) -> dict:
    numbers = range(first, first + plan.games)
    batches = [numbers[i : i + 10] for i in range(0, len(numbers), 10)]
    start = time.perf_counter()
    # A fresh pool each time, so that a cheating worker never plays an honest batch.
    with ProcessPoolExecutor(jobs) as pool:
        games = [
            game
            for batch in pool.map(
                _batch, [plan] * len(batches), batches, [sees_hands] * len(batches)
            )
            for game in batch
        ]
    won = sum(0 in game["winners"] for game in games)
    low, high = sim.interval(won, len(games))
    times = [t for game in games for t in game["thinking"].get("expert", [])]
    return {
        "win_rate": won / len(games),
        "low": low,
        "high": high,
        "median_ms": statistics.median(times),
        "seconds": time.perf_counter() - start,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--first", type=int, default=0, help="the first game's number")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sets", default="base", help="comma-separated set names")
    parser.add_argument("--think", type=float, nargs="+", default=[200.0])
    parser.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)))
    args = parser.parse_args()
    sets = tuple(args.sets.split(","))
    games = f"games {args.first}-{args.first + args.games - 1} of seed {args.seed}"
    print(f"One expert against three greedy bots, sets {args.sets}, {games}:")
    runs = [(f"--think {t:g}", t, False) for t in args.think]
    runs.append((f"--think {args.think[0]:g}, told every other hand", args.think[0], True))
    for label, think, sees_hands in runs:
        plan = sim.Plan(args.games, BOTS, sets, args.seed, think_ms=think)
        r = measure(plan, args.first, args.jobs, sees_hands)
        print(
            f"  {label:<40} {100 * r['win_rate']:5.1f}% "
            f"({100 * r['low']:.1f} to {100 * r['high']:.1f}%), "
            f"median decision {r['median_ms']:.0f} ms, {r['seconds']:.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
