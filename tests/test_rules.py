"""One test per sentence of the seed rules and per ruling in docs/rules.md.

Each test builds a table by hand with the small ``toy`` set (tests/conftest.py), scripts what
each player selects, plays a round, and asserts what the players would see: statuses, hands,
the result, and the events in the log.
"""

from __future__ import annotations

import pytest

from spoiler.agents import RandomAgent
from spoiler.cards import ANOTHER_PLAYER, CardSet, Ongoing
from spoiler.engine import CardError, Game, GameError, RoundTooLong, Seat
from spoiler.state import Status
from spoiler.testing import agent, check_invariants, kinds, play_round, table
from spoiler.views import Selection

LOST, IN_PLAY, WON = Status.LOST, Status.IN_PLAY, Status.WON
DECK = ["Blank"] * 12


def names(cards) -> list[str]:
    return sorted(c.name for c in cards)


def hand(game, seat) -> list[str]:
    return names(game.hand(seat))


def seats_of(events, kind) -> list[int]:
    return [e.seat for e in events if e.kind == kind]


def notes(events) -> list[str]:
    return [e.data["message"] for e in events if e.kind == "note"]


def random_game(card_set, players: int, seed: int, **options) -> Game:
    seats = [Seat(f"P{i}", RandomAgent(seed, i)) for i in range(players)]
    return Game([card_set], seats, seed, **options)


# ==============================================================================================
# The seed rules
# ==============================================================================================
def test_seed_game_start_gives_random_priorities_and_deals_three_cards(toy):
    """At the start of the game, each player is given a random position of priority (1st,
    2nd, 3rd…) and is dealt three cards."""
    orders = set()
    for seed in range(30):
        game = random_game(toy, 4, seed)
        game.start()
        assert sorted(game.state.priority) == [0, 1, 2, 3]
        assert [len(game.hand(s)) for s in range(4)] == [3, 3, 3, 3]
        announced = [e for e in game.state.log if e.kind == "priorities"]
        assert list(announced[0].data["order"]) == game.state.priority
        orders.add(tuple(game.state.priority))
    assert len(orders) > 5, "priorities are not random"


def test_seed_every_player_selects_a_card_if_possible(toy):
    """Every round, each player must select a card to play for the round (if possible), with
    the targets and information it asks for."""
    game = table([toy], [["Doom", "Blank"], ["Guess"], ["Blank"]], deck=DECK)
    events = play_round(game, {0: ("Doom", 1), 1: ("Guess", 2, "Crown"), 2: "Blank"})
    assert sorted(seats_of(events, "selected")) == [0, 1, 2]
    played = {
        e.seat: (e.data["card"], e.data["targets"], e.data["info"])
        for e in events
        if e.kind == "played"
    }
    assert played == {
        0: ("toy:doom", (1,), None),
        1: ("toy:guess", (2,), "Crown"),
        2: ("toy:blank", (), None),
    }


def test_seed_cards_are_played_in_order_of_priority(toy):
    """After the selection period the round begins: the cards are played in order of
    priority."""
    game = table([toy], [["Blank"], ["Blank"], ["Blank"]], deck=DECK, priority=[2, 0, 1])
    events = play_round(game)
    assert seats_of(events, "played") == [2, 0, 1]


def test_seed_a_player_who_loses_still_has_their_card_activate(toy):
    """If a player *loses* during this process, their card still activates."""
    game = table([toy], [["Doom"], ["Doom"], ["Blank"]], deck=DECK, priority=[0, 1, 2])
    play_round(game, {0: ("Doom", 1), 1: ("Doom", 2), 2: "Blank"})
    # B lost to A's Doom before B's Doom resolved; B's Doom still made C lose.
    assert [game.status(s) for s in range(3)] == [IN_PLAY, LOST, LOST]
    assert game.result.kind == "default" and game.result.winners == (0,)


def test_seed_each_player_draws_then_priorities_shift(toy):
    """After this, each player draws a card, and priorities shift: 2nd becomes 1st, 1st
    becomes last, and so forth."""
    game = table(
        [toy], [["Blank"], ["Blank"], ["Blank"]], deck=["Crown", "Fall", "Doom"], priority=[1, 2, 0]
    )
    events = play_round(game)
    assert seats_of(events, "drew") == [1, 2, 0]  # in priority order, from the top
    assert [hand(game, s) for s in range(3)] == [["Doom"], ["Crown"], ["Fall"]]
    assert game.state.priority == [2, 0, 1]
    assert events[-1].kind == "priorities_shifted"


