"""Agents: who decides for a player. An agent has two methods:

* ``select(view) -> Selection``: choose this round's card, targets and information;
* ``answer(view, question) -> str``: answer a card's question with one of its options.

Both receive only a ``PlayerView``. When an answer was refused, the next view's ``error``
says why. The bots people play against come from plugins (``spoiler_register_agents``).
"""

from __future__ import annotations

import random

from spoiler.engine import GameError
from spoiler.views import PlayerView, Question, Selection


def bot_rng(seed: int, seat: int) -> random.Random:
    """A bot's own random stream: fixed by the game's seed and the seat, and independent of
    the game's RNG, so changing one player's agent never changes what the deck does."""
    return random.Random(f"spoiler-bot:{seed}:{seat}")


class RandomAgent:
    """Chooses uniformly among legal selections and answers. Seeded, so games replay."""

    def __init__(self, seed: int = 0, seat: int = 0):
        self.rng = bot_rng(seed, seat)

    def select(self, view: PlayerView) -> Selection:
        rng = self.rng
        card = view.playable[rng.randrange(len(view.playable))]
        targets = view.legal_targets(card)
        if not targets:
            chosen = ()
        elif len(targets) == 1:  # the usual case; draws from the RNG exactly as sample(seats, 1)
            seats = targets[0]
            chosen = (seats[rng.randrange(len(seats))],)
        else:
            chosen = _distinct(rng, targets)
        info = None
        if card.ask is not None:
            choices = card.ask.choices(view.card_names)
            info = choices[rng.randrange(len(choices))]
        return Selection(card, chosen, info)

    def answer(self, view: PlayerView, question: Question) -> str:
        return question.options[self.rng.randrange(len(question.options))]


def _distinct(rng: random.Random, slots: list[list[int]]) -> tuple[int, ...]:
    """One seat per slot, all different (falls back to any choice if impossible)."""
    for _ in range(20):
        chosen = tuple(rng.choice(s) for s in slots)
        if len(set(chosen)) == len(chosen):
            return chosen
    return tuple(rng.choice(s) for s in slots)


class ScriptedAgent:
    """Replays recorded decisions; once they run out, hands over to ``then`` (if any).

    ``selections``: round number -> Selection. ``answers``: answers in the order asked.
    """

    def __init__(self, selections: dict[int, Selection], answers: list[str], then=None):
        self.selections = selections
        self.answers = list(answers)
        self.then = then

    def select(self, view: PlayerView) -> Selection:
        if view.round in self.selections and view.error is None:
            return self.selections.pop(view.round)
        return self._live("select", view)

    def answer(self, view: PlayerView, question: Question) -> str:
        if self.answers and view.error is None:
            return self.answers.pop(0)
        return self._live("answer", view, question)

    def _live(self, method: str, *args):
        if self.then is None:
            view = args[0]
            why = f" ({view.error})" if view.error else ""
            raise ScriptExhausted(f"no recorded decision for seat {view.seat} in round {view.round}{why}")
        return getattr(self.then, method)(*args)


class ScriptExhausted(GameError):
    """A replay needed a decision the record does not hold (or holds an illegal one)."""
