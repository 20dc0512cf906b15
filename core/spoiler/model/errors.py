"""The errors a game raises, for every layer above the model to catch by name."""

from __future__ import annotations

from typing import NamedTuple


class GameError(Exception):
    """A game that cannot be set up or continued (bad options, a misbehaving agent)."""


class CardError(Exception):
    """A card's effect raised while the game was strict."""


class Running(NamedTuple):
    """Whose code was running: a card (its id), a plugin's hook, or an ongoing effect that
    belongs to no card (its name)."""

    card: str | None = None
    plugin: str | None = None
    hook: str | None = None
    effect: str | None = None
    #: A target kind's description, when its ``allows`` was running.
    target: str | None = None

    def __str__(self) -> str:
        if self.plugin is not None:
            return f"plugin {self.plugin!r} (in {self.hook})"
        if self.card is not None:
            return f"card {self.card!r}"
        if self.effect is not None:
            return f"effect {self.effect!r}"
        if self.target is not None:
            return f"target kind {self.target!r}"
        return ""


class RoundTooLong(GameError):
    """A round whose effects ran past the game's limits (an effect that never ends). The
    game cannot go on; the message names the round, the code that was running
    (``running``: ``card 'heist:steal'``, ``plugin 'heist' (in spoiler_round_end)``), the
    cards played in it and the seed. ``why``: the limit it ran past."""

    def __init__(self, message: str, running: Running | None = None, why: str = ""):
        super().__init__(message)
        self.running = running if running is not None else Running()
        self.why = why

    @property
    def culprit(self) -> str:
        return str(self.running)

    def __reduce__(self) -> tuple:  # (kept whole through a process pool)
        return (type(self), (str(self), self.running, self.why))


class Runaway(BaseException):
    """Raised inside a game's thread by the runaway watchdog, in code that never returns to
    the engine (a pure-Python loop). A BaseException, so that neither the engine's effect and
    hook wrappers nor a card's ``except Exception`` take it for a failure of its own; the
    engine turns it into ``RoundTooLong`` where the round began."""


class IllegalChoice(ValueError):
    """A selection or an answer that the rules refuse; the agent is asked again."""
