"""One test per base card and per ruling, named after the card.

Each test builds a table by hand, scripts every selection and answer, plays one round, and
asserts what the players would see: statuses, hands, priorities, tokens, and the events in
the log (including who may see a secret).
"""

from __future__ import annotations

import pytest

from spoiler import plugins
from spoiler.engine import IllegalChoice
from spoiler.state import Status
from spoiler.testing import agent, play_round, table
from spoiler.views import Selection
from spoiler_base import base
from spoiler_base.cards import TREASURE

LOST, IN_PLAY, WON = Status.LOST, Status.IN_PLAY, Status.WON
DECK = ["Supply"] * 20


def hand(game, seat) -> list[str]:
    return sorted(c.name for c in game.hand(seat))


def statuses(game) -> list[Status]:
    return [game.status(s) for s in range(len(game.state.players))]


def of_kind(events, kind) -> list:
    return [e for e in events if e.kind == kind]


def seats_of(events, kind) -> list[int]:
    return [e.seat for e in of_kind(events, kind)]


def test_base_set_is_a_plugin_registered_like_any_other():
    """The base set is registered through the `spoiler` entry point group, with no special
    case in the core."""
    registry = plugins.load(environ={"SPOILER_PLUGINS": ""})
    assert registry.sets["base"] is base
    assert registry.plugins["base"].hooks == ["spoiler_register_sets"]


def test_base_set_has_twenty_kinds_and_a_deck_of_forty_to_sixty():
    """At least 20 distinct cards and a deck of 40 to 60 with copies; every card has text."""
    assert len(base.cards) >= 20
    assert 40 <= sum(c.copies for c in base.cards) <= 60
    assert all(c.text and c.id.startswith("base:") for c in base.cards)
    assert "Spoiler" in {c.name for c in base.cards}


# -- Accuse ------------------------------------------------------------------------------------
def test_accuse_the_target_loses_when_they_hold_the_named_card():
    """Accuse: "... name a card other than Accuse. If they hold it, they lose." """
    game = table(
        [base], [["Accuse"], ["Jewel", "Supply"], ["Supply"]], deck=DECK, priority=[0, 1, 2]
    )
    events = play_round(game, {0: ("Accuse", 1, "Jewel"), 1: "Supply", 2: "Supply"})
    assert statuses(game) == [IN_PLAY, LOST, IN_PLAY]
    assert of_kind(events, "lost")[0].cause == "base:accuse"


def test_accuse_does_nothing_when_the_named_card_is_not_held():
    """Accuse: "If they hold it, they lose" — and only then."""
    game = table(
        [base], [["Accuse"], ["Jewel", "Supply"], ["Supply"]], deck=DECK, priority=[0, 1, 2]
    )
    play_round(game, {0: ("Accuse", 1, "Crown"), 1: "Supply", 2: "Supply"})
    assert statuses(game) == [IN_PLAY] * 3


def test_accuse_may_not_name_accuse():
    """Accuse: "name a card other than Accuse" — the selection is refused."""
    game = table([base], [["Accuse"], ["Accuse"]], deck=DECK)
    with pytest.raises(IllegalChoice, match="may not name 'Accuse'"):
        game.check_selection(0, Selection("Accuse", (1,), "Accuse"))


def test_accuse_ruling_a_card_selected_this_round_does_not_count():
    """Ruling: the hand is checked when Accuse resolves: a card they selected this round is
    no longer in their hand and does not count."""
    game = table([base], [["Accuse"], ["Jewel", "Supply"]], deck=DECK, priority=[0, 1])
    play_round(game, {0: ("Accuse", 1, "Jewel"), 1: "Jewel"})
    assert statuses(game) == [IN_PLAY, IN_PLAY]