def test_seed_making_every_other_player_lose_wins(toy):
    """The objective is to make every other player *lose* … If either happens by the end of
    a round, the game ends and you win."""
    game = table([toy], [["Doom"], ["Blank"]], deck=DECK)
    play_round(game, {0: ("Doom", 1), 1: "Blank"})
    assert game.result.kind == "default"
    assert game.result.winners == (0,)


def test_seed_making_yourself_win_wins(toy):
    """The objective is … to make yourself *win*. If either happens by the end of a round,
    the game ends and you win."""
    game = table([toy], [["Crown"], ["Blank"], ["Blank"]], deck=DECK)
    play_round(game, {0: "Crown"})
    assert game.result.kind == "win" and game.result.winners == (0,)
    assert game.state.log[-1].as_dict()["winners"] == [0]


def test_seed_if_every_player_has_lost_everyone_loses_equally(toy):
    """If every player has lost at the end of a round, everyone loses equally."""
    game = table([toy], [["Fall"], ["Fall"]], deck=DECK)
    play_round(game)
    assert game.result.kind == "all_lost" and game.result.winners == ()
    assert game.result.describe(["A", "B"]) == "Everyone lost in round 1."


def test_seed_two_or_more_winners_all_win(toy):
    """If two or more players have won at the end of a round, they all win."""
    game = table([toy], [["Crown"], ["Crown"], ["Blank"]], deck=DECK)
    play_round(game)
    assert game.result.kind == "win" and game.result.winners == (0, 1)
    assert game.result.describe(["A", "B", "C"]) == "A and B won in round 1."


def test_seed_a_lost_player_only_loses_the_power_to_play_and_draw(toy):
    """A player who has lost **only** loses the power to play a card at the beginning of each
    round and to draw a card at the end of each round. They can still be affected by cards."""
    game = table(
        [toy],
        [["Doom"], ["Blank"], ["Crown", "Blank"]],
        deck=DECK,
        statuses={2: LOST},
        priority=[0, 1, 2],
    )
    events = play_round(game, {0: ("Doom", 2), 1: "Blank"})
    assert agent(game, 2).views == []  # never asked to select
    assert 2 not in seats_of(events, "selected") + seats_of(events, "drew")
    assert hand(game, 2) == ["Blank", "Crown"]
    # Still affected: A's Doom resolves against C (who stays lost: there is no lower step).
    lost = [e.as_dict() for e in events if e.kind == "lost"]
    assert lost == [
        {
            "round": 1,
            "kind": "lost",
            "seat": 2,
            "cause": "toy:doom",
            "before": "lost",
            "after": "lost",
        }
    ]


def test_seed_a_lost_player_may_do_what_a_card_lets_them(toy):
    """If a card lets them do something, they may do it."""
    game = table(
        [toy],
        [["Gift"], ["Blank"], ["Crown", "Blank"]],
        deck=DECK,
        statuses={2: LOST},
        priority=[0, 1, 2],
    )
    play_round(game, {0: ("Gift", 2)}, answers={2: ["Crown"]})
    assert [q.prompt for q in agent(game, 2).questions] == ["Which card do you give?"]
    assert hand(game, 2) == ["Blank"]
    assert "Crown" in hand(game, 0)


def test_seed_winning_while_lost_cancels_out(toy):
    """If you win while you have lost, the two cancel out."""
    game = table([toy], [["Revive"], ["Blank"], ["Blank"]], deck=DECK, statuses={2: LOST})
    play_round(game, {0: ("Revive", 2)})
    assert game.status(2) is IN_PLAY
    assert game.result is None  # C is back in the game, not a winner


def test_seed_the_game_ends_only_after_the_end_of_the_round(toy):
    """When a player has won, the game ends after the end of the round (they may yet lose,
    or more winners may appear)."""
    game = table([toy], [["Crown"], ["Herald"], ["Crown"]], deck=DECK, priority=[0, 1, 2])
    events = play_round(game)
    # A won first; B's card and its "At End of Round" part, C's win and the draw still happen.
    assert notes(events) == ["herald, beginning", "herald, main", "herald, end"]
    assert seats_of(events, "drew") == [0, 1, 2]
    assert game.result.winners == (0, 2)


def test_seed_a_winner_may_yet_lose_in_the_same_round(toy):
    """When a player has won, the game ends after the end of the round (they may yet lose,
    or more winners may appear)."""
    game = table([toy], [["Crown"], ["Doom"], ["Blank"]], deck=DECK, priority=[0, 1, 2])
    play_round(game, {1: ("Doom", 0)})
    assert game.status(0) is IN_PLAY
    assert game.result is None


