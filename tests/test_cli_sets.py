"""`spoiler sets list`, `spoiler sets validate` and `spoiler plugins`, as a player or a plugin
author sees them."""

from __future__ import annotations

import json
from functools import partial
from importlib import metadata

import pytest
from typer.testing import CliRunner

from spoiler import hookimpl, plugins, testing, validation
from spoiler.cards import ANOTHER_PLAYER, CardSet, NameANumber
from spoiler.cli import app
from spoiler.cli import sets as sets_cli
from spoiler.session import simulate as sim

FakeEntryPoint = partial(testing.FakeEntryPoint, version="2.0.0")


class SetPlugin:
    """Provides one set, and optionally watches round starts."""

    def __init__(self, card_set: CardSet):
        self.card_set = card_set

    @hookimpl
    def spoiler_register_sets(self, register):
        register(self.card_set)


class WatchingPlugin(SetPlugin):
    @hookimpl
    def spoiler_round_start(self, game):
        pass


def pebbles(name: str = "pebbles") -> CardSet:
    card_set = CardSet(name, "2.0.0")
    card_set.card(type("Pebble", (), {"text": "No effect.", "copies": 6}))
    return card_set


@pytest.fixture
def installed(monkeypatch):
    """The CLI sees the built-ins plus these fake plugins; SPOILER_PLUGINS still applies."""
    original = plugins.load
    # Fake plugins live in this process: `sets validate` must not look for them in a child.
    monkeypatch.setattr(sets_cli, "ISOLATE", False)
    builtins = [
        ep
        for ep in metadata.entry_points(group=plugins.GROUP)
        if ep.dist is not None and ep.dist.name == plugins.CORE_DISTRIBUTION
    ]

    def install(*entry_points):
        monkeypatch.setattr(
            plugins,
            "load",
            lambda environ=None, entry_points_=None: original(
                environ, builtins + list(entry_points)
            ),
        )

    return install


def run(*args, env=None):
    return CliRunner(env=env).invoke(app, list(args))


# -- sets list -------------------------------------------------------------------------------
def test_sets_list_json_has_exactly_the_documented_keys():
    """`sets list --json`: its "sets", an array of objects with exactly name, version,
    distribution, cards (int), status, error and warnings."""
    result = run("sets", "list", "--json")
    assert result.exit_code == 0
    rows = json.loads(result.stdout)["sets"]
    keys = {"name", "version", "distribution", "cards", "status", "error", "warnings"}
    assert rows and all(set(r) == keys for r in rows)
    base = next(r for r in rows if r["name"] == "base")
    assert base["distribution"] == "spoiler-game" and base["status"] == "ok"
    assert isinstance(base["cards"], int) and base["cards"] > 0 and base["error"] is None


def test_sets_list_shows_an_installed_expansion(installed):
    """An installed plugin's set is listed with its distribution and number of distinct cards."""
    installed(FakeEntryPoint("pebbles", SetPlugin(pebbles())))
    rows = {r["name"]: r for r in json.loads(run("sets", "list", "--json").stdout)["sets"]}
    assert rows["pebbles"] == {
        "name": "pebbles",
        "version": "2.0.0",
        "distribution": "spoiler-pebbles",
        "cards": 1,
        "status": "ok",
        "error": None,
        "warnings": [],
    }


def test_sets_list_gives_the_reason_a_hook_is_never_called(installed):
    """A set that loads though its plugin has a function named like a hook but not marked
    @spoiler.hookimpl: the table's Reason column and the JSON's warnings say so."""

    class Forgetful(SetPlugin):
        def spoiler_round_end(self, game):
            pass

    installed(FakeEntryPoint("forgetful", Forgetful(pebbles("forgetful"))))
    rows = {r["name"]: r for r in json.loads(run("sets", "list", "--json").stdout)["sets"]}
    warning = "spoiler_round_end is not marked @spoiler.hookimpl, so it is never called"
    assert rows["forgetful"]["status"] == "ok" and rows["forgetful"]["warnings"] == [warning]
    assert rows["base"]["warnings"] == []
    table = run("sets", "list", env={"COLUMNS": "250"}).stdout
    line = next(line for line in table.splitlines() if line.startswith("forgetful"))
    assert line.rstrip().endswith(warning)


