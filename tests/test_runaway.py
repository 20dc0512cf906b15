"""The runaway guard: a round whose effects never end is stopped inside the engine (a step
budget and a deadline checked by the verbs, not a signal), on any thread, and `spoiler play`
ends with a message naming the cards played that round and the seed, the record saved."""

from __future__ import annotations

import threading
import time
from importlib import metadata

import pytest
from typer.testing import CliRunner

from spoiler import engine, hookimpl, plugins, records
from spoiler.cards import CardSet
from spoiler.cli import app, common
from spoiler.engine import RoundTooLong
from spoiler.testing import FakeEntryPoint, play_round, table


def forever(play):
    while True:
        play.note("again")


def reading_forever(play):
    while True:
        play.hand(play.player)


def loopy_set(main=forever) -> CardSet:
    loopy = CardSet("loopy", "0.1.0")
    loopy.card(type("Pebble", (), {"text": "No effect.", "copies": 8}))
    loopy.card(type("Loop", (), {"text": "Say it again, forever.", "copies": 4, "main": main}))
    return loopy


def looping_table(main=forever, **options):
    game = table(
        [loopy_set(main)], [["Loop"], ["Pebble"]], deck=["Pebble"] * 4, names=["Ada", "Bix"],
        seed=42, **options
    )  # fmt: skip
    game.max_round_steps = 5_000
    return game


def test_a_round_that_never_ends_is_stopped_naming_its_cards_and_seed():
    game = looping_table(strict=False)
    with pytest.raises(RoundTooLong) as caught:
        play_round(game, {0: "Loop", 1: "Pebble"})
    assert str(caught.value) == (
        "round 1 ran past its limit (over 5,000 steps) in card 'loopy:loop': an effect that "
        "never ends? Cards played that round: Bix's Pebble, Ada's Loop. Seed 42."
    )
    assert len(game.state.log) < 7_000  # memory stays bounded: the loop was stopped early
    with pytest.raises(RoundTooLong):  # the game cannot go on
        game.play_round()


def test_a_loop_that_only_reads_the_game_is_stopped_too():
    game = looping_table(reading_forever)
    with pytest.raises(RoundTooLong, match=r"Cards played that round: .*Ada's Loop"):
        play_round(game, {0: "Loop", 1: "Pebble"})


def test_a_slow_round_is_stopped_by_the_deadline():
    """Steps within the budget, but seconds of card code with no one deciding anything."""
    game = looping_table()
    game.max_round_steps = 10**12
    game.max_round_seconds = 0.05
    with pytest.raises(RoundTooLong, match="s of card code with no player deciding anything"):
        play_round(game, {0: "Loop", 1: "Pebble"})


def waiting(play):
    time.sleep(1.2)  # off the CPU, as a game is while a busy machine runs other work


def dozing_forever(play):
    while True:
        time.sleep(0.01)


def test_a_round_that_waits_off_the_cpu_is_not_stopped_by_the_deadline():
    """The deadline lets off the time the game's thread spent off the CPU: a game starved by
    other work (a niced ladder on a busy machine) is no runaway."""
    game = looping_table(waiting)
    game.max_round_seconds = 0.5
    play_round(game, {0: "Loop", 1: "Pebble"})
    assert game.round == 1 and game.state.result is None


def test_where_a_threads_cpu_time_is_unknown_the_wall_clock_rules(monkeypatch):
    def refused(thread_id):
        raise OSError("no such thread")

    monkeypatch.setattr(time, "pthread_getcpuclockid", refused, raising=False)
    game = looping_table(waiting)
    game.max_round_seconds = 0.5
    with pytest.raises(RoundTooLong, match="s of card code with no player deciding anything"):
        play_round(game, {0: "Loop", 1: "Pebble"})


def test_a_card_that_sleeps_forever_is_still_stopped():
    game = looping_table(dozing_forever)
    game.max_round_seconds = 0.1
    with pytest.raises(RoundTooLong, match="s of card code with no player deciding anything"):
        play_round(game, {0: "Loop", 1: "Pebble"})


def test_the_guard_works_off_the_main_thread():
    """Hosted games run the engine in a thread: no signal is needed to stop a runaway."""
    game = looping_table()
    caught = []

    def run():
        try:
            play_round(game, {0: "Loop", 1: "Pebble"})
        except RoundTooLong as exc:
            caught.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=60)
    assert not thread.is_alive() and len(caught) == 1


