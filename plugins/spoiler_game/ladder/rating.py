"""The ladder's arithmetic: who sits where (``schedule``), each game's ranking (``ranking``),
the OpenSkill ratings and the head-to-head shares (``ladder``), and the figures as Markdown.

The games themselves are played by ``spoiler.session.simulate`` (``Plan.seating`` seats the
schedule), so a ladder plays on every core or on a cluster as a simulation does, and its
figures follow from the options alone.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import random
import shlex
from collections.abc import Sequence

from spoiler.session.simulate import sign_test

#: A block of the schedule seats each line-up of kinds once in every rotation; one with more
#: games than this (many kinds, many seats) seats windows of a shuffled ring instead.
MAX_BLOCK = 2000
#: OpenSkill's defaults (mu 25, sigma 25/3, beta 25/6), without the drift ``tau`` that lets a
#: rating move for a player who improves: a bot plays as well in its last game as in its first.
MU, SIGMA, BETA, TAU = 25.0, 25.0 / 3, 25.0 / 6, 0.0
#: The normal quantile of a 95% interval: mu +- Z sigma.
Z = 1.96


# ==============================================================================================
# The schedule
# ==============================================================================================
def lineups(kinds: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """The line-ups of one block, before rotation: every ``players``-subset of the kinds when
    there are enough kinds (and the block stays within MAX_BLOCK games), else the windows of
    ``players`` kinds around the ring ``kinds`` (wrapping round it when there are fewer kinds
    than seats, so a kind then takes several seats)."""
    k = len(kinds)
    if k >= players and math.comb(k, players) * players <= MAX_BLOCK:
        return list(itertools.combinations(kinds, players))
    return [tuple(kinds[(r + i) % k] for i in range(players)) for r in range(k)]


def block_size(kinds: int, players: int) -> int:
    """Games in one block of the schedule (see ``schedule``)."""
    if kinds >= players and math.comb(kinds, players) * players <= MAX_BLOCK:
        return math.comb(kinds, players) * players
    return kinds * players


def schedule(kinds: Sequence[str], players: int, games: int, seed: int) -> list[tuple[str, ...]]:
    """The kind in each seat of each game: blocks of games, each block every line-up of
    ``lineups`` in each of its ``players`` rotations, so that in every block each kind sits in
    every seat equally often, beside every kind it meets. Each block starts from the kinds in
    a new seeded order, and plays its games in a seeded order; the last block is cut short
    when ``games`` is not a multiple of its size."""
    rng = random.Random(int.from_bytes(hashlib.sha256(f"spoiler-ladder:{seed}".encode()).digest()))
    out: list[tuple[str, ...]] = []
    while len(out) < games:
        ring = list(kinds)
        rng.shuffle(ring)
        block = [
            lineup[c:] + lineup[:c] for lineup in lineups(ring, players) for c in range(players)
        ]
        rng.shuffle(block)
        out.extend(block)
    return out[:games]


def seat_counts(seating: Sequence[Sequence[str]], kinds: Sequence[str]) -> dict[str, list[int]]:
    """For each kind, how many games it sat in each seat."""
    players = len(seating[0]) if seating else 0
    counts = {kind: [0] * players for kind in kinds}
    for row in seating:
        for seat, kind in enumerate(row):
            counts[kind][seat] += 1
    return counts


# ==============================================================================================
# Ratings
# ==============================================================================================
def ranking(game: dict) -> dict[str, int]:
    """Each kind's place in a game (1 = first): the winners first, tied, everyone else tied
    below them; with no winner (a draw, or everyone lost) everyone ties. A kind with several
    seats is placed once, at its best seat: first if any of its seats won."""
    winners = set(game["winners"])
    places: dict[str, int] = {}
    for seat, kind in enumerate(game["bots"]):
        place = 1 if seat in winners or not winners else 2
        places[kind] = min(places.get(kind, place), place)
    return places


def ladder(kinds: Sequence[str], games: Sequence[dict]) -> dict:
    """Ratings and head-to-head shares from game summaries (``simulate.play_batch``), taken
    in game order: ``{"ratings": [...], "head_to_head": {...}}``, ratings best first."""
    from openskill.models import PlackettLuce

    model = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)
    rating = {kind: model.rating(name=kind) for kind in kinds}
    played = dict.fromkeys(kinds, 0)
    pairs = {a: {b: [0, 0, 0] for b in kinds if b != a} for a in kinds}  # ahead, behind, tied
    for game in games:
        places = ranking(game)
        order = list(places)
        for kind in order:
            played[kind] += 1
        for a, b in itertools.permutations(order, 2):
            pairs[a][b][0 if places[a] < places[b] else 1 if places[a] > places[b] else 2] += 1
        teams = model.rate([[rating[k]] for k in order], ranks=[float(places[k]) for k in order])
        for kind, (new,) in zip(order, teams, strict=True):
            rating[kind] = new
    ratings: list[dict] = [
        {
            "bot": kind,
            "mu": round(rating[kind].mu, 3),
            "sigma": round(rating[kind].sigma, 3),
            "low": round(rating[kind].mu - Z * rating[kind].sigma, 3),
            "high": round(rating[kind].mu + Z * rating[kind].sigma, 3),
            "games": played[kind],
        }
        for kind in kinds
    ]
    ratings.sort(key=lambda r: -r["mu"])
    head_to_head = {
        a: {
            b: {
                "games": sum(counts),
                "ahead": counts[0],
                "behind": counts[1],
                "tied": counts[2],
                "share": round(counts[0] / sum(counts), 4) if sum(counts) else 0.0,
                "p": float(f"{sign_test(counts[0], counts[1]):.3g}"),
            }
            for b, counts in row.items()
        }
        for a, row in pairs.items()
    }
    return {"ratings": ratings, "head_to_head": head_to_head}


RANK_BY_RANK = (
    "Rank by rank: of the games both played, how many each finished ahead of the next, and "
    "the sign test's p, the chance of a split at least that uneven between two kinds of the "
    "same strength (below 0.05: told apart)."
)


def rank_by_rank(figures: dict) -> list[str]:
    """For each kind and the one rated next below it, how their shared games split: a line
    each, with the sign test's p (are they told apart by the games one finished ahead?)."""
    order = [r["bot"] for r in figures["ratings"]]
    lines = []
    for above, below in itertools.pairwise(order):
        pair = figures["head_to_head"][above][below]
        told = "told apart" if pair["p"] < 0.05 else "not told apart"
        lines.append(
            f"{above} against {below}: ahead in {pair['ahead']} games, behind in "
            f"{pair['behind']} (p = {pair['p']:.2g}: {told})."
        )
    return lines


