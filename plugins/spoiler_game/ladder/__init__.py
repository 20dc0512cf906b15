"""``spoiler ladder``: bot kinds rated against each other from free-for-all games (OpenSkill,
Plackett-Luce), with head-to-head shares (see docs/bots.md, "Rating bots: spoiler ladder").

The games are a simulation's (``spoiler.session.simulate``) on a seeded schedule
(``spoiler_game.ladder.rating.schedule``), so they play on every core or on a Dask cluster.
"""

import typer

from spoiler.commands.common import (
    bot_key_flag,
    bot_option_flag,
    bot_settings,
    bot_time_limit_flag,
    checked_key,
    cluster_flag,
    console,
    fail,
    jobs_flag,
    names_of,
    think_flag,
)
from spoiler.commands.completion import complete_bots, complete_sets
from spoiler.commands.group import command_app, examples

app = command_app()


@app.command(
    short_help="Rate bot kinds against each other from many games of bots.",
    epilog=examples(
        "spoiler ladder --bots random,greedy --games 400",
        "spoiler ladder --bots greedy,expert,expert@think=800 --sets base --games 200",
        'spoiler ladder --bots "greedy,exec:python3 my_bot.py" --players 2 --json',
        "spoiler ladder --games 2000 --cluster tcp://10.0.0.5:8786",
    ),
)
def ladder(
    bots: list[str] = typer.Option(
        ["random,greedy,expert"],
        "--bots",
        metavar="KINDS",
        help="The bot kinds to rate, comma-separated or repeated, at least two: installed kinds, "
        "exec:COMMAND, or a kind with options of its own, which win over --bot-option "
        "(expert@think=800).",
        autocompletion=complete_bots,
    ),
    games: int = typer.Option(200, "--games", metavar="N", help="Number of games."),
    players: int = typer.Option(4, "--players", metavar="N", help="Players per game, 2 to 8."),
    sets: list[str] | None = typer.Option(
        None,
        "--sets",
        metavar="NAMES",
        help="Card sets, comma-separated or repeated. Default: all installed.",
        autocompletion=complete_sets,
    ),
    seed: int | None = typer.Option(
        None,
        "--seed",
        metavar="N",
        help="Seed of the schedule and of every game. Default: drawn at random (64 bits) "
        "and printed.",
    ),
    bot_key: str | None = bot_key_flag(
        "Default: drawn at random and printed; give a ladder's key (and seed) to play its "
        "games again."
    ),
    bot_option: list[str] | None = bot_option_flag(),
    think: float | None = think_flag(),
    bot_time_limit: float | None = bot_time_limit_flag(),
    jobs: int | None = jobs_flag(),
    cluster: str | None = cluster_flag(),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as one JSON object."),
) -> None:
    """Rate bot kinds from free-for-all games: a seeded schedule seats every kind in every
    seat, against every other; each game ranks its winners first (tied) and everyone else
    below them (tied), and OpenSkill (Plackett-Luce) turns the rankings into ratings: mu,
    sigma and a 95% interval. Also shows, for each pair of kinds, how often each finished
    ahead of the other, and for each kind and the next below it, whether their shared games
    tell them apart (a sign test's p).

    Every figure follows from the options alone: the same whatever --jobs or --cluster."""
    from spoiler.rules.game import MAX_PLAYERS, MIN_PLAYERS
    from spoiler.session import simulate as sim

    kinds = names_of(bots, "--bots", "kind", unique=False) or []
    twice = sorted({k for k in kinds if kinds.count(k) > 1})
    if twice:
        fail(f"--bots names {twice[0]!r} twice; name each kind once (it may take several seats)")
    if len(kinds) < 2:
        fail(f"--bots names one kind ({kinds[0]}); a ladder rates two kinds or more")
    if games < 1:
        fail(f"--games must be at least 1, not {games}")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        fail(f"Spoiler is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    listed = names_of(sets, "--sets")
    set_names = tuple(listed) if listed is not None else None
    if jobs is not None and jobs < 1:
        fail(f"--jobs must be at least 1, not {jobs}")
    if jobs is not None and cluster is not None:
        fail("--jobs and --cluster do not go together: a cluster has its own workers")
    try:
        import openskill  # noqa: F401
    except ImportError:
        from spoiler.installer import install_hint

        fail(
            f"spoiler ladder needs OpenSkill: install it with: {install_hint('spoiler-game[ladder]')}"
        )
    from spoiler_game.ladder import rating

    options, time_limit = bot_settings(bot_option, think, bot_time_limit)
    from spoiler.model.seeds import new_seed

    if seed is None:
        seed = new_seed()
    plan = rating.plan(
        kinds, games, players, set_names, seed, options, time_limit, checked_key(bot_key)
    )
    try:
        local = sim.check(plan)
    except sim.PlanError as exc:
        fail(str(exc))
    from spoiler_game.simulate import play_plan, played_names

    names = played_names(set_names, local)

    summaries, _ = play_plan(plan, local, names, jobs, cluster)
    if summaries.partial:  # a ladder's schedule is whole or not at all
        from spoiler_game.simulate import exit_code, stopped_line

        line = stopped_line(summaries, figures=False)
        fail(f"{line}; no rating is made of a part", exit_code(summaries))
    figures = rating.figures(plan, summaries, names)
    if as_json:
        from spoiler.commands.common import print_json

        print_json(figures)
    else:
        print_ladder(figures)


def print_ladder(f: dict) -> None:
    from rich.markup import escape
    from rich.table import Table

    from spoiler_game.ladder import rating

    out = console()
    plan = f["plan"]
    given = plan["bot_options"]
    given = f" (bot options {' '.join(f'{k}={v}' for k, v in given.items())})" if given else ""
    out.print(
        f"{plan['games']} games of {plan['players']} players{given}, sets "
        f"{', '.join(plan['sets'])}, seed {plan['seed']}, bot key {plan['bot_key']}; each kind sat in every seat "
        f"(schedule blocks of {plan['schedule']['block']} games).",
        markup=False,
    )
    table = Table(title="Ratings (OpenSkill, Plackett-Luce)", title_justify="left")
    for column in ("Rank", "Bot", "mu", "sigma", "95% interval", "Games"):
        table.add_column(column, justify="left" if column == "Bot" else "right")
    for rank, r in enumerate(f["ratings"], 1):
        table.add_row(
            str(rank),
            escape(r["bot"]),
            f"{r['mu']:.2f}",
            f"{r['sigma']:.2f}",
            f"{r['low']:.2f} to {r['high']:.2f}",
            str(r["games"]),
        )
    out.print(table)
    order = [r["bot"] for r in f["ratings"]]
    out.print(
        "Head to head: of the games both played, the share the row's bot finished ahead of "
        "the column's (the rest: behind, or tied).",
        markup=False,
    )
    table = Table()  # columns by rank, so that a long exec: command stays one row label
    table.add_column("Rank, bot")
    for rank in range(1, len(order) + 1):
        table.add_column(f"vs {rank}", justify="right")
    for rank, a in enumerate(order, 1):
        row = f["head_to_head"][a]
        cells = ["-" if a == b else f"{row[b]['share']:.1%}" for b in order]
        table.add_row(f"{rank} {escape(a)}", *cells)
    out.print(table)
    out.print(rating.RANK_BY_RANK, markup=False)
    for line in rating.rank_by_rank(f):
        out.print(line, markup=False)
    out.print(
        "Intervals are mu ± 1.96 sigma: two kinds whose intervals do not overlap are told apart "
        "by the ratings; the sign test, on the games they both played, tells apart smaller "
        "gaps.",
        markup=False,
    )
    for kind, spent in f["decision_time"].items():
        out.print(
            f"{kind}: {spent['median_ms']:g} ms per decision (median; 95th percentile "
            f"{spent['p95_ms']:g} ms) in CPU time, over {spent['decisions']} decisions.",
            markup=False,
        )