# -- Standoff ----------------------------------------------------------------------------------
def test_standoff_matching_numbers_make_the_target_lose():
    """Standoff: "They name a number from 1 to 3 without seeing yours. If the numbers
    match, they lose." Only the two of them learn the answer."""
    game = table([base], [["Standoff"], ["Supply"], ["Supply"]], deck=DECK, priority=[0, 1, 2])
    events = play_round(game, {0: ("Standoff", 1, 2), 1: "Supply", 2: "Supply"}, answers={1: ["2"]})
    assert statuses(game) == [IN_PLAY, LOST, IN_PLAY]
    question = agent(game, 1).questions[0]
    assert question.options == ("1", "2", "3") and question.cause == "base:standoff"
    answered = of_kind(events, "answered")[0]
    assert answered.secret_to == frozenset({0, 1}) and answered.seen_by(2).secret is None


def test_standoff_different_numbers_do_nothing():
    """Standoff: "If the numbers match, they lose" — otherwise nothing happens."""
    game = table([base], [["Standoff"], ["Supply"]], deck=DECK, priority=[0, 1])
    play_round(game, {0: ("Standoff", 1, 3), 1: "Supply"}, answers={1: ["1"]})
    assert statuses(game) == [IN_PLAY, IN_PLAY]


def test_standoff_ruling_the_target_answers_even_if_they_have_lost():
    """Ruling: the chosen player answers when Standoff resolves, even if they have lost by then."""
    game = table([base], [["Assassin"], ["Standoff"], ["Supply"]], deck=DECK, priority=[0, 1, 2])
    play_round(game, {0: ("Assassin", 2), 1: ("Standoff", 2, 1), 2: "Supply"}, answers={2: ["1"]})
    assert [q.cause for q in agent(game, 2).questions] == ["base:standoff"]
    assert game.status(2) is LOST


# -- Ambush ------------------------------------------------------------------------------------
def test_ambush_the_target_loses_when_their_card_targets_you():
    """Ambush: "If the card they selected this round targets you, they lose." """
    game = table([base], [["Ambush"], ["Spyglass"], ["Supply"]], deck=DECK, priority=[0, 1, 2])
    play_round(game, {0: ("Ambush", 1), 1: ("Spyglass", 0), 2: "Supply"})
    assert statuses(game) == [IN_PLAY, LOST, IN_PLAY]


def test_ambush_does_nothing_when_their_card_targets_someone_else():
    """Ambush: only a card that targets you springs it."""
    game = table([base], [["Ambush"], ["Spyglass"], ["Supply"]], deck=DECK, priority=[0, 1, 2])
    play_round(game, {0: ("Ambush", 1), 1: ("Spyglass", 2), 2: "Supply"})
    assert statuses(game) == [IN_PLAY] * 3


def test_ambush_ruling_it_springs_whether_their_card_resolved_before_or_after():
    """Ruling: it does not matter whether their card resolves before or after Ambush."""
    for priority in ([0, 1, 2], [1, 0, 2]):
        game = table([base], [["Ambush"], ["Spyglass"], ["Supply"]], deck=DECK, priority=priority)
        play_round(game, {0: ("Ambush", 1), 1: ("Spyglass", 0), 2: "Supply"})
        assert game.status(1) is LOST


def test_ambush_ruling_a_cancelled_card_still_counts():
    """Ruling: a cancelled card still counts: it is the card they selected."""
    game = table([base], [["Ambush"], ["Spyglass"], ["Spoiler"]], deck=DECK, priority=[2, 1, 0])
    events = play_round(game, {0: ("Ambush", 1), 1: ("Spyglass", 0), 2: ("Spoiler", 1)})
    assert seats_of(events, "cancelled") == [1]
    assert game.status(1) is LOST


# -- Assassin ----------------------------------------------------------------------------------
def test_assassin_first_in_priority_makes_the_target_lose():
    """Assassin: "If you are 1st in priority when Assassin resolves, they lose." """
    game = table([base], [["Assassin"], ["Supply"], ["Supply"]], deck=DECK, priority=[0, 1, 2])
    play_round(game, {0: ("Assassin", 2), 1: "Supply", 2: "Supply"})
    assert statuses(game) == [IN_PLAY, IN_PLAY, LOST]


