"""The game state: plain data. Only the engine (``spoiler.rules.game.Game``) writes it.

Also the two plain records around it: a ``Seat`` (who plays, and through which agent) and
the ``Result`` a game ends with.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from spoiler.model.events import Event


class Status(enum.IntEnum):
    """Where a player stands. Winning moves one step up, losing one step down.

    This is how the seed's "if you win while you have lost, they cancel out" works:
    a lost player who wins is back in play, and a winner who loses is back in play too.
    """

    LOST = 0
    IN_PLAY = 1
    WON = 2

    def __str__(self) -> str:
        return self.name.lower().replace("_", " ")


@dataclass
class Seat:
    """A player at the table: a name and the agent that decides for them."""

    name: str
    agent: Any
    kind: str = "bot"  # "human" or the bot kind, as recorded


@dataclass(frozen=True)
class Result:
    """How a game ended. kind: "win" (someone won), "default" (one player left),
    "all_lost" (everyone lost equally) or "draw" (the round limit was reached)."""

    kind: str
    winners: tuple[int, ...]
    round: int

    def describe(self, names: Sequence[str]) -> str:
        who = " and ".join(names[s] for s in self.winners)
        return {
            "win": f"{who} won in round {self.round}.",
            "default": f"{who} won by default in round {self.round}: everyone else lost.",
            "all_lost": f"Everyone lost in round {self.round}.",
            "draw": f"Draw: the round limit of {self.round} was reached with no winner.",
        }[self.kind]


class PlayerState:
    """One seat at the table."""

    __slots__ = ("seat", "name", "hand", "status", "counters", "known")

    def __init__(self, seat: int, name: str):
        self.seat = seat
        self.name = name
        self.hand: list = []
        self.status = Status.IN_PLAY
        #: Named counters (tokens) kept across rounds, keyed by a namespaced name ("chrono:time").
        self.counters: dict[str, int] = {}
        #: What this player has been shown of other hands: seat -> (round, cards).
        self.known: dict[int, tuple[int, tuple]] = {}


class GameState:
    """Everything about a game in progress. Decks are lists whose top is the end."""

    __slots__ = (
        "players",
        "deck",
        "discard",
        "in_play",
        "priority",
        "round",
        "ongoing",
        "plays",
        "rng",
        "log",
        "result",
        "built",
        "kept_secrets",
    )

    def __init__(self, names: list[str], seed: int):
        self.players = [PlayerState(i, n) for i, n in enumerate(names)]
        self.deck: list = []
        self.discard: list = []
        #: Cards an ongoing effect keeps on the table after their round.
        self.in_play: list = []
        #: Seats in priority order: priority[0] is 1st.
        self.priority: list[int] = list(range(len(names)))
        self.round = 0
        self.ongoing: list = []
        #: This round's plays, in the order they were selected (seat order).
        self.plays: list = []
        self.rng = random.Random(seed)
        self.log: list[Event] = []
        self.result: Result | None = None
        #: The deck as built at game start, for the conservation check.
        self.built: list = []
        #: Secret information of this round's plays not told yet: (the phase it is kept
        #: until, seat, card id, information), told in a ``revealed`` event when it ends.
        self.kept_secrets: list[tuple[str, int, str, Any]] = []
