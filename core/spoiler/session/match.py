"""Matches: the same table plays game after game until someone has won a number of them.

Each game of a match has its own seed, derived one way from the match's seed, so that the
seed of a game shown at its end tells nothing about the next game's hands. A game with
several winners counts a win for each; a draw, or a game everyone lost, counts for no one.
A player knocked out of one game is back for the next: every game starts afresh.
"""

from __future__ import annotations

import hashlib

#: A match that has not found its winner after this many games per win needed ends there
#: (a set that cannot end a game would otherwise play draws for ever).
GAMES_PER_WIN = 10


def game_seed(match_seed: int, number: int) -> int:
    """The seed of game ``number`` (1, 2, …) of the match with ``match_seed``."""
    digest = hashlib.sha256(f"spoiler-match:{match_seed}:{number}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)  # what a TOML record can hold


def scores(results, players: int) -> list[int]:
    """Wins per seat, from the results of the games played (``Result``s or record dicts)."""
    wins = [0] * players
    for result in results:
        winners = result["winners"] if isinstance(result, dict) else result.winners
        for seat in winners:
            wins[seat] += 1
    return wins


def winners(wins: list[int], needed: int, games: int) -> list[int] | None:
    """The seats that took the match, or None while it goes on. It ends when someone has
    ``needed`` wins (all who reach it together share it), or after the last game allowed:
    the most wins take it then, or no one when nobody won a game."""
    best = max(wins)
    if best >= needed or games >= needed * GAMES_PER_WIN:
        return [seat for seat, w in enumerate(wins) if w == best and best > 0]
    return None
