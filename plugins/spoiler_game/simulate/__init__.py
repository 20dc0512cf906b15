"""``spoiler simulate``: many seeded games between bots, on every core or on a Dask cluster,
and the figures a set author balances by (see docs/simulate.md)."""

import contextlib
import os
import signal

import typer

from spoiler.commands.common import (
    bot_key_flag,
    bot_option_flag,
    bot_settings,
    bot_time_limit_flag,
    checked_key,
    cluster_flag,
    console,
    err_console,
    fail,
    jobs_flag,
    names_of,
    note_partners,
    think_flag,
)
from spoiler.commands.completion import complete_bots, complete_sets
from spoiler.commands.group import command_app, examples

app = command_app()


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


@app.command(
    short_help="Play many games of bots and report the figures, with warnings.",
    epilog=examples(
        "spoiler simulate --games 2000",
        "spoiler simulate --bots expert,greedy,greedy,greedy --sets base --games 400",
        "spoiler simulate --sets base,chrono --json > chrono.json",
        "spoiler simulate --games 20000 --cluster tcp://10.0.0.5:8786",
    ),
)
def simulate(
    games: int = typer.Option(
        1000, "--games", metavar="N", help="Number of games, at most 100000."
    ),
    players: int | None = typer.Option(
        None, "--players", metavar="N", help="Players per game. Default: 4, or one per --bots kind."
    ),
    bots: list[str] = typer.Option(
        ["random"],
        "--bots",
        metavar="KINDS",
        help="Bot kinds: one for every seat, or one per seat, comma-separated or repeated "
        "(e.g. expert,greedy,greedy,greedy). A kind may carry options of its own, which win "
        "over --bot-option: expert@think=800.",
        autocompletion=complete_bots,
    ),
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
        help="Seed of the simulation; each game's seed follows from it. Default: drawn at "
        "random (64 bits) and printed.",
    ),
    bot_key: str | None = bot_key_flag(
        "Default: drawn at random and printed; give a run's key (and seed) to play its games again."
    ),
    max_rounds: int = typer.Option(
        100, "--max-rounds", metavar="N", help="Round limit; reaching it ends a game in a draw."
    ),
    bot_option: list[str] | None = bot_option_flag(),
    think: float | None = think_flag(),
    bot_time_limit: float | None = bot_time_limit_flag(),
    jobs: int | None = jobs_flag(),
    cluster: str | None = cluster_flag(),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as one JSON object."),
) -> None:
    """Play many games between bots and report win rates, game length, each card's
    play and win figures, and wins by cause (the card or set rule that made each win), with
    warnings against the balance targets.

    Every figure follows from the options alone: the same whatever --jobs or --cluster.
    Ctrl-C stops the run and prints the figures of the games finished (partial)."""
    from spoiler.session import simulate as sim

    kinds = tuple(names_of(bots, "--bots", "kind", unique=False) or ())
    if len(kinds) == 1:
        kinds = kinds * (players if players is not None else 4)
    elif players is not None and players != len(kinds):
        fail(f"--bots names {len(kinds)} seats but --players is {players}")
    listed = names_of(sets, "--sets")
    set_names = tuple(listed) if listed is not None else None
    if jobs is not None and jobs < 1:
        fail(f"--jobs must be at least 1, not {jobs}")
    if jobs is not None and cluster is not None:
        fail("--jobs and --cluster do not go together: a cluster has its own workers")
    options, time_limit = bot_settings(bot_option, think, bot_time_limit)
    from spoiler.model.seeds import new_seed

    if seed is None:
        seed = new_seed()
    bot_key = checked_key(bot_key)
    plan = sim.Plan(
        games,
        kinds,
        set_names,
        seed,
        max_rounds,
        tuple(options.items()),
        bot_time_limit=time_limit,
        bot_key=bot_key,
    )
    try:
        local = sim.check(plan)
    except sim.PlanError as exc:
        fail(str(exc))
    names = played_names(set_names, local)
    summaries, alone = play_plan(
        plan,
        local,
        names,
        jobs,
        cluster,
        lambda: sim.sets_alone(names, seed, max_rounds, plan.players),
        tally=True,
    )
    line = stopped_line(summaries)
    if not summaries:
        fail(line or "no game was played", exit_code(summaries))
    figures = sim.report(plan, summaries, names, alone)
    figures["decision_time"] = sim.thinking(summaries)
    figures["partial"] = summaries.partial
    if summaries.partial:
        figures["games_planned"] = summaries.planned
    if as_json:
        from spoiler.commands.common import print_json

        print_json(figures)
    else:
        print_figures(figures)
    if line is not None:
        from rich.markup import escape

        err_console().print(f"[bold yellow]Stopped:[/] {escape(line)}", soft_wrap=True)
        raise typer.Exit(exit_code(summaries))


