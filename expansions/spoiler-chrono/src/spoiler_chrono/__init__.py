"""Chrono, an expansion for Spoiler: time tokens kept across rounds.

While Chrono is in the game, its rules hold for every player (they are round-phase hooks,
so they run only in games that use this set):

* at the start of each round, in priority order, each player gains 1 time token per
  sundial, keeps a due appointment (5 time tokens), and their fuse burns down by 1: a fuse
  that burns out makes them lose;
* at each round's end, before the check for the end of the game, every player with 10 or
  more time tokens spends 10 and wins (the Hourglass rule).
"""

from __future__ import annotations

from spoiler import hookimpl
from spoiler_chrono.cards import APPOINTMENT, FUSE, HOURGLASS_FULL, SUNDIAL, TIME, chrono

__all__ = ["chrono", "spoiler_register_sets", "spoiler_round_start", "spoiler_round_end"]
__version__ = chrono.version


@hookimpl
def spoiler_register_sets(register):
    register(chrono)


def _in_priority(game) -> list[int]:
    return sorted(range(len(game.state.players)), key=game.priority_of)


@hookimpl
def spoiler_round_start(game):
    """Sundials shine, appointments fall due, fuses burn."""
    for seat in _in_priority(game):
        sundials = game.counter(seat, SUNDIAL)
        if sundials:
            game.add_counter(seat, TIME, sundials, cause="chrono:sundial")
        if game.counter(seat, APPOINTMENT) == game.round:
            game.add_counter(seat, APPOINTMENT, -game.round, cause="chrono:appointment")
            game.add_counter(seat, TIME, 5, cause="chrono:appointment")
        if (
            game.counter(seat, FUSE) > 0
            and game.add_counter(seat, FUSE, -1, cause="chrono:time-bomb") == 0
        ):
            game.lose(seat, cause="chrono:time-bomb")


@hookimpl
def spoiler_round_end(game):
    """The Hourglass rule: a full hourglass is spent to win."""
    for seat in _in_priority(game):
        if game.counter(seat, TIME) >= HOURGLASS_FULL:
            game.add_counter(seat, TIME, -HOURGLASS_FULL, cause="chrono:hourglass-rule")
            game.win(seat, cause="chrono:hourglass-rule")