def test_seed_the_order_of_things(toy):
    """Beginning of round: players select the cards they play; cards with "At Beginning of
    Round" texts resolve in order of priority. Mid round: cards are played and resolved in
    order of priority. End of round: cards with "At End of Round" texts resolve in order of
    priority; everyone draws a card; priorities shift; the game ends if there are any
    winners or everyone has lost."""
    game = table([toy], [["Herald"], ["Herald"]], deck=DECK, priority=[1, 0])
    events = play_round(game)
    steps = [
        (e.kind, e.seat)
        for e in events
        if e.kind in ("selected", "at_beginning", "played", "at_end", "drew", "priorities_shifted")
    ]
    assert steps == [
        ("selected", 1),
        ("selected", 0),
        ("at_beginning", 1),
        ("at_beginning", 0),
        ("played", 1),
        ("played", 0),
        ("at_end", 1),
        ("at_end", 0),
        ("drew", 1),
        ("drew", 0),
        ("priorities_shifted", None),
    ]
    game = table([toy], [["Crown"], ["Blank"]], deck=DECK)
    assert kinds(play_round(game))[-2:] == ["priorities_shifted", "game_over"]


def test_seed_a_selected_card_is_no_longer_part_of_the_hand(toy):
    """Players select the cards they play (a selected card is no longer part of the hand)."""
    game = table([toy], [["Guess"], ["Crown", "Blank"]], deck=DECK, priority=[0, 1])
    play_round(game, {0: ("Guess", 1, "Crown"), 1: "Crown"})
    # B's only Crown was selected, so B no longer holds one when A's Guess resolves.
    assert game.status(1) is WON
    assert game.result.winners == (1,)


# ==============================================================================================
# Rulings
# ==============================================================================================
def test_ruling_1_players_and_deal(toy):
    """1. Players and deal. 2 to 8 players. Priorities are a random permutation at game
    start. Each player is dealt 3 cards. A deck too small to deal 3 cards to everyone is
    refused."""
    for players in (1, 9):
        with pytest.raises(GameError, match="2 to 8 players"):
            random_game(toy, players, seed=1)
    for players in (2, 8):
        game = random_game(toy, players, seed=1)
        game.start()
        assert sorted(game.state.priority) == list(range(players))
        assert all(len(game.hand(s)) == 3 for s in range(players))
        assert len(game.state.deck) == sum(c.copies for c in toy.cards) - 3 * players
    tiny = CardSet("tiny", "1")
    tiny.card(type("Pebble", (), {"text": "No effect.", "copies": 5}))
    with pytest.raises(GameError, match="too small to deal 3 to 2 players"):
        random_game(tiny, 2, seed=1)


def test_ruling_2_selection_is_simultaneous_and_hidden(toy):
    """2. Selection is simultaneous and hidden. Every player who has not lost and holds a
    card must select one card, with the targets and information it asks for, before
    anything resolves. No one sees another's selection before all have chosen."""
    game = table(
        [toy],
        [["Crown", "Blank", "Blank"], ["Doom", "Blank", "Blank"], ["Blank", "Blank", "Blank"]],
        deck=DECK,
        priority=[0, 1, 2],
    )
    seen = {}

    def watch(seat, select):
        def select_and_remember(view):
            seen[seat] = ([p.hand_size for p in view.players], [e.kind for e in view.events])
            return select(view)

        return select_and_remember

    for seat in (1, 2):
        agent(game, seat).select = watch(seat, agent(game, seat).select)
    play_round(game, {0: "Crown", 1: ("Doom", 0), 2: "Blank"})
    for seat in (1, 2):
        hand_sizes, events_seen = seen[seat]
        # Seat 0 chose before them: its hand still looks whole and its choice is not shown.
        assert hand_sizes == [3, 3, 3]
        assert not {"selected", "played", "won", "lost"} & set(events_seen)
    assert game.status(0) is IN_PLAY  # A's win and B's Doom both resolved: they cancel


def test_ruling_2_selected_cards_leave_the_hand_at_once(toy):
    """2. … Selected cards leave the hand at once."""
    game = table([toy], [["Tally", "Blank", "Blank"], ["Blank"]], deck=DECK)
    events = play_round(game, {0: "Tally"})
    assert notes(events) == ["holds 2"]


def test_ruling_2_a_player_with_no_legal_play_selects_nothing(toy):
    """2. … ("If possible": a player none of whose cards has a legal target selects nothing
    that round and keeps their hand.)"""
    game = table([toy], [["Blank"], ["Revive", "Revive"]], deck=DECK)
    events = play_round(game)
    assert seats_of(events, "cannot_select") == [1]
    assert agent(game, 1).views == []
    assert hand(game, 1) == ["Blank", "Revive", "Revive"]  # kept, and drew one


