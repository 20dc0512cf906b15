"""``spoiler play``: a game in the terminal, against bots, with friends at one keyboard, or
watching bots play each other.

The pieces live below the command, so that the SSH host, ``resume`` and ``replay`` share
them: ``spoiler.session.seating`` decides who sits where (``table_of``) and makes the game
(``new_game``), ``spoiler.console.game`` seats the humans at the screen (``seat_players``) and
plays the game round by round on it (``run_game``), ``spoiler.session.recording`` records it.
"""

from functools import partial
from pathlib import Path

import typer

from spoiler.commands.common import (
    JOBS_HELP,
    bot_key_flag,
    bot_option_flag,
    bot_settings,
    bot_time_limit_flag,
    fail,
    plain_flag,
    think_flag,
)
from spoiler.commands.completion import complete_bots, complete_records, complete_sets
from spoiler.commands.group import command_app, examples
from spoiler.console.game import (
    reader_for,
    run_game,
    save_stopped,
    seat_players,
    shown,
    table_or_transcript,
)
from spoiler.session.seating import TableError, new_game, table_of

app = command_app()

#: The exit code of a game the players stopped (end of input, Ctrl-C), as shells use for SIGINT.
INTERRUPTED = 130


@app.command(
    epilog=examples(
        "spoiler play                          you against three greedy bots",
        "spoiler play --players You --bots 1   a duel against one bot",
        "spoiler play --players ann,bo         two humans at one keyboard",
        "spoiler play --bots 4 --delay 0.5     watch four bots play",
        "spoiler play --sets base --seed 12    the base set only, a set seed",
        "spoiler play --record game.toml       save it as you go (spoiler resume)",
        "spoiler play --tutorial               a first game, explained as it goes",
    )
)
def play(
    players: str | None = typer.Option(
        None,
        "--players",
        metavar="NAMES",
        help="Human players at this keyboard, comma-separated (e.g. alice,bob). "
        'Default: one human, "You", against three bots.',
    ),
    bots: int | None = typer.Option(
        None,
        "--bots",
        metavar="N",
        help="Number of bots. Without --players, watch N bots play each other.",
    ),
    bot: list[str] = typer.Option(
        ["greedy"],
        "--bot",
        metavar="KIND",
        help="The kind of every bot: greedy (plays to win), expert (searches; the strongest) "
        "or random (any legal move), or a kind a plugin adds; `spoiler plugins` lists them all. "
        'exec:COMMAND runs a program for each bot (docs/bots.md), e.g. "exec:python3 bot.py". '
        "Several kinds (repeated or comma-separated) take the bots' seats in turn.",
        autocompletion=complete_bots,
    ),
    bot_option: list[str] | None = bot_option_flag(
        f" {JOBS_HELP} The record keeps them for resume."
    ),
    think: float | None = think_flag(),
    bot_time_limit: float | None = bot_time_limit_flag(" The record keeps it for resume."),
    bot_key: str | None = bot_key_flag(
        "For a seed you choose (a random one cannot be searched): the record keeps it, and "
        "the end of the game tells it with the seed. Default: none."
    ),
    sets: list[str] | None = typer.Option(
        None,
        "--sets",
        metavar="NAMES",
        help="Card sets to play with, comma-separated or repeated. Default: every installed set.",
        autocompletion=complete_sets,
    ),
    seed: int | None = typer.Option(
        None,
        "--seed",
        metavar="N",
        help="Seed of the game, to replay it exactly. Default: a random 64-bit seed. "
        "The seed decides every hand, so it is shown only when the game ends.",
    ),
    max_rounds: int = typer.Option(
        100, "--max-rounds", metavar="N", help="Round limit; reaching it ends the game in a draw."
    ),
    strict: bool = typer.Option(
        False,
        "--strict",
        help="Stop the game when a card's effect fails, instead of letting it fizzle.",
    ),
    record: Path | None = typer.Option(
        None,
        "--record",
        metavar="FILE",
        help="Save the game to FILE (TOML) after every round, to replay or resume it later. "
        "FILE must not exist (see --force).",
        autocompletion=complete_records,
    ),
    force: bool = typer.Option(
        False,
        "--force",
        help="With --record: replace FILE if it is a file that exists (never a directory, "
        "a device or a record another game is playing).",
    ),
    match: int | None = typer.Option(
        None,
        "--match",
        metavar="N",
        help="Play a match: games until someone has won N (1 to 10), with the score between games.",
    ),
    delay: float | None = typer.Option(
        None,
        "--delay",
        metavar="SECONDS",
        help="Wait this long after each event, to follow the game. Default: 0.5 on a "
        "terminal while only bots play (watched, or once you are out), else 0.",
    ),
    card_text: str = typer.Option(
        "first",
        "--card-text",
        metavar="WHEN",
        help="Show a card's text as it is played: first (the first time in a game), always "
        "or never (type ? NAME at a prompt instead).",
    ),
    plain: bool = plain_flag(),
    tutorial: bool = typer.Option(
        False,
        "--tutorial",
        help="A first game with a guide: you against two bots with the base cards; "
        "priority, choosing at the same time, losing and winning are explained as they "
        "happen (told as a transcript). Goes with --delay and --card-text only.",
    ),
) -> None:
    """Play a game against bots or friends, or watch bots play.

    At any prompt, type ? for help, ? NAME for a card's text and rulings, log for the game
    so far, q to quit (with an offer to save the game)."""
    from spoiler.agents.options import OptionError
    from spoiler.commands import common
    from spoiler.console.screen import CARD_TEXT, Screen
    from spoiler.model import interrupts
    from spoiler.plugins import UnknownName
    from spoiler.rules.game import CardError, GameError, RoundTooLong
    from spoiler.session.match import game_seed

    if tutorial:
        from spoiler.console import tutorial as guide

        given = {
            "--players": players is not None,
            "--bots": bots is not None,
            "--bot": bot != ["greedy"],
            "--bot-option": bool(bot_option),
            "--think": think is not None,
            "--bot-time-limit": bot_time_limit is not None,
            "--sets": bool(sets),
            "--seed": seed is not None,
            "--max-rounds": max_rounds != 100,
            "--strict": strict,
            "--record": record is not None,
            "--match": match is not None,
        }
        extra = [name for name, there in given.items() if there]
        if extra:
            fail(f"--tutorial plays its own table: leave out {', '.join(extra)}")
        players, bots, bot = guide.PLAYER, guide.BOTS, [guide.BOT_KIND]
        sets, seed, max_rounds = list(guide.SETS), guide.SEED, guide.MAX_ROUNDS
    try:
        humans, n_bots = table_of(players, bots)
    except TableError as exc:
        fail(str(exc))
    from spoiler.session.records import MAX_ROUNDS

    if max_rounds > MAX_ROUNDS:  # a record must stay small enough to read back (records.md)
        fail(f"--max-rounds is at most {MAX_ROUNDS}, not {max_rounds}")
    if seed is not None and not -(2**63) <= seed < 2**64:
        fail(f"--seed must be a whole number of at most 64 bits, not {seed}")
    bot_options, time_limit = bot_settings(bot_option, think, bot_time_limit)
    key = None if bot_key is None else common.checked_key(bot_key)
    set_names = common.names_of(sets, "--sets")
    kinds = common.bot_kinds(bot)

    registry = common.load_registry()
    from rich.markup import escape

    from spoiler.plugins.validation import check_hooks

    for info in registry.plugins.values():  # as `sets validate` does: hooks pluggy would skip
        for problem in check_hooks(registry, info.name, info.name):
            common.err_console().print(
                f"[yellow]Warning:[/] plugin {info.name!r}: {escape(problem.message)}",
                markup=True,
                highlight=False,
                soft_wrap=True,
            )
    for broken in registry.broken():
        common.err_console().print(
            f"[yellow]Warning:[/] plugin {broken.key!r} is broken "
            f"and was not loaded: {escape(broken.error or '')}",
            markup=True,
            highlight=False,
            soft_wrap=True,
        )
    if match is not None and not 1 <= match <= 10:
        fail(f"--match is a number of wins from 1 to 10, not {match}")
    if delay is not None and not 0 <= delay <= 60:
        fail(f"--delay is a number of seconds from 0 to 60, not {delay:g}")
    if card_text not in CARD_TEXT:
        fail(f"--card-text {card_text!r}: choose one of {', '.join(CARD_TEXT)}")
    from spoiler.model.seeds import new_seed

    chosen_seed = seed if seed is not None else new_seed()
    console = common.console()
    if tutorial:  # the guide's panels go between the events: always the transcript
        from spoiler.console.tutorial import TutorialScreen

        screen: Screen = TutorialScreen(
            console, reader_for(humans), delay=delay, card_text=card_text
        )
    else:
        screen = table_or_transcript(console, reader_for(humans), delay, card_text, plain)
    from spoiler.session import recording

    def setup(game_seed: int):
        try:
            seats = seat_players(
                registry, humans, n_bots, kinds, game_seed, screen, bot_options, time_limit, key
            )
            return new_game(registry, seats, set_names, game_seed, max_rounds, strict)
        except (UnknownName, OptionError, GameError) as exc:
            fail(str(exc))

    def run(game, recorder):
        try:
            with interrupts.game_signals(), shown(screen):
                return run_game(game, screen, lambda game: recording.record_round(recorder, game))
        except recording.RecordingError as exc:  # the record file cannot be written
            fail(str(exc), exc.code)
        except CardError as exc:
            fail(f"--strict: {exc}", 1)
        except RoundTooLong as exc:  # an effect that never ends: stop, keep what was played
            fail(f"{exc} {recording.save_runaway(recorder)}", 1)
        except GameError as exc:  # a bot that failed, an agent that kept answering illegally
            fail(f"{exc}. {recording.save_runaway(recorder)}", 1)  # what was played is kept

    def start(game, of_match=None):
        try:
            return recording.start_recording(
                game, registry, record, force, of_match, bot_options, time_limit, key
            )
        except recording.RecordingError as exc:
            fail(str(exc), exc.code)

    def stopped(game, recorder, seed):
        console.print()
        console.print(f"Game stopped in round {game.round}. Seed {seed}.", markup=False)
        # SIGTERM or SIGHUP: the terminal may be gone, so save without asking.
        save_stopped(recorder, screen, ask=not interrupts.terminal_gone())
        raise typer.Exit(interrupts.exit_code())

    if match is not None:
        from spoiler.console.matches import play_match

        game = setup(game_seed(chosen_seed, 1))
        common.note_partners(set_names, game.sets)
        recorder = start(game, of_match=(match, chosen_seed))
        screen.again = partial(recording.play_command, recorder.record)
        console.print(
            f"Spoiler {_describe_table(humans, n_bots, '/'.join(kinds))}, with "
            f"{', '.join(s.name for s in game.sets)}: a match, first to {match} "
            f"win{'s' * (match != 1)}.",
            markup=False,
        )
        try:
            play_match(game, recorder, screen, setup, run, stopped)
        finally:
            recording.stop_recording(recorder)
        return

    while True:
        game = setup(chosen_seed)
        common.note_partners(set_names, game.sets)
        recorder = start(game)
        screen.again = partial(recording.play_command, recorder.record)
        console.print(
            f"Spoiler {_describe_table(humans, n_bots, '/'.join(kinds))}, "
            f"with {', '.join(s.name for s in game.sets)}.",
            markup=False,
        )
        try:
            result = run(game, recorder)
        finally:
            recording.stop_recording(recorder)
        if result is None:
            stopped(game, recorder, chosen_seed)
        again = _play_again(screen, partial(_reveal, recorder.record, registry, screen))
        if again is None:
            return
        if again == "new":
            chosen_seed = new_seed()
        if record is not None:
            record = recording.free_name(str(record.with_suffix("")), record.suffix)
            force = False


