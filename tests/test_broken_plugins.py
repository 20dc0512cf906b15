"""Every way a plugin can be broken, as `spoiler sets list`, `spoiler sets validate` and
`spoiler play` report it: in one line, under the plugin's entry point name, while everything
else still works.

"A plugin that fails to import, raises in a hook, or collides with another set never takes
the CLI down: it is reported as broken, with its reason, and everything else still works."
"""

from __future__ import annotations

import json
from functools import partial
from importlib import metadata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from spoiler import hookimpl, plugins, testing
from spoiler.cards import ANOTHER_PLAYER, CardSet, Ongoing
from spoiler.cli import app
from spoiler.cli import sets as sets_cli
from spoiler.engine import CardError
from spoiler.state import Status
from spoiler.testing import play_round, table

#: The fake plugins here are all at version 0.3.1 (their sets too).
FakeEntryPoint = partial(testing.FakeEntryPoint, version="0.3.1")


def one_card_set(name: str, api: str = ">=1,<2") -> CardSet:
    card_set = CardSet(name, "0.3.1", api=api)
    card_set.card(type("Pebble", (), {"text": "No effect.", "copies": 6}))
    return card_set


class RaisesInContentHook:
    @hookimpl
    def spoiler_register_sets(self, register):
        raise RuntimeError("could not read cards.toml")


class CollidesWithBase:
    @hookimpl
    def spoiler_register_sets(self, register):
        register(one_card_set("base"))


class NeedsAFutureApi:
    @hookimpl
    def spoiler_register_sets(self, register):
        register(one_card_set("future", api=">=2,<3"))


class MisspeltHook:
    @hookimpl
    def spoiler_register_sets(self, register):
        register(one_card_set("typo"))

    @hookimpl
    def spoiler_round_strat(self, game):
        """Misspelt: pluggy would never call it."""


class RaisesInGame:
    """Loads fine; its rule fails during games (found by validate, survived by play)."""

    @hookimpl
    def spoiler_register_sets(self, register):
        register(one_card_set("flaky"))

    @hookimpl
    def spoiler_round_end(self, game):
        if game.round == 2:
            raise ZeroDivisionError("the rule divides by zero")


#: name: (entry point, the reason in the one-line report)
BROKEN = {
    "fails to import": (
        FakeEntryPoint("ghost", error=ImportError("No module named 'spoiler_ghost'")),
        "failed to import: ImportError: No module named 'spoiler_ghost'",
    ),
    "hook raises": (
        FakeEntryPoint("faulty", RaisesInContentHook()),
        "RuntimeError: could not read cards.toml",
    ),
    "collides": (
        FakeEntryPoint("copycat", CollidesWithBase()),
        "set name 'base' belongs to the built-in plugin 'base' (spoiler-game); not loaded",
    ),
    "incompatible version": (
        FakeEntryPoint("future", NeedsAFutureApi()),
        "set 'future' needs plugin API >=2,<3, but this spoiler-game has API 1.0",
    ),
    "misspelt hook": (
        FakeEntryPoint("typo", MisspeltHook()),
        "implements unknown hook(s) spoiler_round_strat (did you mean spoiler_round_start?)",
    ),
}


def builtin_entry_points() -> list:
    """The plugins spoiler-game ships (the base set, the bots), whatever else is installed."""
    return [
        ep
        for ep in metadata.entry_points(group=plugins.GROUP)
        if ep.dist is not None and ep.dist.name == plugins.CORE_DISTRIBUTION
    ]


@pytest.fixture
def installed(monkeypatch):
    """Make the CLI see the built-ins plus the given fake entry points."""
    original = plugins.load
    # Fake plugins live in this process: `sets validate` must not look for them in a child.
    monkeypatch.setattr(sets_cli, "ISOLATE", False)

    def install(*entry_points):
        def load(environ=None, entry_points_=None):
            return original({}, builtin_entry_points() + list(entry_points))

        monkeypatch.setattr(plugins, "load", load)

    return install


def squeeze(text: str) -> str:
    """Text without whitespace and table borders, to find a phrase a table wrapped."""
    return "".join(ch for ch in text if not ch.isspace() and ch not in "│┃")


def run(*args):
    return CliRunner().invoke(app, list(args))


@pytest.fixture(params=sorted(BROKEN))
def broken(request, installed):
    """One broken plugin installed next to the built-ins: (entry point name, reason)."""
    entry_point, reason = BROKEN[request.param]
    installed(entry_point)
    return entry_point.name, reason


def test_sets_list_shows_a_broken_plugin_under_its_entry_point_name(broken):
    """`sets list`: a broken plugin is listed under its entry point's name, with its reason;
    the base set is still ok."""
    name, reason = broken
    result = run("sets", "list", "--json")
    assert result.exit_code == 0
    rows = {row["name"]: row for row in json.loads(result.stdout)["sets"]}
    assert rows[name] == {
        "name": name,
        "version": "0.3.1",
        "distribution": f"spoiler-{name}",
        "cards": 0,
        "status": "broken",
        "error": reason,
        "warnings": [],
    }
    assert rows["base"]["status"] == "ok"


