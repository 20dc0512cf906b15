"""Writes docs/balance.md: `spoiler simulate` for the base set and for every shipped set.

    python benchmarks/balance.py [--games 2000] [--expert-games 200] [--seed 1] [--jobs N]
                                 [--write-docs]

A thin wrapper: each table is one `spoiler simulate` run (``spoiler.simulate``), and the file
names the command that gives each, so any of them can be checked by hand. Prints the
Markdown; ``--write-docs`` also writes docs/balance.md.
"""

from __future__ import annotations

import argparse
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from spoiler.session import simulate as sim

DOCS = Path(__file__).resolve().parent.parent / "docs" / "balance.md"
SHIPPED = ("base", "chrono", "mirror")
#: The markers around the section benchmarks/ladder.py writes.
LADDER_BEGIN, LADDER_END = "<!-- ladder: written by benchmarks/ladder.py", "<!-- /ladder -->"

HEAD = """# Balance

Written by `python benchmarks/balance.py --games {games} --expert-games {expert} --seed {seed}
--write-docs`: each table below is one `spoiler simulate` run, whose command it names (every
figure replays from it, whatever `--jobs`). Four players, round limit 100. How to read the
figures: [simulate.md](simulate.md).

Targets: no starting priority wins more than 35% of random-bot games; median game length 4 to
15 rounds; under 1% of games at the round limit; one greedy bot wins more than 35% against
three random ones; one expert wins at least 35% against three greedy bots with every shipped
set (25% is an equal share). The base set's expert target of 40% against three greedy bots is
withdrawn: with fair information (the expert sees only its own view) it is out of reach, so
the figure below is reported as it is, and the expert is now measured on the ladder instead
([The expert on the ladder](#the-expert-on-the-ladder)).
"""


#: The bot key of every run (``--bot-key``), fixed so that the command each table names plays
#: its games again (a run without one draws a key at random).
KEY = "balance"


def plans(games: int, expert: int, seed: int) -> list[tuple[str, sim.Plan, bool]]:
    base, every = ("base",), SHIPPED
    return [
        (
            "Base set: four random bots",
            sim.Plan(games, ("random",) * 4, base, seed, bot_key=KEY),
            True,
        ),
        (
            "Base set: one greedy bot against three random bots",
            sim.Plan(games, ("greedy", "random", "random", "random"), base, seed, bot_key=KEY),
            False,
        ),
        (
            "Base set: one expert against three greedy bots",
            sim.Plan(expert, ("expert", "greedy", "greedy", "greedy"), base, seed, bot_key=KEY),
            False,
        ),
        (
            "Every shipped set: four random bots",
            sim.Plan(games, ("random",) * 4, every, seed, bot_key=KEY),
            True,
        ),
        (
            "Every shipped set: one expert against three greedy bots",
            sim.Plan(expert, ("expert", "greedy", "greedy", "greedy"), every, seed, bot_key=KEY),
            False,
        ),
    ]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--expert-games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)))
    parser.add_argument("--write-docs", action="store_true", help=f"write {DOCS.name}")
    args = parser.parse_args(argv)
    sections = [HEAD.format(games=args.games, expert=args.expert_games, seed=args.seed)]
    with ProcessPoolExecutor(args.jobs) as pool:
        for title, plan, cards in plans(args.games, args.expert_games, args.seed):
            try:
                sim.check(plan)
            except sim.PlanError as exc:
                print(f"balance: {exc}", file=sys.stderr)
                return 2
            print(f"{title} ...", file=sys.stderr)
            games = sim.run(plan, pool, args.jobs)
            names = list(plan.sets or ())
            alone = sim.sets_alone(names, plan.seed, plan.max_rounds, plan.players)
            sections.append(sim.markdown(title, plan, sim.report(plan, games, names, alone), cards))
    text = "\n".join(sections)
    print(text)
    if args.write_docs and DOCS.exists():
        # The expert on the ladder (benchmarks/ladder.py writes it) stays as it is.
        old = DOCS.read_text()
        start, end = old.find(LADDER_BEGIN), old.find(LADDER_END)
        if 0 <= start < end:
            text = text.rstrip() + "\n\n" + old[start : end + len(LADDER_END)] + "\n"
    if args.write_docs:
        tmp = DOCS.with_suffix(".md.tmp")
        tmp.write_text(text)
        tmp.replace(DOCS)
        print(f"wrote {DOCS}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