def clear_of(figures: dict, above: str, below: str) -> bool:
    """Whether ``above`` is rated above ``below`` by more than both intervals (its low end
    above the other's high end)."""
    rated = {r["bot"]: r for r in figures["ratings"]}
    return rated[above]["low"] > rated[below]["high"]


# ==============================================================================================
# A ladder as a simulation's plan, and its figures
# ==============================================================================================
def plan(
    kinds: Sequence[str],
    games: int,
    players: int,
    sets,
    seed: int,
    bot_options: dict[str, str] | None = None,
    bot_time_limit: float | None = None,
    bot_key: str | None = None,
):
    """The ``simulate.Plan`` that plays a ladder: ``schedule`` as its seating; every bot gets
    ``bot_options`` (``--bot-option``), under a kind's own ``@KEY=VALUE``, and a seed keyed by
    ``bot_key`` (``--bot-key``)."""
    from spoiler.session import simulate as sim

    seating = tuple(schedule(kinds, players, games, seed))
    return sim.Plan(
        games,
        tuple(kinds),
        sets,
        seed,
        bot_options=tuple((bot_options or {}).items()),
        seating=seating,
        bot_time_limit=bot_time_limit,
        bot_key=bot_key,
    )


def figures(plan, games: Sequence[dict], set_names: Sequence[str]) -> dict:
    """Everything ``spoiler ladder --json`` prints, from a ladder's plan (see ``plan``) and
    the summaries of its games in game order."""
    from spoiler.session import simulate as sim

    kinds = list(plan.bots)
    out = ladder(kinds, games)
    out["plan"] = {
        "bots": kinds,
        "games": plan.games,
        "players": plan.players,
        "sets": list(set_names),
        "seed": plan.seed,
        "bot_key": plan.bot_key,
        "max_rounds": plan.max_rounds,
        "bot_options": dict(plan.bot_options),
        "bot_time_limit": plan.bot_time_limit,
        "schedule": {
            "block": block_size(len(kinds), plan.players),
            "seats": seat_counts(plan.seating, kinds),
        },
        "model": {
            "name": "PlackettLuce",
            "mu": MU,
            "sigma": round(SIGMA, 4),
            "beta": round(BETA, 4),
            "tau": TAU,
            "interval": 0.95,
        },
    }
    out["results"] = {
        k: sum(g["kind"] == k for g in games) for k in ("win", "default", "all_lost", "draw")
    }
    out["decision_time"] = sim.thinking(list(games))
    return out


