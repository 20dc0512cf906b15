"""The engine in parts (spoiler.rules): a clone copies what every part holds, so that no
mutable attribute is shared between a game and its clone; every event kind any part emits
has its sentence; the round is a table of phases."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest

import spoiler.rules
from spoiler import plugins
from spoiler.model.state import GameState, Seat
from spoiler.narration.narrate import KINDS
from spoiler.rules.game import ROUND, Game
from spoiler.search import clone
from spoiler.search.fast import FastGame

#: What a game and its clones may share besides plain values: never changed once the game is
#: made.
SHARED = {"sets", "cards", "card_names", "cards_by_id", "labels", "hooks"}
PLAIN = (int, float, str, tuple, frozenset, type(None))


@pytest.fixture(scope="module")
def every_set():
    registry = plugins.load()
    names = sorted(registry.sets)
    return registry, registry.card_sets(names), registry.game_hooks(names)


def a_game_under_way(every_set, cls=Game) -> Game:
    registry, sets, hooks = every_set
    for seed in range(200):
        seats = [Seat(f"P{i}", registry.agent("random", i, seed), "random") for i in range(4)]
        game = cls(sets, seats, seed, hooks=hooks)
        for _ in range(6):
            if not game.over:
                game.play_round()
        if not game.over and game.state.ongoing:
            return game
    raise AssertionError("no game with an ongoing effect after six rounds")


def attributes(game) -> dict:
    """A game's attributes by name: its ``__dict__``, or, compiled (hatch_compile.py), the
    attributes mypyc lists for pickling; ``object.__getstate__`` gives either."""
    return dict(game.__getstate__())


@pytest.mark.parametrize("cls", [Game, FastGame])
def test_a_clone_has_every_attribute_of_the_game_and_shares_none_that_changes(every_set, cls):
    """Each part copies what it holds: a new attribute that no part copies is missing from
    the clone (this fails), and none that a game changes is shared with it."""
    game = a_game_under_way(every_set, cls)
    twin = game.clone()
    assert type(twin) is cls
    assert set(attributes(twin)) == set(attributes(game))
    for name, value in attributes(game).items():
        if name in SHARED or name == "seats" or isinstance(value, PLAIN):
            continue
        assert attributes(twin)[name] is not value, f"{name} is shared with the clone"
    assert twin.seats is not game.seats
    assert all(a.agent is b.agent for a, b in zip(twin.seats, game.seats, strict=True))
    assert isinstance(twin.state, GameState)
    for a, b in zip(game.state.ongoing, twin.state.ongoing, strict=True):
        assert a is not b and b.game is twin
    for name, effects in game._handlers.items():
        assert [id(e) for e in twin._handlers[name]] == [
            id(twin.state.ongoing[game.state.ongoing.index(e)]) for e in effects
        ]


def test_a_fast_clone_of_a_game_plays_on_as_the_game(every_set):
    """search.clone builds on Game.clone: a fast copy of a normal game gives the same game."""
    game = a_game_under_way(every_set)
    fast = clone(game, [copy.deepcopy(s.agent) for s in game.seats], fast=True, log=True)
    assert isinstance(fast, FastGame)
    fast.play()
    twin = game.clone([copy.deepcopy(s.agent) for s in game.seats])
    twin.play()
    assert fast.result == twin.result
    assert [e.as_dict() for e in fast.state.log] == [e.as_dict() for e in twin.state.log]


def test_every_event_kind_any_part_of_the_engine_emits_has_its_own_sentence():
    """The terminal tells every change, whichever part of the engine records it."""
    emitted: set[str] = set()
    for path in Path(spoiler.rules.__file__).parent.glob("*.py"):
        emitted |= set(re.findall(r'_emit\(\s*"([a-z_]+)"', path.read_text(encoding="utf-8")))
    assert {"lost", "won", "drew", "played", "selected", "game_over"} <= emitted
    assert emitted <= KINDS, f"no sentence for: {sorted(emitted - KINDS)}"


def test_the_round_is_a_table_of_phases_whose_hooks_are_specs():
    """Adding a phase is a row: its name, the hook spec it calls (if any), its step."""
    from spoiler.plugins import hookspecs

    names = [phase.name for phase in ROUND]
    assert len(set(names)) == len(names)
    assert names[0] == "round start" and names[-1] == "end check"
    for phase in ROUND:
        assert phase.hook is None or hasattr(hookspecs, phase.hook)
        assert phase.hook is not None or phase.step is not None


@pytest.mark.parametrize("cls", [Game, FastGame])
def test_a_game_keeps_under_thirty_attributes(every_set, cls):
    """CPython keeps at most 30 attributes in its compact instance layout, whose reads are
    faster (a game of 30 played fast mode ~8% slower): the parts hold few attributes each."""
    assert len(attributes(a_game_under_way(every_set, cls))) < 30


def test_plays_effects_and_rules_have_no_getattr():
    """A class with ``__getattr__`` has every attribute read of its instances go the slow,
    unspecialized way, and the engine reads its plays at every step: the misspelt-verb hint
    comes from where card code fails (``name_the_closest``), not from a ``__getattr__``."""
    from spoiler.model.verbs import Ongoing, Play, Rule

    assert [cls.__name__ for cls in (Play, Ongoing, Rule) if hasattr(cls, "__getattr__")] == []