def test_assassin_does_nothing_when_not_first():
    """Assassin: not 1st in priority, no loss."""
    game = table([base], [["Assassin"], ["Supply"], ["Supply"]], deck=DECK, priority=[1, 0, 2])
    play_round(game, {0: ("Assassin", 2), 1: "Supply", 2: "Supply"})
    assert statuses(game) == [IN_PLAY] * 3


def test_assassin_ruling_priority_changes_this_round_count():
    """Ruling: priority changes made earlier this round (Haste, Delay) count."""
    game = table(
        [base], [["Assassin", "Haste"], ["Supply"], ["Supply"]], deck=DECK, priority=[1, 2, 0]
    )
    play_round(game, {0: ("Assassin", 2), 1: "Supply", 2: "Supply"})
    assert game.status(2) is IN_PLAY  # A was 3rd
    game = table([base], [["Assassin"], ["Haste"], ["Supply"]], deck=DECK, priority=[0, 2, 1])
    play_round(game, {0: ("Assassin", 2), 1: "Haste", 2: "Supply"})
    assert game.status(2) is IN_PLAY  # B's Haste took 1st place before A's Assassin resolved


# -- Shield ------------------------------------------------------------------------------------
def test_shield_nothing_can_make_you_lose_this_round():
    """Shield: "At Beginning of Round: until the end of this round, nothing can make you lose." """
    game = table([base], [["Assassin"], ["Shield"]], deck=DECK, priority=[0, 1])
    events = play_round(game, {0: ("Assassin", 1), 1: "Shield"})
    assert game.status(1) is IN_PLAY
    assert of_kind(events, "loss_prevented")[0].data["by"] == "Shield"


def test_shield_ruling_it_lasts_this_round_only():
    """Ruling: the shield is up before any mid-round card resolves, and is gone next round."""
    game = table([base], [["Supply", "Assassin"], ["Shield", "Supply"]], deck=DECK, priority=[0, 1])
    play_round(game, {0: "Supply", 1: "Shield"})
    assert game.state.ongoing == []
    game.state.priority = [0, 1]
    play_round(game, {0: ("Assassin", 1), 1: "Supply"})
    assert game.status(1) is LOST


def test_shield_ruling_a_spoiler_comes_too_late():
    """Ruling: a Spoiler that cancels Shield comes too late: the shield is already up."""
    game = table([base], [["Spoiler"], ["Shield"], ["Assassin"]], deck=DECK, priority=[2, 0, 1])
    events = play_round(game, {0: ("Spoiler", 1), 1: "Shield", 2: ("Assassin", 1)})
    assert seats_of(events, "cancelled") == [1]
    assert game.status(1) is IN_PLAY


# -- Mirror ------------------------------------------------------------------------------------
def test_mirror_turns_a_card_aimed_at_you_back_on_its_player():
    """Mirror: "the first card another player plays that targets you targets that card's
    player instead." """
    game = table([base], [["Assassin"], ["Mirror"], ["Supply"]], deck=DECK, priority=[0, 1, 2])
    events = play_round(game, {0: ("Assassin", 1), 1: "Mirror", 2: "Supply"})
    assert statuses(game) == [LOST, IN_PLAY, IN_PLAY]
    redirected = of_kind(events, "redirected")[0]
    assert (
        redirected.seat == 0
        and redirected.cause == "base:mirror"
        and redirected.data["targets"] == (0,)
    )


def test_mirror_ruling_only_the_first_card_is_turned_back():
    """Ruling: only the first such card is turned back; any later one reaches you."""
    game = table([base], [["Spyglass"], ["Mirror"], ["Assassin"]], deck=DECK, priority=[2, 0, 1])
    play_round(game, {0: ("Spyglass", 1), 1: "Mirror", 2: ("Assassin", 1)})
    assert statuses(game) == [IN_PLAY, IN_PLAY, LOST]  # C was 1st: its Assassin was turned back
    game = table([base], [["Spyglass"], ["Mirror"], ["Standoff"]], deck=DECK, priority=[0, 2, 1])
    play_round(game, {0: ("Spyglass", 1), 1: "Mirror", 2: ("Standoff", 1, 1)}, answers={1: ["1"]})
    assert game.status(1) is LOST  # the Spyglass used the Mirror up