def _play_again(screen, reveal) -> str | None:
    """At the end of a game humans played at a terminal: play again with the same seed, a
    new one, or leave (None); or first see the game again with every hand (``reveal()``)."""
    if not screen.humans() or not screen.stdin.isatty():
        return None
    while True:
        try:
            answer = screen.read(
                "Play again? s: same seed (the same deal), n: new seed, "
                "r: reveal every hand, Enter: leave",
                ["s", "n", "r"],
            ).lower()
        except (EOFError, KeyboardInterrupt):
            return None
        if answer in ("", "q", "quit", "leave"):
            return None
        if answer in ("s", "same"):
            return "same"
        if answer in ("n", "new"):
            return "new"
        if answer in ("r", "reveal"):
            reveal()
            continue
        screen.console.print("Please answer s, n, r, or press Enter to leave.", markup=False)


def _reveal(record, registry, screen) -> None:
    """The game just over, told again as a watcher of bots sees it: every hand and every
    player's choices, round by round (``spoiler replay --reveal``)."""
    from spoiler.console.game import replay_game
    from spoiler.console.screen import EVERYTHING, Screen

    shown = Screen(screen.console, EVERYTHING, delay=0, stdin=screen.stdin)
    shown.again = screen.again
    replay_game(record, registry, shown)
    shown.end()


def _describe_table(humans: list[str], bots: int, kind: str) -> str:
    bots_text = f"{bots} {kind} bot{'s' if bots != 1 else ''}"
    if not humans:
        return f"watching {bots_text}"
    if not bots:
        return f"for {', '.join(humans)}"
    return f"for {', '.join(humans)} against {bots_text}"
