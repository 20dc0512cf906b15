"""``spoiler replay`` and ``spoiler resume``: games recorded with ``spoiler play --record``.

Both read the record strictly (``spoiler.records``): a bad file gets a one-line error and exit
code 2, and is never written to. ``replay`` only reads; ``resume`` appends rounds to the same
record, one whole round at a time, always through a temporary file renamed over it.
"""

import contextlib
from functools import partial
from pathlib import Path

import typer

from spoiler.commands import common
from spoiler.commands.common import console, err_console, fail
from spoiler.commands.completion import complete_records
from spoiler.commands.group import command_app, examples
from spoiler.console.game import reader_of, replay_game, run_game, shown, table_or_transcript
from spoiler.console.game import save_stopped as save_stopped  # API 1: spoiler.cli.records
from spoiler.session.recording import play_command, reason

replay_app = command_app()
resume_app = command_app()

#: Exit code when a record replays differently from how it was played.
DIFFERS = 1
#: Exit code of a game the players stopped (end of input, Ctrl-C), as ``spoiler play`` uses.
INTERRUPTED = 130


def _load(path: Path):
    """The record and the installed plugins, or a one-line error (exit 2)."""
    from spoiler.session import records

    try:
        record = records.load(path)
    except records.RecordError as exc:
        fail(f"{path}: {exc}")
    if not record.signed:
        err_console().print(
            f"Note: {path} was edited by hand; it is played as it stands.",
            markup=False,
            soft_wrap=True,
        )
    return record, common.load_registry()


def _version_hint(record) -> str:
    from spoiler import __version__

    if record.spoiler_game != __version__:
        return f" (recorded with spoiler-game {record.spoiler_game}; this is {__version__})"
    return ""


def describe(record) -> str:
    """Who played, with which sets and (once the game is over) seed, as one line. The seed
    of a game that goes on stays off the screen: it would give every hand away."""
    players = ", ".join(
        p.name if p.kind == "human" else f"{p.name} ({p.kind} bot)" for p in record.players
    )
    sets = ", ".join(f"{s.name} {s.version}" for s in record.sets)
    seed = f"; seed {record.seed}" if record.over else ""
    return f"{players}; sets {sets}{seed}"


