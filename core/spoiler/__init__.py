"""Spoiler: a card game engine whose cards all come from plugins.

Plugin authors import what they need from here::

    from spoiler import hookimpl, CardSet, ANOTHER_PLAYER, NameACard

Everything but the version is imported lazily, so that ``spoiler --help`` and
``spoiler --version`` stay as fast as the CLI framework itself.
"""

from __future__ import annotations

# Not ``from typing import TYPE_CHECKING``: typing costs a hundredth of a second at every
# start, during which Ctrl-C would still print a traceback (spoiler.launch). Type checkers
# read this name as true.
TYPE_CHECKING = False

__version__ = "0.1.0"

#: The version of the plugin API (hook specs, card model, verbs). A card set may declare
#: the range it works with (``CardSet(..., api=">=1,<2")``); a set whose range excludes this
#: version is reported as broken and never loaded.
API_VERSION = "1.0"

_LAZY = {
    "hookimpl": "spoiler.hookspecs",
    "Card": "spoiler.cards",
    "CardSet": "spoiler.cards",
    "Target": "spoiler.cards",
    "ANY_PLAYER": "spoiler.cards",
    "ANOTHER_PLAYER": "spoiler.cards",
    "ANOTHER_ACTIVE_PLAYER": "spoiler.cards",
    "LOST_PLAYER": "spoiler.cards",
    "NameACard": "spoiler.cards",
    "NameANumber": "spoiler.cards",
    "Choose": "spoiler.cards",
    "Ongoing": "spoiler.cards",
    "Status": "spoiler.state",
    "Game": "spoiler.engine",
    "Play": "spoiler.engine",
    "Seat": "spoiler.engine",
    "Result": "spoiler.engine",
    "PlayerView": "spoiler.views",
    "Selection": "spoiler.views",
    "Question": "spoiler.views",
    "RandomAgent": "spoiler.agents",
}

__all__ = ["__version__", "API_VERSION", *_LAZY]

if TYPE_CHECKING:  # what _LAZY gives at run time, spelt out for type checkers and editors
    from typing import Any

    from spoiler.agents import RandomAgent
    from spoiler.cards import (
        ANOTHER_ACTIVE_PLAYER,
        ANOTHER_PLAYER,
        ANY_PLAYER,
        LOST_PLAYER,
        Card,
        CardSet,
        Choose,
        NameACard,
        NameANumber,
        Ongoing,
        Target,
    )
    from spoiler.engine import Game, Play, Result, Seat
    from spoiler.hookspecs import hookimpl
    from spoiler.state import Status
    from spoiler.views import PlayerView, Question, Selection


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'spoiler' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