def test_mirror_ruling_several_targets_only_you_are_replaced(toy):
    """Ruling: a card with several targets has only you replaced by its player."""
    game = table(
        [base, toy], [["toy:swap"], ["Mirror"], ["Hex", "Jewel"]], deck=DECK, priority=[0, 1, 2]
    )
    play_round(game, {0: ("toy:swap", (1, 2)), 1: "Mirror", 2: ("Hex", 1)})
    # A's "two other players swap hands" now swaps A (instead of B) with C; then all draw.
    assert [hand(game, s) for s in range(3)] == [["Jewel", "Supply"], ["Supply"], ["Supply"]]


def test_mirror_ruling_a_spoiler_turned_back_cancels_nothing():
    """Ruling: a Spoiler turned back onto its own player finds that player's card already
    resolving, so it cancels nothing."""
    game = table([base], [["Spoiler"], ["Mirror"]], deck=DECK, priority=[0, 1])
    events = play_round(game, {0: ("Spoiler", 1), 1: "Mirror"})
    assert seats_of(events, "cancelled") == []
    assert seats_of(events, "played") == [0, 1]


# -- Spoiler -----------------------------------------------------------------------------------
def test_spoiler_cancels_a_card_that_has_not_resolved():
    """Spoiler: "If their card this round has not resolved yet, cancel it: it does nothing at all." """
    game = table([base], [["Spoiler"], ["Assassin"], ["Supply"]], deck=DECK, priority=[0, 1, 2])
    events = play_round(game, {0: ("Spoiler", 1), 1: ("Assassin", 2), 2: "Supply"})
    assert seats_of(events, "cancelled") == [1]
    assert seats_of(events, "played") == [0, 2]
    assert statuses(game) == [IN_PLAY] * 3


def test_spoiler_ruling_only_catches_players_after_you_in_priority():
    """Ruling: Spoiler only catches cards of players after you in this round's priority order."""
    game = table([base], [["Spoiler"], ["Treasure"]], deck=DECK, priority=[1, 0])
    events = play_round(game, {0: ("Spoiler", 1), 1: "Treasure"})
    assert seats_of(events, "cancelled") == []
    assert game.counter(1, TREASURE) == 1


def test_spoiler_ruling_at_end_of_round_parts_of_a_cancelled_card_do_not_happen():
    """Ruling: the cancelled card's mid-round effect and At End of Round part do not happen."""
    game = table([base], [["Spoiler"], ["Prophecy"], ["Supply"]], deck=DECK, priority=[0, 1, 2])
    events = play_round(game, {0: ("Spoiler", 1), 1: ("Prophecy", 2, "Supply"), 2: "Supply"})
    assert game.status(1) is IN_PLAY and game.result is None
    assert of_kind(events, "at_end") == []


# -- Jewel -------------------------------------------------------------------------------------
def test_jewel_with_another_jewel_in_hand_you_win():
    """Jewel: "If you hold another Jewel, you win." """
    game = table([base], [["Jewel", "Jewel"], ["Supply"]], deck=DECK, priority=[0, 1])
    play_round(game, {0: "Jewel", 1: "Supply"})
    assert game.result.kind == "win" and game.result.winners == (0,)


def test_jewel_ruling_the_jewel_you_play_does_not_count():
    """Ruling: the Jewel you play does not count; one more must be in your hand when it resolves."""
    game = table([base], [["Jewel", "Supply"], ["Supply"]], deck=DECK, priority=[0, 1])
    play_round(game, {0: "Jewel", 1: "Supply"})
    assert game.result is None and game.status(0) is IN_PLAY


