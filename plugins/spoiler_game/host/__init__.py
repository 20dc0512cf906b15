"""``spoiler host``: one game served over SSH, each player at their own terminal.

The work is in ``spoiler_game.host.server``, built on ``spoiler.session`` and ``spoiler.console``
as ``spoiler play`` is; asyncssh (the ``host`` extra) is imported only when this command
runs, so no other command pays for it.
"""

import warnings
from pathlib import Path

import typer

from spoiler.commands.common import (
    JOBS_HELP,
    bot_key_flag,
    bot_option_flag,
    bot_settings,
    bot_time_limit_flag,
    checked_key,
    fail,
    think_flag,
)
from spoiler.commands.completion import complete_bots, complete_sets
from spoiler.commands.group import command_app, examples

app = command_app()

#: The exit code of a game the host stopped with Ctrl-C, as ``spoiler play`` uses.
INTERRUPTED = 130


@app.command(
    short_help="Host a game friends join over SSH, each at their own terminal.",
    epilog=examples(
        "spoiler host                              four friends join with ssh",
        "spoiler host --seats 2 --bots 2           two friends and two bots",
        "spoiler host --bind 0.0.0.0 --port 2222   others on the network may join",
        "spoiler host --record game.toml           save it as you go (spoiler replay)",
        "spoiler host --turn-time 60               a bot decides after 60 s",
    ),
)
def host(
    seats: int = typer.Option(
        4, "--seats", metavar="N", help="How many players are expected to join over SSH."
    ),
    bots: int = typer.Option(0, "--bots", metavar="N", help="Bots at the table besides them."),
    bot: list[str] = typer.Option(
        ["greedy"],
        "--bot",
        metavar="KIND",
        help="The kind of bot, for --bots, for seats left empty and for players who leave. "
        "Several kinds (repeated or comma-separated) take the bots' seats in turn; a player "
        "who leaves is played by the first.",
        autocompletion=complete_bots,
    ),
    bot_option: list[str] | None = bot_option_flag(
        f" {JOBS_HELP} The record keeps them for resume."
    ),
    think: float | None = think_flag(),
    bot_time_limit: float | None = bot_time_limit_flag(" The record keeps it for resume."),
    bot_key: str | None = bot_key_flag(
        "For a seed you choose (a random one cannot be searched); the record keeps it. "
        "Default: none."
    ),
    sets: list[str] | None = typer.Option(
        None,
        "--sets",
        metavar="NAMES",
        help="Card sets to play with, comma-separated or repeated. Default: every set "
        "installed here.",
        autocompletion=complete_sets,
    ),
    seed: int | None = typer.Option(
        None,
        "--seed",
        metavar="N",
        help="Seed of the game. Default: a random 64-bit seed, shown when the game ends.",
    ),
    max_rounds: int = typer.Option(
        100, "--max-rounds", metavar="N", help="Round limit; reaching it ends the game in a draw."
    ),
    record: Path | None = typer.Option(
        None,
        "--record",
        metavar="FILE",
        help="Save the game to FILE (TOML) after every round, to replay or resume it later.",
    ),
    force: bool = typer.Option(
        False, "--force", help="With --record: replace FILE if it exists (never a directory)."
    ),
    port: int = typer.Option(
        2222, "--port", metavar="P", help="The port to listen on (0: any free port)."
    ),
    bind: str = typer.Option(
        "127.0.0.1",
        "--bind",
        metavar="ADDR",
        help="The address to listen on. The default lets only this machine in; 0.0.0.0 "
        "lets in anyone who can reach it (and has the join code).",
    ),
    wait: float = typer.Option(
        60,
        "--wait",
        metavar="S",
        help="Seconds a player who dropped out may take to join again before a bot takes "
        "their seat.",
    ),
    turn_time: float = typer.Option(
        120,
        "--turn-time",
        metavar="S",
        help="Seconds each player has for each decision: they are warned before the end, "
        "then a bot makes that decision for them (everyone sees whom the table waits for). "
        "0: wait for ever.",
    ),
    plain: bool = typer.Option(
        False,
        "--plain",
        help="Tell every player the game as a transcript, line after line, instead of the "
        "full-screen table their terminal gets (a player with TERM=dumb gets it anyway).",
    ),
) -> None:
    """Host a game that friends join over SSH, each at their own terminal.

    Prints the command to join (ssh -p PORT NAME@HOST) and a join code, the password ssh
    asks for, and a watch code for spectators (they see what every player sees, never a
    hand). The game starts when every seat is taken, when everyone in the lobby is ready, or
    when you press Enter (bots take the seats left). Players talk with /say TEXT; at the end
    each is asked to play again (a new seed, same lobby). Ctrl-C stops the game for everyone.
    Needs the `host` extra (asyncssh).
    """
    from spoiler.rules.game import MAX_PLAYERS, MIN_PLAYERS

    if seats < 1:
        fail(f"--seats must be 1 or more, not {seats}")
    if bots < 0:
        fail(f"--bots must be 0 or more, not {bots}")
    if not MIN_PLAYERS <= seats + bots <= MAX_PLAYERS:
        fail(
            f"Spoiler is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {seats + bots} "
            f"({seats} seat(s) and {bots} bot(s))"
        )
    if seed is not None and not -(2**63) <= seed < 2**63:
        fail(f"--seed must be a whole number of 64 bits (below 2**63), not {seed}")
    if force and record is None:
        fail("--force goes with --record FILE")
    if max_rounds < 1:
        fail(f"--max-rounds must be at least 1, not {max_rounds}")
    if not 0 <= port <= 65535:
        fail(f"--port must be from 0 to 65535, not {port}")
    if not 0 <= wait <= 24 * 3600:
        fail(f"--wait must be from 0 to 86400 seconds, not {wait:g}")
    if not (turn_time == 0 or 1 <= turn_time <= 24 * 3600):
        fail(f"--turn-time must be 0 (no limit) or from 1 to 86400 seconds, not {turn_time:g}")
    from spoiler.commands.common import bot_kinds, names_of

    set_names = names_of(sets, "--sets")
    kinds = bot_kinds(bot)
    bot_options, time_limit = bot_settings(bot_option, think, bot_time_limit)
    try:
        with warnings.catch_warnings():
            # asyncssh 2.14 warns as it loads that newer cryptography moved two old ciphers:
            # noise on a player's screen, and nothing they can do about it.
            warnings.simplefilter("ignore")
            import asyncssh  # noqa: F401
    except ImportError:
        from spoiler.installer import install_hint

        fail(
            f"spoiler host needs asyncssh: install it with: {install_hint('spoiler-game[host]')}", 1
        )

    from spoiler.agents.options import OptionError
    from spoiler.commands import common
    from spoiler.model.seeds import new_seed
    from spoiler.plugins import UnknownName
    from spoiler.session import recordfile
    from spoiler_game.host.safety import BadKey, join_code, key_path, load_or_make_key
    from spoiler_game.host.server import Host, HostOptions

    registry = common.load_registry()
    for broken in registry.broken():
        common.err_console().print(
            f"Warning: plugin {broken.name!r} is broken and was not loaded: {broken.error}",
            markup=False,
            soft_wrap=True,
        )
    try:
        card_sets = registry.sets_played(set_names)
        # An unknown kind or options it refuses are refused now, not when a seat needs a bot.
        for kind in kinds:
            registry.check_kind(kind, bot_options or None)
    except (UnknownName, OptionError) as exc:
        fail(str(exc))
    if not card_sets:
        fail("no card set is installed (see `spoiler plugins`)")
    path = key_path()
    try:
        key = load_or_make_key(path)
    except (BadKey, OSError) as exc:
        fail(f"host key {path}: {exc.strerror if type(exc) is OSError else exc}", 1)

    options = HostOptions(
        seats=seats,
        bots=bots,
        bot_kind=kinds[0],
        bot_kinds=kinds,
        bot_options=bot_options,
        bot_time_limit=time_limit,
        bot_key=None if bot_key is None else checked_key(bot_key),
        set_names=set_names,
        seed=seed if seed is not None else new_seed(),
        max_rounds=max_rounds,
        record=record,
        port=port,
        bind=bind,
        wait=wait,
        code=join_code(),
        watch_code=join_code(),
        key=key,
        turn_time=turn_time,
        plain=plain,
    )
    held = None
    if record is not None:  # taken now, so a file that cannot be written stops no one later
        fresh = not record.exists()
        try:
            held = recordfile.RecordFile.create(record, force)
        except recordfile.FileProblem as exc:
            fail(f"--record {record}: {exc}")
        options.record = held
        options.fresh_record = fresh
    common.note_partners(set_names, card_sets)
    console = common.console()
    bots_text = f" and {bots} {'/'.join(dict.fromkeys(kinds))} bot(s)" if bots else ""
    console.print(
        f"Hosting Spoiler for {seats} player(s){bots_text}, "
        f"with {', '.join(s.name for s in sorted(card_sets, key=lambda s: s.name))}.",
        markup=False,
        soft_wrap=True,
    )
    served = Host(options, registry, console)
    _serve(served)


