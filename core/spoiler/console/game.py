"""A game at a terminal, for ``spoiler play``, ``resume`` and ``replay`` and for the SSH host:
who reads the shared screen, the humans seated at it, the game played round by round on it,
a recorded game told again, and the offer to save a game that stopped.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple


def reader_for(humans: list[str]):
    """Who reads the shared screen: everyone's secrets for bots only, the one human's view,
    or the public view when several humans share the keyboard."""
    from spoiler.console.screen import EVERYTHING

    if not humans:
        return EVERYTHING
    return 0 if len(humans) == 1 else None


def reader_of(kinds: list[str]):
    """Who reads the screen of a recorded game (its seats' kinds), as ``reader_for`` decided
    it when the game was played."""
    from spoiler.console.screen import EVERYTHING

    humans = [seat for seat, kind in enumerate(kinds) if kind == "human"]
    if not humans:
        return EVERYTHING
    return humans[0] if len(humans) == 1 else None


def seat_players(
    registry,
    humans: list[str],
    bots: int,
    bot_kind: str | list[str],
    seed: int,
    screen,
    options: dict | None = None,
    time_limit: float | None = None,
    key: str | None = None,
):
    """The seats of a game at this screen (``spoiler.session.seating.seat_players``): each
    human asked at it (``HumanAgent``), then the bots."""
    from spoiler.console.human import HumanAgent
    from spoiler.session import seating

    def human(hot_seat: bool):
        return HumanAgent(screen, hot_seat=hot_seat)

    return seating.seat_players(
        registry, humans, bots, bot_kind, seed, human, options, time_limit, key
    )


def table_or_transcript(console, reader, delay=None, card_text="first", plain=False):
    """The full-screen table at a terminal (imported only then: it costs start-up), else
    the transcript (pipes, ``TERM=dumb``, ``--plain``)."""
    from spoiler.console.screen import Screen

    if not plain and console.is_terminal:
        from spoiler.console.fullscreen import TableScreen, wants_table

        if wants_table(console):
            return TableScreen(console, reader, delay=delay, card_text=card_text)
    return Screen(console, reader, delay=delay, card_text=card_text)


def shown(screen):
    """While a game is played: the full-screen table on the terminal's alternate screen."""
    from contextlib import nullcontext

    shown = getattr(screen, "shown", None)
    return shown() if shown is not None else nullcontext()


def run_game(
    game, screen, after_round: Callable | None = None, replaced: Mapping[int, int] | None = None
):
    """Play ``game`` to its end on ``screen``, narrating each round's events as the screen's
    reader sees them. ``after_round(game)`` is called after every whole round. ``replaced``:
    the seats a bot took over (a resumed record's), by the round it did; the screen names them
    "NAME (bot)" from that round on.

    When every human at the table is out, they choose to watch the rest or skip to the end.

    Returns the result, or None when the players stopped the game (``q``, end of input or
    Ctrl-C); the game then holds every whole round played and the interrupted one's decisions
    so far.
    """
    from spoiler.agents import close_agents
    from spoiler.console.screen import EVERYTHING

    screen.follow(game)
    if game.round == 0:
        screen.set_rules()
    try:
        game.start()
        screen.catch_up()
        if screen.reader == EVERYTHING:
            screen.standings("At the table")
        offered = False  # the choice to watch is offered once each time the humans are out
        while not game.over:
            name_bots(screen, replaced or {}, game.round + 1)
            game.play_round()
            screen.catch_up()
            out = screen.humans() and not screen.humans_in_play()
            if not game.over and not screen.quiet and (screen.reader == EVERYTHING or out):
                screen.standings(f"After round {game.round}")
            if after_round is not None:
                after_round(game)
            screen.round_over()
            if out and not offered and not game.over:
                _watch_or_skip(screen)
            offered = bool(out)
    except (EOFError, KeyboardInterrupt):
        return None
    finally:
        close_agents(game)
    screen.end()
    return game.result


def name_bots(screen, replaced: Mapping[int, int], round: int) -> None:
    """Before ``round`` is played: the seats a bot took over by then (``replaced``: seat ->
    round) are "NAME (bot)" on ``screen`` from the round the bot did."""
    for seat, since in replaced.items():
        if since <= round:
            screen.replace(seat, since)


class Replayed(NamedTuple):
    game: Any
    #: The first way the replay differs from the record; None when it matches.
    difference: str | None
    #: The reader stopped stepping through it (q, end of input or Ctrl-C).
    stopped: bool


def replay_game(record, registry, screen, step: bool = False) -> Replayed:
    """Replay one game's recorded rounds on ``screen`` (``spoiler replay``, and the reveal
    after a game); with ``step``, the reader presses Enter before each round after the first.
    Raises ``RecordError`` for a record these plugins cannot rebuild the game of."""
    from spoiler.console.screen import EVERYTHING
    from spoiler.session import records

    game = records.build_game(record, registry)
    recorder = records.Recorder(record)
    replaced = {s: p.replaced_in for s, p in enumerate(record.players) if p.replaced_in}
    screen.follow(game)
    game.start()
    screen.catch_up()
    if screen.reader == EVERYTHING:
        screen.standings("At the table")
    first = None
    for entry in record.rounds:
        if step and entry.round > 1:
            try:
                answer = screen.read(f"Press Enter for round {entry.round} (q: stop).")
            except (EOFError, KeyboardInterrupt):
                answer = "q"
            if answer.lower() in ("q", "quit"):
                return Replayed(game, first, stopped=True)
        name_bots(screen, replaced, entry.round)
        game.play_round()
        first = first or recorder.round_played(game)
        screen.catch_up()
        for line in entry.chat:  # what was said at the table while the round was played
            screen.notice(f"{line['by']}: {line['text']}", "cyan")
        if screen.reader == EVERYTHING and not game.over:
            screen.standings(f"After round {game.round}")
        if game.over:
            break
    return Replayed(game, first or records.ending_difference(record, game), stopped=False)


def _watch_or_skip(screen) -> None:
    """Every human is out: watch the rest of the game, skip to its result, or quit. (Asked
    at a terminal only: answers from a file or a pipe were written for the game's prompts.)"""
    from spoiler.console.screen import QuitGame

    if not screen.stdin.isatty():
        return
    while True:
        answer = screen.read(
            "You are out of this game. Watch the rest? [Y/n] (n: skip to the result, q: quit)"
            if len(screen.humans()) == 1
            else "Every player at the keyboard is out. Watch the rest? [Y/n] "
            "(n: skip to the result, q: quit)"
        ).lower()
        if answer in ("", "y", "yes", "w", "watch"):
            return
        if answer in ("n", "no", "s", "skip"):
            screen.quiet = True
            screen.console.print("Skipping to the result…", markup=False)
            return
        if answer in ("q", "quit"):
            raise QuitGame
        screen.console.print("Please answer y (watch), n (skip to the result) or q (quit).")


def save_stopped(recorder, screen, ask: bool = True) -> None:
    """A game stopped by end of input, Ctrl-C, SIGTERM or SIGHUP: say where its record is, or
    offer to save it. Only an explicit yes saves: Enter and end of input decline (a piped game
    leaves no file behind). ``ask`` is False when the terminal is gone (SIGTERM, SIGHUP): the
    player never had the chance to answer, so the game is saved without asking."""
    from rich.console import Console

    from spoiler.session import recordfile
    from spoiler.session.recording import free_name, reason, shown, whole_rounds

    out = screen.console
    record, path = recorder.record, recorder.path
    rounds = len(record.rounds)
    if path is not None:
        out.print(
            f"{shown(path)} holds {whole_rounds(rounds)}; continue with: "
            f"spoiler resume {shown(path)}",
            markup=False,
            soft_wrap=True,
        )
        return
    seed = record.match.seed if record.match is not None else record.seed
    path = free_name(f"spoiler-{seed}", ".toml")
    if ask:
        try:
            answer = screen.read(
                f"Save the game ({whole_rounds(rounds)}) to {path}, to resume later? [y/N]"
            )
        except EOFError:
            answer = ""
        except KeyboardInterrupt:
            out.print()
            return
        if answer.strip().lower() not in ("y", "yes"):
            out.print("Not saved.", markup=False)
            return
    try:
        with recordfile.RecordFile.create(path) as held:
            record.save(held)
    except (OSError, recordfile.FileProblem) as exc:
        Console(stderr=True, highlight=False).print(
            f"Error: could not save the game to {path}: {reason(exc)}",
            markup=False,
            soft_wrap=True,
        )
        return
    out.print(
        f"Saved to {path}; continue with: spoiler resume {path}", markup=False, soft_wrap=True
    )
