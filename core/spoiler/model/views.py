"""What an agent sees and what it answers with.

A ``PlayerView`` is one player's projection of the game: their own hand, the public
state (statuses, hand *sizes*, priorities, the face-up discard pile, ongoing effects),
what they have been shown, and the events as they saw them. It never holds another
player's hand or a selection that has not been revealed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from spoiler.model.state import Status

if TYPE_CHECKING:
    from spoiler.model.cards import Card
    from spoiler.model.events import Event


class PlayerInfo(NamedTuple):
    """The public facts about one player (what a target kind's ``allows`` sees, too)."""

    seat: int
    name: str
    status: Status
    hand_size: int
    priority: int  # 1 = first
    counters: Mapping[str, int]  # read-only


def _refuse(self: object, *args: object, **kwargs: object) -> None:
    raise TypeError("a game's log is read-only: the engine alone writes it")


#: Stands in for every method that would change the log (typed Any: it replaces many).
_read_only: Any = _refuse


class EventLog(list):
    """The engine's log as views hold it: a list that refuses every change but the engine's
    own ``EventLog.add`` (views share it, so that a view costs nothing to make)."""

    __slots__ = ()
    add = list.append
    append = extend = insert = remove = pop = clear = sort = reverse = _read_only
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _read_only


class Secrets(dict):
    """One seat's secrets by position in the log, refusing every change but ``Secrets.put``.
    They are put as the log grows, so they are in order of position (``secrets_since``)."""

    __slots__ = ()
    put = dict.__setitem__
    __setitem__ = __delitem__ = __ior__ = _read_only
    update = setdefault = pop = popitem = clear = _read_only


@dataclass(frozen=True)
class Selection:
    """A player's choice for the round: a card from their hand, its targets (seats) and the
    information it asks for."""

    card: object  # a Card from the hand, or its id or name
    targets: tuple[int, ...] = ()
    info: object = None


@dataclass(frozen=True)
class Question:
    """A card asking a player to choose, mid-round. The answer must be one of ``options``."""

    prompt: str
    options: tuple[str, ...]
    cause: str | None = None  # the asking card's id


@dataclass(frozen=True, slots=True)
class TableView:
    """The table as everyone sees it: what a front end (a screen, a hosted seat, a web page)
    shows of a game besides one seat's own view. It holds no hand, no selection before it
    is revealed, no deck order and no seed; ``hands`` only for a game watched by no player
    (a game of bots), where every hand may be shown."""

    round: int
    players: tuple[PlayerInfo, ...]
    #: Each seat's kind: "human", or the bot kind.
    kinds: tuple[str, ...]
    deck_size: int
    discard: tuple
    #: Cards an ongoing effect keeps on the table after their round.
    in_play: tuple
    ongoing: tuple[tuple[str, int, int | None], ...]  # (effect name, owner seat, rounds left)
    #: How the game ended (a ``Result``), None while it goes on.
    result: Any = None
    hands: tuple[tuple, ...] | None = None


def seen_events(public_log: list, secrets: dict, upto: int) -> tuple:
    """The first ``upto`` events as one seat saw them: the public log, with the events whose
    secret that seat may see put back whole."""
    events = public_log[:upto]
    for index, event in secrets.items():
        if index < upto:
            events[index] = event
    return tuple(events)


@dataclass(eq=False, slots=True)
class PlayerView:
    seat: int
    round: int
    hand: tuple
    players: tuple[PlayerInfo, ...]
    deck_size: int
    discard: tuple
    ongoing: tuple[tuple[str, int, int | None], ...]  # (effect name, owner seat, rounds left)
    known: dict  # seat -> (round seen, cards shown to me)
    card_names: tuple[str, ...]
    #: The cards in the hand that may be selected now (all of them have legal targets).
    playable: tuple = ()
    #: Problem with this seat's previous answer, when it is being asked again.
    error: str | None = None
    #: The events with every secret removed, this seat's own secrets (by index), and how
    #: many events had happened when this view was taken.
    _public_log: EventLog = field(default_factory=EventLog, repr=False)
    _secrets: Secrets = field(default_factory=Secrets, repr=False)
    _upto: int = field(default=0, repr=False)
    _legal: Mapping = field(default_factory=dict, repr=False)
    #: For an agent that searches (``searches = True``), when selecting: a
    #: ``spoiler.search.Searcher`` giving determinizations from this seat's point of view.
    search: object = field(default=None, repr=False)

    @property
    def me(self) -> PlayerInfo:
        return self.players[self.seat]

    @property
    def events(self) -> tuple:
        """This game's events up to this view, as this player saw them."""
        return seen_events(self._public_log, self._secrets, self._upto)

    @property
    def event_count(self) -> int:
        """How many events had happened when this view was taken (``len(view.events)``)."""
        return self._upto

    def events_since(self, start: int) -> list:
        """``view.events[start:]`` without making the rest: for a front end that follows a
        seat's events, one view after another (its cost is the new events', not the log's)."""
        events = self.public_events_since(start)
        for index, event in self.secrets_since(start):
            events[index - start] = event
        return events

    def public_events_since(self, start: int) -> list:
        """The events from position ``start`` on with every secret removed: as everyone saw
        them, the same in every seat's view of this moment."""
        return self._public_log[start : self._upto]

    def secrets_since(self, start: int) -> list[tuple[int, Event]]:
        """The events from position ``start`` on that this seat saw with a secret, each with
        its position, in order: ``events_since(start)`` is ``public_events_since(start)``
        with these in their places. Its cost is theirs, not the log's."""
        found: list[tuple[int, Event]] = []
        secrets, upto = self._secrets, self._upto
        for index in reversed(secrets):  # (in order of position)
            if index < start:
                break
            if index < upto:
                found.append((index, secrets[index]))
        found.reverse()
        return found

    def others(self) -> list[PlayerInfo]:
        return [p for p in self.players if p.seat != self.seat]

    def legal_targets(self, card: Card) -> tuple[tuple[int, ...], ...]:
        """For each target the card asks for, the seats this player may choose."""
        legal = self._legal
        kinds = card.targets
        if len(kinds) == 1 and kinds[0] in legal:  # the usual case, asked every selection
            return (legal[kinds[0]],)
        return tuple(
            [
                legal[t] if t in legal else tuple(t.candidates(self.seat, self.players))
                for t in kinds
            ]
        )

    def name_of(self, seat: int) -> str:
        return self.players[seat].name
