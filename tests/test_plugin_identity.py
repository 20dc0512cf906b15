"""Plugins are who they say, and cannot take the CLI down (issue 13, part 3).

Loaded from fake entry points (``spoiler.testing.FakeEntryPoint``), in this process; the
matrix of misbehaving plugins installed for real, against every command, is in
tests/test_plugin_matrix.py.
"""

from __future__ import annotations

import json
import sys

import pytest
from typer.testing import CliRunner

from spoiler import CardSet, hookimpl, plugins, records
from spoiler.cli import app, common
from spoiler.engine import Game, GameError, Seat
from spoiler.interrupts import Stop
from spoiler.narrate import card_label, shared_names
from spoiler.testing import FakeEntryPoint


def builtins() -> list:
    from importlib import metadata

    return [
        ep
        for ep in metadata.entry_points(group=plugins.GROUP)
        if ep.dist is not None and ep.dist.name == plugins.CORE_DISTRIBUTION
    ]


def one_set(name: str, card: str = "Pebble") -> CardSet:
    card_set = CardSet(name, "1.0.0")
    card_set.card(type(card, (), {"text": "No effect.", "copies": 4}))
    return card_set


class Sets:
    def __init__(self, *card_sets):
        self.card_sets = card_sets

    @hookimpl
    def spoiler_register_sets(self, register):
        for card_set in self.card_sets:
            register(card_set)


def status(registry, key: str) -> tuple[str, str | None]:
    info = registry.plugins[key]
    return info.status, info.error


# ==============================================================================================
# Who a plugin is: its distribution
# ==============================================================================================
def test_spoiler_plugins_loads_an_entry_point_only_from_the_distribution_named():
    """Issue 13: a distribution "aaa-evil" declaring an entry point "chrono" is not run when
    SPOILER_PLUGINS names spoiler-chrono, and the real one is not reported broken."""
    entry_points = [
        FakeEntryPoint("chrono", Sets(one_set("chrono")), dist="aaa-evil"),
        FakeEntryPoint("chrono", Sets(one_set("chrono")), dist="spoiler-chrono"),
    ]
    registry = plugins.load({"SPOILER_PLUGINS": "spoiler-chrono"}, entry_points)
    assert status(registry, "chrono") == ("ok", None)
    assert registry.plugins["chrono"].distribution == "spoiler-chrono"
    assert status(registry, "chrono (aaa-evil)") == (
        "disabled",
        "distribution 'aaa-evil' is not listed in SPOILER_PLUGINS",
    )


def test_two_distributions_claiming_one_entry_point_are_both_broken_and_neither_loads():
    entry_points = [
        FakeEntryPoint("chrono", Sets(one_set("chrono")), dist="aaa-evil"),
        FakeEntryPoint("chrono", Sets(one_set("chrono")), dist="spoiler-chrono"),
    ]
    registry = plugins.load({}, entry_points)
    assert status(registry, "chrono (aaa-evil)") == (
        "broken",
        "entry point name 'chrono' is also claimed by distribution 'spoiler-chrono'; "
        "neither is loaded",
    )
    assert status(registry, "chrono (spoiler-chrono)")[0] == "broken"
    assert "chrono" not in registry.sets


def test_another_distributions_base_entry_point_never_displaces_the_built_in_one():
    """With SPOILER_PLUGINS="" it is simply not loaded; otherwise it is reported, and the
    built-in base set stays."""
    impostor = FakeEntryPoint("base", Sets(one_set("base")), dist="aaa-evil")
    quiet = plugins.load({"SPOILER_PLUGINS": ""}, [*builtins(), impostor])
    assert status(quiet, "base") == ("ok", None)
    assert status(quiet, "base (aaa-evil)")[0] == "disabled"
    assert quiet.broken() == []
    loud = plugins.load({}, [*builtins(), impostor])
    assert status(loud, "base") == ("ok", None)
    assert status(loud, "base (aaa-evil)") == (
        "broken",
        "entry point name 'base' belongs to the built-in plugin of spoiler-game; not loaded",
    )


def test_a_plugin_claiming_a_built_in_set_name_is_broken_and_the_built_in_set_stays():
    copycat = FakeEntryPoint("copycat", Sets(one_set("base")))
    registry = plugins.load({}, [*builtins(), copycat])
    assert status(registry, "copycat")[0] == "broken"
    assert "belongs to the built-in plugin 'base'" in status(registry, "copycat")[1]
    assert registry.plugins["base"].status == "ok"


