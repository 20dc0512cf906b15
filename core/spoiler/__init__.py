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

# API 1's module paths (spoiler.engine, spoiler.cards, ...) still import: spoiler.moved.
from spoiler import moved as _moved  # noqa: E402

_moved.install()

_LAZY = {
    "hookimpl": "spoiler.plugins.hookspecs",
    "Card": "spoiler.model.cards",
    "CardSet": "spoiler.model.cards",
    "Target": "spoiler.model.cards",
    "ANY_PLAYER": "spoiler.model.cards",
    "ANOTHER_PLAYER": "spoiler.model.cards",
    "ANOTHER_ACTIVE_PLAYER": "spoiler.model.cards",
    "LOST_PLAYER": "spoiler.model.cards",
    "NameACard": "spoiler.model.cards",
    "NameANumber": "spoiler.model.cards",
    "Choose": "spoiler.model.cards",
    "Ongoing": "spoiler.model.verbs",
    "Status": "spoiler.model.state",
    "Game": "spoiler.rules.game",
    "Play": "spoiler.model.verbs",
    "Seat": "spoiler.model.state",
    "Result": "spoiler.model.state",
    "PlayerView": "spoiler.model.views",
    "Selection": "spoiler.model.views",
    "Question": "spoiler.model.views",
    "RandomAgent": "spoiler.agents",
}

__all__ = ["__version__", "API_VERSION", *_LAZY]

# What _LAZY gives at run time, spelt out for type checkers and editors (`X as X`: an
# explicit re-export, which `mypy --strict` asks of a package its users import from).
if TYPE_CHECKING:
    from typing import Any

    from spoiler.agents import RandomAgent as RandomAgent
    from spoiler.model.cards import ANOTHER_ACTIVE_PLAYER as ANOTHER_ACTIVE_PLAYER
    from spoiler.model.cards import ANOTHER_PLAYER as ANOTHER_PLAYER
    from spoiler.model.cards import ANY_PLAYER as ANY_PLAYER
    from spoiler.model.cards import LOST_PLAYER as LOST_PLAYER
    from spoiler.model.cards import Card as Card
    from spoiler.model.cards import CardSet as CardSet
    from spoiler.model.cards import Choose as Choose
    from spoiler.model.cards import NameACard as NameACard
    from spoiler.model.cards import NameANumber as NameANumber
    from spoiler.model.cards import Target as Target
    from spoiler.model.state import Result as Result
    from spoiler.model.state import Seat as Seat
    from spoiler.model.state import Status as Status
    from spoiler.model.verbs import Ongoing as Ongoing
    from spoiler.model.verbs import Play as Play
    from spoiler.model.views import PlayerView as PlayerView
    from spoiler.model.views import Question as Question
    from spoiler.model.views import Selection as Selection
    from spoiler.plugins.hookspecs import hookimpl as hookimpl
    from spoiler.rules.game import Game as Game


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'spoiler' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