def test_sets_list_shows_a_plugin_disabled_by_spoiler_plugins(installed):
    """SPOILER_PLUGINS="" loads the built-ins alone; the others are listed as disabled."""
    installed(FakeEntryPoint("pebbles", SetPlugin(pebbles())))
    result = run("sets", "list", "--json", env={"SPOILER_PLUGINS": ""})
    rows = {r["name"]: r for r in json.loads(result.stdout)["sets"]}
    assert rows["pebbles"]["status"] == "disabled"
    assert rows["pebbles"]["error"] == (
        "distribution 'spoiler-pebbles' is not listed in SPOILER_PLUGINS"
    )
    assert rows["base"]["status"] == "ok"


def test_sets_list_lists_built_in_sets_first(installed):
    """Built-in sets come first, then the others by name."""
    installed(FakeEntryPoint("aardvark", SetPlugin(pebbles("aardvark"))))
    rows = json.loads(run("sets", "list", "--json").stdout)["sets"]
    assert rows[0]["name"] == "base" and rows[1]["name"] == "aardvark"


def test_sets_list_table_for_people():
    """Without --json: a table with each set's status."""
    result = run("sets", "list")
    assert result.exit_code == 0
    assert "Card sets" in result.stdout and "base" in result.stdout and "ok" in result.stdout


# -- sets validate ---------------------------------------------------------------------------
def test_sets_validate_passes_on_every_shipped_set():
    """Done when: `sets validate` passes on all shipped sets (the built-ins and every
    installed expansion), 200 games each."""
    result = run("sets", "validate", "--json")
    report = json.loads(result.stdout)
    assert report["problems"] == [] and result.exit_code == 0
    assert all(s["games"] == 200 for s in report["sets"])


def test_sets_validate_for_people_shows_a_table_and_a_verdict():
    """Without --json: a table per set and a last line saying whether all passed."""
    result = run("sets", "validate", "base", "--games", "5")
    assert result.exit_code == 0
    assert "Validation (5 games per set)" in result.stdout
    assert result.stdout.strip().endswith("base passed: no problems found.")


def test_sets_validate_an_unknown_set_is_a_usage_error():
    """An unknown name: a one-line error and exit code 2."""
    result = run("sets", "validate", "nonesuch")
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "no set named 'nonesuch'" in result.stderr


def leaky_set() -> CardSet:
    """A card that pokes at the state and loses a card from the game."""
    leaky = CardSet("leaky", "0.1.0")
    leaky.card(type("Pebble", (), {"text": "No effect.", "copies": 6}))

    def main(play):
        if play.game.state.deck:
            play.game.state.deck.pop()

    leaky.card(type("Sinkhole", (), {"text": "A card vanishes.", "copies": 2, "main": main}))
    return leaky


def test_sets_validate_names_the_card_and_a_seed_that_reproduces_it(installed):
    """ "Every problem names the set, the card and a seed that reproduces it": rerunning with
    that seed and one game finds the same problem."""
    installed(FakeEntryPoint("leaky", SetPlugin(leaky_set())))
    result = run("sets", "validate", "leaky", "--games", "10", "--seed", "7", "--json")
    assert result.exit_code == 1
    problem = json.loads(result.stdout)["problems"][0]
    assert (problem["set"], problem["card"], problem["check"]) == ("leaky", "Sinkhole", "invariant")
    assert "cards not conserved" in problem["message"]
    again = run(
        "sets", "validate", "leaky", "--games", "1", "--seed", str(problem["seed"]), "--json"
    )
    assert json.loads(again.stdout)["problems"] == [problem]


