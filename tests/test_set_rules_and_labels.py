"""A set's own rules reach players (game start, `spoiler rules --set`, `spoiler sets show`),
counters and rule causes read as words on every screen, and `spoiler play` warns about a
hook function pluggy would silently skip."""

from __future__ import annotations

import json
from importlib import metadata

import pytest
from typer.testing import CliRunner

from spoiler import hookimpl, plugins
from spoiler.cards import CardSet
from spoiler.cli import app, common
from spoiler.events import make_event
from spoiler.narrate import label, narrate
from spoiler.testing import FakeEntryPoint

pytest.importorskip("spoiler_chrono")


@pytest.fixture
def everything(monkeypatch, tmp_path):
    """The CLI sees every installed plugin, plus any fake ones given."""
    builtins = [
        ep
        for ep in metadata.entry_points(group=plugins.GROUP)
        if ep.dist is not None and ep.dist.name == plugins.CORE_DISTRIBUTION
    ]

    def install(*fakes, environ=None):
        registry = plugins.load({}, [*builtins, *fakes]) if fakes else plugins.load(environ or {})
        monkeypatch.setattr(common, "load_registry", lambda: registry)

    monkeypatch.chdir(tmp_path)
    common.console.cache_clear()
    yield install
    common.console.cache_clear()


def run(*args):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200", "NO_COLOR": "1"})


def test_a_counter_reads_as_its_sets_label_or_as_words():
    counter = make_event(
        2, "counter", 0, "chrono:stopwatch", {"name": "chrono:time", "delta": 2, "value": 3}
    )
    assert narrate(counter, ["Ada"], {}, labels={"chrono:time": "time tokens"}) == (
        "Ada's time tokens: now 3 (+2, stopwatch)."
    )
    assert label("mirror:hand-mirror") == "hand mirror"


def test_a_rule_cause_reads_as_its_label():
    won = make_event(4, "won", 1, "chrono:hourglass-rule", {"before": "in_play", "after": "won"})
    sentence = narrate(
        won, ["Ada", "Bix"], {}, labels={"chrono:hourglass-rule": "the Hourglass rule"}
    )
    assert sentence == "Bix won (the Hourglass rule)!"


def test_a_game_starts_by_telling_the_rules_its_sets_add(everything):
    everything(environ={"SPOILER_PLUGINS": "spoiler-chrono"})
    result = run("play", "--bots", "2", "--sets", "base,chrono", "--seed", "3", "--max-rounds", "2")
    assert result.exit_code == 0, result.output
    assert "Chrono rules: At the start of each round" in result.stdout
    assert "hourglass-rule" not in result.stdout and "chrono:time" not in result.stdout


def test_rules_set_shows_what_a_set_adds(everything):
    everything(environ={"SPOILER_PLUGINS": "spoiler-chrono"})
    result = run("rules", "--set", "chrono")
    assert result.exit_code == 0 and "the Hourglass rule" in result.stdout
    assert run("rules", "--set", "nope").exit_code == 2


def test_sets_show_tells_a_sets_rules_and_cards(everything):
    everything(environ={"SPOILER_PLUGINS": "spoiler-chrono"})
    result = run("sets", "show", "chrono")
    assert result.exit_code == 0
    assert "Rules: At the start of each round" in result.stdout
    assert "Hourglass" in result.stdout and "Gain 2 time tokens." in result.stdout
    shown = json.loads(run("sets", "show", "chrono", "--json").stdout)
    assert set(shown) == {
        "schema", "spoiler_game",
        "name", "title", "version", "distribution", "description", "rules", "labels",
        "requires", "cards",
    }  # fmt: skip
    assert shown["requires"] == []
    assert shown["labels"]["chrono:hourglass-rule"] == "the Hourglass rule"
    missing = run("sets", "show", "nope")
    assert missing.exit_code == 2 and "no set named 'nope'" in missing.stderr


def test_play_warns_about_a_hook_function_not_marked_hookimpl(everything):
    quiet = CardSet("quiet", "0.1.0")
    quiet.card(type("Hush", (), {"text": "No effect.", "copies": 8}))

    class Forgetful:
        @hookimpl
        def spoiler_register_sets(self, register):
            register(quiet)

        def spoiler_round_start(self, game):  # never called: not marked
            pass

    everything(FakeEntryPoint("quiet", Forgetful()))
    result = run("play", "--bots", "2", "--sets", "quiet", "--seed", "1", "--max-rounds", "1")
    assert result.exit_code == 0, result.output
    assert (
        "Warning: plugin 'quiet': spoiler_round_start is not marked @spoiler.hookimpl, so it "
        "is never called"
    ) in result.stderr


def test_an_effect_no_player_owns_is_told_as_the_rules(toy):
    """Ruling 13: an effect put into play by a set's rule has no owner; the table says so."""
    from spoiler.cards import Ongoing
    from spoiler.cli.human import in_effect
    from spoiler.testing import table

    class Omen(Ongoing):
        name = "Omen"
        text = "Nothing, for now."
        rounds = 2

    game = table([toy], [["Blank"], ["Blank"]], deck=["Blank"] * 4)
    game.add_ongoing(Omen(), cause="toy:rule")
    [(name, owner, rounds)] = game.view(0).ongoing
    assert in_effect(game.view(0), name, owner, rounds) == (
        "In effect: the rules' Omen, this round and 1 more: Nothing, for now."
    )
