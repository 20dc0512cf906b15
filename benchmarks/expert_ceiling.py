"""What holds the expert back: its thinking time, or what it cannot see?

    python benchmarks/expert_ceiling.py [--games 300] [--seed 1] [--sets base]
                                        [--think MS ...] [--explore OWN,OTHERS ...]
                                        [--no-cheats] [--jobs N]

Plays one expert against three greedy bots on the same games (those of ``spoiler simulate
--games --seed``, through ``spoiler.simulate.run``) and prints its win rate, with a 95%
interval, for each ``--think`` given; for each ``--explore`` pair, at the first ``--think``,
with its rollouts' own seat playing a random move at the rate OWN and the other seats at
OTHERS in place of greedy's (the expert's default: 0.1 and 0.1); then, unless
``--no-cheats``, twice more for experts that cheat (never bots anyone can play):

* *told every other hand* (the deck order stays hidden): the ceiling that better reading of
  the other hands could reach, to set beside what more thinking gives;
* *told all but the newest cards*: every card in the other hands except those drawn or dealt
  since the last round, the most that any reading of what players did could work out (what
  they did says nothing of a card they had not drawn yet).

Each run after the first is also set beside the first game by game: the games only one of
the two won, and the exact two-sided p-value (McNemar's test) of that split, the test to read
when two win rates on the same games differ by less than their intervals.
"""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from spoiler import search
from spoiler.session import simulate as sim

BOTS = ("expert", "greedy", "greedy", "greedy")


def _sees_every_hand(game, seat: int) -> dict[int, list[str]]:
    """In place of ``search.known_cards``: every other hand, as it really is."""
    return {p.seat: sorted(c.id for c in p.hand) for p in game.state.players if p.seat != seat}


def _sees_all_but_new_cards(game, seat: int) -> dict[int, list[str]]:
    """In place of ``search.known_cards``: the other hands less the cards drawn or dealt
    since the last round began (nothing at all in the first round)."""
    since = game.state.round - 1
    new = [e for e in game.state.log if e.kind in ("drew", "dealt") and e.round >= since]
    if any(e.kind == "dealt" for e in new):
        return {}
    known = {}
    for p in game.state.players:
        if p.seat != seat:
            hand = Counter(c.id for c in p.hand)
            hand.subtract(e.secret["card"] for e in new if e.seat == p.seat)
            known[p.seat] = sorted((+hand).elements())
    return known


def _tell_every_hand() -> None:
    """A worker's initializer: its experts are told every other hand."""
    search.known_cards = _sees_every_hand


def _tell_all_but_new_cards() -> None:
    """A worker's initializer: its experts are told the other hands but the newest cards."""
    search.known_cards = _sees_all_but_new_cards


def _explore(own: float, others: float) -> None:
    """A worker's initializer: its experts' rollouts explore at these rates."""
    from spoiler_game.bots.expert import ExpertAgent

    made = ExpertAgent.__init__

    def init(self, *args, **kwargs):
        made(self, *args, **kwargs)
        self.explore, self.explore_others = own, others

    ExpertAgent.__init__ = init


def mcnemar(first: list[bool], second: list[bool]) -> tuple[int, int, float]:
    """Games only ``first`` won, games only ``second`` won, and the exact two-sided p-value
    of that split were both equally strong."""
    only_first = sum(a and not b for a, b in zip(first, second, strict=True))
    only_second = sum(b and not a for a, b in zip(first, second, strict=True))
    return only_first, only_second, sim.sign_test(only_first, only_second)


def measure(plan: sim.Plan, jobs: int, setup=None, args: tuple = ()) -> dict:
    """The expert's figures over the plan's games (``setup``: a worker initializer)."""
    start = time.perf_counter()
    # A pool of its own each time, so that a worker that cheats plays no honest game.
    with ProcessPoolExecutor(jobs, initializer=setup, initargs=args) as pool:
        games = sim.run(plan, pool, jobs)
    wins = [0 in game["winners"] for game in games]
    won = sum(wins)
    low, high = sim.interval(won, len(games))
    return {
        "wins": wins,
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
    parser.add_argument("--explore", nargs="+", default=[], metavar="OWN,OTHERS")
    parser.add_argument("--no-cheats", action="store_true", help="only honest experts")
    parser.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)))
    args = parser.parse_args()
    try:
        explore = [tuple(float(rate) for rate in pair.split(",")) for pair in args.explore]
        if any(len(pair) != 2 or not all(0 <= r <= 1 for r in pair) for pair in explore):
            raise ValueError
    except ValueError:
        parser.error("--explore takes OWN,OTHERS pairs of rates from 0 to 1, e.g. 0,0.1")
    sets = tuple(args.sets.split(","))
    print(
        f"One expert against three greedy bots, sets {args.sets}, "
        f"{args.games} games of seed {args.seed}:"
    )
    first = args.think[0]
    runs = [(f"--think {t:g}", t, None, ()) for t in args.think]
    runs += [
        (
            f"--think {first:g}, rollouts explore {own:g} and {others:g}",
            first,
            _explore,
            (own, others),
        )
        for own, others in explore
    ]
    if not args.no_cheats:
        runs += [
            (f"--think {first:g}, told every other hand", first, _tell_every_hand, ()),
            (
                f"--think {first:g}, told all but the newest cards",
                first,
                _tell_all_but_new_cards,
                (),
            ),
        ]
    baseline = None
    for label, think, setup, setup_args in runs:
        plan = sim.Plan(args.games, BOTS, sets, args.seed, bot_options=(("think", f"{think:g}"),))
        r = measure(plan, args.jobs, setup, setup_args)
        print(
            f"  {label:<46} {100 * r['win_rate']:5.1f}% "
            f"({100 * r['low']:.1f} to {100 * r['high']:.1f}%), "
            f"median decision {r['median_ms']:.0f} ms, {r['seconds']:.0f} s",
            flush=True,
        )
        if baseline is None:
            baseline = r["wins"]
        else:
            only_first, only_this, p = mcnemar(baseline, r["wins"])
            print(
                f"    against the first: won {only_this} games it lost, lost {only_first} it won (p = {p:.2f})",
                flush=True,
            )


if __name__ == "__main__":
    main()
