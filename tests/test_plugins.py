"""The plugin manager: which plugins load, which are broken and why, and which hooks take
part in a game.

Plugins are found through entry points; these tests hand ``plugins.load`` fake entry points
(``.name``, ``.dist``, ``.load()``) so nothing depends on what is installed.
"""

from __future__ import annotations

import pytest

from spoiler import hookimpl, plugins
from spoiler.agents import RandomAgent
from spoiler.cards import CardSet
from spoiler.engine import CardError, Game, Seat
from spoiler.testing import FakeEntryPoint


def plain_set(name: str) -> CardSet:
    card_set = CardSet(name, "1.0")
    card_set.card(type("Blank", (), {"text": "No effect.", "copies": 8}))
    return card_set


class SetPlugin:
    """A plugin providing one card set and watching round starts."""

    def __init__(self, set_name: str):
        self.card_set = plain_set(set_name)
        self.rounds_seen: list[int] = []

    @hookimpl
    def spoiler_register_sets(self, register):
        register(self.card_set)

    @hookimpl
    def spoiler_round_start(self, game):
        self.rounds_seen.append(game.round)


class RulePlugin:
    """A plugin with no set: a rule for every game."""

    def __init__(self):
        self.games_started = 0

    @hookimpl
    def spoiler_game_start(self, game):
        self.games_started += 1


class Misspelt:
    @hookimpl
    def spoiler_round_strat(self, game):
        """Should be spoiler_round_start."""


class WrongArgument:
    @hookimpl
    def spoiler_round_start(self, game, dice):
        """Asks for an argument the hook does not have."""


class Raising(SetPlugin):
    @hookimpl
    def spoiler_round_start(self, game):
        raise ZeroDivisionError("division by zero in round start")


def status(registry, name) -> tuple[str, str | None]:
    info = registry.plugins[name]
    return info.status, info.error


def game_with(registry, set_names, *, seed=3, strict=False, max_rounds=5) -> Game:
    seats = [Seat(f"P{s}", RandomAgent(seed, s)) for s in range(2)]
    return Game(
        registry.card_sets(set_names),
        seats,
        seed,
        max_rounds=max_rounds,
        hooks=registry.game_hooks(set_names),
        strict=strict,
    )


def test_a_plugin_implementing_a_misspelt_hook_is_broken():
    """A plugin implementing a misspelt hook is reported as an error, with its reason; the
    other plugins still load."""
    typo = Misspelt()
    registry = plugins.load(
        {}, [FakeEntryPoint("typo", typo), FakeEntryPoint("good", RulePlugin())]
    )
    assert status(registry, "typo") == (
        "broken",
        "implements unknown hook(s) spoiler_round_strat (did you mean spoiler_round_start?)",
    )
    assert status(registry, "good") == ("ok", None)
    assert [p.name for p in registry.broken()] == ["typo"]
    assert not registry.pm.is_registered(typo)


def test_a_hook_asking_for_an_unknown_argument_is_broken():
    """An implementation may take any subset of a hook's parameters, and nothing else."""
    registry = plugins.load({}, [FakeEntryPoint("wrong", WrongArgument())])
    state, error = status(registry, "wrong")
    assert state == "broken"
    assert error.startswith("invalid hook implementation: ") and "dice" in error


@pytest.mark.parametrize("allow", [None, "", "somethingelse", " thirdparty "])
def test_built_in_plugins_always_load(allow):
    """The built-in plugins (those spoiler-game itself ships) always load, whatever
    SPOILER_PLUGINS says."""
    environ = {} if allow is None else {"SPOILER_PLUGINS": allow}
    registry = plugins.load(
        environ,
        [
            FakeEntryPoint("base", SetPlugin("base"), dist="spoiler-game"),
            FakeEntryPoint("thirdparty", SetPlugin("extra"), dist="spoiler-thirdparty"),
        ],
    )
    assert status(registry, "base") == ("ok", None)
    assert registry.plugins["base"].builtin is True
    assert "base" in registry.sets


def test_spoiler_plugins_limits_the_other_plugins():
    """SPOILER_PLUGINS (comma-separated distribution names) limits which plugins from other
    distributions load; SPOILER_PLUGINS="" loads none of them."""

    def load(environ):
        registry = plugins.load(
            environ,
            [
                FakeEntryPoint("alpha", SetPlugin("alpha")),
                FakeEntryPoint("beta", SetPlugin("beta")),
                FakeEntryPoint("gamma", RulePlugin()),
            ],
        )
        return {name: info.status for name, info in registry.plugins.items()}

    assert load({}) == {"alpha": "ok", "beta": "ok", "gamma": "ok"}
    assert load({"SPOILER_PLUGINS": "spoiler-alpha, Spoiler_Gamma"}) == {
        "alpha": "ok",
        "beta": "disabled",
        "gamma": "ok",
    }
    assert load({"SPOILER_PLUGINS": ""}) == {
        "alpha": "disabled",
        "beta": "disabled",
        "gamma": "disabled",
    }
    registry = plugins.load(
        {"SPOILER_PLUGINS": "spoiler-beta"},
        [FakeEntryPoint("alpha", SetPlugin("alpha")), FakeEntryPoint("beta", SetPlugin("beta"))],
    )
    assert status(registry, "alpha") == (
        "disabled",
        "distribution 'spoiler-alpha' is not listed in SPOILER_PLUGINS",
    )
    assert list(registry.sets) == ["beta"]


