"""Mirror's cards and rules, one test per card and ruling, as the players would see them.

The scenarios use a few plain props (Blank, Doom, Crown, Pair) so that what a Mirror card
replaces is easy to see.
"""

from __future__ import annotations

import pytest

import spoiler_mirror
from spoiler.cards import ANOTHER_PLAYER, ANY_PLAYER, CardSet
from spoiler.plugins import hooks_for
from spoiler.state import Status
from spoiler.testing import ScriptError, check_invariants, kinds, play_round, table
from spoiler_mirror.cards import CRYSTAL_HEART, HAND_MIRROR, mirror

HOOKS = hooks_for(spoiler_mirror)

props = CardSet("props", "1.0.0", description="Plain cards for Mirror's scenarios.")


@props.card
class Blank:
    text = "No effect."
    copies = 8


@props.card
class Doom:
    text = "Choose another player. They lose."
    copies = 4
    target = ANOTHER_PLAYER

    def main(play):
        play.lose(play.target)


@props.card
class Crown:
    text = "You win."

    def main(play):
        play.win(play.player)


@props.card
class Pair:
    text = "Choose two players. They both lose."
    targets = (ANY_PLAYER, ANY_PLAYER)

    def main(play):
        for seat in play.targets:
            play.lose(seat)


def mirror_table(hands, **options):
    """A game of Mirror and the props, Mirror's rules included; seat 0 is 1st in priority."""
    options.setdefault("deck", ["Blank"] * 12)
    options.setdefault("priority", list(range(len(hands))))
    return table([mirror, props], hands, hooks=HOOKS, **options)


def test_hand_mirror_turns_the_next_card_that_targets_you_back_on_its_player():
    """Hand Mirror: "The next card another player plays that targets you targets that card's
    player instead, and the mirror breaks." """
    game = mirror_table([["Hand Mirror"], ["Doom"], ["Blank"]])
    events = play_round(game, {0: ("Hand Mirror",), 1: ("Doom", 0), 2: ("Blank",)})
    redirected = [e for e in events if e.kind == "redirected"]
    assert [(e.cause, e.data["targets"]) for e in redirected] == [("mirror:hand-mirror", (1,))]
    assert game.status(1) is Status.LOST and game.status(0) is Status.IN_PLAY
    assert game.counter(0, HAND_MIRROR) == 0


def test_hand_mirror_ruling_stays_across_rounds_and_turns_back_one_card_each():
    """Hand Mirror ruling: "Hand mirrors stay until they break, across rounds; each turns back
    one card." """
    game = mirror_table([["Hand Mirror"], ["Blank", "Doom"], ["Blank", "Doom"]])
    play_round(game, {0: ("Hand Mirror",), 1: ("Blank",), 2: ("Blank",)})
    assert game.counter(0, HAND_MIRROR) == 1
    play_round(game, {0: ("Blank",), 1: ("Doom", 0), 2: ("Doom", 0)})
    assert [game.status(s) for s in range(3)] == [Status.LOST, Status.LOST, Status.IN_PLAY]


def test_hand_mirror_ruling_only_you_are_replaced_among_several_targets():
    """Hand Mirror ruling: "A card with several targets has only you replaced by its player." """
    game = mirror_table([["Blank"], ["Pair"], ["Blank"], ["Blank"]])
    game.add_counter(0, HAND_MIRROR, 1)
    play_round(game, {0: ("Blank",), 1: ("Pair", (0, 2)), 2: ("Blank",), 3: ("Blank",)})
    assert [game.status(s) for s in range(4)] == [
        Status.IN_PLAY,
        Status.LOST,
        Status.LOST,
        Status.IN_PLAY,
    ]


def test_hand_mirror_ruling_a_card_already_targeting_its_player_is_cancelled():
    """Hand Mirror ruling: "if its player is already one of its targets, it is cancelled
    instead." """
    game = mirror_table([["Blank"], ["Pair"], ["Blank"]])
    game.add_counter(0, HAND_MIRROR, 1)
    events = play_round(game, {0: ("Blank",), 1: ("Pair", (1, 0)), 2: ("Blank",)})
    assert "cancelled" in kinds(events) and "lost" not in kinds(events)


