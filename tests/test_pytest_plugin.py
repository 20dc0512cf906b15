"""The pytest fixtures spoiler-game installs for card authors (spoiler.pytest_plugin), used
here as an author would: by naming them."""

from __future__ import annotations

import pytest

from spoiler.cards import CardSet
from spoiler.state import Status
from spoiler.testing import RandomGameFailed, random_games

pytest.importorskip("spoiler_chrono")

from spoiler_chrono.cards import TIME


def test_card_sets_loads_installed_sets_by_name_the_base_set_included(card_sets):
    base, chrono = card_sets("base", "chrono")
    assert (base.name, chrono.name) == ("base", "chrono")
    assert any(card.name == "Accuse" for card in base.cards)


def test_card_sets_fails_naming_what_is_installed(card_sets):
    with pytest.raises(pytest.fail.Exception, match="no set named 'nope' \\(installed: base"):
        card_sets("nope")


def test_a_table_for_a_set_runs_its_rules_by_default(spoiler_table, spoiler_round):
    """Chrono's Hourglass rule (a hook) holds at a table of Chrono without asking for it."""
    game = spoiler_table(["chrono"], hands=[["Hourglass"], ["Hourglass"]])
    game.add_counter(0, TIME, 8, cause="test")
    spoiler_round(game, {0: "Hourglass", 1: "Hourglass"})
    assert game.status(0) is Status.WON


def test_a_table_without_the_rules_when_asked(spoiler_table, spoiler_round):
    game = spoiler_table(["chrono"], hands=[["Hourglass"], ["Hourglass"]], hooks={})
    game.add_counter(0, TIME, 8, cause="test")
    spoiler_round(game, {0: "Hourglass", 1: "Hourglass"})
    assert game.status(0) is Status.IN_PLAY and game.counter(0, TIME) == 10


def test_random_games_play_a_set_mix_with_its_rules(random_games):
    results = random_games(["base", "chrono"], games=5, seed=3)
    assert len(results) == 5 and all(
        r.kind in ("win", "default", "all_lost", "draw") for r in results
    )


def shaky_set() -> CardSet:
    shaky = CardSet("shaky", "0.1.0")
    shaky.card(type("Pebble", (), {"text": "No effect.", "copies": 8}))

    def main(play):
        if play.game.round >= 3:
            raise RuntimeError("cracked")

    shaky.card(type("Crack", (), {"text": "Nothing, at first.", "copies": 4, "main": main}))
    return shaky


def test_a_failing_random_game_names_its_seed_and_replays_with_it():
    shaky = shaky_set()
    with pytest.raises(RandomGameFailed) as caught:
        random_games([shaky], games=30, seed=10)
    message = str(caught.value)
    assert "RuntimeError: cracked" in message and "cards played:" in message
    seed = int(message.split("seed ")[1].split(" ")[0])
    assert f"replay it with seed={seed}, games=1" in message
    with pytest.raises(RandomGameFailed, match=f"random game with seed {seed} "):
        random_games([shaky], games=1, seed=seed)
