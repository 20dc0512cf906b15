"""Target kinds contained (issue 21, item 4): an ``allows`` that raises makes its cards
unplayable for the round, in one line naming the card and its set, instead of a traceback;
a kind that reads changing facts says so and the legal-target cache honours it."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from spoiler.cards import CardSet, Target
from spoiler.cli.screen import Screen
from spoiler.engine import CardError
from spoiler.testing import play_round, table


def broken_allows(me, candidate):
    raise ZeroDivisionError("division by zero")


def ghosts(target: Target) -> CardSet:
    card_set = CardSet("ghosts", "0.1.0")
    card_set.card(type("Pebble", (), {"text": "No effect.", "copies": 8}))
    card_set.card(type("Grab", (), {"text": "Choose a player. Nothing happens.", "target": target}))
    return card_set


def ghost_table(target: Target, **options):
    return table(
        [ghosts(target)], [["Grab"], ["Pebble"]], deck=["Pebble"] * 4, names=["Ada", "Bix"],
        hooks={}, **options
    )  # fmt: skip


def told(game) -> str:
    out = io.StringIO()
    screen = Screen(Console(file=out, width=200, color_system=None))
    screen.follow(game)
    screen.catch_up()
    return out.getvalue()


def test_a_raising_allows_makes_its_card_unplayable_for_the_round_naming_card_and_set():
    game = ghost_table(Target("a ghost", broken_allows), strict=False)
    events = play_round(game, {1: "Pebble"})
    [failed] = [e for e in events if e.kind == "target_failed"]
    assert failed.data == {
        "target": "a ghost",
        "cards": ("ghosts:grab",),
        "sets": ("ghosts",),
        "error": "ZeroDivisionError: division by zero",
    }
    assert [e.seat for e in events if e.kind == "cannot_select"] == [0]
    assert (
        "Grab cannot be played this round: its target (a ghost, of set ghosts) failed "
        "(ZeroDivisionError: division by zero)." in told(game)
    )


def test_a_raising_allows_is_told_once_a_round():
    game = ghost_table(Target("a ghost", broken_allows), strict=False)
    play_round(game, {1: "Pebble"})
    game.legal_targets(0), game.legal_targets(1)  # asked again in the same round
    told = [e.round for e in game.state.log if e.kind == "target_failed"]
    assert told.count(1) == 1


def test_a_raising_allows_stops_a_strict_game_naming_card_and_set():
    game = ghost_table(Target("a ghost", broken_allows))
    with pytest.raises(CardError) as caught:
        play_round(game, {1: "Pebble"})
    assert str(caught.value) == (
        "Grab (ghosts): the target kind 'a ghost' failed in allows: "
        "ZeroDivisionError: division by zero"
    )


def rich(me, candidate):
    return candidate.seat != me and candidate.counters.get("gold", 0) > 0


def test_a_changing_target_kind_sees_counters_as_they_are_now():
    """``me`` is the choosing player's seat; ``changing=True``: worked out every time."""
    kind = Target("a player with gold", rich, changing=True)
    game = ghost_table(kind)
    assert game.legal_targets(0)[kind] == ()
    game.add_counter(1, "gold", 2, cause="test")
    assert game.legal_targets(0)[kind] == (1,)
    play_round(game, {0: ("Grab", 1), 1: "Pebble"})


def test_a_kind_that_does_not_say_it_changes_is_worked_out_once_per_line_up_of_statuses():
    kind = Target("a player with gold, cached", rich)
    game = ghost_table(kind)
    assert game.legal_targets(0)[kind] == ()
    game.add_counter(1, "gold", 2, cause="test")
    assert game.legal_targets(0)[kind] == ()  # as documented: declare changing=True


def test_a_loop_in_allows_is_stopped_naming_the_target_kind():
    from spoiler.engine import RoundTooLong

    def spin(me, candidate):
        while True:
            pass

    game = ghost_table(Target("a slow ghost", spin))
    game.max_round_seconds = 0.2
    with pytest.raises(RoundTooLong, match="in target kind 'a slow ghost': an effect"):
        play_round(game, {1: "Pebble"})