def test_hand_mirror_ruling_turns_a_card_back_before_any_ongoing_effect_sees_it():
    """Hand Mirror ruling: "A hand mirror turns a card back before any ongoing effect sees
    it." Seat 0's Decoy never sees the Doom the mirror turned back."""
    game = mirror_table([["Decoy"], ["Doom"], ["Blank"]])
    game.add_counter(0, HAND_MIRROR, 1)
    events = play_round(game, {0: ("Decoy",), 1: ("Doom", 0), 2: ("Blank",)})
    assert "cancelled" not in kinds(events)
    assert game.status(1) is Status.LOST


def test_crystal_heart_prevents_the_next_loss_and_breaks():
    """Crystal Heart: "The next time you would lose, you don't: the heart breaks instead." """
    game = mirror_table([["Crystal Heart", "Blank"], ["Blank", "Doom"], ["Blank", "Doom"]])
    play_round(game, {0: ("Crystal Heart",), 1: ("Blank",), 2: ("Blank",)})
    assert game.counter(0, CRYSTAL_HEART) == 1
    events = play_round(game, {0: ("Blank",), 1: ("Doom", 0), 2: ("Doom", 0)})
    assert [e.kind for e in events if e.seat == 0 and e.kind in ("lost", "loss_prevented")] == [
        "loss_prevented",
        "lost",
    ]
    assert game.counter(0, CRYSTAL_HEART) == 0 and game.status(0) is Status.LOST


def test_crystal_heart_ruling_breaks_only_when_no_ongoing_effect_prevented_the_loss():
    """Crystal Heart ruling: "A crystal heart breaks only when no ongoing effect has already
    prevented the loss." Last Stand acts first; the heart stays."""
    game = mirror_table([["Last Stand", "Blank"], ["Doom"], ["Blank"]])
    game.add_counter(0, CRYSTAL_HEART, 1)
    play_round(game, {0: ("Last Stand",), 1: ("Doom", 0), 2: ("Blank",)})
    assert game.status(0) is Status.IN_PLAY and game.counter(0, CRYSTAL_HEART) == 1


def test_decoy_cancels_the_first_card_another_player_plays_that_targets_you():
    """Decoy: "this round, the first card another player plays that targets you is
    cancelled." Only the first: the second Doom reaches you."""
    game = mirror_table([["Decoy"], ["Doom"], ["Doom"]])
    events = play_round(game, {0: ("Decoy",), 1: ("Doom", 0), 2: ("Doom", 0)})
    cancelled = [e for e in events if e.kind == "cancelled"]
    assert [(e.seat, e.cause) for e in cancelled] == [(1, "mirror:decoy")]
    assert game.status(0) is Status.LOST


def test_decoy_is_not_spent_on_a_card_another_decoy_already_cancelled():
    """Decoy: "the first card another player plays that targets you is cancelled" — a card
    already cancelled is not played, so B's Decoy still waits for the next one."""
    game = mirror_table([["Blank"], ["Pair"], ["Decoy"], ["Decoy"], ["Doom"]])
    play_round(
        game, {0: ("Blank",), 1: ("Pair", (2, 3)), 2: ("Decoy",), 3: ("Decoy",), 4: ("Doom", 3)}
    )
    cancelled = [e.seat for e in game.state.log if e.kind == "cancelled"]
    assert cancelled == [1, 4]
    assert game.status(2) is Status.IN_PLAY and game.status(3) is Status.IN_PLAY


def test_misdirection_sends_the_card_to_a_player_of_your_choice():
    """Misdirection: "the first card another player plays that targets you targets a player
    of your choice instead (not you, nor that card's player)." """
    game = mirror_table([["Misdirection"], ["Doom"], ["Blank"], ["Blank"]])
    play_round(
        game,
        {0: ("Misdirection",), 1: ("Doom", 0), 2: ("Blank",), 3: ("Blank",)},
        answers={0: ["D"]},
    )
    question = game.seats[0].agent.questions[-1]
    assert question.options == ("C", "D")
    assert [game.status(s) for s in range(4)] == [
        Status.IN_PLAY,
        Status.IN_PLAY,
        Status.IN_PLAY,
        Status.LOST,
    ]