def test_sets_validate_finds_an_effect_that_fails(installed):
    """A card whose effect raises fizzles in games; validate names the set and the card."""
    buggy = CardSet("buggy", "0.1.0")
    buggy.card(type("Pebble", (), {"text": "No effect.", "copies": 6}))
    buggy.card(
        type(
            "Oops",
            (),
            {
                "text": "Another player loses.",
                "copies": 3,
                "target": ANOTHER_PLAYER,
                "main": lambda play: 1 / 0,
            },
        )
    )
    installed(FakeEntryPoint("buggy", SetPlugin(buggy)))
    result = run("sets", "validate", "buggy", "--games", "20", "--json")
    problems = json.loads(result.stdout)["problems"]
    assert result.exit_code == 1
    assert [(p["set"], p["card"], p["check"]) for p in problems] == [("buggy", "Oops", "fizzled")]
    assert "ZeroDivisionError" in problems[0]["message"]


class TurncoatPlugin(SetPlugin):
    """Its rule turns every base card into its own Turncoat, whose code is broken."""

    @hookimpl
    def spoiler_before_play(self, game, play):
        if play.card.set_name == "base":
            game.replace(play, "Turncoat", cause="turncoat:rule")


def test_sets_validate_blames_the_card_a_replaced_play_acts_as_and_reproduces_it(installed):
    """A play turned into another card fails as that card: the problem names the card whose
    code ran (not the base card played), and its reproduce command finds it again."""
    turncoat = CardSet("turncoat", "0.1.0")
    turncoat.card(
        type("Turncoat", (), {"text": "You win.", "copies": 1, "main": lambda play: 1 / 0})
    )
    installed(FakeEntryPoint("turncoat", TurncoatPlugin(turncoat)))
    result = run("sets", "validate", "turncoat", "--games", "3", "--json")
    problems = json.loads(result.stdout)["problems"]
    assert [(p["set"], p["card"], p["check"]) for p in problems] == [
        ("turncoat", "Turncoat", "fizzled")
    ]
    again = run("sets", "validate", "turncoat", "--games", "1", "--seed", "0", "--json")
    assert problems[0]["reproduce"] == "spoiler sets validate turncoat --games 1 --seed 0"
    assert json.loads(again.stdout)["problems"] == problems


def test_sets_validate_finds_an_effect_stuck_in_a_loop(installed, monkeypatch):
    """A card whose effect never returns would hang every game it is played in: validate
    interrupts the round, names the set, the card and the seed, and goes on to the verdict."""

    def forever(play):
        while True:
            pass

    loopy = CardSet("loopy", "0.1.0")
    loopy.card(type("Ouroboros", (), {"text": "Nothing, forever.", "copies": 40, "main": forever}))
    installed(FakeEntryPoint("loopy", SetPlugin(loopy)))
    monkeypatch.setattr(validation, "ROUND_SECONDS", 0.2)  # the guard, not the clock, is tested
    result = run("sets", "validate", "loopy", "--games", "3", "--json")
    problems = json.loads(result.stdout)["problems"]
    assert result.exit_code == 1
    assert {(p["set"], p["card"], p["check"]) for p in problems} == {
        ("loopy", "Ouroboros", "stuck")
    }
    assert "never returns" in problems[0]["message"] and problems[0]["seed"] is not None


def test_sets_validate_names_a_card_the_engines_runaway_guard_stopped(installed, monkeypatch):
    """An effect looping through the verbs trips the engine's own guard (a step budget,
    deterministic, on any thread): the problem is "stuck", with the card and the seed."""
    from spoiler import engine

    def forever(play):
        while True:
            play.note("again")

    loopy = CardSet("loopy", "0.1.0")
    loopy.card(type("Ouroboros", (), {"text": "Say it, forever.", "copies": 40, "main": forever}))
    installed(FakeEntryPoint("loopy", SetPlugin(loopy)))
    monkeypatch.setattr(engine, "MAX_ROUND_STEPS", 3_000)
    result = run("sets", "validate", "loopy", "--games", "3", "--json")
    problems = json.loads(result.stdout)["problems"]
    assert [(p["set"], p["card"], p["check"]) for p in problems] == [
        ("loopy", "Ouroboros", "stuck")
    ]
    assert problems[0]["message"] == (  # one message, not one nested in another
        "round 1 ran past its limit (over 3,000 steps): an effect that never returns? "
        "The set's other games were not played"
    )