@pytest.mark.parametrize(
    "error",
    [ImportError("No module named 'numpy'"), SyntaxError("invalid syntax"), SystemExit(3)],
    ids=["ImportError", "SyntaxError", "SystemExit"],
)
def test_a_plugin_failing_to_import_is_broken_and_others_still_load(error):
    """A plugin that fails to import never takes the game down: it is reported as broken,
    with its reason, and everything else still works."""
    registry = plugins.load(
        {}, [FakeEntryPoint("fragile", error=error), FakeEntryPoint("sturdy", SetPlugin("sturdy"))]
    )
    state, reason = status(registry, "fragile")
    assert state == "broken"
    assert reason.startswith(f"failed to import: {type(error).__name__}")
    assert status(registry, "sturdy") == ("ok", None)
    assert list(registry.sets) == ["sturdy"]


def test_two_plugins_claiming_one_set_name_are_both_broken_and_neither_wins():
    """Issue 13: "two distributions claiming one ... set name are both reported and neither
    silently wins" (load order would otherwise decide who is trusted)."""
    registry = plugins.load(
        {},
        [FakeEntryPoint("first", SetPlugin("cards")), FakeEntryPoint("second", SetPlugin("cards"))],
    )
    assert status(registry, "first") == (
        "broken",
        "set name 'cards' is also claimed by plugin 'second' (spoiler-second); neither is loaded",
    )
    assert status(registry, "second")[0] == "broken"
    assert "cards" not in registry.sets


def test_hooks_only_run_in_games_that_use_their_set():
    """A plugin's phase and effect hooks take part only when one of its sets is in the game
    (or, for a plugin with no set, in every game)."""
    alpha, beta, rule = SetPlugin("alpha"), SetPlugin("beta"), RulePlugin()
    registry = plugins.load(
        {},
        [
            FakeEntryPoint("alpha", alpha),
            FakeEntryPoint("beta", beta),
            FakeEntryPoint("rule", rule),
        ],
    )
    game = game_with(registry, ["alpha"])
    game.play()
    assert alpha.rounds_seen == list(range(1, game.round + 1))
    assert beta.rounds_seen == []
    assert rule.games_started == 1

    game_with(registry, ["beta"], max_rounds=2).play()
    assert beta.rounds_seen == [1, 2]
    assert rule.games_started == 2
    assert set(registry.game_hooks(["beta"])) == {"spoiler_round_start", "spoiler_game_start"}


def test_a_hook_raising_in_a_game_is_logged_and_the_game_goes_on():
    """A plugin that raises in a hook never takes the game down: the log names the plugin and
    the hook, and the game goes on."""
    registry = plugins.load(
        {}, [FakeEntryPoint("shaky", Raising("shaky")), FakeEntryPoint("calm", SetPlugin("calm"))]
    )
    game = game_with(registry, ["shaky", "calm"], max_rounds=3)
    result = game.play()
    failures = [e.as_dict() for e in game.state.log if e.kind == "rule_failed"]
    assert failures[0] == {
        "round": 1,
        "kind": "rule_failed",
        "cause": "shaky",
        "plugin": "shaky",
        "hook": "spoiler_round_start",
        "error": "ZeroDivisionError: division by zero in round start",
    }
    assert len(failures) == game.round and result.kind == "draw"


def test_a_hook_raising_in_a_strict_game_stops_it():
    """With --strict, a plugin that raises stops the game instead, naming the plugin."""
    registry = plugins.load({}, [FakeEntryPoint("shaky", Raising("shaky"))])
    game = game_with(registry, ["shaky"], strict=True)
    with pytest.raises(CardError, match="plugin 'shaky' failed in spoiler_round_start"):
        game.play()


def test_a_set_is_played_with_the_sets_it_requires_and_theirs_in_turn():
    """``Registry.sets_played``: the named sets, then each one's partners (once, however the
    declarations loop), and a partner that is not installed is named in one line."""
    plugs = {name: SetPlugin(name) for name in ("tide", "moon", "sun", "lost")}
    plugs["tide"].card_set.requires = ("moon",)
    plugs["moon"].card_set.requires = ("sun", "tide")  # (a loop back to tide)
    plugs["lost"].card_set.requires = ("storm",)
    registry = plugins.load({}, [FakeEntryPoint(name, p) for name, p in plugs.items()])
    assert [s.name for s in registry.sets_played(["tide"])] == ["tide", "moon", "sun"]
    assert [s.name for s in registry.sets_played(["sun"])] == ["sun"]
    with pytest.raises(plugins.UnknownName, match=r"^set 'lost' is played with set 'storm': "):
        registry.sets_played(["lost"])