@replay_app.command(
    epilog=examples(
        "spoiler replay game.toml",
        "spoiler replay game.toml --step    Enter for the next round, q to stop",
        "spoiler replay game.toml --verify  does it still play the same?",
        "spoiler replay game.toml --reveal  every hand and choice, round by round",
    )
)
def replay(
    file: Path = typer.Argument(
        ...,
        metavar="FILE",
        help="A record made by `spoiler play --record`.",
        autocompletion=complete_records,
    ),
    step: bool = typer.Option(
        False, "--step", help="Wait for Enter between rounds (q stops the replay)."
    ),
    verify: bool = typer.Option(
        False,
        "--verify",
        help="Only check that the game replays to the recorded event "
        "log and result; exit 1 when it does not.",
    ),
    as_json: bool = typer.Option(
        False, "--json", help="With --verify: print the verdict as a JSON object (docs/json.md)."
    ),
    delay: float | None = typer.Option(
        None,
        "--delay",
        metavar="SECONDS",
        help="Wait this long after each event. Default: as `spoiler play`.",
    ),
    reveal: bool = typer.Option(
        False,
        "--reveal",
        help="Show every hand and every player's choices, round by round, as a watcher of "
        "bots sees them. Only for a game that is over (its seed gives them away then).",
    ),
    plain: bool = common.plain_flag("the replay"),
) -> None:
    """Replay a recorded game or match, as it was played.

    The game is played again from its seed and recorded decisions, and checked against the
    record as it goes."""
    from spoiler.rules.game import CardError, GameError
    from spoiler.session import records

    if delay is not None and not 0 <= delay <= 60:
        fail(f"--delay is a number of seconds from 0 to 60, not {delay:g}")
    if as_json and not verify:
        fail("--json goes with --verify (a replay is watched, not read)")
    record, registry = _load(file)
    if verify:
        _verify(file, record, registry, as_json)
        return
    if reveal and not record.over:
        fail(
            f"{file}: --reveal shows a finished game only, and this one is not over "
            "(its hands stay secret while it can be resumed)"
        )
    from spoiler.console.screen import EVERYTHING

    out = console()
    reader = EVERYTHING if reveal else reader_of([p.kind for p in record.players])
    screen = table_or_transcript(out, reader, delay, plain=plain)
    # At the table, a replay of a game humans played waits for Enter after each round (as
    # --step does) unless --delay paces it: nothing else draws its frames.
    step = step or (hasattr(screen, "shown") and delay is None and reader != EVERYTHING)
    screen.again = partial(play_command, record)
    out.print(f"Replaying {file}: {describe(record)}.", markup=False, soft_wrap=True)
    for number, game_record in enumerate(record.games(), 1):
        if record.match is not None:
            out.print()
            out.rule(f"Game {number} of the match", style="bold")
        with shown(screen):
            try:
                game, first, stopped = replay_game(game_record, registry, screen, step)
            except records.RecordError as exc:
                fail(f"{file}: {_in_game(record, number)}{exc}")
            except (CardError, GameError) as exc:
                _failed_in_replay(file, exc)
            if game.over and not stopped:
                screen.end()
            elif not stopped and step and screen.stdin.isatty():  # its last round, read
                with contextlib.suppress(EOFError, KeyboardInterrupt):
                    screen.read(f"The record stops after round {game.round}. Press Enter.")
        if stopped:
            raise typer.Exit(INTERRUPTED)
        if game.over:
            if record.match is not None:
                _score_so_far(out, record, number)
        else:
            out.print()
            out.print(
                f"The record stops after round {game.round}; the game is not over. "
                f"Continue it with: spoiler resume {file}",
                markup=False,
                soft_wrap=True,
            )
        if first is not None:
            err_console().print(
                f"Warning: this replay differs from the record: {_in_game(record, number)}"
                f"{first}{_version_hint(record)}.",
                markup=False,
                soft_wrap=True,
            )
            raise typer.Exit(DIFFERS)


def _score_so_far(out, record, number: int) -> None:
    """In a replayed match: the score after game ``number``."""
    from spoiler.console.matches import tell_score

    tell_score(out, record, [g.result for g in record.games()[:number] if g.result is not None])


def _in_game(record, number: int) -> str:
    return f"game {number}: " if record.match is not None else ""


def _failed_in_replay(file: Path, exc: Exception):
    """The game stopped while replaying: a card of a --strict game raised, or a rule the
    installed plugins apply refused it. The record is sound; this installation plays it
    otherwise (exit 1, as for any replay that differs)."""
    from spoiler.rules.game import CardError

    what = f"--strict: {exc}" if isinstance(exc, CardError) else str(exc)
    fail(f"{file}: the replay stopped: {what}", DIFFERS)