def test_ruling_3_an_illegal_selection_is_refused_and_asked_again(toy):
    """3. Choices are checked when made and locked. Targets and information are checked when
    selected: an illegal selection is refused and asked again."""
    game = table([toy], [["Guess", "Doom", "Blank"], ["Blank"]], deck=DECK)
    agent(game, 0).selections += [
        Selection("Crown"),  # not in hand
        Selection("Doom", (0,)),  # targets themself
        Selection("Doom", (7,)),  # not a player
        Selection("Doom"),  # no target
        Selection("Guess", (1,), "Guess"),  # Guess may not name Guess
        Selection("Guess", (1,), "Dragon"),  # not a card in this game
        Selection("Blank", (), "Crown"),  # Blank asks for nothing
        Selection("Guess", (1,), "crown"),  # legal (names are case-insensitive)
    ]
    events = play_round(game, strict=False)  # (strict would stop at the first refusal)
    errors = [v.error for v in agent(game, 0).views]
    assert errors == [
        None,
        "'Crown' is not in your hand",
        "Doom needs another player; A is not",
        "7 is not a player",
        "Doom needs another player",
        "Guess: this card may not name 'Guess'",
        "Guess: 'Dragon' is not a card in this game",
        "Blank asks for no information",
    ]
    [played] = [e for e in events if e.kind == "played" and e.seat == 0]
    assert (played.data["card"], played.data["targets"], played.data["info"]) == (
        "toy:guess",
        (1,),
        "Crown",
    )


def test_ruling_3_multiple_targets_must_be_different_players(toy):
    """3. … Multiple targets of one card must be different players."""
    game = table([toy], [["Swap"], ["Blank"], ["Blank"]], deck=DECK)
    agent(game, 0).selections += [Selection("Swap", (1, 1)), Selection("Swap", (1, 2))]
    play_round(game, strict=False)
    assert [v.error for v in agent(game, 0).views] == [
        None,
        "Swap needs different players as its targets",
    ]


def test_ruling_3_a_card_whose_targets_cannot_differ_cannot_be_selected(toy):
    """3. … Multiple targets of one card must be different players. (With two players, a
    card asking for two other players has no legal targets: ruling 2's "if possible".)"""
    game = table([toy], [["Swap"], ["Blank"]], deck=DECK)
    events = play_round(game)
    assert seats_of(events, "cannot_select") == [0]
    assert hand(game, 0) == ["Blank", "Swap"]


def test_ruling_3_targets_are_locked_whatever_their_status_now_is(toy):
    """3. … At resolution a card affects its targets whatever their status now is, unless its
    text says otherwise."""
    game = table(
        [toy],
        [["Revive"], ["Revive"], ["Blank"]],
        deck=DECK,
        statuses={2: LOST},
        priority=[0, 1, 2],
    )
    play_round(game, {0: ("Revive", 2), 1: ("Revive", 2)})
    # B chose C while C was lost; A's Revive brought C back first, and B's still resolves.
    assert game.status(2) is WON
    assert game.result.winners == (2,)


def test_ruling_4_beginning_of_round_parts_resolve_in_priority_order_ongoing_first(toy):
    """4. Resolution order. Beginning of round: the "At Beginning of Round" parts of the
    selected cards and of ongoing effects resolve in priority order (an ongoing effect
    before a new card of the same player)."""
    game = table([toy], [["Sundial", "Herald"], ["Blank", "Herald"]], deck=DECK, priority=[0, 1])
    play_round(game, {0: "Sundial", 1: "Blank"})
    assert game.state.priority == [1, 0]
    events = play_round(game, {0: "Herald", 1: "Herald"})
    beginning = [
        (e.kind, e.seat, e.cause)
        for e in events
        if e.kind == "at_beginning" or e.data.get("message") == "the sundial turns"
    ]
    assert beginning == [
        ("at_beginning", 1, "toy:herald"),
        ("note", None, "toy:sundial"),  # A's ongoing Sundial …
        ("at_beginning", 0, "toy:herald"),  # … before A's new card
    ]


def test_ruling_4_mid_round_main_effects_resolve_in_priority_order(toy):
    """4. … Mid round: each selected card's main effect resolves in priority order."""
    game = table([toy], [["Herald"], ["Doom"], ["Crown"]], deck=DECK, priority=[2, 1, 0])
    events = play_round(game, {1: ("Doom", 2)})
    assert seats_of(events, "played") == [2, 1, 0]
    assert game.status(2) is IN_PLAY  # won, then lost to B's Doom after it


