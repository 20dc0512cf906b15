"""The module paths that moved, still importable: API 1's, and the built-in plugins' old names.

``import spoiler.engine`` gives the very module ``spoiler.rules.game`` (not a copy), so code
written for API 1, its monkeypatches included, works unchanged. The finder comes first in
``sys.meta_path``: ``spoiler.cli`` is the package ``spoiler.commands``, so the path finder
would otherwise load ``spoiler.cli.common`` a second time, from that package's folder, as a
module of its own. For any other name it is one dictionary look-up. New code imports the new
paths (docs/architecture.md).

The built-in plugins were top-level packages (``spoiler_base``, ``spoiler_bots`` ...), names a
third party's ``spoiler-bots`` would take too; they are ``spoiler_game.base``,
``spoiler_game.bots`` ... now, inside the import package named after the distribution. Each
old name, its submodules included, is the module at its new name, as long as no installed
distribution has a package of that name: a real one wins, since the name is no longer ours.
"""

from __future__ import annotations

import sys

#: Old path -> where it lives now.
MOVED = {
    "spoiler.state": "spoiler.model.state",
    "spoiler.events": "spoiler.model.events",
    "spoiler.cards": "spoiler.model.authoring",  # the cards and Ongoing, as API 1 had them
    "spoiler.verbs": "spoiler.model.verbs",
    "spoiler.views": "spoiler.model.views",
    "spoiler.interrupts": "spoiler.model.interrupts",
    "spoiler.seeds": "spoiler.model.seeds",
    "spoiler.engine": "spoiler.rules.game",
    "spoiler.fast": "spoiler.search.fast",
    "spoiler.hookspecs": "spoiler.plugins.hookspecs",
    "spoiler.validation": "spoiler.plugins.validation",
    "spoiler.isolation": "spoiler.plugins.isolation",
    "spoiler.narrate": "spoiler.narration.narrate",
    "spoiler.story": "spoiler.narration.story",
    "spoiler.leaks": "spoiler.narration.leaks",
    "spoiler.records": "spoiler.session.records",
    "spoiler.recordfile": "spoiler.session.recordfile",
    "spoiler.match": "spoiler.session.match",
    "spoiler.simulate": "spoiler.session.simulate",
    "spoiler.cli": "spoiler.commands",
    "spoiler.cli.common": "spoiler.commands.common",
    "spoiler.cli.group": "spoiler.commands.group",
    "spoiler.cli.play": "spoiler.commands.play",
    "spoiler.cli.records": "spoiler.commands.records",
    "spoiler.cli.sets": "spoiler.commands.sets",
    "spoiler.cli.cards": "spoiler.commands.cards",
    "spoiler.cli.info": "spoiler.commands.info",
    "spoiler.cli.screen": "spoiler.console.screen",
    "spoiler.cli.human": "spoiler.console.human",
    "spoiler.cli.columns": "spoiler.console.columns",
    "spoiler.cli.matches": "spoiler.console.matches",
}


#: The built-in plugins' old top-level names -> their packages now (old submodules follow).
MOVED_PACKAGES = {
    f"spoiler_{name}": f"spoiler_game.{name}"
    for name in ("base", "bots", "host", "install", "ladder", "new", "simulate")
}


def new_name(name: str) -> str | None:
    """Where the module that was ``name`` lives now, or None if it did not move."""
    if name in MOVED:
        return MOVED[name]
    top, dot, rest = name.partition(".")
    if top not in MOVED_PACKAGES:
        return None
    if not dot:
        from importlib.machinery import PathFinder

        if PathFinder.find_spec(top) is not None:  # someone else's package of that name
            return None
    elif top not in sys.modules or sys.modules[top].__name__ != MOVED_PACKAGES[top]:
        return None  # the old name is someone else's package here
    return MOVED_PACKAGES[top] + dot + rest


class MovedFinder:
    """Finds an old path and loads it as the module at its new path."""

    @staticmethod
    def find_spec(name: str, path: object = None, target: object = None):
        if new_name(name) is None:
            return None
        from importlib.machinery import ModuleSpec

        return ModuleSpec(name, MovedFinder)  # type: ignore[arg-type]  # a loader by protocol

    @staticmethod
    def create_module(spec):
        from importlib import import_module

        name = new_name(spec.name)
        assert name is not None  # find_spec said so
        module = import_module(name)
        spec.loader_state = module.__spec__
        return module

    @staticmethod
    def exec_module(module) -> None:
        # The import system stamped the old path's spec on the module: give it back its own.
        module.__spec__ = module.__spec__.loader_state


def install() -> None:
    if not any(finder is MovedFinder for finder in sys.meta_path):
        sys.meta_path.insert(0, MovedFinder)