# ==============================================================================================
# Markdown (docs/balance.md)
# ==============================================================================================
def command(plan: dict) -> str:
    """The `spoiler ladder` command line of a plan (as ``--json`` reports it)."""
    parts = [
        "spoiler ladder",
        f"--bots {','.join(plan['bots'])}",
        f"--games {plan['games']}",
        f"--players {plan['players']}",
    ]
    parts.append(f"--sets {','.join(plan['sets'])}")
    parts.append(f"--seed {plan['seed']}")
    if plan.get("bot_key") is not None:
        parts.append(f"--bot-key {plan['bot_key']}")
    for key, value in (plan.get("bot_options") or {}).items():
        parts.append(f"--bot-option {shlex.quote(f'{key}={value}')}")
    if plan.get("bot_time_limit") is not None:
        parts.append(f"--bot-time-limit {plan['bot_time_limit']:g}")
    return " ".join(parts)


def markdown(title: str, figures: dict) -> str:
    """A ladder's figures as a Markdown section: the ratings, then the head-to-head shares."""
    plan = figures["plan"]
    lines = [f"### {title}", "", f"`{command(plan)}`", ""]
    lines += [
        "| Rank | Bot | mu | sigma | 95% interval | Games |",
        "|---:|---|---:|---:|---:|---:|",
    ]
    for rank, r in enumerate(figures["ratings"], 1):
        lines.append(
            f"| {rank} | {r['bot']} | {r['mu']:.2f} | {r['sigma']:.2f} | "
            f"{r['low']:.2f} to {r['high']:.2f} | {r['games']} |"
        )
    order = [r["bot"] for r in figures["ratings"]]
    lines += [
        "",
        "Head to head: of the games both played, the share the row's bot finished ahead of "
        "the column's (the rest: behind, or tied).",
        "",
        "| | " + " | ".join(order) + " |",
        "|---|" + "---:|" * len(order),
    ]
    h2h = figures["head_to_head"]
    for a in order:
        cells = ["-" if a == b else f"{100 * h2h[a][b]['share']:.1f}%" for b in order]
        lines.append(f"| {a} | " + " | ".join(cells) + " |")
    lines += ["", RANK_BY_RANK, ""] + [f"- {line}" for line in rank_by_rank(figures)]
    spent = figures.get("decision_time") or {}
    if spent:
        lines.append("")
        lines += [
            f"{kind}: {t['median_ms']:g} ms per decision (median, CPU time), "
            f"{t['decisions']} decisions."
            for kind, t in spent.items()
        ]
    return "\n".join(lines) + "\n"