# -- Prophecy ----------------------------------------------------------------------------------
def test_prophecy_you_win_when_the_target_played_the_named_card():
    """Prophecy: "At End of Round, if the card they selected this round has that name, you win." """
    game = table([base], [["Prophecy"], ["Supply"]], deck=DECK, priority=[0, 1])
    events = play_round(game, {0: ("Prophecy", 1, "supply"), 1: "Supply"})
    assert game.result.winners == (0,)
    assert [e.kind for e in events].index("at_end") > [e.kind for e in events].index("played")


def test_prophecy_a_wrong_prediction_does_nothing():
    """Prophecy: a card of another name, no win."""
    game = table([base], [["Prophecy"], ["Supply", "Jewel"]], deck=DECK, priority=[0, 1])
    play_round(game, {0: ("Prophecy", 1, "Jewel"), 1: "Supply"})
    assert game.result is None


def test_prophecy_ruling_a_cancelled_card_still_counts():
    """Ruling: a cancelled card still counts: it is the card they selected."""
    game = table([base], [["Prophecy"], ["Treasure"], ["Spoiler"]], deck=DECK, priority=[2, 0, 1])
    play_round(game, {0: ("Prophecy", 1, "Treasure"), 1: "Treasure", 2: ("Spoiler", 1)})
    assert game.counter(1, TREASURE) == 0
    assert game.result.winners == (0,)


# -- Crown -------------------------------------------------------------------------------------
def test_crown_you_win_with_more_cards_than_every_other_player():
    """Crown: "At End of Round: if you hold more cards than every other player who has not
    lost, you win." """
    game = table(
        [base], [["Crown", "Jewel", "Jewel"], ["Supply", "Jewel"]], deck=DECK, priority=[0, 1]
    )
    play_round(game, {0: "Crown", 1: "Supply"})
    assert game.result is None  # B drew two: 2 against 3
    game = table(
        [base], [["Crown", "Jewel", "Jewel"], ["Spyglass", "Jewel"]], deck=DECK, priority=[0, 1]
    )
    play_round(game, {0: "Crown", 1: ("Spyglass", 0)})
    assert game.result.winners == (0,)


def test_crown_a_tie_does_not_win():
    """Crown: "more cards than every other player" — as many is not enough."""
    game = table([base], [["Crown", "Jewel"], ["Spyglass", "Jewel"]], deck=DECK, priority=[0, 1])
    play_round(game, {0: "Crown", 1: ("Spyglass", 0)})
    assert game.result is None


def test_crown_ruling_lost_players_and_later_draws_do_not_count():
    """Crown counts only players who have not lost, and hands before anyone draws."""
    game = table(
        [base],
        [["Crown", "Jewel"], ["Spyglass"], ["Jewel", "Jewel", "Jewel"]],
        deck=DECK,
        priority=[0, 1, 2],
        statuses={2: LOST},
    )
    play_round(game, {0: "Crown", 1: ("Spyglass", 0)})
    assert game.result.winners == (0,)


# -- Treasure ----------------------------------------------------------------------------------
def test_treasure_the_third_token_wins():
    """Treasure: "Put a treasure token on yourself. Then, if you have 3 or more, you win." """
    game = table(
        [base], [["Treasure", "Treasure", "Treasure"], ["Supply"] * 3], deck=DECK, priority=[0, 1]
    )
    for round_number in (1, 2):
        play_round(game, {0: "Treasure", 1: "Supply"})
        assert game.counter(0, TREASURE) == round_number and game.result is None
    play_round(game, {0: "Treasure", 1: "Supply"})
    assert game.result.winners == (0,)
    assert game.view(1).players[0].counters == {TREASURE: 3}  # tokens are public


def test_treasure_ruling_tokens_stay_when_the_win_is_prevented():
    """Ruling: tokens are public and stay all game, even when the win is prevented."""
    game = table([base], [["Treasure"], ["Hex"]], deck=DECK, priority=[1, 0])
    game.state.players[0].counters[TREASURE] = 2
    events = play_round(game, {0: "Treasure", 1: ("Hex", 0)})
    assert game.result is None and game.counter(0, TREASURE) == 3
    assert of_kind(events, "win_prevented")[0].data["by"] == "Hex"