def test_metadata_is_read_once_per_distribution():
    """Each read of a distribution's name or version parses its metadata file: the loader
    reads them once per distribution, however many entry points it has."""

    class Counting:
        reads = 0

        def __init__(self):
            self._name, self._version = "spoiler-many", "1.0"

        @property
        def name(self):
            Counting.reads += 1
            return self._name

        @property
        def version(self):
            Counting.reads += 1
            return self._version

    dist = Counting()
    entry_points = []
    for name in ("one", "two", "three"):
        ep = FakeEntryPoint(name, Sets(one_set(name)))
        ep.dist = dist
        entry_points.append(ep)
    registry = plugins.load({}, entry_points)
    assert {registry.plugins[n].status for n in ("one", "two", "three")} == {"ok"}
    assert Counting.reads == 2


def test_a_record_refuses_a_set_of_the_same_name_from_another_distribution():
    """Records keep each set's distribution: a look-alike set is never replayed in its
    place."""
    honest = plugins.load({}, [*builtins(), FakeEntryPoint("pebbles", Sets(one_set("pebbles")))])
    seats = [Seat(f"Bot{i}", honest.agent("random", i, 1), "random") for i in range(2)]
    game = Game(honest.card_sets(None), seats, 1)
    record = records.Record.of(game, honest)
    impostor = plugins.load(
        {}, [*builtins(), FakeEntryPoint("pebbles", Sets(one_set("pebbles")), dist="aaa-evil")]
    )
    with pytest.raises(records.RecordError, match="came from distribution 'spoiler-pebbles'"):
        records.check_installed(record, impostor)


# ==============================================================================================
# Plugin code that exits or interrupts
# ==============================================================================================
@pytest.mark.parametrize("error", [SystemExit(0), KeyboardInterrupt()], ids=["exit", "interrupt"])
def test_exiting_or_interrupting_at_import_is_the_plugins_failure(error):
    registry = plugins.load(
        {}, [FakeEntryPoint("quitter", error=error), FakeEntryPoint("fine", Sets(one_set("a")))]
    )
    assert status(registry, "quitter")[0] == "broken"
    assert status(registry, "quitter")[1].startswith(f"failed to import: {type(error).__name__}")
    assert status(registry, "fine") == ("ok", None)


def test_the_users_ctrl_c_while_plugins_load_stops_the_loading():
    with pytest.raises(Stop):
        plugins.load({}, [FakeEntryPoint("slow", error=Stop())])


class ExitsWhileRegistering:
    @hookimpl
    def spoiler_register_sets(self, register):
        sys.exit(3)


def test_exiting_in_a_content_hook_is_the_plugins_failure():
    registry = plugins.load({}, [FakeEntryPoint("exits", ExitsWhileRegistering())])
    assert status(registry, "exits") == ("broken", "SystemExit: 3")


class Loud:
    @hookimpl
    def spoiler_register_sets(self, register):
        print("hello from a plugin")
        register(one_set("loud"))


def test_what_a_plugin_prints_while_loading_goes_to_stderr(capfd):
    registry = plugins.load({}, [FakeEntryPoint("loud", Loud())])
    out, err = capfd.readouterr()
    assert "hello from a plugin" in err and out == ""
    assert status(registry, "loud") == ("ok", None)


def test_plugins_json_stays_json_when_a_plugin_prints_while_loading(monkeypatch):
    original = plugins.load
    monkeypatch.setattr(
        common,
        "load_registry",
        lambda: original({}, [*builtins(), FakeEntryPoint("loud", Loud())]),
    )
    for command in (["plugins", "--json"], ["sets", "list", "--json"]):
        result = CliRunner().invoke(app, command)
        assert result.exit_code == 0
        json.loads(result.stdout)


class Rules:
    def __init__(self, error):
        self.error = error

    @hookimpl
    def spoiler_round_start(self, game):
        raise self.error


@pytest.mark.parametrize("error", [SystemExit(0), KeyboardInterrupt()], ids=["exit", "interrupt"])
def test_exiting_or_interrupting_in_a_hook_is_a_rule_failure_not_the_end(error):
    """A KeyboardInterrupt raised by a hook is not the user's Ctrl-C; sys.exit() in a hook
    does not end the game."""
    registry = plugins.load(
        {"SPOILER_PLUGINS": "spoiler-rules"}, [*builtins(), FakeEntryPoint("rules", Rules(error))]
    )
    sets = registry.card_sets(None)
    seats = [Seat(f"Bot{i}", registry.agent("random", i, 2), "random") for i in range(3)]
    game = Game(sets, seats, 2, hooks=registry.game_hooks([s.name for s in sets]), max_rounds=3)
    game.play()
    failed = [e for e in game.state.log if e.kind == "rule_failed"]
    assert failed and failed[0].data["error"].startswith(type(error).__name__)