def test_misdirection_ruling_with_no_one_to_choose_the_card_reaches_you():
    """Misdirection ruling: "with no one to choose, the card reaches you." """
    game = mirror_table([["Misdirection"], ["Doom"]])
    play_round(game, {0: ("Misdirection",), 1: ("Doom", 0)})
    assert game.status(0) is Status.LOST


def test_misdirection_ruling_only_a_player_that_card_could_have_targeted():
    """Misdirection ruling: "You may choose only a player that card could have targeted, and
    not one it already targets." Pair already targets C, so only D is left: no question."""
    game = mirror_table([["Misdirection"], ["Pair"], ["Blank"], ["Blank"]])
    play_round(game, {0: ("Misdirection",), 1: ("Pair", (0, 2)), 2: ("Blank",), 3: ("Blank",)})
    assert game.seats[0].agent.questions == []
    assert [game.status(s) for s in range(4)] == [
        Status.IN_PLAY,
        Status.IN_PLAY,
        Status.LOST,
        Status.LOST,
    ]


def test_smoke_and_mirrors_cancels_the_first_card_of_that_name_another_player_plays():
    """Smoke and Mirrors: "Name a card other than Smoke and Mirrors. At Beginning of Round: this
    round, the first card of that name another player plays is cancelled." """
    game = mirror_table([["Smoke and Mirrors"], ["Doom"], ["Doom"]])
    play_round(game, {0: ("Smoke and Mirrors", (), "Doom"), 1: ("Doom", 2), 2: ("Doom", 1)})
    assert game.status(2) is Status.IN_PLAY and game.status(1) is Status.LOST


def test_smoke_and_mirrors_may_not_name_itself():
    """Smoke and Mirrors: "Name a card other than Smoke and Mirrors." """
    game = mirror_table([["Smoke and Mirrors"], ["Blank"]])
    refused = "refused: Smoke and Mirrors: this card may not name 'smoke and mirrors'$"
    with pytest.raises(ScriptError, match=refused):
        play_round(game, {0: ("Smoke and Mirrors", (), "smoke and mirrors"), 1: ("Blank",)})


def test_scapegoat_the_first_time_you_would_lose_they_lose_instead():
    """Scapegoat: "this round, the first time you would lose, they lose instead." """
    game = mirror_table([["Scapegoat"], ["Doom"], ["Blank"]])
    play_round(game, {0: ("Scapegoat", 2), 1: ("Doom", 0), 2: ("Blank",)})
    assert [game.status(s) for s in range(3)] == [Status.IN_PLAY, Status.IN_PLAY, Status.LOST]


def test_scapegoat_ruling_if_their_loss_is_prevented_you_still_do_not_lose():
    """Scapegoat ruling: "If the scapegoat's own loss is prevented, you still do not lose." """
    game = mirror_table([["Scapegoat"], ["Doom"], ["Blank"]])
    game.add_counter(2, CRYSTAL_HEART, 1)
    play_round(game, {0: ("Scapegoat", 2), 1: ("Doom", 0), 2: ("Blank",)})
    assert game.status(0) is Status.IN_PLAY and game.status(2) is Status.IN_PLAY
    assert game.counter(2, CRYSTAL_HEART) == 0


def test_martyr_the_first_time_they_would_lose_you_lose_instead():
    """Martyr: "this round, the first time they would lose, you lose instead." """
    game = mirror_table([["Martyr"], ["Doom"], ["Blank"]])
    play_round(game, {0: ("Martyr", 2), 1: ("Doom", 2), 2: ("Blank",)})
    assert game.status(0) is Status.LOST and game.status(2) is Status.IN_PLAY


def test_envy_the_first_time_they_would_win_you_win_instead():
    """Envy: "this round, the first time they would win, you win instead." """
    game = mirror_table([["Envy"], ["Crown"], ["Blank"]])
    play_round(game, {0: ("Envy", 1), 1: ("Crown",), 2: ("Blank",)})
    assert game.status(0) is Status.WON and game.status(1) is Status.IN_PLAY
    assert game.result.winners == (0,)