def _verify(file: Path, record, registry, as_json: bool = False) -> None:
    """``replay --verify``: replay without printing, and say whether it matches."""
    from spoiler.rules.game import CardError, GameError
    from spoiler.session import records

    games = record.games()
    rounds = events = 0

    def verdict(difference: str | None, result: str | None) -> None:
        from spoiler.console.matches import match_over

        common.print_json(
            {
                "file": str(file),
                "ok": difference is None,
                "difference": difference,
                "match": record.match is not None,
                "games": len(games),
                "rounds": rounds,
                "events": events,
                "over": match_over(record) if record.match is not None else record.over,
                "result": result,
            }
        )

    for number, game_record in enumerate(games, 1):
        try:
            game, _, first = records.replay(game_record, registry)
        except records.RecordError as exc:
            fail(f"{file}: {_in_game(record, number)}{exc}")
        except (CardError, GameError) as exc:
            _failed_in_replay(file, exc)
        rounds += len(game_record.rounds)
        events += len(game.state.log)
        if first is not None and as_json:
            verdict(f"{_in_game(record, number)}{first}{_version_hint(record)}", None)
            raise typer.Exit(DIFFERS)
        if first is not None:
            console().print(
                f"{file}: does not match: {_in_game(record, number)}{first}"
                f"{_version_hint(record)}.",
                markup=False,
                soft_wrap=True,
            )
            raise typer.Exit(DIFFERS)
    if as_json:
        names = [p.name for p in game.state.players]
        verdict(None, game.result.describe(names) if game.result is not None else None)
        return
    out = console()
    if record.match is not None:
        from spoiler.console.matches import match_over

        how = "the match is over" if match_over(record) else "the match goes on"
        out.print(
            f"{file}: OK: {len(games)} games, {rounds} rounds, {events} events and the "
            f"results match the record ({how})",
            markup=False,
            soft_wrap=True,
        )
        return
    matched = f"{file}: OK: {rounds} rounds, {events} events"
    if record.over:
        assert game.result is not None  # the replay matched a finished record
        names = [p.name for p in game.state.players]
        out.print(
            f"{matched} and the result match the record (result: {game.result.describe(names)})",
            markup=False,
            soft_wrap=True,
        )
    else:
        out.print(
            f"{matched} match the record (the game is not over; continue it with: "
            f"spoiler resume {file})",
            markup=False,
            soft_wrap=True,
        )


class _Differs(Exception):
    """A recorded round that replays differently: the record is sound, this installation
    plays it otherwise."""


@resume_app.command(epilog=examples("spoiler resume spoiler-1234.toml"))
def resume(
    file: Path = typer.Argument(
        ..., metavar="FILE", help="A record of an unfinished game.", autocompletion=complete_records
    ),
    plain: bool = common.plain_flag(),
) -> None:
    """Continue a recorded game or match that is not over.

    The same players go on: humans are asked at this keyboard, bots play as they did; each
    new round is added to the same record, and a match goes on to its end.
    """
    from spoiler.console.matches import match_over
    from spoiler.session import recordfile, records

    record, registry = _load(file)
    if record.match is not None and match_over(record):
        fail(f"{file}: this match is over; watch it again with: spoiler replay {file}")
    if record.match is None and record.over:
        fail(
            f"{file}: this game is over (round {record.result['round']}); "
            f"watch it again with: spoiler replay {file}"
        )
    # Held (locked) for the whole game, and read again once held: no other game writes it
    # meanwhile. A symlink is followed, so the rounds go where the record really lives.
    try:
        held = recordfile.RecordFile.open(file)
        record = records.load(held.path)
    except recordfile.FileProblem as exc:
        fail(f"{file}: {exc}")
    except records.RecordError as exc:
        held.close()
        fail(f"{file}: {exc}")
    with held:
        _resume_held(file, record, registry, held, plain)