def test_ruling_4_a_player_who_loses_still_has_their_card_resolve(toy):
    """4. … A player who loses during the round still has their card resolve (its later
    parts too)."""
    game = table([toy], [["Doom"], ["Herald"], ["Blank"]], deck=DECK, priority=[0, 1, 2])
    events = play_round(game, {0: ("Doom", 1)})
    assert game.status(1) is LOST
    assert notes(events) == ["herald, beginning", "herald, main", "herald, end"]


def test_ruling_4_a_cancelled_play_does_nothing_at_all(toy):
    """4. … A cancelled play does nothing at all, including its later parts."""
    game = table([toy], [["Veto"], ["Herald"]], deck=DECK, priority=[1, 0])
    events = play_round(game, {0: ("Veto", 1)})
    # B's "At Beginning of Round" part came before A's Veto; nothing of B's came after it.
    assert notes(events) == ["herald, beginning"]
    assert seats_of(events, "cancelled") == [1]
    assert seats_of(events, "played") == [0]
    [cleared] = [e for e in events if e.kind == "cleared"]
    assert sorted(cleared.data["cards"]) == ["toy:herald", "toy:veto"]  # discarded all the same


def test_ruling_4_a_play_an_ongoing_before_play_cancels_does_nothing_at_all():
    """4. … A cancelled play does nothing at all, including its later parts: cancelled by an
    ongoing effect's ``before_play`` (mid round, as it is about to resolve), the play's main
    effect never runs, and neither does its "At End of Round" part."""
    cards = CardSet("ward", "1.0.0")

    class Warding(Ongoing):
        name = "Warding"
        text = "This round, every other player's play is cancelled as it resolves."

        def before_play(self, play):
            if play.player != self.owner:
                self.cancel(play)

    @cards.card
    class Ward:
        text = "At Beginning of Round: this round, every other player's play is cancelled."
        copies = 4

        def at_beginning(play):
            play.add_ongoing(Warding())

    @cards.card
    class Bomb:
        text = "Another player loses. At End of Round: you win."
        copies = 4
        target = ANOTHER_PLAYER

        def main(play):
            play.lose(play.target)

        def at_end(play):
            play.note("bomb, end")
            play.win(play.player)

    game = table([cards], [["Ward"], ["Bomb"]], deck=["Ward"] * 6, priority=[1, 0])
    events = play_round(game, {1: ("Bomb", 0)})
    [cancelled] = [e for e in events if e.kind == "cancelled"]
    assert (cancelled.seat, cancelled.cause) == (1, "ward:ward")
    assert seats_of(events, "played") == [0]  # Ward resolved (with no main effect); Bomb never
    assert [e.kind for e in events if e.kind in ("lost", "won", "at_end", "note")] == []
    assert game.status(0) is IN_PLAY and game.status(1) is IN_PLAY
    [cleared] = [e for e in events if e.kind == "cleared"]
    assert sorted(cleared.data["cards"]) == ["ward:bomb", "ward:ward"]  # discarded all the same


def test_ruling_4_a_priority_change_reorders_the_parts_still_to_resolve(toy):
    """4. … A priority change made during the round changes the order of the parts still to
    resolve."""
    game = table([toy], [["Blank"], ["Blank"], ["Dash"]], deck=DECK, priority=[0, 1, 2])
    events = play_round(game)
    assert seats_of(events, "played") == [2, 0, 1]
    assert seats_of(events, "drew") == [2, 0, 1]


def test_ruling_5_end_of_round_in_order(toy):
    """5. End of round. "At End of Round" parts resolve in priority order; ongoing effects
    whose duration is over end; played cards go to the discard pile; then every player who
    has not lost draws one card, in priority order."""
    game = table([toy], [["Herald"], ["Aegis"], ["Herald"]], deck=DECK, priority=[2, 0, 1])
    events = play_round(game)
    steps = [
        (e.kind, e.seat) for e in events if e.kind in ("at_end", "ongoing_ended", "cleared", "drew")
    ]
    assert steps == [
        ("at_end", 2),
        ("at_end", 0),
        ("ongoing_ended", 1),
        ("cleared", None),
        ("drew", 2),
        ("drew", 0),
        ("drew", 1),
    ]
    assert names(game.state.discard) == ["Aegis", "Herald", "Herald"]
    assert game.state.ongoing == []