# -- Hex ---------------------------------------------------------------------------------------
def test_hex_the_target_cannot_win_for_three_rounds():
    """Hex: "For this round and the next two, they cannot win." """
    game = table(
        [base], [["Hex", "Supply", "Supply", "Supply"], ["Jewel"] * 5], deck=DECK, priority=[0, 1]
    )
    play_round(game, {0: ("Hex", 1), 1: "Jewel"})
    for _ in range(2):
        play_round(game, {0: "Supply", 1: "Jewel"})
        assert game.result is None
    play_round(game, {0: "Supply", 1: "Jewel"})
    assert game.result.winners == (1,)


def test_hex_ruling_a_hexed_lost_player_cannot_be_revived():
    """Ruling: a hexed lost player cannot be brought back by Revive either: that is a win too."""
    game = table(
        [base], [["Hex"], ["Revive"], ["Supply"]], deck=DECK, priority=[0, 1, 2], statuses={2: LOST}
    )
    play_round(game, {0: ("Hex", 2), 1: ("Revive", 2)})
    assert game.status(2) is LOST


# -- Revive ------------------------------------------------------------------------------------
def test_revive_a_lost_player_is_back_in_play():
    """Revive: "Choose a lost player. If they are still lost, they win: they are back in play." """
    game = table(
        [base],
        [["Revive"], ["Supply"], ["Supply"]],
        deck=DECK,
        priority=[0, 1, 2],
        statuses={2: LOST},
    )
    events = play_round(game, {0: ("Revive", 2), 1: "Supply"})
    assert game.status(2) is IN_PLAY and game.result is None
    assert of_kind(events, "won")[0].data == {"before": "lost", "after": "in_play"}


def test_revive_ruling_a_player_already_back_does_not_win():
    """Revive: "If they are still lost" — a second Revive on the same player does nothing."""
    game = table(
        [base],
        [["Revive"], ["Revive"], ["Supply"]],
        deck=DECK,
        priority=[0, 1, 2],
        statuses={2: LOST},
    )
    play_round(game, {0: ("Revive", 2), 1: ("Revive", 2)})
    assert game.status(2) is IN_PLAY and game.result is None


def test_revive_ruling_it_can_be_selected_only_when_someone_has_lost():
    """Ruling: Revive can be selected only when some player has lost."""
    game = table([base], [["Revive", "Supply"], ["Supply"]], deck=DECK)
    assert [c.name for c in game.playable(0)] == ["Supply"]
    with pytest.raises(IllegalChoice, match="needs a lost player"):
        game.check_selection(0, Selection("Revive", (1,)))


# -- Haste -------------------------------------------------------------------------------------
def test_haste_you_are_first_for_the_rest_of_this_round():
    """Haste: "At Beginning of Round: you are 1st in priority for the rest of this round." """
    game = table([base], [["Supply"], ["Supply"], ["Haste"]], deck=DECK, priority=[0, 1, 2])
    events = play_round(game, {0: "Supply", 1: "Supply", 2: "Haste"})
    assert seats_of(events, "played") == [2, 0, 1]
    assert of_kind(events, "priority_changed")[0].data == {"position": 1, "this_round": True}


def test_haste_ruling_priorities_shift_as_if_haste_had_not_been_played():
    """Ruling: from next round on, priorities shift as if Haste had not been played."""
    game = table([base], [["Supply"], ["Supply"], ["Haste"]], deck=DECK, priority=[0, 1, 2])
    play_round(game, {0: "Supply", 1: "Supply", 2: "Haste"})
    assert game.state.priority == [1, 2, 0]


# -- Delay -------------------------------------------------------------------------------------
def test_delay_the_target_is_last_from_now_on_this_round_too():
    """Delay: "From now on, they are last in priority (this round too: if their card has not
    resolved yet, it resolves last)." """
    game = table([base], [["Delay"], ["Supply"], ["Supply"]], deck=DECK, priority=[0, 1, 2])
    events = play_round(game, {0: ("Delay", 1), 1: "Supply", 2: "Supply"})
    assert seats_of(events, "played") == [0, 2, 1]


