"""Events: every change to a game is one, and the game's log is the list of them.

An event has a public part (``data``) everyone sees, and optionally a ``secret`` part
that only the seats in ``secret_to`` see (the card a player drew, a hand shown to one
player). ``seen_by(seat)`` is the event as that seat knows it.
"""

from __future__ import annotations


class Event:
    __slots__ = ("round", "kind", "seat", "cause", "data", "secret", "secret_to")

    def __init__(
        self,
        round: int,
        kind: str,
        seat: int | None = None,
        cause: str | None = None,
        data: dict | None = None,
        secret: dict | None = None,
        secret_to: frozenset[int] = frozenset(),
    ):
        self.round = round
        self.kind = kind
        #: The seat the event is about (who lost, who drew ...), if any.
        self.seat = seat
        #: The card id (or "set:rule") that caused it, if any.
        self.cause = cause
        self.data = data or {}
        self.secret = secret
        self.secret_to = secret_to

    def seen_by(self, seat: int | None) -> Event:
        """This event as ``seat`` sees it (None: the public view)."""
        if self.secret is None or seat in self.secret_to:
            return self
        return Event(self.round, self.kind, self.seat, self.cause, self.data, None, frozenset())

    def as_dict(self) -> dict:
        """A plain, comparable form (used by tests, records and replays)."""
        out = {"round": self.round, "kind": self.kind}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.cause is not None:
            out["cause"] = self.cause
        out.update(self.data)
        if self.secret is not None:
            out["secret"] = dict(self.secret)
            out["secret_to"] = sorted(self.secret_to)
        return out

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and self.as_dict() == other.as_dict()

    def __repr__(self) -> str:
        return f"Event({self.as_dict()!r})"


_new = object.__new__


def make_event(
    round: int,
    kind: str,
    seat: int | None,
    cause: str | None,
    data: dict,
    secret: dict | None = None,
    secret_to: frozenset[int] = frozenset(),
) -> Event:
    """``Event(round, kind, seat, cause, data, secret, secret_to)`` for the engine, which
    records about 25 a round: calling the class runs ``__init__`` through ``type.__call__``,
    which costs twice as much as filling the slots here. ``data`` must be a dict."""
    event = _new(Event)
    event.round = round
    event.kind = kind
    event.seat = seat
    event.cause = cause
    event.data = data
    event.secret = secret
    event.secret_to = secret_to
    return event