def test_ruling_5_an_ongoing_effect_keeps_its_card_on_the_table(toy):
    """5. … played cards go to the discard pile (unless an ongoing effect keeps them on the
    table)."""
    game = table([toy], [["Banner", "Blank"], ["Blank", "Blank"]], deck=DECK)
    play_round(game, {0: "Banner"})
    assert names(game.state.in_play) == ["Banner"]
    assert names(game.state.discard) == ["Blank"]
    play_round(game)
    assert game.state.in_play == [] and game.state.ongoing == []
    assert names(game.state.discard) == ["Banner", "Blank", "Blank", "Blank"]
    check_invariants(game)


def test_ruling_5_a_card_kept_for_this_round_only_is_discarded_at_its_end(toy):
    """5. … ongoing effects whose duration is over end; played cards go to the discard pile
    (unless an ongoing effect keeps them on the table)."""
    game = table([toy], [["Pennant"], ["Blank"]], deck=DECK)
    play_round(game, {0: "Pennant"})
    assert game.state.ongoing == [] and game.state.in_play == []
    assert names(game.state.discard) == ["Blank", "Pennant"]


def test_ruling_5_an_empty_deck_is_refilled_from_the_discard_pile(toy):
    """5. … An empty deck is refilled by shuffling the discard pile."""
    game = table([toy], [["Blank"], ["Blank"]], deck=[], discard=["Crown"])
    events = play_round(game)
    # The played Blanks join the Crown in the discard pile, which becomes the deck.
    assert kinds(events).count("reshuffled") == 1
    assert [e.data["cards"] for e in events if e.kind == "reshuffled"] == [3]
    assert game.state.discard == []
    assert names(game.hand(0) + game.hand(1) + tuple(game.state.deck)) == [
        "Blank",
        "Blank",
        "Crown",
    ]


def test_ruling_5_with_deck_and_discard_empty_no_card_is_drawn(toy):
    """5. … if both are empty, no card is drawn."""
    game = table([toy], [["Revive"], ["Revive"]], deck=[])
    events = play_round(game)
    assert seats_of(events, "cannot_select") == [0, 1]
    assert sorted(seats_of(events, "no_card")) == [0, 1]
    assert [hand(game, s) for s in (0, 1)] == [["Revive"], ["Revive"]]


def test_ruling_6_priorities_shift_among_all_players_lost_ones_included(toy):
    """6. Priorities shift among all players, lost ones included (2nd becomes 1st, 1st
    becomes last)."""
    game = table(
        [toy], [["Blank"], ["Blank"], ["Blank"]], deck=DECK, statuses={1: LOST}, priority=[1, 2, 0]
    )
    play_round(game)
    assert game.state.priority == [2, 0, 1]
    play_round(game)
    assert game.state.priority == [0, 1, 2]


def test_ruling_6_a_change_for_this_round_is_undone_by_the_shift(toy):
    """6. … A change "for this round" is undone by the shift."""
    game = table([toy], [["Blank"], ["Blank"], ["Dash"]], deck=DECK, priority=[0, 1, 2])
    play_round(game)
    assert game.state.priority == [1, 2, 0]


def test_ruling_6_a_change_from_now_on_moves_the_player_in_the_lasting_order(toy):
    """6. … a change "from now on" moves the player in the lasting order, which then shifts
    as usual."""
    game = table([toy], [["Blank"], ["Blank"], ["Usurp"]], deck=DECK, priority=[0, 1, 2])
    play_round(game)
    assert game.state.priority == [0, 1, 2]  # C became 1st: [C, A, B], then shifted


def test_ruling_7_any_winner_ends_the_game_and_everyone_else_loses(toy):
    """7. The end. The game ends at the end of a round if: any player has won (all winners
    win, everyone else loses)."""
    game = table([toy], [["Crown"], ["Revive"], ["Blank"]], deck=DECK, statuses={2: LOST})
    play_round(game, {1: ("Revive", 2)})
    # C got back in play this round, but only A won.
    assert game.result.kind == "win" and game.result.winners == (0,)
    assert game.result.describe(["A", "B", "C"]) == "A won in round 1."


def test_ruling_7_every_player_lost_everyone_loses_equally(toy):
    """7. … else if every player has lost (everyone loses equally)."""
    game = table([toy], [["Doom"], ["Doom"]], deck=DECK)
    play_round(game, {0: ("Doom", 1), 1: ("Doom", 0)})
    assert game.result.kind == "all_lost" and game.result.winners == ()


