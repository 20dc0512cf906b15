"""Balance check for the base set: many seeded 4-player games between bots.

Reports win rate by starting priority (four random bots), win rate by bot kind (one greedy
bot against three random ones, the greedy bot's seat rotating), game length (median, 95th
percentile), the share of games that hit the round limit, and how often each card is played
and by the game's winners.

    python benchmarks/balance.py [--games 2000] [--seed 1] [--write-docs]

``--write-docs`` writes the tables into docs/balance.md. Every figure is reproducible from
``--games`` and ``--seed``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from spoiler import plugins
from spoiler.engine import Game, Seat

PLAYERS = 4
TARGETS = {
    "starting priority": "no position wins more than 35% of random-bot games",
    "median length": "4 to 15 rounds",
    "round limit": "under 1% of games",
    "greedy": "one greedy bot against three random ones wins more than 35%",
}
DOCS = Path(__file__).resolve().parent.parent / "docs" / "balance.md"


@dataclass
class Tally:
    games: int = 0
    lengths: list[int] = field(default_factory=list)
    results: Counter = field(default_factory=Counter)
    wins_by_position: Counter = field(default_factory=Counter)  # 1 = started 1st
    wins_by_kind: Counter = field(default_factory=Counter)
    seats_by_kind: Counter = field(default_factory=Counter)
    played: Counter = field(default_factory=Counter)
    played_by_winners: Counter = field(default_factory=Counter)

    def add(self, game: Game, kinds: list[str]) -> None:
        result = game.result
        self.games += 1
        self.lengths.append(result.round)
        self.results[result.kind] += 1
        self.seats_by_kind.update(kinds)
        start_order = next(e.data["order"] for e in game.state.log if e.kind == "priorities")
        for seat in result.winners:
            self.wins_by_position[start_order.index(seat) + 1] += 1
            self.wins_by_kind[kinds[seat]] += 1
        winners = set(result.winners)
        for record in game.decisions:
            for seat, selection in record["selections"].items():
                self.played[selection["card"]] += 1
                if seat in winners:
                    self.played_by_winners[selection["card"]] += 1

    def percentile(self, q: float) -> int:
        ordered = sorted(self.lengths)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def play_games(registry, card_set, games: int, seed: int, kinds_for, max_rounds: int) -> Tally:
    tally = Tally()
    hooks = registry.game_hooks([card_set.name])
    for n in range(games):
        game_seed = seed * 1_000_003 + n
        kinds = kinds_for(n)
        seats = [
            Seat(f"P{i + 1}", registry.agent(kind, i, game_seed), kind)
            for i, kind in enumerate(kinds)
        ]
        game = Game([card_set], seats, game_seed, max_rounds=max_rounds, hooks=hooks)
        game.play()
        tally.add(game, kinds)
    return tally


def pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def report(
    random_games: Tally, greedy_games: Tally, card_set, max_rounds: int
) -> tuple[str, list[str]]:
    """The Markdown tables, and the targets that were missed."""
    missed = []
    games = random_games.games
    lines = [
        f"### Four random bots ({games} games)",
        "",
        "| Starting priority | Wins | Win rate |",
        "|---|---:|---:|",
    ]
    for position in range(1, PLAYERS + 1):
        wins = random_games.wins_by_position[position]
        lines.append(f"| {position} | {wins} | {pct(wins, games)} |")
        if wins / games > 0.35:
            missed.append(f"starting priority {position} wins {pct(wins, games)}")
    lines += ["", "| Result | Games | Share |", "|---|---:|---:|"]
    for kind in ("win", "default", "all_lost", "draw"):
        lines.append(
            f"| {kind} | {random_games.results[kind]} | {pct(random_games.results[kind], games)} |"
        )
    median = statistics.median(random_games.lengths)
    p95 = random_games.percentile(0.95)
    draws = random_games.results["draw"]
    lines += [
        "",
        f"Game length: median {median:g} rounds, 95th percentile {p95} rounds, "
        f"longest {max(random_games.lengths)}; {pct(draws, games)} hit the round limit "
        f"of {max_rounds}.",
    ]
    if not 4 <= median <= 15:
        missed.append(f"median length {median:g} rounds")
    if draws / games >= 0.01:
        missed.append(f"{pct(draws, games)} of games hit the round limit")

    g = greedy_games
    lines += [
        "",
        f"### One greedy bot against three random bots ({g.games} games)",
        "",
        "| Bot kind | Seats | Wins | Win rate per seat |",
        "|---|---:|---:|---:|",
    ]
    for kind in ("greedy", "random"):
        lines.append(
            f"| {kind} | {g.seats_by_kind[kind]} | {g.wins_by_kind[kind]} | "
            f"{pct(g.wins_by_kind[kind], g.seats_by_kind[kind])} |"
        )
    if g.wins_by_kind["greedy"] / g.games <= 0.35:
        missed.append(f"greedy wins {pct(g.wins_by_kind['greedy'], g.games)}")
    lines += [
        "",
        f"Game length: median {statistics.median(g.lengths):g} rounds, "
        f"95th percentile {g.percentile(0.95)} rounds.",
        "",
    ]

    lines += [
        "### Cards played (four random bots)",
        "",
        "| Card | Copies | Played | Per game | Played by winners | Winners' share |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for card in sorted(card_set.cards, key=lambda c: c.name):
        played = random_games.played[card.id]
        by_winners = random_games.played_by_winners[card.id]
        lines.append(
            f"| {card.name} | {card.copies} | {played} | {played / games:.2f} | "
            f"{by_winners} | {pct(by_winners, played)} |"
        )
    return "\n".join(lines), missed


DOC_HEAD = """# Balance of the base set

