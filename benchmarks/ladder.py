"""The expert on the ladder: `spoiler ladder` of random, greedy, expert and expert thinking
four times as long, on the base set alone and with every shipped set (docs/balance.md).

    python benchmarks/ladder.py [--games 120] [--seed 1] [--jobs 1] [--json FILE]
                                [--games-file FILE] [--only base|all] [--write-docs]

Each table is one `spoiler ladder` run (``spoiler_game.ladder.rating``), and its section names
the command that gives it, so any of them can be checked by hand: the figures replay from
it, whatever ``--jobs``. Prints the Markdown; ``--write-docs`` also writes it into
docs/balance.md, between the ladder markers (the rest of the file, which
benchmarks/balance.py writes, is left as it is). The target it checks: the expert rated
above greedy by more than both intervals (its low end above greedy's high end) on every set
combination.

Expert games are slow: a decision is ``DEFAULT_THINK_MS`` of rollouts (about 100-250 ms of
one core), four times that for the 4x expert, and every game seats both: the 1,500 games of
the base set took 92 minutes of one core (3.7 s a game), the other sets' games longer.

A ladder long enough to decide the target takes hours, so ``--games-file FILE`` keeps every
game's summary there, written again after each batch: a run plays only the games the file
does not hold yet and goes on where an earlier one stopped (Ctrl-C, a session's end), and a
file that holds them all is rated without playing anything. A game's seating and seeds depend
on its number alone (the schedule is the same for any ``--games``), so the first K games of
a longer ladder are the K-game ladder: a file partway through prints that ladder's table,
marked as the games so far. ``--only`` plays one set combination.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from spoiler.session import simulate as sim
from spoiler_game.bots.expert import DEFAULT_THINK_MS
from spoiler_game.ladder import rating

#: The bot key of every ladder (``--bot-key``), fixed so that the command each table names
#: plays its games again (a ladder without one draws a key at random).
KEY = "ladder"

DOCS = Path(__file__).resolve().parent.parent / "docs" / "balance.md"
BEGIN = "<!-- ladder: written by benchmarks/ladder.py --write-docs; do not edit by hand -->"
END = "<!-- /ladder -->"
KINDS = ("random", "greedy", "expert", f"expert@think={4 * DEFAULT_THINK_MS:g}")
#: Each set combination: its name for ``--only``, its title and its sets.
COMBINATIONS = (
    ("base", "Base set alone", ("base",)),
    ("all", "Every shipped set", ("base", "chrono", "mirror")),
)

HEAD = """## The expert on the ladder

