"""The event log, and each seat's secrets in it.

Every change is an ``Event`` in ``state.log``. Beside it the engine keeps the log with every
secret removed, and for each seat the events (by index) whose secret it may see: together,
the log as that seat saw it, so that a view needs neither the whole log nor the game.
"""

from __future__ import annotations

from spoiler.model.events import Event, make_event
from spoiler.model.verbs import Ongoing, Play
from spoiler.model.views import EventLog, Secrets, seen_events
from spoiler.rules.guard import Guard
from spoiler.rules.native import mypyc_attr


@mypyc_attr(allow_interpreted_subclasses=True)  # (Game's part: see game.py)
class Log(Guard):
    """The part of the engine that records events."""

    def _init_log(self, seats: int) -> None:
        #: Does this game keep its event log? A game always does; a fast game
        #: (``spoiler.search.fast``) whose agents read no events does not. Every verb checks
        #: it before building an event's data (a fast game's ``_emit`` drops the rest).
        #: (An attribute of the game, not of the class: Python reads those faster.)
        self.logging = True
        #: {seat} for each seat: who may see their own secrets (shared, not rebuilt per event).
        self._only = tuple(frozenset((seat,)) for seat in range(seats))
        self._public_log = EventLog()
        self._secrets = [Secrets() for _ in range(seats)]

    def _copy_into(self, new: Guard) -> None:
        super()._copy_into(new)
        assert isinstance(new, Log)
        new._only = self._only
        new.logging = self.logging
        new._public_log = EventLog(self._public_log)
        new._secrets = []
        for secrets in self._secrets:  # (a loop, not a comprehension: every rollout's)
            new._secrets.append(Secrets(secrets))

    def _emit(
        self,
        kind: str,
        seat: int | None = None,
        cause: object = None,
        data: dict | None = None,
        secret: dict | None = None,
        secret_to: frozenset[int] = frozenset(),
    ) -> Event:
        """Record an event. Its public facts come as one dict, not as keyword arguments:
        this runs ~18 times a round, and gathering keywords into a dict costs more."""
        self._steps -= 1
        if self._steps <= 0:
            self._guard()
        if data is None:
            data = {}
        if cause is not None and cause.__class__ is not str:
            cause = cause_id(cause)
        st = self.state
        log = st.log
        event = make_event(st.round, kind, seat, cause, data, secret, secret_to)
        if secret is None:
            self._public_log.add(event)
        else:
            self._public_log.add(make_event(st.round, kind, seat, cause, data))
            for s in secret_to:
                self._secrets[s].put(len(log), event)
        log.append(event)
        return event

    def every_event(self) -> tuple[Event, ...]:
        """The whole log, every secret in it: for a game that no player watches (bots only)."""
        return tuple(self.state.log)

    def events_seen_by(self, seat: int | None) -> tuple[Event, ...]:
        """The log as one seat saw it (None: as a spectator who sees only public facts)."""
        return seen_events(
            self._public_log, {} if seat is None else self._secrets[seat], len(self._public_log)
        )


def cause_id(cause: object) -> str | None:
    """How an event names its cause: a card's id, a rule's or effect's name, or None."""
    if cause is None or isinstance(cause, str):
        return cause
    card = getattr(cause, "card", None)
    return card.id if card is not None else getattr(cause, "name", None)


def seat_of(source: object) -> int | None:
    """The player a play or an ongoing effect belongs to (None: a rule's, or no one's)."""
    # A play has a player, an ongoing effect an owner (checked first: the usual sources).
    seat: object
    if isinstance(source, Play):
        seat = source.player
    elif isinstance(source, Ongoing):
        seat = source.owner
    else:
        seat = getattr(source, "player", getattr(source, "owner", None))
    return seat if isinstance(seat, int) and seat >= 0 else None
