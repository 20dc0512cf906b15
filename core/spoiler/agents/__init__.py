"""Agents: who decides for a player. An agent (``Agent``) has two methods:

* ``select(view) -> Selection``: choose this round's card, targets and information;
* ``answer(view, question) -> str``: answer a card's question with one of its options;

and may have a third, ``close(result)``: the game is over (its ``Result``) or was stopped
(None), so an agent that holds something (a program, a connection) lets go of it. Whoever
plays a game to its end calls ``close_agents(game)``.

An agent that plays for something that can misbehave (a program: ``spoiler.agents.process``)
lists what went wrong in ``faults``, a list of ``Fault`` it appends to; whoever shows or
records the game reads them with ``new_faults`` (the screen tells each in one line, the
record keeps it in its round).

Both receive only a ``PlayerView``. When an answer was refused, the next view's ``error``
says why. The bots people play against come from plugins (``spoiler_register_agents``).

Optional class attributes tell the engine more about an agent:

* ``reads_events = False``: it never reads ``view.events``, so a fast game
  (``spoiler.fast``) with only such agents keeps no event log;
* ``searches = True``: when selecting, its view carries ``view.search``, a
  ``spoiler.search.Searcher`` (determinizations from its seat's point of view);
* ``builtin = True``: reserved for the bots shipped with Spoiler, whose selections are legal
  by construction; a fast game hands them lazy views and does not check their selections.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Sequence
from typing import NamedTuple, Protocol

# spoiler.search registers the window an agent that searches finds in view.search (the
# seam is spoiler.rules.selection): imported here, where every bot comes from.
import spoiler.search  # noqa: F401
from spoiler.model.errors import GameError
from spoiler.model.interrupts import PLUGIN_FAILURES, Stop
from spoiler.model.views import PlayerView, Question, Selection


class Agent(Protocol):
    """Who decides for a seat (``close``, optional, is not part of the protocol's type)."""

    def select(self, view: PlayerView) -> Selection: ...

    def answer(self, view: PlayerView, question: Question) -> str: ...


class Fault(NamedTuple):
    """Something that went wrong with a seat's bot, in one line any player may read (it
    names no card of the bot's hand)."""

    round: int  # the round it happened in (0: before the game began)
    seat: int
    text: str


def new_faults(game, told: dict[int, int]) -> list[Fault]:
    """The faults of the game's agents not yet in ``told`` (seat -> how many were taken),
    oldest round first; ``told`` is brought up to date."""
    found = []
    for seat, entry in enumerate(game.seats):
        faults = getattr(entry.agent, "faults", None)
        if faults:
            found.extend(faults[told.get(seat, 0) :])
            told[seat] = len(faults)
    found.sort(key=lambda fault: fault.round)  # (stable: in each seat's own order)
    return found


def close_agents(game) -> None:
    """The game is over or stopped: every seat's agent that can ``close`` is told so, with
    the game's result (None when it was stopped). A bot that fails to close is its own
    problem, never the game's."""
    for seat in game.seats:
        close_agent(seat.agent, game.result)


def close_agent(agent, result=None) -> None:
    """Tell one agent that can ``close`` that its game is over (``result``) or stopped
    (None); a failure to close is the agent's own problem."""
    close = getattr(agent, "close", None)
    if close is not None:
        with contextlib.suppress(*PLUGIN_FAILURES):
            close(result)


def bot_rng(seed: int, seat: int) -> random.Random:
    """A bot's own random stream: fixed by the game's seed and the seat, and independent of
    the game's RNG, so changing one player's agent never changes what the deck does."""
    return random.Random(f"spoiler-bot:{seed}:{seat}")


class RandomAgent:
    """Chooses uniformly among legal selections and answers. Seeded, so games replay."""

    reads_events = False
    builtin = True

    def __init__(self, seed: int = 0, seat: int = 0):
        self.rng = bot_rng(seed, seat)

    def select(self, view: PlayerView) -> Selection:
        rng = self.rng
        card = view.playable[rng.randrange(len(view.playable))]
        targets = view.legal_targets(card)
        if not targets:
            chosen: tuple[int, ...] = ()
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


def _distinct(rng: random.Random, slots: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """One seat per slot, all different (falls back to any choice if impossible)."""
    for _ in range(20):
        chosen = tuple(rng.choice(s) for s in slots)
        if len(set(chosen)) == len(chosen):
            return chosen
    return tuple(rng.choice(s) for s in slots)


class PluginBot:
    """A bot from another distribution's plugin, kept at arm's length: whatever its
    ``select`` or ``answer`` raises (``SystemExit`` and ``KeyboardInterrupt`` included, but
    never the user's Ctrl-C) stops the game with a ``spoiler.engine.GameError`` naming the
    bot kind and its plugin, so a game in the terminal ends with one line, its record kept."""

    #: Only the core's own bots are trusted to select legally unchecked (spoiler.fast): a
    #: plugin's bot that says it is built in is not believed.
    builtin = False

    def __init__(self, bot, kind: str, plugin: str):
        self.bot, self.kind, self.plugin = bot, kind, plugin

    def __getattr__(self, name: str):  # anything else the bot offers, unchanged
        return getattr(self.bot, name)

    def select(self, view: PlayerView) -> Selection:
        try:
            return self.bot.select(view)
        except (Stop, GameError, EOFError):
            raise
        except PLUGIN_FAILURES as exc:
            raise bot_failed(self.kind, self.plugin, "select", exc) from exc

    def answer(self, view: PlayerView, question: Question) -> str:
        try:
            return self.bot.answer(view, question)
        except (Stop, GameError, EOFError):
            raise
        except PLUGIN_FAILURES as exc:
            raise bot_failed(self.kind, self.plugin, "answer", exc) from exc


def bot_failed(kind: str, plugin: str, where: str, exc: BaseException):
    """The GameError for a bot of a plugin that raised (in ``where``: select, answer, or
    the factory that makes it)."""
    text = str(exc).strip().splitlines()
    reason = f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__
    return GameError(f"bot {kind!r} of plugin {plugin!r} failed in {where}: {reason}")