def test_delay_ruling_next_round_they_are_second_to_last():
    """Ruling: at the end of the round priorities shift as usual, so next round they are
    second to last."""
    game = table(
        [base], [["Delay"], ["Supply"], ["Supply"], ["Supply"]], deck=DECK, priority=[0, 1, 2, 3]
    )
    play_round(game, {0: ("Delay", 1), 1: "Supply", 2: "Supply", 3: "Supply"})
    assert game.state.priority == [2, 3, 1, 0]


# -- Swap, Tribute, Purge, Supply --------------------------------------------------------------
def test_swap_you_and_the_target_swap_hands():
    """Swap: "Choose another player. Swap hands with them." """
    game = table(
        [base], [["Swap", "Jewel"], ["Spyglass", "Crown", "Hex"]], deck=DECK, priority=[0, 1]
    )
    play_round(game, {0: ("Swap", 1), 1: ("Spyglass", 0)})
    # A got B's Crown and Hex, B got A's Jewel; then each drew a Supply.
    assert hand(game, 0) == ["Crown", "Hex", "Supply"]
    assert hand(game, 1) == ["Jewel", "Supply"]


def test_tribute_the_target_chooses_a_card_to_give_you():
    """Tribute: "They choose a card from their hand and give it to you." Only the two of them
    see which card."""
    game = table(
        [base],
        [["Tribute"], ["Supply", "Jewel", "Crown"], ["Supply"]],
        deck=DECK,
        priority=[0, 1, 2],
    )
    events = play_round(game, {0: ("Tribute", 1), 1: "Supply", 2: "Supply"}, answers={1: ["Crown"]})
    assert agent(game, 1).questions[0].options == ("Crown", "Jewel")
    assert "Crown" in hand(game, 0) and "Crown" not in hand(game, 1)
    gave = of_kind(events, "gave")[0]
    assert gave.seen_by(0).secret == {"card": "base:crown"} and gave.seen_by(2).secret is None


def test_tribute_ruling_an_empty_hand_gives_nothing():
    """Ruling: if their hand is empty, nothing happens."""
    game = table([base], [["Tribute"], ["Supply"]], deck=DECK, priority=[0, 1])
    events = play_round(game, {0: ("Tribute", 1), 1: "Supply"})
    assert of_kind(events, "gave") == [] and agent(game, 1).questions == []


def test_purge_the_target_chooses_a_card_to_discard():
    """Purge: "They choose a card from their hand and discard it." """
    game = table([base], [["Purge"], ["Supply", "Jewel", "Crown"]], deck=DECK, priority=[0, 1])
    events = play_round(game, {0: ("Purge", 1), 1: "Supply"}, answers={1: ["Jewel"]})
    assert of_kind(events, "discarded")[0].data == {"card": "base:jewel"}
    assert "Jewel" not in hand(game, 1)


def test_purge_ruling_an_empty_hand_discards_nothing():
    """Ruling: if their hand is empty, nothing happens."""
    game = table([base], [["Purge"], ["Supply"]], deck=DECK, priority=[0, 1])
    events = play_round(game, {0: ("Purge", 1), 1: "Supply"})
    assert of_kind(events, "discarded") == []


def test_supply_you_draw_two_cards():
    """Supply: "Draw two cards." (then one more at the end of the round, as everyone does)"""
    game = table(
        [base], [["Supply"], ["Spyglass"]], deck=["Jewel", "Crown", "Hex", "Echo"], priority=[0, 1]
    )
    play_round(game, {0: "Supply", 1: ("Spyglass", 0)})
    assert hand(game, 0) == ["Crown", "Hex", "Jewel"]