def test_ruling_7_exactly_one_player_not_lost_wins_by_default(toy):
    """7. … else if exactly one player has not lost (that player wins by default)."""
    game = table([toy], [["Fall"], ["Blank"], ["Fall"]], deck=DECK)
    play_round(game)
    assert game.result.kind == "default" and game.result.winners == (1,)
    assert (
        game.result.describe(["A", "B", "C"]) == "B won by default in round 1: everyone else lost."
    )


def test_ruling_7_otherwise_the_next_round_begins(toy):
    """7. … Otherwise the next round begins."""
    game = table([toy], [["Fall"], ["Blank"], ["Blank"]], deck=DECK)
    play_round(game)
    assert game.result is None and not game.over
    play_round(game)
    assert game.round == 2


def test_ruling_8_lost_players_do_not_select_or_draw_but_can_act(toy):
    """8. Lost players do not select and do not draw, but are affected by cards, can be
    targeted, and can still do what a card lets them do (choose, answer, take a card)."""
    game = table(
        [toy],
        [["Gift"], ["Swap"], ["Crown", "Blank"]],
        deck=DECK,
        statuses={2: LOST},
        priority=[0, 1, 2],
    )
    events = play_round(game, {0: ("Gift", 2), 1: ("Swap", (0, 2))}, answers={2: ["Blank"]})
    assert agent(game, 2).views[0].error is None and len(agent(game, 2).questions) == 1
    assert 2 not in seats_of(events, "selected") + seats_of(events, "drew")
    # C gave A a Blank (C's choice), then B's Swap gave C A's hand: C took cards.
    assert hand(game, 2) == ["Blank"]
    assert hand(game, 0) == ["Blank", "Crown"]  # C's old hand, plus A's draw
    assert game.status(2) is LOST


def test_ruling_9_reaching_the_round_limit_is_a_draw(toy):
    """9. Round limit (house rule, --max-rounds, default 100). Reaching it with no winner
    ends the game as a draw, and the result says so."""
    assert random_game(toy, 2, seed=0).max_rounds == 100
    game = table([toy], [["Blank"] * 3, ["Blank"] * 3], deck=DECK, max_rounds=2)
    play_round(game)
    assert game.result is None
    play_round(game)
    assert game.result.kind == "draw" and game.result.winners == ()
    assert (
        game.result.describe(["A", "B"]) == "Draw: the round limit of 2 was reached with no winner."
    )
    with pytest.raises(GameError, match="over"):
        game.play_round()


def test_ruling_9_a_win_in_the_last_round_is_still_a_win(toy):
    """9. … Reaching it *with no winner* ends the game as a draw."""
    game = table([toy], [["Crown"], ["Blank"]], deck=DECK, max_rounds=1)
    play_round(game)
    assert game.result.kind == "win"


def test_ruling_10_win_and_lose_cancel_out(toy):
    """10. Win and lose cancel out through a three-step ladder: lost → in play → won. A lost
    player who wins is back in play; a winner who loses is back in play; a second win (or
    loss) in the same direction is needed to go further."""
    game = table(
        [toy],
        [["Crown"], ["Doom"], ["Revive"], ["Revive"], ["Blank"]],
        deck=DECK,
        statuses={4: LOST},
        priority=[0, 1, 2, 3, 4],
    )
    play_round(game, {1: ("Doom", 0), 2: ("Revive", 4), 3: ("Revive", 4)})
    assert game.status(0) is IN_PLAY  # won, then lost
    assert game.status(4) is WON  # lost, won (back in play), won again
    assert game.result.winners == (4,)


def test_ruling_11_a_card_whose_effect_fails_fizzles_and_the_game_goes_on(toy, glitch):
    """11. A card whose effect fails (a plugin bug) fizzles: the log says why and names its
    set, and the game goes on."""
    game = table([toy, glitch], [["Glitch"], ["Herald"]], deck=DECK, strict=False, priority=[0, 1])
    events = play_round(game)
    [fizzled] = [e.as_dict() for e in events if e.kind == "fizzled"]
    assert fizzled == {
        "round": 1,
        "kind": "fizzled",
        "seat": 0,
        "cause": "glitch:glitch",
        "card": "glitch:glitch",
        "set": "glitch",
        "error": "RuntimeError: oops",
    }
    assert notes(events) == ["herald, beginning", "herald, main", "herald, end"]
    assert game.status(0) is IN_PLAY and game.result is None


def test_ruling_11_strict_stops_the_game(toy, glitch):
    """11. … (--strict stops the game instead)."""
    game = table([toy, glitch], [["Glitch"], ["Blank"]], deck=DECK, strict=True)
    with pytest.raises(CardError, match="glitch:glitch: RuntimeError: oops"):
        play_round(game)