class LoopingHookPlugin(SetPlugin):
    """A set whose rule (a round-end hook) never returns."""

    @hookimpl
    def spoiler_round_end(self, game):
        while True:
            pass


def test_sets_validate_blames_a_looping_hook_on_its_plugin_and_hook_never_a_card(
    installed, monkeypatch
):
    """A loop in a hook is the hook's: the problem names the plugin and the hook, no card;
    and the card played that round is not both blamed and "never played"."""
    stash = CardSet("stash", "0.1.0")
    stash.card(type("Stash", (), {"text": "No effect.", "copies": 40}))
    installed(FakeEntryPoint("stash", LoopingHookPlugin(stash)))
    monkeypatch.setattr(validation, "ROUND_SECONDS", 0.2)
    result = run("sets", "validate", "stash", "--games", "2", "--seed", "4", "--json")
    report = json.loads(result.stdout)
    [problem] = report["problems"]
    assert (problem["set"], problem["card"], problem["check"]) == ("stash", None, "stuck")
    assert problem["message"].startswith(
        "hook spoiler_round_end of plugin 'stash': round 1 ran past its limit ("
    )
    assert "never returns? The set's other games were not played" in problem["message"]
    assert problem["seed"] == 4


def test_sets_validate_notes_a_card_no_game_played(installed):
    """A card whose target can never be met is never played: validate notes it, without
    failing (a rare card may simply not have come up)."""
    from spoiler.cards import Target

    hopeful = CardSet("hopeful", "0.1.0")
    hopeful.card(type("Pebble", (), {"text": "No effect.", "copies": 6}))
    hopeful.card(
        type(
            "Wish",
            (),
            {
                "text": "Choose a ghost. Nothing happens.",
                "target": Target("a ghost", lambda me, p: False),
            },
        )
    )
    installed(FakeEntryPoint("hopeful", SetPlugin(hopeful)))
    result = run("sets", "validate", "hopeful", "--games", "3", "--seed", "1")
    assert result.exit_code == 0
    assert "Note: hopeful · Wish: never played in 3 games." in result.stdout
    report = json.loads(
        run("sets", "validate", "hopeful", "--games", "3", "--seed", "1", "--json").stdout
    )
    assert report["sets"][0]["unplayed"] == ["Wish"]


def static_problems(**card) -> list[str]:
    card_set = CardSet("probe", "0.1.0")
    card_set.card(type("Probe", (), {"text": "No effect.", "copies": 1, **card}))
    return [p.message for p in validation.check_set(card_set, ("Probe", "Pebble"))]


def test_static_check_an_at_end_part_must_be_printed():
    """The printed text mentions "At End of Round" exactly when the card has that part."""
    assert static_problems(at_end=lambda play: None) == [
        "has an 'At End of Round' part but its text does not say so"
    ]


def test_static_check_printed_at_beginning_needs_the_part():
    """…and the other way round: the text may not promise a part the card lacks."""
    assert static_problems(text="At Beginning of Round: nothing.") == [
        "its text says 'At Beginning of Round' but the card has no at_beginning part"
    ]


def test_static_check_a_card_with_no_printed_text():
    """Every card has a printed text."""
    assert static_problems(text="") == ["the card has no printed text"]


def test_declaring_a_card_with_zero_copies_is_refused_when_the_set_loads():
    """Copies of at least 1: a mistake in a declaration is caught before `sets list` calls
    the set ok (its plugin is broken, with this reason)."""
    with pytest.raises(ValueError, match=r"card Probe: copies must be from 1 to 100, not 0"):
        static_problems(copies=0)


def test_declaring_a_question_with_no_possible_answer_is_refused():
    """Information asked for must be well formed: a number from 5 to 1 has no answer."""
    with pytest.raises(ValueError, match="card Probe: its question has no possible answer"):
        static_problems(ask=NameANumber(5, 1))


def test_declaring_an_effect_that_does_not_take_the_play_is_refused():
    """An effect is a function of one argument, the play."""
    with pytest.raises(ValueError, match=r"main must take exactly one argument \(the play\)"):
        static_problems(main=lambda play, extra: None)