# -- Spyglass ----------------------------------------------------------------------------------
def test_spyglass_only_you_see_the_target_hand():
    """Spyglass: "Choose another player. Look at their hand." """
    game = table(
        [base],
        [["Spyglass"], ["Supply", "Jewel", "Crown"], ["Supply"]],
        deck=DECK,
        priority=[0, 1, 2],
    )
    events = play_round(game, {0: ("Spyglass", 1), 1: "Supply", 2: "Supply"})
    shown = of_kind(events, "shown")[0]
    assert shown.seen_by(0).secret == {"cards": ("base:jewel", "base:crown")}
    assert shown.seen_by(2).secret is None
    assert [c.name for c in game.view(0).known[1][1]] == ["Jewel", "Crown"]
    assert game.view(2).known == {}


# -- Echo --------------------------------------------------------------------------------------
def test_echo_repeats_a_card_that_has_resolved_as_yours():
    """Echo: "If their card this round has already resolved and is not an Echo, its
    mid-round effect happens again as if you had played it." """
    game = table([base], [["Treasure"], ["Echo"]], deck=DECK, priority=[0, 1])
    events = play_round(game, {0: "Treasure", 1: ("Echo", 0)})
    assert game.counter(0, TREASURE) == 1 and game.counter(1, TREASURE) == 1
    assert of_kind(events, "copied")[0].data == {"card": "base:treasure", "targets": ()}


def test_echo_ruling_only_copies_players_before_you():
    """Ruling: Echo only copies cards of players before you in this round's priority order."""
    game = table([base], [["Treasure"], ["Echo"]], deck=DECK, priority=[1, 0])
    play_round(game, {0: "Treasure", 1: ("Echo", 0)})
    assert game.counter(1, TREASURE) == 0


def test_echo_ruling_does_not_copy_an_echo():
    """Echo: "... and is not an Echo"."""
    game = table([base], [["Treasure"], ["Echo"], ["Echo"]], deck=DECK, priority=[0, 1, 2])
    play_round(game, {0: "Treasure", 1: ("Echo", 0), 2: ("Echo", 1)})
    assert [game.counter(s, TREASURE) for s in range(3)] == [1, 1, 0]


def test_echo_ruling_a_cancelled_card_is_not_copied():
    """Ruling (rules.md 12): a cancelled card did nothing, so there is nothing to copy."""
    game = table([base], [["Spoiler"], ["Treasure"], ["Echo"]], deck=DECK, priority=[0, 1, 2])
    events = play_round(game, {0: ("Spoiler", 1), 1: "Treasure", 2: ("Echo", 1)})
    assert [game.counter(s, TREASURE) for s in range(3)] == [0, 0, 0]
    assert not of_kind(events, "copied")


def test_echo_ruling_beginning_and_end_of_round_parts_are_not_copied():
    """Ruling: At Beginning and At End of Round parts are not copied: echoing Shield does nothing."""
    game = table([base], [["Shield"], ["Echo"], ["Assassin"]], deck=DECK, priority=[2, 0, 1])
    play_round(game, {0: "Shield", 1: ("Echo", 0), 2: ("Assassin", 1)})
    assert game.status(1) is LOST


def test_echo_ruling_a_card_that_targeted_you_now_targets_you():
    """Ruling: the same targets means a card that targeted you now targets you from your own play."""
    game = table([base], [["Standoff"], ["Echo"]], deck=DECK, priority=[0, 1])
    play_round(game, {0: ("Standoff", 1, 2), 1: ("Echo", 0)}, answers={1: ["1", "2"]})
    # B survived A's Standoff (1 against 2), then lost to its own copy of it (2 against 2).
    assert game.status(1) is LOST


def test_docs_cards_md_has_every_base_card_text_and_ruling():
    """docs/cards.md lists every base card with its text and rulings, as the code has them."""
    from pathlib import Path

    docs = (Path(__file__).resolve().parent.parent / "docs" / "cards.md").read_text()
    for card in base.cards:
        assert f"### {card.name}\n" in docs, card.name
        assert f"> {card.text}\n" in docs, card.name
        for ruling in card.rulings:
            assert f"- {ruling}\n" in docs, (card.name, ruling)
