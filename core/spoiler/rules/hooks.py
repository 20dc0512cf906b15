"""Calling the plugins' phase and card-effect hooks, and blaming the plugin whose hook
failed. Only hooks some plugin in this game implements are ever called, so a game without
rule plugins pays nothing for them."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from types import FrameType
from typing import Any

from spoiler.model.cards import Target
from spoiler.model.errors import CardError, GameError, Running
from spoiler.model.interrupts import PLUGIN_FAILURES, Stop
from spoiler.model.verbs import Ongoing, Play, name_the_closest
from spoiler.rules.guard import Guard
from spoiler.rules.log import Log
from spoiler.rules.native import mypyc_attr


@mypyc_attr(allow_interpreted_subclasses=True)  # (Game's part: see game.py)
class Hooks(Log):
    """The part of the engine that calls hooks."""

    strict: bool

    def _init_hooks(self, hooks: dict[str, Callable[..., Any]] | None) -> None:
        #: Only hooks some plugin in this game implements.
        self.hooks = {name: caller for name, caller in (hooks or {}).items() if caller is not None}

    def _copy_into(self, new: Guard) -> None:
        super()._copy_into(new)
        assert isinstance(new, Hooks)
        new.hooks = self.hooks  # callers, never changed once the game is made: shared

    def _hook(self, name: str, **kwargs: Any) -> Any:
        """Call a hook; a plugin that raises is blamed by name (``rule_failed``), and the game
        goes on (a strict game stops with ``CardError``)."""
        caller = self.hooks.get(name)
        if caller is None:
            return None
        try:
            return caller(**kwargs)
        except (EOFError, GameError, Stop):
            raise
        except PLUGIN_FAILURES as exc:
            name_the_closest(exc)
            plugin = blame(caller, exc)
            if self.strict:
                raise CardError(f"plugin {plugin!r} failed in {name}: {exc}") from exc
            self._emit(
                "rule_failed",
                None,
                plugin,
                {"plugin": plugin, "hook": name, "error": f"{type(exc).__name__}: {exc}"},
            )
            return None

    def _running(self, frame: FrameType | None) -> Running:
        return running_code(self, frame)


def who_is_running(game: Hooks, frame: FrameType | None = None) -> str:
    """Who is running code in ``game`` now, from the calling frames (or from ``frame`` and
    its callers: another thread's): the plugin whose hook implementation it is
    (``plugin 'sudden' (in spoiler_round_start)``), else the card or ongoing effect whose
    effect it is, else "something"."""
    return str(running_code(game, frame or inspect.currentframe())) or "something"


def running_code(game: Hooks, frame: FrameType | None) -> Running:
    """Whose code runs in ``frame`` or its callers: the innermost hook implementation of a
    plugin, or card effect, or ongoing effect's handler."""
    impls = {
        impl.function.__code__: (impl.plugin_name, name)
        for name, caller in game.hooks.items()
        for impl in getattr(caller, "get_hookimpls", list)()  # (a plain function has none)
    }
    # Any, not FrameType: since Python 3.13 f_locals is a proxy, not the dict typeshed says,
    # and a compiled engine checks the type it reads.
    here: Any = frame
    while here is not None:
        found = impls.get(here.f_code)
        if found is not None:
            return Running(plugin=found[0], hook=found[1])
        source = here.f_locals.get("play", here.f_locals.get("self"))
        if isinstance(source, Play):  # a card's effect: main(play), at_end(play) ...
            return Running(card=source.card.id)
        if isinstance(source, Ongoing):  # an ongoing effect's handler
            if source.card:
                return Running(card=source.card.id)
            return Running(effect=source.name)
        if isinstance(source, Target):  # a target kind's allows (in Target.candidates)
            return Running(target=source.description)
        here = here.f_back
    return Running()


def blame(caller: Any, exc: BaseException) -> str:
    """The name of the plugin whose hook implementation raised ``exc``."""
    impls = {impl.function.__code__: impl.plugin_name for impl in caller.get_hookimpls()}
    tb = exc.__traceback__
    while tb is not None:
        name = impls.get(tb.tb_frame.f_code)
        if name is not None:
            return name
        tb = tb.tb_next
    return ", ".join(sorted(set(impls.values()))) or "unknown"
