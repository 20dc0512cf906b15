"""Events told as sentences (``spoiler.narrate``): every kind the engine emits has one, and
each reader is told only what they may know."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import spoiler.engine
from spoiler.cards import ANOTHER_PLAYER, CardSet, NameACard
from spoiler.events import Event
from spoiler.narrate import KINDS, narrate, ordinal

NAMES = ["Ada", "Bix", "Cog"]


def cards():
    deck = CardSet("talk", "1.0.0")

    @deck.card
    class Guess:
        text = "Choose another player and name a card. If they hold it, they lose."
        target = ANOTHER_PLAYER
        ask = NameACard()

    @deck.card
    class Shield:
        text = "Nothing can make you lose this round."

    return {c.id: c for c in deck.cards}


CARDS = cards()


def say(event, reader=None):
    return narrate(
        event.seen_by(reader) if reader != "all" else event,
        NAMES,
        CARDS,
        reader if isinstance(reader, int) else None,
    )


def test_every_event_kind_the_engine_emits_has_its_own_sentence():
    """The terminal tells every change: no engine event falls back to the generic sentence."""
    # (The module's source file: a compiled engine's module is an extension beside it.)
    module = Path(spoiler.engine.__file__)
    source = module.with_name(module.name.split(".")[0] + ".py").read_text(encoding="utf-8")
    emitted = set(re.findall(r'_emit\(\s*"([a-z_]+)"', source))
    assert emitted, "no _emit calls found in the engine"
    assert emitted <= KINDS, f"no sentence for: {sorted(emitted - KINDS)}"


def test_a_drawn_card_is_named_to_its_drawer_only():
    """Hidden information stays hidden: only the drawer (and a spectator of bots) learns
    which card was drawn."""
    drew = Event(2, "drew", 1, None, {}, {"card": "talk:guess"}, frozenset({1}))
    assert say(drew, 1) == "You drew Guess."
    assert say(drew, 0) == "Bix drew a card."
    assert say(drew, None) == "Bix drew a card."
    assert say(drew, "all") == "Bix drew Guess."


def test_a_play_names_its_targets_and_its_information():
    """'Ada played Guess on Bix, naming Shield.' and, to Bix, '... on you ...'."""
    played = Event(
        1, "played", 0, "talk:guess", {"card": "talk:guess", "targets": [1], "info": "Shield"}
    )
    assert say(played) == "Ada played Guess on Bix, naming Shield."
    assert say(played, 1) == "Ada played Guess on you, naming Shield."


@pytest.mark.parametrize(
    "before, after, sentence",
    [
        ("in_play", "lost", "Bix lost (Guess)."),
        ("won", "in_play", "Bix lost (Guess), which cancels out the earlier win: back in play."),
        ("lost", "lost", "Bix lost (Guess), but had already lost: nothing changes."),
    ],
)
def test_losing_is_told_as_a_step_down_the_ladder(before, after, sentence):
    """Ruling 10: a winner who loses is back in play; losing while lost changes nothing."""
    event = Event(1, "lost", 1, "talk:guess", {"before": before, "after": after})
    assert say(event) == sentence


def test_a_win_while_lost_is_told_as_cancelling_out():
    """Seed rules: "If you win while you have lost, they cancel out." """
    event = Event(1, "won", 0, None, {"before": "lost", "after": "in_play"})
    assert say(event, 0) == "You won, which cancels out the earlier loss: back in play."


def test_a_hand_shown_to_one_player_is_listed_to_them_alone():
    """Only the viewer learns the cards of a hand shown to them."""
    shown = Event(
        3, "shown", 2, None, {"to": 0}, {"cards": ["talk:guess", "talk:shield"]}, frozenset({0})
    )
    assert say(shown, 0) == "Cog's hand was shown to you: Guess and Shield."
    assert say(shown, 2) == "Your hand was shown to Ada."
    assert say(shown, 1) == "Cog's hand was shown to Ada."


@pytest.mark.parametrize(
    "result, winners, sentence",
    [
        ("win", [0, 2], "Game over: Ada and Cog win!"),
        ("win", [1], "Game over: Bix wins!"),
        ("default", [2], "Game over: Cog won by default, everyone else has lost."),
        ("all_lost", [], "Game over: everyone has lost."),
        ("draw", [], "Game over: the round limit was reached with no winner. It is a draw."),
    ],
)
def test_every_way_a_game_ends_is_told(result, winners, sentence):
    """Ruling 7 and 9: winners, a default win, everyone lost, and a draw at the round limit."""
    event = Event(5, "game_over", None, None, {"result": result, "winners": winners})
    assert say(event) == sentence


def test_the_reader_who_won_is_told_you_win_as_the_engine_reports_it():
    """Issue 20: "you wins!". The engine reports winners as a tuple."""
    event = Event(5, "game_over", None, None, {"result": "win", "winners": (1,)})
    assert say(event, 1) == "Game over: you win!"
    assert say(event, 0) == "Game over: Bix wins!"


def test_a_plugin_event_with_a_message_is_told_by_its_message():
    """Plugins may add event kinds; one carrying a message is told as that message."""
    event = Event(4, "chrono_tick", 0, "talk:shield", {"message": "the clock ticks"})
    assert say(event) == "Shield: the clock ticks"


def test_a_plugin_event_without_a_message_is_told_by_its_kind_and_data():
    """An unknown kind without a message still reads: who, what, and its data."""
    event = Event(4, "fuse_lit", 1, None, {"length": 3})
    assert say(event) == "Bix: fuse lit (length: 3)"


def test_player_names_keep_the_case_their_players_typed():
    """Only "you" is capitalised at the start of a sentence; names are told as typed."""
    event = Event(1, "discarded", 0, None, {"card": "talk:shield"})
    assert narrate(event, ["alice", "bob"], CARDS) == "alice discarded Shield."
    assert narrate(event, ["alice", "bob"], CARDS, you=0) == "You discarded Shield."


@pytest.mark.parametrize(
    "n, text",
    [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th"), (21, "21st")],
)
def test_priorities_read_as_ordinals(n, text):
    assert ordinal(n) == text