def test_static_check_a_hook_function_not_marked_hookimpl(installed):
    """Hook implementations match the specs: a function named like a hook but not marked
    @spoiler.hookimpl would silently never be called."""

    class Forgetful(SetPlugin):
        def spoiler_round_start(self, game):
            pass

    installed(FakeEntryPoint("forgetful", Forgetful(pebbles("forgetful"))))
    result = run("sets", "validate", "forgetful", "--games", "1", "--json")
    assert result.exit_code == 1
    assert [p["message"] for p in json.loads(result.stdout)["problems"]] == [
        "spoiler_round_start is not marked @spoiler.hookimpl, so it is never called"
    ]


def test_static_check_a_card_name_shared_with_another_set(installed):
    """Card names must differ between sets: a card that names a card could not tell them apart."""
    copy = CardSet("copy", "0.1.0")
    copy.card(type("Pebble", (), {"text": "No effect.", "copies": 6}))
    installed(
        FakeEntryPoint("pebbles", SetPlugin(pebbles())), FakeEntryPoint("copy", SetPlugin(copy))
    )
    result = run("sets", "validate", "copy", "--games", "1", "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["problems"][0]["message"].startswith(
        "card name 'Pebble' is also in set"
    )


# -- plugins ---------------------------------------------------------------------------------
def test_plugins_json_lists_distribution_version_hooks_and_status(installed):
    """`spoiler plugins --json`: each plugin with its distribution, version, status, the
    bot kinds it brings and the hooks it implements."""
    installed(FakeEntryPoint("watcher", WatchingPlugin(pebbles("watched"))))
    rows = {r["name"]: r for r in json.loads(run("plugins", "--json").stdout)["plugins"]}
    assert rows["watcher"] == {
        "name": "watcher",
        "distribution": "spoiler-watcher",
        "version": "2.0.0",
        "builtin": False,
        "status": "ok",
        "error": None,
        "sets": ["watched"],
        "bots": [],
        "hooks": ["spoiler_register_sets", "spoiler_round_start"],
    }
    assert rows["base"]["builtin"] is True
    assert rows["bots"]["bots"] == ["expert", "greedy", "random"]


def test_plugins_table_for_people():
    result = run("plugins")
    assert result.exit_code == 0 and "Plugins" in result.stdout and "register_sets" in result.stdout


def test_trace_hooks_prints_each_hook_call_to_stderr(installed):
    """SPOILER_TRACE_HOOKS=1 prints each hook call to stderr."""
    installed(FakeEntryPoint("watcher", WatchingPlugin(pebbles("watched"))))
    result = run(
        "play",
        "--bots",
        "2",
        "--sets",
        "base,watched",
        "--seed",
        "1",
        "--max-rounds",
        "2",
        env={"SPOILER_TRACE_HOOKS": "1"},
    )
    assert result.exit_code == 0
    assert "hook spoiler_round_start(game) -> [watcher]" in result.stderr


# -- a set that cannot end a game alone (issue 11) ---------------------------------------------
def test_validate_notes_a_set_that_cannot_end_a_game_on_its_own(installed):
    """Pebbles do nothing: mixed into the base set they pass, but alone every game reaches
    the round limit. That is a note (exit 0), with the declaration that settles it."""
    installed(FakeEntryPoint("pebbles", SetPlugin(pebbles())))
    result = run("sets", "validate", "pebbles", "--games", "2", "--json")
    assert result.exit_code == 0, result.output
    [report] = json.loads(result.stdout)["sets"]
    assert report["notes"] == [
        "pebbles cannot end a game on its own (10 random-bot games of it alone all reached "
        "the round limit): if it is meant to be played with another set, declare it, e.g. "
        'CardSet(..., requires=("base",))'
    ]