def test_spoiler_play_stops_a_runaway_round_and_saves_the_record(monkeypatch, tmp_path):
    class Loopy:
        @hookimpl
        def spoiler_register_sets(self, register):
            register(loopy_set())

    builtins = [
        ep
        for ep in metadata.entry_points(group=plugins.GROUP)
        if ep.dist is not None and ep.dist.name == plugins.CORE_DISTRIBUTION
    ]
    registry = plugins.load({}, [*builtins, FakeEntryPoint("loopy", Loopy())])
    monkeypatch.setattr(common, "load_registry", lambda: registry)
    monkeypatch.setattr(engine, "MAX_ROUND_STEPS", 5_000)
    monkeypatch.chdir(tmp_path)
    common.console.cache_clear()
    result = CliRunner().invoke(
        app,
        ["play", "--bots", "2", "--sets", "loopy", "--seed", "7", "--record", "game.toml"],
        env={"COLUMNS": "200", "NO_COLOR": "1"},
    )
    common.console.cache_clear()
    assert result.exit_code == 1, result.output
    [error] = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert "ran past its limit (over 5,000 steps) in card 'loopy:loop': an effect that" in error
    assert "Loop" in error.split("Cards played that round:")[1] and "Seed 7." in error
    assert ") is saved in game.toml; spoiler resume game.toml plays that round again." in error
    record = records.load(tmp_path / "game.toml")
    stuck = int(error.split("Error: round ")[1].split(" ")[0])
    assert len(record.rounds) == stuck - 1


# -- code that never calls the engine: the watchdog (issue 21, item 2) --------------------------
def spinning(play):
    n = 0
    while True:
        n += 1


def spinning_table(main=spinning, hooks=None, **options):
    game = table(
        [loopy_set(main)], [["Loop"], ["Pebble"]], deck=["Pebble"] * 4, names=["Ada", "Bix"],
        seed=42, hooks=hooks, **options
    )  # fmt: skip
    game.max_round_seconds = 0.2
    return game


def test_a_pure_python_loop_in_a_card_is_stopped_naming_the_card():
    """`while True: n += 1` never calls the engine, so no step is counted: the watchdog stops
    it at the round's clock."""
    game = spinning_table()
    with pytest.raises(RoundTooLong) as caught:
        play_round(game, {0: "Loop", 1: "Pebble"})
    assert str(caught.value).startswith("round 1 ran past its limit (0.")
    assert str(caught.value).endswith(
        "s of card code with no player deciding anything) in card 'loopy:loop': an effect "
        "that never ends? Cards played that round: Bix's Pebble, Ada's Loop. Seed 42."
    )
    with pytest.raises(RoundTooLong):  # the game cannot go on
        game.play_round()


class SpinningRule:
    @hookimpl
    def spoiler_round_end(self, game):
        while True:
            pass


def test_a_pure_python_loop_in_a_hook_is_stopped_naming_the_plugin_and_hook():
    game = spinning_table(main=lambda play: None, hooks=plugins.hooks_for(SpinningRule()))
    with pytest.raises(RoundTooLong) as caught:
        play_round(game, {0: "Loop", 1: "Pebble"})
    assert caught.value.running.hook == "spoiler_round_end"
    assert f" in plugin {caught.value.running.plugin!r} (in spoiler_round_end): " in str(
        caught.value
    )


def test_a_card_that_swallows_the_stop_is_stopped_again():
    """A careless ``except BaseException`` catches the first stop; the watchdog raises again
    while the round goes on."""

    def stubborn(play):
        try:
            while True:
                pass
        except BaseException:
            pass
        while True:
            pass

    game = spinning_table(stubborn)
    with pytest.raises(RoundTooLong, match="in card 'loopy:loop'"):
        play_round(game, {0: "Loop", 1: "Pebble"})


def test_a_pure_loop_is_stopped_off_the_main_thread_too():
    """The host plays in a thread of its own: no signal reaches it, the watchdog does."""
    game = spinning_table()
    caught = []

    def run():
        try:
            play_round(game, {0: "Loop", 1: "Pebble"})
        except RoundTooLong as exc:
            caught.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=60)
    assert not thread.is_alive() and len(caught) == 1
    assert "in card 'loopy:loop'" in str(caught[0])


def test_a_players_thinking_time_is_not_card_code():
    """A slow decision (a human at the prompt) is not stopped, however long it takes."""
    import time

    from spoiler.views import Selection

    game = spinning_table(main=lambda play: None)

    class SlowAgent:
        def select(self, view):
            time.sleep(0.5)  # more than the round's 0.2 s
            return Selection(view.playable[0])

    game.seats[0].agent = SlowAgent()
    play_round(game, {1: "Pebble"})
    assert game.round == 1


def test_the_spoiler_round_fixture_stops_a_loop_in_one_line(spoiler_table, spoiler_round):
    game = spoiler_table([loopy_set(spinning)], hands=[["Loop"], ["Pebble"]], seed=3)
    game.max_round_seconds = 0.2
    with pytest.raises(pytest.fail.Exception) as caught:
        spoiler_round(game, {0: "Loop", 1: "Pebble"})
    assert "\n" not in str(caught.value)
    assert "ran past its limit" in str(caught.value) and "in card 'loopy:loop'" in str(caught.value)


def test_the_random_games_fixture_stops_a_loop_naming_the_seed(random_games, monkeypatch):
    monkeypatch.setattr(engine, "MAX_ROUND_SECONDS", 0.2)
    with pytest.raises(pytest.fail.Exception) as caught:
        random_games([loopy_set(spinning)], games=1, seed=5)
    assert "RoundTooLong" in str(caught.value) and "in card 'loopy:loop'" in str(caught.value)
    assert "replay it with seed=5, games=1" in str(caught.value)
