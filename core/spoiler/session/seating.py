"""Who sits at a table, for any front end: the humans and bots a game's options ask for,
the bots' names, their agents, and the game they play.

The front end brings its own humans: ``seat_players`` is given a function that makes the
agent of each (a prompt at a terminal, a player over SSH, a web page …).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

DEFAULT_HUMAN = "You"
DEFAULT_BOTS = 3
BOT_NAMES = ("Ada", "Bix", "Cog", "Dot", "Eve", "Fox", "Gus", "Hal")


class TableError(ValueError):
    """Options that do not make a table of players."""


def table_of(players: str | None, bots: int | None) -> tuple[list[str], int]:
    """The humans' names and the number of bots these options ask for.

    No options: one human against three bots. ``--bots N`` alone: N bots play, watched.
    ``--players a,b``: those humans, plus ``--bots`` bots (none unless asked for).
    """
    from spoiler.rules.game import MAX_PLAYERS, MIN_PLAYERS

    if bots is not None and bots < 0:
        raise TableError(f"--bots must be 0 or more, not {bots}")
    if players is None:
        humans = [] if bots is not None else [DEFAULT_HUMAN]
        bots = DEFAULT_BOTS if bots is None else bots
    else:
        humans = [name.strip() for name in players.split(",")]
        if not all(humans):
            raise TableError(f"--players {players!r} has an empty name; separate names with commas")
        lowered = [h.lower() for h in humans]
        if len(set(lowered)) != len(humans):
            raise TableError(f"--players {players!r} names someone twice")
        bots = bots or 0
    total = len(humans) + bots
    if total < MIN_PLAYERS:
        if humans:
            raise TableError(f"{humans[0]} cannot play alone: add --bots N or more --players")
        raise TableError(f"a game of bots needs at least {MIN_PLAYERS} bots, not {bots}")
    if total > MAX_PLAYERS:
        who = f"{len(humans)} player(s) and {bots} bot(s)" if humans else f"{bots} bots"
        raise TableError(
            f"Spoiler is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {total} ({who})"
        )
    return humans, bots


def bot_names(humans: list[str], bots: int) -> list[str]:
    """Names for the bots that no human has taken."""
    taken = {h.lower() for h in humans}
    free = [n for n in BOT_NAMES if n.lower() not in taken]
    return [free[i] if i < len(free) else f"Bot {i + 1}" for i in range(bots)]


def seat_players(
    registry,
    humans: list[str],
    bots: int,
    bot_kind: str | list[str],
    seed: int,
    human: Callable[[bool], Any],
    options: dict | None = None,
    time_limit: float | None = None,
    key: str | None = None,
):
    """The seats: humans first, each with the agent ``human(hot_seat)`` makes (``hot_seat``:
    several humans share one screen), then the bots, each seeded one-way from the game's seed
    and ``key`` (``--bot-key``), and given ``options`` (``--bot-option``) and ``time_limit``
    (``--bot-time-limit``; see ``Registry.agent``); several kinds take the bots' seats in turn. Raises
    ``spoiler.plugins.UnknownName`` for a bot kind that is not installed,
    ``spoiler.agents.options.OptionError`` for options its factory refuses."""
    from spoiler.rules.game import Seat

    kinds = [bot_kind] if isinstance(bot_kind, str) else list(bot_kind)
    hot_seat = len(humans) > 1
    seats = [Seat(name, human(hot_seat), "human") for name in humans]
    for i, name in enumerate(bot_names(humans, bots)):
        seat, kind = len(seats), kinds[i % len(kinds)]
        bot = registry.agent(kind, seat, seed, options or None, time_limit=time_limit, key=key)
        seats.append(Seat(name, bot, kind))
    return seats


def new_game(
    registry, seats, set_names: list[str] | None, seed: int, max_rounds: int, strict: bool = False
):
    """The game these seats play with these sets (all usable sets when None), and the sets
    they require (``CardSet.requires``). Raises ``UnknownName`` for a set that is not
    installed, ``GameError`` for a table it refuses."""
    from spoiler.rules.game import Game, GameError

    card_sets = registry.sets_played(set_names)
    if not card_sets:
        raise GameError("no card set is installed (see `spoiler plugins`)")
    hooks = registry.game_hooks([s.name for s in card_sets])
    return Game(card_sets, seats, seed, max_rounds=max_rounds, hooks=hooks, strict=strict)