def test_sets_list_table_shows_the_reason_of_a_broken_plugin(broken):
    """`sets list` for people: the broken plugin's row says broken and why."""
    name, reason = broken
    result = run("sets", "list")
    assert result.exit_code == 0
    assert name in result.stdout and "broken" in result.stdout and "base" in result.stdout
    assert squeeze(reason) in squeeze(result.stdout)  # however the table wrapped it


def test_sets_validate_fails_on_a_broken_plugin_and_names_it(broken):
    """`sets validate`: exit code 1 when anything is wrong, a broken plugin included; the
    problem names the plugin and its reason, and the usable sets are still validated."""
    name, reason = broken
    result = run("sets", "validate", "--games", "3", "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["ok"] is False
    assert [p for p in report["problems"] if p["set"] == name] == [
        {
            "set": name,
            "card": None,
            "check": "broken",
            "message": f"plugin is broken: {reason}",
            "seed": None,
            "reproduce": None,
        }
    ]
    assert {s["name"]: s["problems"] for s in report["sets"]}["base"] == []


def test_sets_validate_of_a_broken_set_by_name_fails(broken):
    """`sets validate NAME` of a broken plugin: one problem, exit code 1, no traceback."""
    name, reason = broken
    result = run("sets", "validate", name, "--games", "2")
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert squeeze(reason) in squeeze(result.stdout)


def test_play_reports_a_broken_plugin_in_one_line_and_still_runs(broken):
    """`play`: one line on stderr for the broken plugin, and the game is played."""
    name, _reason = broken
    result = run("play", "--bots", "2", "--seed", "5", "--max-rounds", "3")
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stderr.splitlines() if name in line]
    assert len(lines) == 1 and "broken" in lines[0]
    assert "Traceback" not in result.output


def test_sets_validate_finds_a_rule_that_fails_in_games_with_a_seed(installed):
    """A rule hook that raises during games: `sets validate` names the set and a seed that
    reproduces it."""
    installed(FakeEntryPoint("flaky", RaisesInGame()))
    result = run("sets", "validate", "flaky", "--games", "2", "--seed", "40", "--json")
    assert result.exit_code == 1
    problems = json.loads(result.stdout)["problems"]
    assert problems[0]["set"] == "flaky" and problems[0]["check"] == "rule_failed"
    assert problems[0]["seed"] == 40
    assert "ZeroDivisionError: the rule divides by zero" in problems[0]["message"]
    assert problems[0]["reproduce"] == "spoiler sets validate flaky --games 1 --seed 40"


def test_play_survives_a_rule_that_fails_and_logs_it(installed):
    """A rule hook that raises during a game: the game goes on (not --strict)."""
    installed(FakeEntryPoint("flaky", RaisesInGame()))
    result = run("play", "--bots", "2", "--sets", "base,flaky", "--seed", "2", "--max-rounds", "4")
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output


def test_spoiler_plugins_lists_a_broken_plugin_with_its_reason(broken):
    """`spoiler plugins --json`: the broken plugin, its distribution, version and reason."""
    name, reason = broken
    result = run("plugins", "--json")
    assert result.exit_code == 0
    rows = {row["name"]: row for row in json.loads(result.stdout)["plugins"]}
    assert rows[name]["status"] == "broken" and rows[name]["error"] == reason
    assert rows[name]["distribution"] == f"spoiler-{name}" and rows[name]["version"] == "0.3.1"
    assert rows["base"]["status"] == "ok"


# -- effects that fail during a game ---------------------------------------------------------
class BrittleShield(Ongoing):
    name = "Brittle Shield"
    text = "This round, nothing can make its owner lose. (Its code is broken.)"

    def would_lose(self, seat, cause):
        raise KeyError("shield strength")


class Bodyguard(Ongoing):
    name = "Bodyguard"
    text = "This round, the first time anyone would lose, the bodyguards all stand down."

    def would_lose(self, seat, cause):
        for effect in list(self.game.state.ongoing):
            effect.end()
        return False


class Lookout(Ongoing):
    name = "Lookout"
    text = "This round, the first time anyone would lose, the lookout leaves."

    def would_lose(self, seat, cause):
        self.end()
        return False


class Aegis(Ongoing):
    name = "Aegis"
    text = "This round, nothing can make its owner lose."

    def would_lose(self, seat, cause):
        return seat == self.owner


def brittle_set() -> CardSet:
    brittle = CardSet("brittle", "0.1.0")
    brittle.card(type("Pebble", (), {"text": "No effect.", "copies": 6}))
    brittle.card(
        type(
            "Shield",
            (),
            {
                "text": "At Beginning of Round: this round, nothing can make you lose.",
                "at_beginning": lambda play: play.add_ongoing(BrittleShield()),
            },
        )
    )
    brittle.card(
        type(
            "Guard",
            (),
            {
                "text": "At Beginning of Round: stand guard.",
                "at_beginning": lambda play: play.add_ongoing(Bodyguard()),
            },
        )
    )
    brittle.card(
        type(
            "Lookout",
            (),
            {
                "text": "At Beginning of Round: keep a lookout.",
                "at_beginning": lambda play: play.add_ongoing(Lookout()),
            },
        )
    )
    brittle.card(
        type(
            "Aegis",
            (),
            {
                "text": "At Beginning of Round: this round, nothing can make you lose.",
                "at_beginning": lambda play: play.add_ongoing(Aegis()),
            },
        )
    )
    brittle.card(
        type(
            "Doom",
            (),
            {
                "text": "Choose another player. They lose.",
                "copies": 2,
                "target": ANOTHER_PLAYER,
                "main": lambda play: play.lose(play.target),
            },
        )
    )
    return brittle