def test_the_users_ctrl_c_in_a_hook_stops_the_game():
    registry = plugins.load(
        {"SPOILER_PLUGINS": "spoiler-rules"}, [*builtins(), FakeEntryPoint("rules", Rules(Stop()))]
    )
    sets = registry.card_sets(None)
    seats = [Seat(f"Bot{i}", registry.agent("random", i, 2), "random") for i in range(3)]
    game = Game(sets, seats, 2, hooks=registry.game_hooks([s.name for s in sets]))
    with pytest.raises(Stop):
        game.play()


def exiting_card_set() -> CardSet:
    card_set = CardSet("quits", "1.0.0")

    def main(play):
        sys.exit(0)

    card_set.card(type("Quit", (), {"text": "Ends it all.", "copies": 20, "main": main}))
    return card_set


def test_sys_exit_in_a_card_fizzles_the_card():
    registry = plugins.load(
        {"SPOILER_PLUGINS": "spoiler-quits"},
        [*builtins(), FakeEntryPoint("quits", Sets(exiting_card_set()))],
    )
    seats = [Seat(f"Bot{i}", registry.agent("random", i, 4), "random") for i in range(3)]
    game = Game(registry.card_sets(None), seats, 4, max_rounds=5)
    game.play()
    fizzled = [e for e in game.state.log if e.kind == "fizzled"]
    assert fizzled and fizzled[0].data["error"] == "SystemExit: 0"


# ==============================================================================================
# Bots from plugins
# ==============================================================================================
class Bots:
    def __init__(self, factory):
        self.factory = factory

    @hookimpl
    def spoiler_register_agents(self, register):
        register("wild", self.factory, "a bot that fails")


def twins() -> list:
    """Two distributions that both register the bot kind "wild"."""
    return [
        FakeEntryPoint("alpha", Bots(lambda seat, seed: Raises(ValueError("x"))), dist="alpha"),
        FakeEntryPoint("beta", Bots(lambda seat, seed: Raises(ValueError("x"))), dist="beta"),
    ]


def test_two_distributions_claiming_one_bot_kind_are_both_broken_and_neither_has_it():
    """As with entry point and set names: which bot you would get must never depend on load
    order."""
    registry = plugins.load({}, [*builtins(), *twins()])
    assert status(registry, "alpha") == (
        "broken",
        "bot kind 'wild' is also claimed by plugin 'beta' (beta); neither is loaded",
    )
    assert status(registry, "beta") == (
        "broken",
        "bot kind 'wild' is also claimed by plugin 'alpha' (alpha); neither is loaded",
    )
    assert "wild" not in registry.agents
    assert {"random", "greedy", "expert"} <= set(registry.agents)


def test_a_plugin_bot_kind_named_like_a_built_in_kind_is_broken_and_the_built_in_bot_stays():
    class Copycat:
        @hookimpl
        def spoiler_register_agents(self, register):
            register("greedy", lambda seat, seed: Raises(ValueError("x")), "not greedy at all")

    registry = plugins.load({}, [*builtins(), FakeEntryPoint("copycat", Copycat())])
    assert status(registry, "copycat") == (
        "broken",
        "bot kind 'greedy' belongs to the built-in plugin 'bots' (spoiler-game); not loaded",
    )
    assert registry.agents["greedy"].plugin == "bots"
    assert registry.agent("greedy", 0, 1).builtin is True


def test_play_with_a_bot_kind_two_distributions_claim_is_one_line_naming_both(monkeypatch):
    original = plugins.load
    monkeypatch.setattr(common, "load_registry", lambda: original({}, [*builtins(), *twins()]))
    result = CliRunner().invoke(app, ["play", "--bots", "3", "--bot", "wild", "--seed", "1"])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert errors == [
        "Error: bot kind 'wild' is claimed by alpha (plugin 'alpha') and beta (plugin 'beta'); "
        "neither is loaded (see `spoiler plugins`)"
    ]
    assert "plugin 'alpha' is broken" in result.stderr  # warned of before the game, as
    assert "plugin 'beta' is broken" in result.stderr  # every broken plugin is