Measured with `python benchmarks/balance.py --games {games} --seed {seed} --write-docs`
(this file is written by that command; every figure replays from the seed). Four players,
round limit {max_rounds}.

Targets:

{targets}

"""

DOC_TAIL = """
## Reading the tables

- *Starting priority* is the player's position in round 1. Priorities shift every round, so
  no position keeps its advantage, but a player who starts 1st is 1st again in round 5.
- *Winners' share* is the share of a card's plays made by a player who went on to win the
  game; a card far above the others (about 1 in 4 is neutral) is one that wins games.
- Random bots play each legal card with equal chance, so these figures measure the cards
  themselves; the greedy row measures how much choosing well is worth.
- The win cards (Jewel, Treasure, Crown) have the highest winners' share, as they should;
  every other card stays close to the neutral 25%, so no card decides games on its own.
  Losses come only from guesses and conditions (Accuse, Standoff, Ambush, Assassin), which
  keeps games long enough to play (median around 10 rounds) without running into the limit.
- To check a change to the set, run the command above and compare: the script exits with
  status 1 and names the missed targets when one is missed.
"""


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-rounds", type=int, default=100)
    parser.add_argument("--write-docs", action="store_true", help=f"write {DOCS.name}")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")

    registry = plugins.load()
    card_set = registry.sets.get("base")
    if card_set is None:
        print("balance: the base set is not installed", file=sys.stderr)
        return 2
    random_games = play_games(
        registry, card_set, args.games, args.seed, lambda n: ["random"] * PLAYERS, args.max_rounds
    )
    greedy_games = play_games(
        registry,
        card_set,
        args.games,
        args.seed + 1,
        lambda n: ["greedy" if i == n % PLAYERS else "random" for i in range(PLAYERS)],
        args.max_rounds,
    )
    tables, missed = report(random_games, greedy_games, card_set, args.max_rounds)
    print(tables)
    print()
    print("Targets missed: " + "; ".join(missed) if missed else "All targets met.")
    if args.write_docs:
        text = DOC_HEAD.format(
            games=args.games,
            seed=args.seed,
            max_rounds=args.max_rounds,
            targets="\n".join(f"- {k}: {v}" for k, v in TARGETS.items()),
        )
        text += (
            tables
            + "\n\n"
            + (
                "All targets are met.\n"
                if not missed
                else "Targets missed: " + "; ".join(missed) + ".\n"
            )
        )
        text += DOC_TAIL
        tmp = DOCS.with_suffix(".md.tmp")
        tmp.write_text(text)
        tmp.replace(DOCS)
        print(f"wrote {DOCS}")
    return 0 if not missed else 1


if __name__ == "__main__":
    sys.exit(main())
