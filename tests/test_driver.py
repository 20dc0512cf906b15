"""The session's pull-style driver (spoiler.session.driver): a front end drives a whole game
through its pending decisions, with no thread of its own, and the game is the very game its
agents would have played straight through (issue 18: "a front end can drive a whole game
through the session's pending decisions without a thread of its own (a test plays a seeded
game that way and its record replays with --verify)")."""

from __future__ import annotations

import gc
import threading
import weakref

import pytest
from typer.testing import CliRunner

from spoiler import plugins
from spoiler.agents import RandomAgent
from spoiler.agents.wire import legal_selections, view_to_wire
from spoiler.cli import app, common
from spoiler.engine import Game, Seat
from spoiler.records import Record, Recorder
from spoiler.session.driver import Driver, DriverError
from spoiler.views import Selection

BUILTINS_ONLY = {"SPOILER_PLUGINS": ""}


@pytest.fixture(scope="module")
def registry():
    return plugins.load(environ=BUILTINS_ONLY)


def new_game(registry, seed: int, humans: int = 2, bots: int = 2) -> Game:
    """Humans (seats 0..) and greedy bots, every built-in set."""
    seats = [Seat(f"Human{i}", RandomAgent(seed, i), "human") for i in range(humans)]
    seats += [
        Seat(f"Bot{i}", registry.agent("greedy", humans + i, seed), "greedy") for i in range(bots)
    ]
    sets = registry.card_sets(None)
    return Game(sets, seats, seed, hooks=registry.game_hooks([s.name for s in sets]))


def drive(driver: Driver, policies: dict) -> list[list]:
    """Answer every pending decision with each seat's policy (an agent); the batches seen."""
    batches = []
    while not driver.over:
        batch = driver.pending()
        assert batch, "a game that is not over waits on someone"
        batches.append(batch)
        for pending in batch:
            agent = policies[pending.seat]
            if pending.kind == "select":
                driver.answer(pending, agent.select(pending.view))
            else:
                driver.answer(pending, agent.answer(pending.view, pending.question))
    return batches


def test_a_driven_game_is_the_game_its_agents_play_straight_through(registry):
    """Same seed, same decisions: the driver changes who asks, never what happens."""
    for seed in range(5):
        straight = new_game(registry, seed)
        straight.play()
        game = new_game(registry, seed)
        policies = {seat: RandomAgent(seed, seat) for seat in (0, 1)}
        drive(Driver(game, {0, 1}), policies)
        assert game.result == straight.result
        assert [e.as_dict() for e in game.state.log] == [e.as_dict() for e in straight.state.log]
        assert game.decisions == straight.decisions


def test_a_game_driven_through_pending_decisions_replays_with_verify(
    registry, tmp_path, monkeypatch
):
    """The record of a driven game, every seat driven, is a record like any other."""
    game = new_game(registry, 7)
    recorder = Recorder(Record.of(game, registry))
    policies = {seat: RandomAgent(7, seat) for seat in range(4)}
    driver = Driver(game, after_round=recorder.round_played)
    batches = drive(driver, policies)
    # No thread of its own (the runaway guard's watchdog, one a process, is the engine's).
    others = [t for t in threading.enumerate() if t.name != "spoiler-watchdog"]
    assert game.over and len(others) == 1
    assert any(p.kind == "answer" for batch in batches for p in batch), "no question was asked"
    path = tmp_path / "driven.toml"
    recorder.record.save(path)
    monkeypatch.setattr(common, "load_registry", lambda: registry)
    result = CliRunner().invoke(app, ["replay", "--verify", str(path)])
    assert result.exit_code == 0, result.output
    assert "OK" in result.output and "match the record" in result.output


def test_every_seat_that_must_select_is_pending_at_once(registry):
    """Ruling 2: selection is simultaneous. When a round's selection begins, every driven
    seat that must select is pending together, before any of them has answered."""
    game = new_game(registry, 3, humans=3, bots=1)
    driver = Driver(game, {0, 1, 2})
    first = driver.pending()
    assert [p.seat for p in first] == sorted(set(game.selecting()) & {0, 1, 2})
    assert all(p.kind == "select" and p.view.seat == p.seat for p in first)
    assert all(p.view.hand and not p.view.error for p in first)


def test_an_illegal_selection_is_asked_again_with_the_reason(registry):
    """Ruling 3: an illegal selection is refused and asked again."""
    game = new_game(registry, 4)
    driver = Driver(game, {0})
    (pending,) = driver.pending()
    driver.answer(pending, Selection("no such card"))
    (again,) = driver.pending()
    assert again.seat == 0 and again is not pending
    assert "not in your hand" in again.view.error


def test_a_decision_that_is_not_pending_cannot_be_answered(registry):
    """Answering out of turn, or twice, is refused and changes nothing."""
    game = new_game(registry, 5, humans=2, bots=2)
    driver = Driver(game, {0, 1})
    first, second = driver.pending()
    choice = RandomAgent(5, 0).select(first.view)
    driver.answer(first, choice)
    with pytest.raises(DriverError):
        driver.answer(first, choice)
    assert driver.pending() == [second]
    with pytest.raises(DriverError):
        driver.answer(second, "Accuse")  # a selection is a Selection


def test_each_pending_view_is_the_view_the_game_gives_that_seat_then(registry):
    """The views put out at a selection's start share its public parts: each is, in every
    part a seat reads, the view the game itself gives that seat at that moment."""
    for seed in range(3):
        game = new_game(registry, seed, humans=4, bots=0)
        driver = Driver(game)
        policies = {seat: RandomAgent(seed, seat) for seat in range(4)}
        while not driver.over:
            batch = driver.pending()
            for pending in batch:
                fresh = game.view(pending.seat, pending.view.error)
                assert view_to_wire(pending.view) == view_to_wire(fresh)
                assert pending.view.playable == fresh.playable
                if pending.kind == "select":
                    assert legal_selections(pending.view) == legal_selections(fresh)
            for pending in batch:
                agent = policies[pending.seat]
                if pending.kind == "select":
                    driver.answer(pending, agent.select(pending.view))
                else:
                    driver.answer(pending, agent.answer(pending.view, pending.question))


def test_a_finished_game_gets_its_agents_back_and_is_freed_without_the_collector(registry):
    """The driven seats' stand-ins point at the driver, which holds the game: once the game
    is over its seats hold their own agents again, so that a finished game and its driver
    are freed as soon as nothing holds them, not at the garbage collector's next full pass
    (a learning loop plays thousands of games)."""
    game = new_game(registry, 3)
    own = [seat.agent for seat in game.seats]
    driver = Driver(game, {0, 1})
    drive(driver, {seat: RandomAgent(3, seat) for seat in (0, 1)})
    assert [seat.agent for seat in game.seats] == own
    freed = weakref.ref(driver)  # (it holds the game, which a compiled engine cannot weakref)
    gc.disable()
    try:
        del game, driver
        assert freed() is None
    finally:
        gc.enable()


def test_the_selection_views_are_the_views_the_game_gives_each_seat_that_selects(registry):
    """``Game.selection_views``: a view for each seat asked for that must select now (as
    ``selecting()`` says), the very view the game gives that seat then."""
    for seed in range(3):
        game = new_game(registry, seed, humans=0, bots=4)
        while not game.over:
            views = game.selection_views({0, 2, 3})
            assert list(views) == [s for s in game.selecting() if s in {0, 2, 3}]
            for seat, view in views.items():
                fresh = game.view(seat)
                assert view_to_wire(view) == view_to_wire(fresh)
                assert view.playable == fresh.playable
                assert legal_selections(view) == legal_selections(fresh)
            game.play_round()