class Raises:
    def __init__(self, error):
        self.error = error

    def select(self, view):
        raise self.error

    def answer(self, view, question):
        raise self.error


def wild(factory):
    original = plugins.load
    return lambda: original(
        {"SPOILER_PLUGINS": "spoiler-wild"}, [*builtins(), FakeEntryPoint("wild", Bots(factory))]
    )


@pytest.mark.parametrize("error", [ValueError("no idea"), SystemExit(0)], ids=["raises", "exits"])
def test_a_raising_bot_stops_the_game_with_one_line_naming_its_kind_and_plugin(
    monkeypatch, tmp_path, error
):
    monkeypatch.setattr(common, "load_registry", wild(lambda seat, seed: Raises(error)))
    path = tmp_path / "game.toml"
    result = CliRunner().invoke(
        app, ["play", "--bots", "3", "--bot", "wild", "--seed", "1", "--record", str(path)]
    )
    assert result.exit_code == 1, result.stdout
    assert isinstance(result.exception, SystemExit)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(
        f"Error: bot 'wild' of plugin 'wild' failed in select: {type(error).__name__}"
        + (": no idea. " if isinstance(error, ValueError) else ": 0. ")
    )
    assert f"is saved in {path}" in lines[0]
    assert records.load(path).rounds == []  # the record is kept, whole


def test_a_raising_bot_factory_is_one_line(monkeypatch):
    def factory(seat, seed):
        raise RuntimeError("cannot start")

    monkeypatch.setattr(common, "load_registry", wild(factory))
    result = CliRunner().invoke(app, ["play", "--bots", "3", "--bot", "wild"])
    assert result.exit_code != 0 and isinstance(result.exception, SystemExit)
    assert result.stderr.strip() == (
        "Error: bot 'wild' of plugin 'wild' failed in its factory: RuntimeError: cannot start"
    )


def test_a_bot_that_raises_is_a_game_error_not_a_crash():
    registry = wild(lambda seat, seed: Raises(ValueError("x")))()
    seats = [Seat(f"Bot{i}", registry.agent("wild", i, 1), "wild") for i in range(2)]
    game = Game(registry.card_sets(None), seats, 1)
    with pytest.raises(GameError, match="bot 'wild' of plugin 'wild' failed in select"):
        game.play()


# ==============================================================================================
# Cards of different sets that share a name
# ==============================================================================================
def accuse_look_alike() -> CardSet:
    card_set = CardSet("lookalike", "1.0.0")
    card_set.card(type("Accuse", (), {"text": "Nothing happens.", "copies": 6}))
    return card_set


def test_a_plugin_card_named_like_a_base_card_is_played_as_itself():
    """Issue 13: a plugin card named Accuse made `play` abort after 50 illegal selections.
    Selection goes by card id; the greedy bot knows base's Accuse, not this one."""
    registry = plugins.load(
        {"SPOILER_PLUGINS": "spoiler-lookalike"},
        [*builtins(), FakeEntryPoint("lookalike", Sets(accuse_look_alike()))],
    )
    for seed in range(6):
        seats = [Seat(f"Bot{i}", registry.agent("greedy", i, seed), "greedy") for i in range(4)]
        game = Game(registry.card_sets(None), seats, seed, max_rounds=30)
        game.play()
    played = {e.cause for e in game.state.log if e.kind == "played"}
    assert played  # the game went on


def test_screens_show_the_set_of_a_card_whose_name_another_set_shares():
    registry = plugins.load(
        {"SPOILER_PLUGINS": "spoiler-lookalike"},
        [*builtins(), FakeEntryPoint("lookalike", Sets(accuse_look_alike()))],
    )
    cards = [c for s in registry.card_sets(None) for c in s.cards]
    shared = shared_names(cards)
    assert shared == {"accuse"}
    labels = {card_label(c, shared) for c in cards if c.name == "Accuse"}
    assert labels == {"Accuse (base)", "Accuse (lookalike)"}
    jewel = next(c for c in cards if c.name == "Jewel")
    assert card_label(jewel, shared) == "Jewel"


def test_a_plugin_bot_that_says_it_is_built_in_is_not_believed():
    """Fast mode skips checking the selections of the core's own bots; a plugin's bot
    claiming ``builtin = True`` is still checked."""

    class Claims(Raises):
        builtin = True

    registry = wild(lambda seat, seed: Claims(ValueError("x")))()
    assert registry.agent("wild", 0, 1).builtin is False
    assert registry.agent("greedy", 0, 1).builtin is True