def test_a_set_that_requires_the_base_set_is_not_noted_and_brings_it_into_play(installed):
    needy = pebbles()
    needy.requires = ("base",)
    installed(FakeEntryPoint("pebbles", SetPlugin(needy)))
    result = run("sets", "validate", "pebbles", "--games", "2", "--json")
    assert json.loads(result.stdout)["sets"][0]["notes"] == []
    played = run("play", "--bots", "2", "--sets", "pebbles", "--seed", "1", "--max-rounds", "1")
    assert played.exit_code == 0, played.output
    assert "Note: pebbles cannot end a game alone, so base is in the deck too." in played.stderr
    assert "with base, pebbles." in played.stdout


def test_sets_show_tells_the_sets_a_set_is_played_with(installed):
    needy = pebbles()
    needy.requires = ("base",)
    installed(FakeEntryPoint("pebbles", SetPlugin(needy)))
    shown = run("sets", "show", "pebbles")
    assert shown.exit_code == 0, shown.output
    assert (
        "Played with: base (it cannot end a game alone: every game with it has base in the "
        "deck too)." in " ".join(shown.stdout.split())
    )
    assert json.loads(run("sets", "show", "pebbles", "--json").stdout)["requires"] == ["base"]


@pytest.mark.parametrize("command", ["simulate", "ladder"])
def test_simulate_and_ladder_play_a_set_that_requires_the_base_set_with_it(
    installed, monkeypatch, command
):
    """As `play` does: the games have the base set in the deck too, with a note, so they can
    end (pebbles alone reach the round limit every time), and the figures name both sets."""
    needy = pebbles()
    needy.requires = ("base",)
    installed(FakeEntryPoint("pebbles", SetPlugin(needy)))
    monkeypatch.setattr(sim, "_REGISTRY", None)  # its games load the plugins installed above
    bots = ["--bots", "random"] if command == "simulate" else ["--bots", "random,greedy"]
    result = run(
        command, *bots, "--sets", "pebbles", "--games", "8", "--seed", "1", "--jobs", "1", "--json"
    )
    assert result.exit_code == 0, result.output
    assert "Note: pebbles cannot end a game alone, so base is in the deck too." in result.stderr
    figures = json.loads(result.stdout)
    if command == "simulate":
        assert figures["sets"] == ["pebbles", "base"]
        assert figures["round_limit_share"] < 1
    else:
        assert figures["plan"]["sets"] == ["pebbles", "base"]
        assert figures["results"]["draw"] < 8


def test_a_set_that_requires_a_set_that_is_not_installed_is_a_problem(installed):
    needy = pebbles()
    needy.requires = ("storm",)
    installed(FakeEntryPoint("pebbles", SetPlugin(needy)))
    result = run("sets", "validate", "pebbles", "--games", "1", "--json")
    assert result.exit_code == 1
    [problem] = json.loads(result.stdout)["problems"]
    assert problem["message"] == "requires set 'storm', which is not usable"
    played = run("play", "--bots", "2", "--sets", "pebbles")
    assert played.exit_code == 2
    assert "set 'pebbles' is played with set 'storm': no set named 'storm'" in played.stderr


def test_sets_validate_reports_a_target_kind_whose_allows_raises(installed):
    """A target kind that raises makes its card unplayable: validate names the card and the
    set, and does not also call it "never played" without saying why."""
    from spoiler.cards import Target

    def broken(me, candidate):
        raise KeyError("gold")

    haunted = CardSet("haunted", "0.1.0")
    haunted.card(type("Pebble", (), {"text": "No effect.", "copies": 6}))
    haunted.card(type("Grab", (), {"text": "Choose a ghost.", "target": Target("a ghost", broken)}))
    installed(FakeEntryPoint("haunted", SetPlugin(haunted)))
    result = run("sets", "validate", "haunted", "--games", "2", "--seed", "1", "--json")
    report = json.loads(result.stdout)
    assert result.exit_code == 1
    [problem] = report["problems"]
    assert (problem["set"], problem["card"], problem["check"]) == (
        "haunted",
        "Grab",
        "target_failed",
    )
    assert problem["message"] == (
        "its target kind 'a ghost' failed in allows (KeyError: 'gold'), so it could not be played"
    )
    assert report["sets"][0]["unplayed"] == []
