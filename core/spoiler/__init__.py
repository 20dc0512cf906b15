"""Spoiler: a card game engine whose cards all come from plugins.

Plugin authors import what they need from here::

    from spoiler import hookimpl, CardSet, ANOTHER_PLAYER, NameACard

Everything but the version is imported lazily, so that ``spoiler --help`` and
``spoiler --version`` stay as fast as the CLI framework itself.
"""

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


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'spoiler' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