def _serve(served) -> None:
    import asyncio

    from spoiler.console.game import save_stopped
    from spoiler.console.screen import Screen
    from spoiler.model.errors import RoundTooLong
    from spoiler.session import recording

    try:
        code = asyncio.run(served.serve())
    except OSError as exc:
        opts = served.options
        served.drop_record()
        fail(f"cannot listen on {opts.bind} port {opts.port}: {exc.strerror or exc}", 1)
    finally:
        if served.recorder is not None:
            recording.stop_recording(served.recorder)
    if served.game is None:  # stopped before the game began: no record of it
        served.drop_record()
    error = served.error
    if isinstance(error, (typer.Exit, SystemExit)):
        raise error
    if isinstance(error, recording.RecordingError):  # the record file cannot be written
        fail(str(error), error.code)
    if isinstance(error, RoundTooLong) and served.recorder is not None:
        # an effect that never ends, stopped in the game's thread: as spoiler play says it
        fail(f"{error} {recording.save_runaway(served.recorder)}", 1)
    if error is not None:
        fail(f"the game stopped: {error}", 1)
    game = served.game
    if code != 0:
        if game is not None:
            served.console.print()
            served.console.print(
                f"Game stopped in round {game.round}. Seed {game.seed}.", markup=False
            )
            # Asked at the host's own keyboard (Ctrl-C); SIGTERM or SIGHUP: saved without asking.
            keyboard = Screen(served.console, None)
            save_stopped(served.recorder, keyboard, ask=code == INTERRUPTED)
        raise typer.Exit(code)
