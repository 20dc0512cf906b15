"""Events: every change to a game is one, and the game's log is the list of them.

An event has a public part (``data``) everyone sees, and optionally a ``secret`` part
that only the seats in ``secret_to`` see (the card a player drew, a hand shown to one
player). ``seen_by(seat)`` is the event as that seat knows it.

Events are read-only: agents and screens are handed the very events of the log, so neither
an event nor its ``data`` and ``secret`` (read-only mappings of tuples, numbers and strings)
can be changed once recorded. The mappings are read-only views made when read, since most
events are never read field by field and a view made for each of them costs ~10% of a
game's time.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NoReturn


class _Slots:
    __slots__ = ("round", "kind", "seat", "cause", "_data", "_secret", "secret_to")
    round: int
    kind: str
    #: The seat the event is about (who lost, who drew ...), if any.
    seat: int | None
    #: The card id (or "set:rule") that caused it, if any.
    cause: str | None
    _data: Mapping[str, Any]
    _secret: Mapping[str, Any] | None
    secret_to: frozenset[int]


class Event(_Slots):
    __slots__ = ()

    def __init__(
        self,
        round: int,
        kind: str,
        seat: int | None = None,
        cause: str | None = None,
        data: Mapping | None = None,
        secret: Mapping | None = None,
        secret_to: frozenset[int] = frozenset(),
    ):
        fill = object.__setattr__
        fill(self, "round", round)
        fill(self, "kind", kind)
        fill(self, "seat", seat)
        fill(self, "cause", cause)
        fill(self, "_data", dict(data or {}))
        fill(self, "_secret", None if secret is None else dict(secret))
        fill(self, "secret_to", frozenset(secret_to))

    @property
    def data(self) -> Mapping[str, Any]:
        """The public part, read-only."""
        return MappingProxyType(self._data)

    @property
    def secret(self) -> Mapping[str, Any] | None:
        """The part only ``secret_to`` sees (None if there is none), read-only."""
        secret = self._secret
        return None if secret is None else MappingProxyType(secret)

    def get(self, name: str, default: Any = None) -> Any:
        """One fact of the event: from ``data``, else from ``secret`` (when this event
        holds one), else ``default``; without making either read-only view."""
        data = self._data
        if name in data:
            return data[name]
        secret = self._secret
        return default if secret is None else secret.get(name, default)

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"an event is read-only (tried to set {name!r})")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"an event is read-only (tried to delete {name!r})")

    def seen_by(self, seat: int | None) -> Event:
        """This event as ``seat`` sees it (None: the public view)."""
        if self._secret is None or seat in self.secret_to:
            return self
        return make_event(self.round, self.kind, self.seat, self.cause, self._data)

    def as_dict(self) -> dict:
        """A plain, comparable form (used by tests, records and replays): tuples as lists."""
        out: dict[str, Any] = {"round": self.round, "kind": self.kind}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.cause is not None:
            out["cause"] = self.cause
        out.update(_plain(self._data))
        if self._secret is not None:
            out["secret"] = _plain(self._secret)
            out["secret_to"] = sorted(self.secret_to)
        return out

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and self.as_dict() == other.as_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Event({self.as_dict()!r})"


def _plain(data: Mapping) -> dict:
    return {k: list(v) if v.__class__ is tuple else v for k, v in data.items()}


class _Draft(_Slots):
    """An event being filled in by ``make_event`` (the same slots, still writable)."""

    __slots__ = ()


_new = object.__new__


def make_event(
    round: int,
    kind: str,
    seat: int | None,
    cause: str | None,
    data: Mapping,
    secret: Mapping | None = None,
    secret_to: frozenset[int] = frozenset(),
) -> Event:
    """``Event(round, kind, seat, cause, data, secret, secret_to)`` for the engine, which
    records about 25 a round. The engine hands over fresh dicts whose values are tuples,
    numbers or strings, and never touches them again, so they are kept, not copied.

    Why a draft: a read-only event can only be filled through ``object.__setattr__``, which
    costs seven times as much as filling the slots of a writable twin and then making it an
    ``Event`` (the same slots, so Python allows the ``__class__`` change)."""
    event = _new(_Draft)
    event.round = round
    event.kind = kind
    event.seat = seat
    event.cause = cause
    event._data = data
    event._secret = secret
    event.secret_to = secret_to
    event.__class__ = Event  # type: ignore[assignment]
    return event  # type: ignore[return-value]