def test_last_stand_discards_your_hand_instead_of_losing():
    """Last Stand: "the first time you would lose while holding cards, you discard your whole
    hand instead." """
    game = mirror_table([["Last Stand", "Blank", "Doom"], ["Doom"], ["Blank"]])
    events = play_round(game, {0: ("Last Stand",), 1: ("Doom", 0), 2: ("Blank",)})
    assert [e.data["card"] for e in events if e.kind == "discarded"] == [
        "props:blank",
        "props:doom",
    ]
    assert game.status(0) is Status.IN_PLAY


def test_last_stand_with_an_empty_hand_you_lose():
    """Last Stand: "while holding cards" — with an empty hand the loss happens."""
    game = mirror_table([["Last Stand"], ["Doom"], ["Blank"]])
    play_round(game, {0: ("Last Stand",), 1: ("Doom", 0), 2: ("Blank",)})
    assert game.status(0) is Status.LOST


def test_shatter_breaks_every_mirror_and_heart_and_draws_at_most_two():
    """Shatter: "Break all their hand mirrors and crystal hearts; you draw a card for each one
    broken, at most 2." """
    game = mirror_table([["Shatter"], ["Blank"]], deck=["Crown", "Doom", "Blank"] + ["Blank"] * 5)
    game.add_counter(1, HAND_MIRROR, 2)
    game.add_counter(1, CRYSTAL_HEART, 1)
    play_round(game, {0: ("Shatter", 1), 1: ("Blank",)})
    assert game.counter(1, HAND_MIRROR) == 0 and game.counter(1, CRYSTAL_HEART) == 0
    assert [c.name for c in game.hand(0)] == [
        "Crown",
        "Doom",
        "Blank",
    ]  # two, then the round's draw


def test_shatter_ruling_a_hand_mirror_does_not_turn_it_back():
    """Shatter ruling: "A hand mirror does not turn Shatter back: Shatter breaks it." """
    game = mirror_table([["Shatter"], ["Blank"]])
    game.add_counter(1, HAND_MIRROR, 1)
    events = play_round(game, {0: ("Shatter", 1), 1: ("Blank",)})
    assert "redirected" not in kinds(events) and game.counter(1, HAND_MIRROR) == 0


def test_looking_glass_each_of_you_sees_the_others_hand():
    """Looking Glass: "You look at their hand, and they look at yours." Nobody else does."""
    game = mirror_table([["Looking Glass", "Crown"], ["Blank", "Doom"], ["Blank"]])
    play_round(game, {0: ("Looking Glass", 1), 1: ("Blank",), 2: ("Blank",)})
    seen_by_0 = game.view(0).known[1][1]
    seen_by_1 = game.view(1).known[0][1]
    assert [c.name for c in seen_by_0] == ["Doom"] and [c.name for c in seen_by_1] == ["Crown"]
    assert game.view(2).known == {}


def test_mirror_rules_hold_only_in_games_with_mirror():
    """Hand mirrors and crystal hearts are the set's rules: a game without Mirror never
    calls them."""
    from spoiler.plugins import load

    registry = load(environ={"SPOILER_PLUGINS": "spoiler-mirror"})
    assert {"spoiler_before_play", "spoiler_would_lose"} <= set(
        registry.game_hooks(["base", "mirror"])
    )
    assert not {"spoiler_before_play", "spoiler_would_lose"} & set(registry.game_hooks(["base"]))


@pytest.mark.parametrize("seed", range(30))
def test_mirror_plays_well_with_the_base_set_and_chrono(seed):
    """Random games of Mirror mixed with every other installed set keep the engine's
    invariants after every round, and end."""
    from spoiler.agents import RandomAgent
    from spoiler.engine import Game, Seat
    from spoiler.plugins import load

    registry = load(environ={})
    names = sorted(registry.sets)
    seats = [Seat(f"P{i}", RandomAgent(seed, i)) for i in range(2 + (seed + 1) % 5)]
    game = Game(
        registry.card_sets(names), seats, seed + 1000, hooks=registry.game_hooks(names), strict=True
    )
    while not game.over:
        game.play_round()
        check_invariants(game)
    assert game.result is not None