def played_names(set_names, local: dict) -> list[str]:
    """The names of the sets a checked plan's games play: every installed set (sorted) when
    none is named, else the named ones and the sets they are played with (with a note)."""
    from spoiler.session import simulate as sim

    if set_names is None:
        return sorted(local["sets"])
    played = sim.sets_played(set_names)
    note_partners(set_names, played)
    return [s.name for s in played]


def play_plan(
    plan,
    local: dict,
    names: list[str],
    jobs: int | None,
    cluster: str | None,
    then=None,
    *,
    tally: bool = False,
):
    """The plan's game summaries (``sim.Played``; with ``tally`` their ``sim.Tally``, in
    memory that does not grow with the games), played here, on ``jobs`` processes (default:
    every core) or on the Dask cluster at ``cluster``, with a progress bar on a terminal;
    and what ``then()`` returns (None without it, or when the run stopped early), run while
    what plugin code prints still goes to stderr. The ladder plays its games so too. A run
    stopped early (Ctrl-C, no worker left) returns the games it finished."""
    from spoiler.plugins import stdout_to_stderr
    from spoiler.session import simulate as sim

    client = backend = executor = stop = None
    if cluster is not None:
        from spoiler_game.simulate.cluster import DaskCluster

        client, workers = _connect(cluster, local, names)
        backend = DaskCluster(client, local)
    else:
        workers = jobs if jobs is not None else available_cores()
        if workers > 1:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            before = set(multiprocessing.active_children())
            executor = ProcessPoolExecutor(max_workers=workers, initializer=sim.stop_between_games)

            def stop() -> None:  # the pool's processes end their batches after this game
                for child in set(multiprocessing.active_children()) - before:
                    with contextlib.suppress(OSError, TypeError):  # gone, or no pid yet
                        os.kill(child.pid, signal.SIGINT)  # type: ignore[arg-type]

    from spoiler.model.errors import RoundTooLong

    games = None
    try:
        with stdout_to_stderr():  # what plugin code prints in a game stays out of the report
            games = _run(sim, plan, executor, workers, backend, stop, tally)
            if games.partial or then is None:
                return games, None
            try:
                return games, then()
            except KeyboardInterrupt:
                games.stopped = sim.INTERRUPTED  # every game played; the check alone is not
                return games, None
    except RoundTooLong as exc:  # an effect that never ends, in one game: the seed replays it
        fail(str(exc), 1)
    finally:
        if client is not None:
            client.close()
        elif executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)


def _connect(address: str, local: dict, names: list[str]):
    """A Dask client on ``address`` whose workers have this machine's Spoiler, sets and
    plugins (each batch checks again)."""
    from spoiler.session import simulate as sim

    try:
        from distributed import Client
    except ImportError:
        from spoiler.installer import install_hint

        hint = install_hint("spoiler-game[cluster]")
        fail(f"--cluster needs Dask distributed: install it with: {hint}")
    from spoiler_game.simulate.cluster import AddressError, check_address

    try:
        address = check_address(address)
    except AddressError as exc:
        fail(str(exc))
    try:
        client = Client(address, timeout="10s")
    except Exception as exc:  # OSError, TimeoutError, or whatever the comm layer raises
        fail(f"cannot reach the Dask scheduler at {address}: {_one_line(exc)}")
    try:
        found = client.run(sim.installed)
    except Exception as exc:  # a worker that cannot even import Spoiler
        client.close()
        fail(f"a worker of {address} cannot run Spoiler: {type(exc).__name__}: {_one_line(exc)}")
    if not found:
        client.close()
        fail(f"the Dask scheduler at {address} has no workers")
    try:
        sim.check_workers(local, found, names)
    except sim.PlanError as exc:
        client.close()
        fail(str(exc))
    return client, sum(client.nthreads().values())


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def _run(sim, plan, executor, workers: int, cluster=None, stop=None, tally: bool = False):
    if not err_console().is_terminal:
        return sim.run(
            plan,
            executor,
            workers,
            cluster=cluster,
            grace=sim.NO_WORKER_GRACE,
            stop=stop,
            tally=tally,
        )
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    with Progress(
        "Playing games",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err_console(),
        transient=True,
    ) as bar:
        task = bar.add_task("games", total=plan.games)
        return sim.run(
            plan,
            executor,
            workers,
            lambda n: bar.update(task, advance=n),
            cluster=cluster,
            grace=sim.NO_WORKER_GRACE,
            stop=stop,
            tally=tally,
        )


def stopped_line(games, figures: bool = True) -> str | None:
    """What the user is told of a run that stopped early (None if it did not); ``figures``:
    the figures of the games played are printed."""
    if games.stopped is None:
        return None
    if not games.partial:
        return f"{games.stopped}: every game was played, the check of each set alone was not"
    line = f"{games.stopped}: {len(games)} of {games.planned} games were played"
    return line + ("; the figures are theirs" if figures and games else "")


def exit_code(games) -> int:
    """130 for a run stopped by Ctrl-C, 1 for one stopped otherwise, else 0."""
    from spoiler.session import simulate as sim

    if games.stopped is None:
        return 0
    return 130 if games.stopped == sim.INTERRUPTED else 1