def _resume_held(file: Path, record, registry, held, plain: bool = False) -> None:
    """``spoiler resume`` once its record is held: bring the players back and play on (and,
    in a match, on to its end)."""
    from spoiler.console.matches import play_match
    from spoiler.model import interrupts
    from spoiler.rules.game import CardError, GameError
    from spoiler.session import recordfile, records
    from spoiler.session.match import game_seed

    out = console()
    screen = table_or_transcript(out, reader_of(_kinds(record)), plain=plain)
    screen.again = partial(play_command, record)

    def setup(seed: int):
        """The record's current game (whose seed is ``seed``), its players seated afresh."""
        try:
            return records.build_game(
                record, registry, _live_agents(file, record, registry, screen)
            )
        except records.RecordError as exc:
            fail(f"{file}: {exc}")

    from spoiler.agents.options import within_cores

    _, fewer_cores = within_cores(record.bot_options)
    if fewer_cores is not None:
        out.print(fewer_cores, markup=False, soft_wrap=True)
    recorded = len(record.rounds)
    if record.over:  # a match between two games: the next one starts
        record.next_game(game_seed(record.match.seed, len(record.match.games) + 2))
        record.save(held)
        recorded = 0
    resumed = setup(record.seed)

    def run(game, recorder):
        # A seat a bot took over: "NAME (bot)" from that round on (from the start of a match's
        # later games, which the bot plays whole).
        later = record.match is not None and bool(record.match.games)
        replaced = {s: 1 if later else p.replaced_in for s, p in enumerate(record.players)
                    if p.replaced_in}  # fmt: skip

        def after_round(game) -> None:
            try:
                difference = recorder.round_played(game)
            except (OSError, recordfile.FileProblem) as exc:
                fail(
                    f"{file}: cannot write it: {reason(exc)}; the game stops here, the record "
                    f"holds the rounds up to {len(record.rounds) - 1}",
                    1,
                )
            if difference is not None:
                raise _Differs(f"{difference}{_version_hint(record)}; it cannot be resumed")
            if game is resumed and recorded and game.round == recorded:
                screen.console.print()  # (in the round's outcome, at the table)
                screen.console.print(
                    f"That was round {recorded}, where the record stopped. The game goes on.",
                    markup=False,
                    style="bold",
                )

        try:
            with interrupts.game_signals(), shown(screen):
                return run_game(game, screen, after_round, replaced)
        except _Differs as exc:
            fail(f"{file}: {exc}", DIFFERS)
        except records.RecordError as exc:
            fail(f"{file}: {exc}")
        except CardError as exc:
            fail(f"strict: {exc}", 1)
        except GameError as exc:
            fail(str(exc), 1)

    def stopped(game, recorder, seed):
        out.print()
        out.print(
            f"Game stopped in round {game.round}. {file} holds the rounds up to "
            f"{len(record.rounds)}; continue with: spoiler resume {file}",
            markup=False,
            soft_wrap=True,
        )
        raise typer.Exit(interrupts.exit_code())

    out.print(
        f"Resuming {file} after round {recorded}: {describe(record)}.", markup=False, soft_wrap=True
    )
    recorder = records.Recorder(record, held)
    if record.match is not None:
        play_match(resumed, recorder, screen, setup, run, stopped)
    elif run(resumed, recorder) is None:
        stopped(resumed, recorder, record.seed)
    out.print(f"Saved to {file}.", markup=False, soft_wrap=True)


def _kinds(record) -> list[str]:
    """Who plays each seat on: its kind, or the bot's that took a hosted player's seat."""
    return [p.replaced_by or p.kind for p in record.players]


def _live_agents(file: Path, record, registry, screen) -> list:
    """The agents who go on playing: a human at this keyboard for each human, the recorded
    bot kinds (seeded from the game's seed and the record's bot key, with the bot options the
    record keeps, ``jobs`` at most this machine's cores) for the others, and for a hosted seat
    a bot took over, that bot's kind."""
    from spoiler.agents.options import OptionError, within_cores
    from spoiler.console.human import HumanAgent
    from spoiler.plugins import UnknownName

    hot_seat = _kinds(record).count("human") > 1
    options, _ = within_cores(record.bot_options)
    live = []
    for seat, kind in enumerate(_kinds(record)):
        if kind == "human":
            live.append(HumanAgent(screen, hot_seat=hot_seat))
            continue
        try:
            bot = registry.agent(
                kind,
                seat,
                record.seed,
                options or None,
                time_limit=record.bot_time_limit,
                key=record.bot_key,
            )
            live.append(bot)
        except UnknownName as exc:
            fail(f"{file}: players[{seat + 1}].kind: {exc}")
        except OptionError as exc:
            fail(f"{file}: options.bot_options: {exc}")
    return live
