"""Hidden information stays hidden from every screen, and `sets validate` checks it (issue
21, item 6): ``spoiler.leaks`` checks a screen against what was hidden when its text was
produced, and validation plays its games with every seat's screen text watched, naming the
card or hook that shows a player what they may not know."""

from __future__ import annotations

import json
from functools import partial
from importlib import metadata

import pytest
from typer.testing import CliRunner

from spoiler import hookimpl, plugins, testing
from spoiler.cli import app
from spoiler.cli import sets as sets_cli
from spoiler.model.cards import ANOTHER_PLAYER, CardSet
from spoiler.narration.leaks import leaks
from spoiler.narration.narrate import narrate
from spoiler.testing import play_round, table


def _hand_text(play, seat) -> str:
    return ", ".join(card.name for card in play.hand(seat))


def gossip_set(name: str = "gossip") -> CardSet:
    toys = CardSet(name, "1.0")

    @toys.card
    class Gossip:
        text = "Choose another player. Tell everyone what they hold."
        target = ANOTHER_PLAYER
        copies = 3

        @staticmethod
        def main(play):
            play.note(f"{play.name_of(play.target)} holds {_hand_text(play, play.target)}")

    @toys.card
    class Peek:
        text = "Choose another player. Look at their hand, then say it aloud."
        target = ANOTHER_PLAYER

        @staticmethod
        def main(play):
            play.reveal(play.target, play.player)

    @toys.card
    class Wait:
        text = "Nothing happens."
        copies = 20

        @staticmethod
        def main(play):
            pass

    @toys.card
    class Gem:
        text = "Nothing happens."
        copies = 4

        @staticmethod
        def main(play):
            pass

    return toys


def notes(game, seat) -> str:
    """The notes as ``seat``'s screen tells them."""
    names = [p.name for p in game.state.players]
    return "\n".join(
        narrate(e.seen_by(seat), names, game.cards_by_id, seat)
        for e in game.state.log
        if e.kind == "note"
    )


def test_a_hand_written_on_a_screen_is_a_leak_even_after_it_changed_by_a_draw():
    """Gossip writes Bix's hand into a public note; at the round's end Bix draws, so the hand
    is not the same any more: the check still finds it (before, it compared the text with the
    hands at the moment of the check only)."""
    game = table(
        [gossip_set()],
        [["Gossip"], ["Wait", "Gem", "Wait", "Gem"]],
        deck=["Wait"] * 6,
        names=["Ann", "Bix"],
        priority=[0, 1],
    )
    play_round(game, {0: ("Gossip", 1), 1: "Wait"})
    assert "Bix holds Gem, Wait, Gem" in notes(game, 0)
    assert len(game.hand(1)) == 4  # it changed: Bix drew
    assert leaks(notes(game, 0), game, 0) == ["Bix's hand: Gem, Wait, Gem"]


def test_a_hand_the_seat_was_shown_is_no_leak():
    """A hand shown to a player (Peek) may be on their screen, and so may their own hand."""
    game = table(
        [gossip_set()],
        [["Peek", "Gossip"], ["Wait", "Gem", "Wait", "Gem"]],
        deck=["Wait"] * 6,
        names=["Ann", "Bix"],
        priority=[1, 0],
    )
    play_round(game, {0: ("Peek", 1), 1: "Wait"})
    shown = ", ".join(card.name for card in game.state.players[0].known[1][1])
    assert leaks(f"Bix showed you {shown}.", game, 0) == []
    assert leaks("Bix holds Gem, Wait, Gem", game, 1) == []  # Bix's own hand, to Bix


FakeEntryPoint = partial(testing.FakeEntryPoint, version="1.0")


class SetPlugin:
    def __init__(self, card_set: CardSet):
        self.card_set = card_set

    @hookimpl
    def spoiler_register_sets(self, register):
        register(self.card_set)


class TattlingRule(SetPlugin):
    @hookimpl
    def spoiler_round_end(self, game, rule):
        for seat in range(len(game.state.players)):
            if len(game.hand(seat)) >= 3:
                rule.note(", ".join(card.name for card in game.hand(seat)))


class QuizRule(SetPlugin):
    @hookimpl
    def spoiler_round_start(self, game, rule):
        if game.round == 2:  # a question to the first seat that lists the second's hand
            rule.ask(0, "Which of these does your neighbour hold?", [c.name for c in game.hand(1)])


def quiet_set(name: str) -> CardSet:
    quiet = CardSet(name, "1.0")
    quiet.card(type("Hush", (), {"text": "Nothing happens.", "copies": 9, "main": lambda p: None}))
    return quiet


@pytest.fixture
def installed(monkeypatch):
    """`sets validate` sees the built-ins and these fake plugins, in this process."""
    original = plugins.load
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


def validate(name: str) -> list[dict]:
    result = CliRunner().invoke(app, ["sets", "validate", name, "--games", "6", "--json"])
    return [p for p in json.loads(result.stdout)["problems"] if p["check"] == "leak"]


def test_validate_names_a_card_that_writes_other_players_hands_in_a_public_note(installed):
    installed(FakeEntryPoint("gossip", SetPlugin(gossip_set())))
    [problem] = validate("gossip")
    assert problem["set"] == "gossip" and problem["card"] == "Gossip"
    assert (
        "Gossip showed " in problem["message"] and "what they may not know: " in problem["message"]
    )
    assert "'s hand: " in problem["message"]
    assert problem["reproduce"].startswith("spoiler sets validate gossip --games 1 --seed ")


def test_validate_names_a_rule_that_tells_every_hand(installed):
    installed(FakeEntryPoint("tattle", TattlingRule(quiet_set("tattle"))))
    [problem] = validate("tattle")
    assert problem["card"] is None
    assert problem["message"].startswith("the rule 'tattle:rule' (a hook of plugin 'tattle')")


def test_validate_names_a_hook_whose_question_lists_another_hand(installed):
    """What a question offers is on the screen of the seat it asks."""
    installed(FakeEntryPoint("quiz", QuizRule(quiet_set("quiz"))))
    problems = validate("quiz")
    assert problems and all(p["message"].startswith("the rule 'quiz:rule'") for p in problems)
    assert "Bot 1" in problems[0]["message"]


def test_the_shipped_sets_keep_every_secret():
    """The base set and the expansions leak nothing in validation's games (played in a child
    process, as `sets validate` plays them: the child watches the screens too)."""
    for name in ("base", "chrono", "mirror"):
        assert validate(name) == []


def test_the_validation_child_plays_with_the_watch_it_is_given(monkeypatch):
    """`sets validate` plays in a child process, which imports the watch by its name: the
    problems it finds there are reported (a watch that finds one in every round)."""
    from pathlib import Path

    from spoiler.plugins import isolation

    here = str(Path(__file__).parent)
    monkeypatch.setenv("PYTHONPATH", here)  # for the child
    monkeypatch.syspath_prepend(here)
    from watch_everything import EveryRound

    reports, _ = isolation.validate(["base"], 2, 0, None, EveryRound)
    [leak] = [p for p in reports[0].problems if p.check == "leak"]
    assert (
        leak.card == "Jewel"
        and leak.message == "Jewel showed Bot 1 what they may not know: a test leak"
    )