def _interval(lo_hi) -> str:
    lo, hi = lo_hi
    return f"{100 * lo:.1f} to {100 * hi:.1f}%"


def print_figures(f: dict) -> None:
    from rich.markup import escape
    from rich.table import Table

    from spoiler.agents.options import describe

    out = console()
    given = f" (bot options {describe(f['bot_options'])})" if f["bot_options"] else ""
    out.print(
        f"{f['games']} games, {f['players']} players ({', '.join(f['bots'])}){given}, "
        f"sets {', '.join(f['sets'])}, seed {f['seed']}, bot key {f['bot_key']}.",
        markup=False,
    )
    table = Table(title="Win rate by bot kind (per seat)", title_justify="left")
    for column in ("Bot kind", "Seats", "Win rate", "95% interval"):
        table.add_column(column, justify="left" if column == "Bot kind" else "right")
    for kind, share in f["win_rate_by_kind"].items():
        seats = f["bots"].count(kind)
        table.add_row(kind, str(seats), f"{share:.1%}", _interval(f["win_rate_by_kind_95"][kind]))
    out.print(table)
    table = Table(title="Win rate by starting priority", title_justify="left")
    for column in ("Starting priority", "Win rate", "95% interval"):
        table.add_column(column, justify="right")
    for start, share in f["win_rate_by_start"].items():
        table.add_row(start, f"{share:.1%}", _interval(f["win_rate_by_start_95"][start]))
    out.print(table)
    length = f["length"]
    out.print(
        f"Game length: median {length['median']:g} rounds, 95th percentile {length['p95']}, "
        f"longest {length['longest']}. At the round limit: {f['round_limit_share']:.1%}; "
        f"everyone lost: {f['all_lost_share']:.1%}.",
        markup=False,
    )
    for line in histogram(length["histogram"]):
        out.print(line, markup=False, highlight=False)
    table = Table(title="Cards", title_justify="left")
    for column in ("Card", "Copies", "Played", "Per game", "Winners' share", "95% interval"):
        table.add_column(column, justify="left" if column == "Card" else "right")
    for card_id, card in sorted(f["cards"].items(), key=lambda kv: -kv[1]["win_share"]):
        table.add_row(
            escape(f"{card['name']} ({card_id.partition(':')[0]})"),
            str(card["copies"]),
            str(card["played"]),
            f"{card['per_game']:.2f}",
            f"{card['win_share']:.1%}" if card["played"] else "-",
            _interval(card["win_share_95"]) if card["played"] else "-",
        )
    out.print(table)
    print_wins_by_cause(out, f.get("wins_by_cause", {}))
    for kind, spent in f["decision_time"].items():
        out.print(
            f"{kind}: {spent['median_ms']:g} ms per decision (median; 95th percentile "
            f"{spent['p95_ms']:g} ms) in CPU time, over {spent['decisions']} decisions.",
            markup=False,
        )
    if f["warnings"]:
        for warning in f["warnings"]:
            out.print(f"[yellow]Warning:[/] {escape(warning)}", soft_wrap=True)
    else:
        out.print("[green]Every balance target is met.[/]")


def print_wins_by_cause(out, causes: dict) -> None:
    """What decided the wins: each card or rule whose event made a winner, with its share of
    all wins; the cards that decided none on one line."""
    from rich.markup import escape
    from rich.table import Table

    table = Table(title="Wins by cause (the card or rule that made the win)", title_justify="left")
    for column in ("Cause", "Kind", "Wins", "Share of wins", "95% interval"):
        table.add_column(column, justify="left" if column in ("Cause", "Kind") else "right")
    for key, cause in causes.items():
        if cause["wins"]:
            table.add_row(
                escape(f"{cause['name']} ({key})"),
                cause["kind"],
                str(cause["wins"]),
                f"{cause['share']:.1%}",
                _interval(cause["share_95"]),
            )
    out.print(table)
    none = [c["name"] for c in causes.values() if c["kind"] == "card" and not c["wins"]]
    if none:
        out.print(f"Cards that decided no win: {', '.join(none)}.", markup=False, soft_wrap=True)


def histogram(counts: dict[str, int], width: int = 40, rows: int = 12) -> list[str]:
    """Game lengths as bars, grouped into at most ``rows`` ranges of rounds."""
    lengths = sorted(int(r) for r in counts)
    low, high = lengths[0], lengths[-1]
    step = max(1, -(-(high - low + 1) // rows))
    groups = []
    for start in range(low, high + 1, step):
        total = sum(counts.get(str(r), 0) for r in range(start, start + step))
        label = f"{start}" if step == 1 else f"{start}-{start + step - 1}"
        groups.append((label, total))
    peak = max(total for _, total in groups) or 1
    pad = max(len(label) for label, _ in groups)
    return [
        f"  {label:>{pad}} rounds │{'█' * round(width * total / peak):<{width}} {total}"
        for label, total in groups
    ]
