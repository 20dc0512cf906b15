"""The errors a game raises, for every layer above the model to catch by name."""

from __future__ import annotations


class GameError(Exception):
    """A game that cannot be set up or continued (bad options, a misbehaving agent)."""


class CardError(Exception):
    """A card's effect raised while the game was strict."""


class RoundTooLong(GameError):
    """A round whose effects ran past the game's limits (an effect that never ends). The
    game cannot go on; the message names the round, the cards played in it and the seed."""


class IllegalChoice(ValueError):
    """A selection or an answer that the rules refuse; the agent is asked again."""
