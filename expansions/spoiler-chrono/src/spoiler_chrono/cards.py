"""Chrono: time tokens, fuses and sundials, kept across rounds.

Every card's ``text`` is what its code does; the set's own rules (hooks, in ``spoiler_chrono``)
hold in every game Chrono is part of: fuses burn and sundials shine at each round's start,
and a full hourglass wins at each round's end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spoiler.model.cards import ANOTHER_PLAYER, ANY_PLAYER, CardSet, NameANumber

if TYPE_CHECKING:
    from spoiler.rules.game import Play

#: The distribution's version (pyproject.toml reads it here) and the set's.
__version__ = "0.1.0"

chrono = CardSet(
    "chrono",
    __version__,
    title="Chrono",
    description=(
        "Time tokens kept across rounds. At the start of each round fuses burn down and "
        "sundials give time; at each round's end a player with 10 time tokens spends "
        "them and wins."
    ),
    rules=(
        "At the start of each round, in priority order, each player gains 1 time token for "
        "each sundial they have, keeps an appointment that falls due (5 time tokens), and "
        "their fuse burns down by 1: a fuse that burns out makes them lose. At each round's "
        "end, every player with 10 or more time tokens spends 10 and wins (the Hourglass rule)."
    ),
    labels={
        "chrono:time": "time tokens",
        "chrono:sundial": "sundials",
        "chrono:hourglass-rule": "the Hourglass rule",
    },
    api=">=1,<2",
)

#: Public counters, namespaced by the set's name.
TIME = "chrono:time"
FUSE = "chrono:fuse"
SUNDIAL = "chrono:sundial"
APPOINTMENT = "chrono:appointment"

#: Time tokens that win the game at a round's end (the Hourglass rule).
HOURGLASS_FULL = 10
FUSE_LENGTH = 3


def gain(source, seat: int, n: int) -> int:
    return source.add_counter(seat, TIME, n)


def spend(source, seat: int, n: int) -> bool:
    """Spend n time tokens if the player has them; False (and nothing spent) if not."""
    if source.counter(seat, TIME) < n:
        return False
    source.add_counter(seat, TIME, -n)
    return True


def light_fuse(source, seat: int) -> None:
    """Set a player's fuse to its full length (one fuse per player: a new one resets it)."""
    source.add_counter(seat, FUSE, FUSE_LENGTH - source.counter(seat, FUSE))


@chrono.card
class Hourglass:
    text = "Gain 2 time tokens."
    copies = 3

    @staticmethod
    def main(play: Play) -> None:
        gain(play, play.player, 2)


@chrono.card
class Sundial:
    text = "Put a sundial on yourself: from now on, at the start of each round, you gain 1 time token for each sundial you have."
    copies = 2
    rulings = ("Sundials stay all game, and keep shining for a player who has lost.",)

    @staticmethod
    def main(play: Play) -> None:
        play.add_counter(play.player, SUNDIAL, 1)


@chrono.card
class TimeBomb:
    text = (
        f"Choose another player. Light a {FUSE_LENGTH}-round fuse on them: at the start of each "
        "round it burns down by 1, and when it burns out they lose."
    )
    copies = 2
    target = ANOTHER_PLAYER
    rulings = (
        "A player has one fuse at a time: a second Time Bomb relights it to its full length.",
        "The fuse burns out at the start of the third round after the one it was lit in, "
        "before anyone selects.",
    )

    @staticmethod
    def main(play: Play) -> None:
        light_fuse(play, play.target)


@chrono.card
class Defuse:
    text = "Choose any player. Put out their fuse; if they had one, you gain 2 time tokens."
    copies = 2
    target = ANY_PLAYER
    unmet = "{target} had no fuse to put out"

    @staticmethod
    def main(play: Play) -> None:
        fuse = play.counter(play.target, FUSE)
        if fuse:
            play.add_counter(play.target, FUSE, -fuse)
            gain(play, play.player, 2)


@chrono.card
class TimeThief:
    text = "Choose another player. Take up to 2 of their time tokens."
    copies = 2
    target = ANOTHER_PLAYER
    unmet = "{target} had no time tokens to take"

    @staticmethod
    def main(play: Play) -> None:
        taken = min(2, play.counter(play.target, TIME))
        if taken:
            play.add_counter(play.target, TIME, -taken)
            gain(play, play.player, taken)


@chrono.card
class Rewind:
    text = "At End of Round: if you have 3 or more time tokens, spend 3 and win."
    copies = 2
    rulings = (
        "A player who has lost this round and rewinds is back in play (win and lose cancel out).",
    )
    unmet = "{player_s} time tokens were fewer than 3"

    @staticmethod
    def at_end(play: Play) -> None:
        if spend(play, play.player, 3):
            play.win(play.player)


@chrono.card
class Stopwatch:
    text = "At Beginning of Round: gain 1 time token, and 1 more if you are 1st in priority."
    copies = 2

    @staticmethod
    def at_beginning(play: Play) -> None:
        gain(play, play.player, 2 if play.priority_of(play.player) == 1 else 1)


@chrono.card
class HeadStart:
    text = "If you have a time token, spend it: you become 1st in priority from now on."
    copies = 1
    unmet = "{player} had no time token to spend"

    @staticmethod
    def main(play: Play) -> None:
        if spend(play, play.player, 1):
            play.change_priority(play.player, 1)


@chrono.card
class Paradox:
    text = (
        "Choose another player. If they have more time tokens than you, they lose; "
        "if they have fewer, you lose."
    )
    copies = 1
    target = ANOTHER_PLAYER
    rulings = ("With equal time tokens nothing happens.",)
    unmet = "the two players had as many time tokens each"

    @staticmethod
    def main(play: Play) -> None:
        mine, theirs = play.counter(play.player, TIME), play.counter(play.target, TIME)
        if theirs > mine:
            play.lose(play.target)
        elif theirs < mine:
            play.lose(play.player)


@chrono.card
class BorrowedTime:
    text = f"Gain 4 time tokens, and light a {FUSE_LENGTH}-round fuse on yourself."
    copies = 1

    @staticmethod
    def main(play: Play) -> None:
        gain(play, play.player, 4)
        light_fuse(play, play.player)


@chrono.card
class Appointment:
    text = (
        "Name a number from 2 to 4. At the start of the round that many rounds from now, "
        "you gain 5 time tokens."
    )
    copies = 1
    ask = NameANumber(2, 4)
    rulings = (
        "A player keeps one appointment at a time: a new one replaces the old.",
        "The appointment is kept even if the player has lost.",
    )

    @staticmethod
    def main(play: Play) -> None:
        when = play.game.round + play.info
        play.add_counter(play.player, APPOINTMENT, when - play.counter(play.player, APPOINTMENT))
