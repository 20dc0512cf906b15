"""Search windows sent to another process: a ``Searcher`` (or anything that points into a
game, such as a bot's candidate selections) as bytes, and back.

What crosses is what the window holds: a determinization, which keeps only what its seat
may know (``spoiler.search``), never the game itself. What a game is made of is not sent
but named (``Catalogue``): its cards by id, its card sets by name, the target kinds its
cards use, and its hook callers. The process that receives loads the same plugins and puts
its own in their place, after checking (``Catalogue.signature``) that they are the same.

Everything else is pickled as it stands (ongoing effects as instances of their plugins'
classes), so a set whose ongoing effects cannot be pickled cannot be searched elsewhere:
``dumps`` raises ``TransferError`` and the searcher searches in its own process.
"""

from __future__ import annotations

import io
import pickle
from collections.abc import Mapping, Sequence
from typing import Any


class TransferError(Exception):
    """Something that cannot be sent to another process, or read back there (one line)."""


class Catalogue:
    """What a game is made of, named rather than sent: ``sets`` (sorted by name, as a game
    keeps them) and the game's ``hooks`` (name -> caller)."""

    def __init__(self, sets: Sequence, hooks: Mapping[str, Any]):
        self.sets = sorted(sets, key=lambda s: s.name)
        self.hooks = hooks
        self.cards = {card.id: card for s in self.sets for card in s.cards}
        self.targets: dict[tuple[str, int], Any] = {}
        for card in self.cards.values():
            for i, kind in enumerate(card.targets):
                self.targets[(card.id, i)] = kind
        self._names: dict[int, tuple] | None = None

    @classmethod
    def of(cls, game) -> Catalogue:
        """The catalogue of a game (or of any copy of it: copies share what it names)."""
        return cls(game.sets, game.hooks)

    def signature(self) -> tuple:
        """What both ends must agree on: the sets with their versions and card ids, and which
        plugins implement each hook."""
        hooks = []
        for name, caller in sorted(self.hooks.items()):
            impls = getattr(caller, "get_hookimpls", None)
            plugins = (
                tuple(i.plugin_name for i in impls())
                if impls
                else (getattr(caller, "__qualname__", "?"),)
            )
            hooks.append((name, plugins))
        sets = tuple((s.name, str(getattr(s, "version", ""))) for s in self.sets)
        return sets, tuple(self.cards), tuple(hooks)

    def names(self) -> dict[int, tuple]:
        """Each named object's name, by ``id``."""
        if self._names is None:
            names: dict[int, tuple] = {id(self.hooks): ("hooks",)}
            for s in self.sets:
                names[id(s)] = ("set", s.name)
            for key, kind in self.targets.items():
                names.setdefault(id(kind), ("target", *key))
            for card_id, card in self.cards.items():
                names[id(card)] = ("card", card_id)
            for hook, caller in self.hooks.items():
                names[id(caller)] = ("hook", hook)
            self._names = names
        return self._names

    def find(self, name: tuple) -> Any:
        what = name[0]
        try:
            if what == "card":
                return self.cards[name[1]]
            if what == "set":
                return next(s for s in self.sets if s.name == name[1])
            if what == "target":
                return self.targets[(name[1], name[2])]
            if what == "hooks":
                return self.hooks
            if what == "hook":
                return self.hooks[name[1]]
        except (KeyError, StopIteration, IndexError):
            pass
        raise TransferError(f"this process has no {what} {name[1:]!r}")


class _Pickler(pickle.Pickler):
    def __init__(self, file, catalogue: Catalogue):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self._named = catalogue.names()

    def persistent_id(self, obj: Any) -> tuple | None:
        return self._named.get(id(obj))


class _Unpickler(pickle.Unpickler):
    def __init__(self, file, catalogue: Catalogue):
        super().__init__(file)
        self._catalogue = catalogue

    def persistent_load(self, pid: Any) -> Any:
        return self._catalogue.find(tuple(pid))


def dumps(obj: Any, catalogue: Catalogue) -> bytes:
    """``obj`` as bytes, what ``catalogue`` holds named; TransferError if it cannot be."""
    out = io.BytesIO()
    try:
        _Pickler(out, catalogue).dump(obj)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError) as exc:
        raise TransferError(
            f"cannot be sent to another process: {type(exc).__name__}: {exc}"
        ) from None
    return out.getvalue()


def loads(data: bytes, catalogue: Catalogue) -> Any:
    """What ``dumps`` made, with this process's own cards, sets and hooks in place."""
    try:
        return _Unpickler(io.BytesIO(data), catalogue).load()
    except TransferError:
        raise
    except Exception as exc:  # a class this process lacks, or bytes that are not ours
        raise TransferError(f"cannot be read here: {type(exc).__name__}: {exc}") from None