Written by `python benchmarks/ladder.py {arguments} --write-docs`: each
table is one `spoiler ladder` run, whose command it names (every figure replays from it,
whatever `--jobs`). Four players a game, the four kinds {kinds}: each game seats each kind
once, and the schedule puts each in every seat equally often. The expert thinks
{think:g} ms a decision (its default), `{strong}` four times as long (both counted in
rollouts, so the games replay). How to read a ladder: [bots.md](bots.md#rating-bots-spoiler-ladder).

Target: the expert rated above greedy by more than both intervals (the expert's low end above
greedy's high end) on every set combination. This replaces the single win rate above (one
expert against three greedy bots), whose 40% target is withdrawn: with fair information (the
expert sees only its own view) it is out of reach, and one win rate against one opponent
cannot rank bots anyway.
"""

#: Why a short ladder cannot tell the expert from greedy, and how long one that can would take.
NOT_YET = """

Why the intervals are so wide: most four-player games have one winner and rank the other
three level, so each game tells the ratings little, and sigma shrinks only as one over the
square root of the games (about 4 at 64 games, about 1 at 1,500). At 1,500 games the
expert is 0.8 mu above greedy on the base set and 2.4 above with every set, with intervals
of about ±1.9 each: apart, they would need a sigma near 0.2 on the base set (some 35,000
games) and near 0.6 with every set (some 4,000). Four times the budget is 2.5 mu above
greedy on the base set and 2.9 with every set: more thinking buys little, so what would
reach the target is a stronger search, not a longer one.

The ratings are the target's test, but not the sharpest reading of these games. The sign test
compares two kinds on the very games they both played (each game seats all four), counting
the games one finished ahead of the other; the ratings pool every game against every kind,
and most games rank three players level, which tells them little. By the sign test the expert
is stronger than greedy with every set, by far, but not on the base set alone (the lines
above), and four times the budget is stronger than the default on both, if by little. So,
measured fairly (each bot sees only its own view), the default expert is stronger than greedy
once the expansions are in and only a little ahead on the base set alone; it is not tuned to
reach the target."""


def verdict(results: list[tuple[str, dict]]) -> str:
    lines = ["", "#### Does the target hold?", ""]
    held = True
    for title, figures in results:
        rated = {r["bot"]: r for r in figures["ratings"]}
        expert, greedy = rated["expert"], rated["greedy"]
        ok = rating.clear_of(figures, "expert", "greedy")
        held &= ok
        pair = figures["head_to_head"]["expert"]["greedy"]
        lines.append(
            f"- {title}: expert {expert['mu']:.2f} ({expert['low']:.2f} to {expert['high']:.2f}), "
            f"greedy {greedy['mu']:.2f} ({greedy['low']:.2f} to {greedy['high']:.2f}): "
            + (
                "**held**, the intervals are apart."
                if ok
                else "**not held**: the intervals overlap."
            )
            + f" Head to head the expert finished ahead of greedy in {pair['ahead']} games and "
            f"behind in {pair['behind']}: p = {pair['p']:.2g} by the sign test, "
            + ("told apart." if pair["p"] < 0.05 else "not told apart.")
        )
    lines += [
        "",
        "The target holds on every set combination."
        if held
        else "The target does not hold at this number of games." + NOT_YET,
    ]
    return "\n".join(lines) + "\n"


def write_docs(text: str) -> None:
    """Put ``text`` between the ladder markers of docs/balance.md (at its end if absent)."""
    old = DOCS.read_text(encoding="utf-8")
    block = f"{BEGIN}\n\n{text.rstrip()}\n\n{END}\n"
    if BEGIN in old and END in old:
        start, end = old.index(BEGIN), old.index(END) + len(END) + 1
        new = old[:start] + block + old[end:]
    else:
        new = old.rstrip() + "\n\n" + block
    tmp = DOCS.with_suffix(".md.tmp")
    tmp.write_text(new, encoding="utf-8")
    tmp.replace(DOCS)


def load_games(path: Path | None, seed: int) -> dict:
    """The games file (gzipped JSON): ``{"seed", "key", "kinds", and each combination's title:
    what the ladder reads of its games 0, 1, ... in order}`` (an empty one when absent)."""
    if path is None or not path.exists():
        return {"seed": seed, "key": KEY, "kinds": list(KINDS)}
    stored = json.loads(gzip.decompress(path.read_bytes()))
    if (stored.get("seed"), stored.get("key"), stored.get("kinds")) != (seed, KEY, list(KINDS)):
        raise SystemExit(f"ladder: {path} holds another ladder (seed, bot key or kinds)")
    return stored


def save_games(path: Path, stored: dict) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    data = json.dumps(stored, separators=(",", ":")).encode()
    tmp.write_bytes(gzip.compress(data, mtime=0))
    tmp.replace(path)


def kept(summary: dict) -> dict:
    """What the ladder reads of a game's summary: the seats' kinds, how it ended and the
    decision times (to the tally's step); not the cards played."""
    out = {k: summary[k] for k in ("number", "bots", "start", "kind", "winners", "rounds")}
    out["thinking"] = {
        kind: [round(ms, 2) for ms in times] for kind, times in summary["thinking"].items()
    }
    return out


def play_missing(plan, games: list, pool, jobs: int, save) -> None:
    """Play the plan's games after those in ``games``, a batch per worker at a time, adding
    each batch's summaries in game order and calling ``save()`` after each."""
    size = 4
    while len(games) < plan.games:
        starts = range(len(games), plan.games, size)[: max(1, jobs)]
        numbers = [range(start, min(plan.games, start + size)) for start in starts]
        if pool is None:
            batches = [sim.play_batch(plan, n) for n in numbers]
        else:
            batches = list(pool.map(sim.play_batch, [plan] * len(numbers), numbers))
        for batch in batches:
            games.extend(kept(g) for g in batch)
        save()
        print(f"  {len(games)} of {plan.games} games", file=sys.stderr, flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=120, help="games per set combination")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write every ladder's figures here")
    parser.add_argument(
        "--games-file",
        type=Path,
        help="keep every game's summary here; play only the games it does not hold yet",
    )
    parser.add_argument(
        "--only", choices=["base", "all"], help="one set combination: the base set, or every set"
    )
    parser.add_argument("--write-docs", action="store_true", help=f"write into {DOCS.name}")
    args = parser.parse_args(argv)
    stored = load_games(args.games_file, args.seed)

    def save() -> None:
        if args.games_file is not None:
            save_games(args.games_file, stored)

    results = []
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    try:
        for only, title, sets in COMBINATIONS:
            if args.only not in (None, only):
                continue
            plan = rating.plan(KINDS, args.games, 4, sets, args.seed, bot_key=KEY)
            try:
                sim.check(plan)
            except sim.PlanError as exc:
                print(f"ladder: {exc}", file=sys.stderr)
                return 2
            games = stored.setdefault(title, [])
            del games[args.games :]  # a file from a longer ladder: its first games
            if len(games) < args.games:
                print(f"{title}: {args.games - len(games)} games to play ...", file=sys.stderr)
                started = time.monotonic()
                try:
                    play_missing(plan, games, pool, args.jobs, save)
                except KeyboardInterrupt:
                    print(f"{title}: stopped at {len(games)} games", file=sys.stderr)
                print(f"{title}: {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
            if not games:
                continue
            # The games so far are the ladder of that many games (the schedule's first rows).
            played = rating.plan(KINDS, len(games), 4, sets, args.seed, bot_key=KEY)
            summaries = [{**g, "plays": ()} for g in games]
            results.append((title, rating.figures(played, summaries, sets), len(games)))
    finally:
        if pool is not None:
            pool.shutdown()
    if not results:
        return 0
    sections = [
        HEAD.format(
            arguments=f"--games {args.games} --seed {args.seed}"
            + (f" --only {args.only}" if args.only else "")
            + (f" --games-file {args.games_file}" if args.games_file else ""),
            kinds=", ".join(f"`{k}`" for k in KINDS),
            think=DEFAULT_THINK_MS,
            strong=KINDS[-1],
        )
    ]
    for title, figures, count in results:
        if count < args.games:
            title += f" (the first {count} of {args.games} games)"
        sections.append(rating.markdown(title, figures))
    for only, title, _sets in COMBINATIONS:
        if args.only not in (None, only):
            held = len(stored.get(title, []))
            sections.append(
                f"### {title}\n\nNot in this run (`--only {args.only}`); "
                f"its games file holds {held} of {args.games} games so far.\n"
            )
    sections.append(verdict([(title, figures) for title, figures, _ in results]))
    text = "\n".join(sections)
    print(text)
    if args.json is not None:
        figures = {title: figures for title, figures, _ in results}
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    if args.write_docs:
        write_docs(text)
        print(f"wrote {DOCS}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
