"""The base set of Spoiler, shipped with the game and loaded like any other plugin.

It registers one card set, ``base``, through the same hook a third party's expansion uses;
the core knows none of these cards by name.
"""

from spoiler import hookimpl
from spoiler_game.base.cards import base

__all__ = ["base", "spoiler_register_sets"]


@hookimpl
def spoiler_register_sets(register):
    register(base)
