"""The discard pile from card code: ``play.discard_pile()`` reads it and
``play.take_from_discard(seat, card)`` takes a card from it (issue 21, item 10)."""

from __future__ import annotations

from spoiler.model.cards import CardSet, NameACard
from spoiler.narration.narrate import narrate
from spoiler.rules.invariants import check_invariants
from spoiler.search import known_cards
from spoiler.testing import play_round, table


def scavenger_set(seen: list) -> CardSet:
    toys = CardSet("toys", "1.0")

    @toys.card
    class Scavenge:
        text = "Name a card. Take a card of that name from the discard pile into your hand."
        ask = NameACard()

        @staticmethod
        def main(play):
            seen.append(play.discard_pile())
            seen.append(play.take_from_discard(play.player, play.info))

    @toys.card
    class Wait:
        text = "Nothing happens."
        copies = 9

        @staticmethod
        def main(play):
            pass

    @toys.card
    class Gem:
        text = "Nothing happens."
        copies = 3

        @staticmethod
        def main(play):
            pass

    return toys


def names(cards) -> list[str]:
    return [c.name for c in cards]


def test_discard_pile_is_the_pile_bottom_card_first_top_card_last():
    """``play.discard_pile()``: the cards of the discard pile, the top card (the latest
    discarded) last, as a tuple the card cannot change the pile through."""
    seen: list = []
    game = table(
        [scavenger_set(seen)],
        [["Scavenge"], ["Wait"]],
        deck=["Wait"] * 4,
        discard=["Gem", "Wait", "Gem"],
        priority=[0, 1],
    )
    play_round(game, {0: ("Scavenge", (), "Wait"), 1: "Wait"})
    assert isinstance(seen[0], tuple) and names(seen[0]) == ["Gem", "Wait", "Gem"]


def test_take_from_discard_moves_the_copy_nearest_the_top_into_the_hand_for_all_to_see():
    """``play.take_from_discard(seat, card)`` moves one card of that name (the copy nearest
    the top) from the pile to the hand; everyone sees which card, as the pile is face up."""
    seen: list = []
    game = table(
        [scavenger_set(seen)],
        [["Scavenge"], ["Wait"], ["Wait"]],
        deck=["Wait"] * 6,
        discard=["Gem", "Wait", "Gem", "Wait"],
        priority=[0, 1, 2],
    )
    events = play_round(game, {0: ("Scavenge", (), "gem"), 1: "Wait", 2: "Wait"})
    assert seen[1] is True
    took = next(e for e in events if e.kind == "took_from_discard")
    assert took.seat == 0 and took.data == {"card": "toys:gem"} and took.secret is None
    # the Gem under the top Wait was taken; the two played Waits and Scavenge joined the pile
    assert names(game.state.discard)[:3] == ["Gem", "Wait", "Wait"]
    assert "Gem" in names(game.hand(0))
    assert narrate(took, ["A", "B", "C"], game.cards_by_id, 2, game.labels) == (
        "A took Gem from the discard pile (Scavenge)."
    )
    check_invariants(game)


def test_take_from_discard_of_a_card_not_in_the_pile_is_false_and_changes_nothing():
    """A card the pile does not hold is not taken: False, no event, nothing moves."""
    seen: list = []
    game = table(
        [scavenger_set(seen)],
        [["Scavenge"], ["Wait"]],
        deck=["Wait"] * 4,
        discard=["Wait"],
        priority=[0, 1],
    )
    events = play_round(game, {0: ("Scavenge", (), "Gem"), 1: "Wait"})
    assert seen[1] is False
    assert "took_from_discard" not in [e.kind for e in events]


def test_a_card_taken_from_the_discard_pile_is_known_to_be_in_that_hand():
    """What a seat knows of other hands (search, the expert bot) counts a card it saw
    another player take from the pile."""
    seen: list = []
    game = table(
        [scavenger_set(seen)],
        [["Scavenge", "Wait"], ["Wait", "Wait"]],
        deck=["Wait"] * 4,
        discard=["Gem"],
        priority=[0, 1],
    )
    play_round(game, {0: ("Scavenge", (), "Gem"), 1: "Wait"})
    assert known_cards(game, 1) == {0: ["toys:gem"]}
