"""Ruling 15: a hook or a card cannot play the game from inside it. While the game is
starting or playing a round, ``game.play_round()`` and ``game.play()`` are refused with a
``GameError`` of one line naming the plugin (or the card) that called them; a round inside
a round would be recorded as a second round (docs/rules.md)."""

from __future__ import annotations

import types

import pytest

from spoiler import hookimpl
from spoiler.cards import CardSet, Ongoing
from spoiler.engine import GameError
from spoiler.plugins import hooks_for
from spoiler.testing import play_round, table

DECK = ["Blank"] * 12


def plugin(name: str, **hooks) -> types.ModuleType:
    module = types.ModuleType(f"spoiler_{name}")
    for hook, fn in hooks.items():
        fn.__name__ = hook
        setattr(module, hook, hookimpl(fn))
    return module


def refused(game, match: str) -> str:
    with pytest.raises(GameError, match=match) as caught:
        play_round(game)
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_ruling_15_a_phase_hook_cannot_play_a_round(toy):
    """A round-start hook calling ``game.play_round()`` is refused, naming the plugin; the
    decisions record keeps one entry for the round, not two."""

    def spoiler_round_start(game):
        game.play_round()

    game = table(
        [toy],
        [["Blank"], ["Blank"]],
        deck=DECK,
        hooks=hooks_for(plugin("loop", spoiler_round_start=spoiler_round_start)),
    )
    message = refused(game, r"plugin 'loop' \(in spoiler_round_start\) called game\.play_round\(\)")
    assert "playing round 1" in message
    assert [r["round"] for r in game.decisions] == [1]


def test_ruling_15_a_phase_hook_cannot_play_the_game(toy):
    """``game.play()`` from the end of a round is refused the same way."""

    def spoiler_round_end(game):
        game.play()

    game = table(
        [toy],
        [["Blank"], ["Blank"]],
        deck=DECK,
        hooks=hooks_for(plugin("rush", spoiler_round_end=spoiler_round_end)),
    )
    refused(game, r"plugin 'rush' \(in spoiler_round_end\) called game\.play_round\(\)")
    assert [r["round"] for r in game.decisions] == [1]


def test_ruling_15_an_effect_hook_cannot_play_a_round(toy):
    """A card-effect hook (before a play resolves) is refused too."""

    def spoiler_before_play(game, play):
        game.play_round()

    game = table(
        [toy],
        [["Blank"], ["Blank"]],
        deck=DECK,
        hooks=hooks_for(plugin("eager", spoiler_before_play=spoiler_before_play)),
    )
    refused(game, r"plugin 'eager' \(in spoiler_before_play\)")


def test_ruling_15_a_game_start_hook_cannot_play_a_round(toy):
    """Nor may the game-start hook play round 1 before the game has started."""

    def spoiler_game_start(game):
        game.play_round()

    deck = CardSet("early", "1.0.0")

    @deck.card
    class Blank:
        text = "No effect."
        copies = 12

    from spoiler.engine import Game, Seat
    from spoiler.testing import TestAgent

    game = Game(
        [deck],
        [Seat("A", TestAgent()), Seat("B", TestAgent())],
        1,
        hooks=hooks_for(plugin("early", spoiler_game_start=spoiler_game_start)),
    )
    with pytest.raises(
        GameError, match=r"plugin 'early' \(in spoiler_game_start\).*while the game was starting"
    ):
        game.start()
    assert game.decisions == []


def test_ruling_15_a_card_cannot_play_a_round():
    """A card's effect, or an ongoing effect's handler, reaching for ``play.game`` to play a
    round is refused, naming the card."""
    cards = CardSet("greedy", "1.0.0")

    class Hurry(Ongoing):
        name = "Hurry"

        def at_end(self):
            self.game.play_round()

    @cards.card
    class Again:
        text = "Play another round at once."
        copies = 6

        def main(play):
            play.game.play_round()

    @cards.card
    class Later:
        text = "At End of Round, play another round at once."
        copies = 6

        def main(play):
            play.add_ongoing(Hurry())

    game = table([cards], [["Again"], ["Again"]], deck=["Again"] * 8)
    refused(game, r"card 'greedy:again' called game\.play_round\(\)")
    game = table([cards], [["Later"], ["Later"]], deck=["Later"] * 8)
    refused(game, r"card 'greedy:later' called game\.play_round\(\)")