def test_ruling_11_a_replaced_play_that_fails_is_blamed_on_the_card_it_acts_as(toy, glitch):
    """11. … The card blamed is the one whose code ran: a play turned into another card
    resolves, and fails, as that card."""
    game = table([toy, glitch], [["Blank"], ["Blank"]], deck=DECK, strict=False)
    game.start()

    class Trick(Ongoing):
        name = "Trick"
        rounds = None

        def before_play(self, play):
            self.replace(play, "Glitch")

    game.add_ongoing(Trick(), cause="toy:rule")
    events = play_round(game)
    fizzled = [e for e in events if e.kind == "fizzled"]
    assert [(e.cause, e.data["card"], e.data["set"]) for e in fizzled] == [
        ("glitch:glitch", "glitch:glitch", "glitch")
    ] * 2

    strict = table([toy, glitch], [["Blank"], ["Blank"]], deck=DECK, strict=True)
    strict.add_ongoing(Trick(), cause="toy:rule")
    with pytest.raises(CardError, match=r"^glitch:glitch: RuntimeError: oops"):
        play_round(strict)


def test_ruling_12_copying_a_cancelled_play_does_nothing(toy):
    """12. A cancelled play does nothing at all, so there is nothing to copy."""
    game = table([toy], [["Veto"], ["Crown"]], deck=DECK, priority=[0, 1])
    game.start()
    copies = []

    class Copycat(Ongoing):
        name = "Copycat"
        rounds = None

        def at_end(self):
            crown = self.play_of(1)
            copies.append(self.copy(crown))

    game.add_ongoing(Copycat(), cause="toy:rule")
    events = play_round(game, {0: ("Veto", 1)})
    assert copies == [False]
    assert "copied" not in kinds(events)
    assert game.status(0) is IN_PLAY and game.status(1) is IN_PLAY


def test_ruling_12_a_replaced_play_is_copied_as_the_card_it_resolved_as(toy):
    """12. … A play turned into another card is copied as the card it resolved as."""
    game = table([toy], [["Blank"], ["Blank"]], deck=DECK, priority=[0, 1])

    class Crowning(Ongoing):
        name = "Crowning"
        rounds = None

        def before_play(self, play):
            if play.player == 0:
                self.replace(play, self.find_card("crown"))

        def after_play(self, play):
            if play.player == 1:
                self.copy(self.play_of(0))

    game.add_ongoing(Crowning(), cause="toy:rule")
    events = play_round(game)
    assert [e.data["card"] for e in events if e.kind == "copied"] == ["toy:crown"]
    assert game.status(0) is WON


def test_ruling_13_an_effect_no_player_owns_resolves_its_parts_first(toy):
    """13. An ongoing effect put into play by a set's rule has no owner and no priority:
    its parts resolve first, before every player's; it never crashes a game."""

    class Omen(Ongoing):
        name = "Omen"
        rounds = 2

        def at_beginning(self):
            self.note("omen, beginning")

        def at_end(self):
            self.note("omen, end")

    game = table([toy], [["Herald"], ["Herald"]], deck=DECK, strict=False)
    game.add_ongoing(Omen(), cause="toy:rule")
    events = play_round(game)
    assert notes(events) == [
        "omen, beginning",
        "herald, beginning",
        "herald, beginning",
        "herald, main",
        "herald, main",
        "omen, end",
        "herald, end",
        "herald, end",
    ]
    assert "fizzled" not in kinds(events)
    [added] = [e for e in game.state.log if e.kind == "ongoing_added"]
    assert added.seat is None


def test_ruling_14_a_round_that_never_ends_is_stopped(toy):
    """14. A round whose effects run past a limit is stopped, and the game cannot go on."""
    game = table([toy], [["Herald"], ["Blank"]], deck=DECK)

    class Echoes(Ongoing):
        name = "Echoes"
        rounds = None

        def at_beginning(self):
            while True:
                self.note("again")

    game.add_ongoing(Echoes(), cause="toy:rule")
    with pytest.raises(RoundTooLong, match=r"^round 1 ran past its limit .* Seed 0.$"):
        play_round(game)
    with pytest.raises(RoundTooLong):
        game.play_round()


def test_ruling_questions_belong_to_rounds(toy):
    """A question can only be asked during a round (records keep answers per round): asking
    one at game start is refused with a clear error rather than lost from the record."""
    game = Game([toy], [Seat("A", RandomAgent(0, 0)), Seat("B", RandomAgent(0, 1))], 0)
    game.start()
    with pytest.raises(GameError, match="before round 1"):
        game.ask(0, "Pick one", ["x", "y"], cause="test:rule")