def test_an_ongoing_effect_that_raises_when_asked_about_a_loss_fizzles():
    """ "A card whose effect raises during a game: the play fizzles, the event log says why and
    names the set, and the game goes on." This holds for an ongoing effect's would_lose too:
    it prevents nothing."""
    game = table([brittle_set()], [["Shield"], ["Doom"]], priority=[0, 1], strict=False)
    events = play_round(game, {0: ("Shield",), 1: ("Doom", 0)})
    fizzled = [e for e in events if e.kind == "fizzled"]
    assert [(e.data["set"], e.data["error"]) for e in fizzled] == [
        ("brittle", "KeyError: 'shield strength'")
    ]
    assert game.status(0) is Status.LOST


def test_an_ongoing_effect_that_raises_stops_a_strict_game():
    """--strict: the failing effect is an error, naming the card."""
    game = table([brittle_set()], [["Shield"], ["Doom"]], priority=[0, 1], strict=True)
    with pytest.raises(CardError, match="brittle:shield: KeyError"):
        play_round(game, {0: ("Shield",), 1: ("Doom", 0)})


def test_an_effect_ended_by_an_earlier_handler_is_not_asked():
    """An ongoing effect that another effect's handler ended is over: it is not asked about
    the loss that ended it (the engine walks a copy of its handlers, skipping ended effects)."""
    game = table(
        [brittle_set()], [["Guard"], ["Shield"], ["Doom"]], priority=[0, 1, 2], strict=True
    )  # strict: asking the Brittle Shield would raise
    play_round(game, {0: ("Guard",), 1: ("Shield",), 2: ("Doom", 1)})
    assert game.status(1) is Status.LOST


def test_an_effect_that_ends_itself_does_not_hide_the_next_one():
    """An ongoing effect that ends itself while asked about a loss does not make the engine
    skip the next effect: the Aegis after the Lookout still prevents the loss."""
    game = table([brittle_set()], [["Lookout"], ["Aegis"], ["Doom"]], priority=[0, 1, 2])
    play_round(game, {0: ("Lookout",), 1: ("Aegis",), 2: ("Doom", 1)})
    assert game.status(1) is Status.IN_PLAY


# -- isolation, whatever the mix and the order ------------------------------------------------
def _plugin_of_kind(kind: str, name: str) -> FakeEntryPoint:
    if kind == "ok":

        class Fine:
            @hookimpl
            def spoiler_register_sets(self, register):
                register(one_card_set(name))

        return FakeEntryPoint(name, Fine())
    if kind == "fails to import":
        return FakeEntryPoint(name, error=ImportError(f"No module named 'spoiler_{name}'"))
    if kind == "collides":
        return FakeEntryPoint(name, CollidesWithBase())
    if kind == "incompatible version":

        class Future:
            @hookimpl
            def spoiler_register_sets(self, register):
                register(one_card_set(name, api=">=9"))

        return FakeEntryPoint(name, Future())
    return FakeEntryPoint(
        name, {"hook raises": RaisesInContentHook, "misspelt hook": MisspeltHook}[kind]()
    )


@given(
    kinds=st.lists(st.sampled_from(["ok", *BROKEN]), min_size=1, max_size=6),
    order=st.randoms(use_true_random=False),
)
@settings(max_examples=40, deadline=None)
def test_each_plugin_loads_on_its_own_whatever_the_mix_and_order(kinds, order):
    """Each installed entry point loads on its own: every good plugin's set is usable, every
    broken one is reported once under its name, and the order entry points are listed in
    changes nothing."""
    names = [f"p{i}" for i in range(len(kinds))]
    entry_points = [_plugin_of_kind(kind, name) for kind, name in zip(kinds, names, strict=True)]
    shuffled = list(entry_points)
    order.shuffle(shuffled)
    first = plugins.load({}, builtin_entry_points() + entry_points)
    second = plugins.load({}, shuffled + builtin_entry_points())
    for registry in (first, second):
        assert sorted(registry.sets) == sorted(
            ["base"] + [n for n, k in zip(names, kinds, strict=True) if k == "ok"]
        )
        for name, kind in zip(names, kinds, strict=True):
            rows = [s for s in registry.set_infos if s.name == name]
            assert len(rows) == 1
            assert rows[0].status == ("ok" if kind == "ok" else "broken")
    assert [s.as_dict() for s in sorted(first.set_infos, key=lambda s: s.name)] == [
        s.as_dict() for s in sorted(second.set_infos, key=lambda s: s.name)
    ]
