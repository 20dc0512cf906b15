"""Strict scripted rounds (issue 21, item 1): a test's scripted selection or answer that the
engine refuses, or that the round never uses, fails the test naming the seat, the script and
the refusal, instead of being silently replaced by a random legal play."""

from __future__ import annotations

import pytest

from spoiler.state import Status
from spoiler.testing import ScriptError, agent, play_round, table
from spoiler.views import Selection
from spoiler_base import base

DECK = ["Supply"] * 20
NAMES = ["Ann", "Bix", "Cog"]


def base_table(hands, **options):
    return table([base], hands, deck=DECK, names=NAMES[: len(hands)], hooks={}, **options)


def test_a_scripted_card_not_in_hand_fails_naming_seat_script_and_refusal():
    game = base_table([["Supply"], ["Supply"]])
    with pytest.raises(ScriptError) as caught:
        play_round(game, {0: "Jewel", 1: "Supply"})
    assert str(caught.value) == (
        "seat 0 (Ann): the scripted selection 'Jewel' was refused: 'Jewel' is not in your hand"
    )


def test_a_scripted_target_the_card_refuses_fails():
    game = base_table([["Accuse"], ["Jewel"], ["Supply"]], statuses={1: Status.LOST})
    with pytest.raises(ScriptError) as caught:
        play_round(game, {0: ("Accuse", 1, "Jewel"), 2: "Supply"})
    assert str(caught.value) == (
        "seat 0 (Ann): the scripted selection ('Accuse', 1, 'Jewel') was refused: "
        "Accuse needs another player who has not lost; Bix is not"
    )


def test_a_scripted_target_missing_fails():
    game = base_table([["Accuse"], ["Jewel"]])
    with pytest.raises(ScriptError, match=r"'Accuse' was refused: Accuse needs another player"):
        play_round(game, {0: "Accuse", 1: "Jewel"})


def test_a_misspelt_scripted_answer_fails_naming_the_question():
    """Tribute: "They choose a card from their hand and give it to you." """
    game = base_table([["Tribute"], ["Jewel", "Crown", "Hex"]])
    with pytest.raises(ScriptError) as caught:
        play_round(game, {0: ("Tribute", 1), 1: "Jewel"}, {1: ["Crwn"]})
    message = str(caught.value)
    assert message.startswith("seat 1 (Bix): the scripted answer 'Crwn' (to ")
    assert message.endswith("was refused: 'Crwn' is not one of: Crown, Hex")


def test_an_unused_scripted_answer_fails():
    game = base_table([["Supply"], ["Supply"]])
    with pytest.raises(ScriptError) as caught:
        play_round(game, {0: "Supply", 1: "Supply"}, {1: ["Crown"]})
    assert str(caught.value) == (
        "seat 1 (Bix): the scripted answer 'Crown' was never used in round 1 "
        "(it was asked 0 questions)"
    )


def test_a_scripted_selection_for_a_seat_that_has_lost_fails():
    game = base_table([["Supply"], ["Supply"], ["Supply"]], statuses={2: Status.LOST})
    with pytest.raises(ScriptError) as caught:
        play_round(game, {0: "Supply", 1: "Supply", 2: "Supply"})
    assert str(caught.value) == (
        "seat 2 (Cog): the scripted selection 'Supply' was never used in round 1 "
        "(it was not asked to select: it has lost)"
    )


def test_a_second_scripted_selection_for_one_round_fails():
    game = base_table([["Supply", "Supply"], ["Supply"]])
    agent(game, 0).selections.append(Selection("Supply"))  # queued by hand, then once more
    with pytest.raises(ScriptError) as caught:
        play_round(game, {0: "Supply", 1: "Supply"})
    assert str(caught.value) == (
        "seat 0 (Ann): the scripted selection 'Supply' was never used in round 1 "
        "(a seat selects one card a round)"
    )


def test_seats_not_scripted_play_a_random_legal_card():
    game = base_table([["Supply"], ["Accuse"], ["Jewel"]])
    events = play_round(game, {0: "Supply"})
    assert sorted(e.seat for e in events if e.kind == "selected") == [0, 1, 2]


def test_strict_false_replaces_a_refused_script_with_a_random_legal_choice():
    game = base_table([["Supply"], ["Supply"]])
    events = play_round(game, {0: "Jewel", 1: "Supply"}, {1: ["Crown"]}, strict=False)
    assert [e.seat for e in events if e.kind == "selected"] == [0, 1]
    assert agent(game, 0).views[-1].error == "'Jewel' is not in your hand"


def test_the_spoiler_round_fixture_fails_the_test_in_one_line(spoiler_table, spoiler_round):
    game = spoiler_table(["base"], hands=[["Supply"], ["Supply"]], deck=DECK)
    with pytest.raises(pytest.fail.Exception) as caught:
        spoiler_round(game, {0: "Jewel", 1: "Supply"})
    assert str(caught.value) == (
        "spoiler_round: seat 0 (A): the scripted selection 'Jewel' was refused: "
        "'Jewel' is not in your hand"
    )
