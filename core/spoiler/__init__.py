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

# What _LAZY gives at run time, spelt out for type checkers and editors (`X as X`: an
# explicit re-export, which `mypy --strict` asks of a package its users import from).
if TYPE_CHECKING:
    from typing import Any

    from spoiler.agents import RandomAgent as RandomAgent
    from spoiler.cards import ANOTHER_ACTIVE_PLAYER as ANOTHER_ACTIVE_PLAYER
    from spoiler.cards import ANOTHER_PLAYER as ANOTHER_PLAYER
    from spoiler.cards import ANY_PLAYER as ANY_PLAYER
    from spoiler.cards import LOST_PLAYER as LOST_PLAYER
    from spoiler.cards import Card as Card
    from spoiler.cards import CardSet as CardSet
    from spoiler.cards import Choose as Choose
    from spoiler.cards import NameACard as NameACard
    from spoiler.cards import NameANumber as NameANumber
    from spoiler.cards import Ongoing as Ongoing
    from spoiler.cards import Target as Target
    from spoiler.engine import Game as Game
    from spoiler.engine import Play as Play
    from spoiler.engine import Result as Result
    from spoiler.engine import Seat as Seat
    from spoiler.hookspecs import hookimpl as hookimpl
    from spoiler.state import Status as Status
    from spoiler.views import PlayerView as PlayerView
    from spoiler.views import Question as Question
    from spoiler.views import Selection as Selection


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'spoiler' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
