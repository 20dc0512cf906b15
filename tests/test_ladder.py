"""Ruling 10: win and lose cancel out through a three-step ladder, lost → in play → won.

"Winning moves a player one step up, losing one step down. A lost player who wins is back in
play; a winner who loses is back in play; a second win (or loss) in the same direction is
needed to go further. Losing while lost, or winning while won, changes nothing."
"""

from __future__ import annotations

import pytest

from spoiler.state import Status
from spoiler.testing import play_round, table

LOST, IN_PLAY, WON = Status.LOST, Status.IN_PLAY, Status.WON
DECK = ["Blank"] * 12

# (what happens, where the player starts, the wins and losses in order, where they end)
LADDER = [
    ("win then lose", IN_PLAY, ["win", "lose"], IN_PLAY),
    ("lose then win", IN_PLAY, ["lose", "win"], IN_PLAY),
    ("win twice", IN_PLAY, ["win", "win"], WON),
    ("lose twice", IN_PLAY, ["lose", "lose"], LOST),
    ("win twice while lost", LOST, ["win", "win"], WON),
    ("lose twice while won", WON, ["lose", "lose"], LOST),
    ("win then lose while lost", LOST, ["win", "lose"], LOST),
    ("lose then win while won", WON, ["lose", "win"], WON),
    ("lose while lost", LOST, ["lose"], LOST),
    ("win while won", WON, ["win"], WON),
    ("lose while lost, then win", LOST, ["lose", "win"], IN_PLAY),
    ("win while won, then lose", WON, ["win", "lose"], IN_PLAY),
    ("win, lose, win, lose", IN_PLAY, ["win", "lose", "win", "lose"], IN_PLAY),
    ("lose, win, lose, win", IN_PLAY, ["lose", "win", "lose", "win"], IN_PLAY),
]


EVENT = {"win": "won", "lose": "lost"}


@pytest.mark.parametrize("start, steps, end", [c[1:] for c in LADDER], ids=[c[0] for c in LADDER])
def test_ladder_in_every_order(toy, start, steps, end):
    """Each win moves the player one step up and each loss one step down, never past the
    ends of the ladder; every step is an event saying where the player was and now is."""
    game = table([toy], [["Blank"], ["Blank"]], deck=DECK, statuses={0: start})
    before = start
    for step in steps:
        assert getattr(game, step)(0, cause="test:ladder") is True
        event = game.state.log[-1]
        assert (event.kind, event.seat, event.cause) == (EVENT[step], 0, "test:ladder")
        after = game.status(0)
        assert (event.data["before"], event.data["after"]) == (
            before.name.lower(),
            after.name.lower(),
        )
        before = after
    assert game.status(0) is end


# The same ladder as players meet it: cards resolving in priority order within one round.
def test_win_then_lose_in_one_round_cancel_out(toy):
    """A winner who loses is back in play."""
    game = table([toy], [["Crown"], ["Doom"], ["Blank"]], deck=DECK, priority=[0, 1, 2])
    play_round(game, {1: ("Doom", 0)})
    assert game.status(0) is IN_PLAY
    assert game.result is None


def test_lose_then_win_in_one_round_cancel_out(toy):
    """A lost player who wins is back in play."""
    game = table([toy], [["Crown"], ["Doom"], ["Blank"]], deck=DECK, priority=[1, 0, 2])
    play_round(game, {1: ("Doom", 0)})
    assert game.status(0) is IN_PLAY
    assert game.result is None


def test_winning_twice_in_one_round_goes_no_further_than_won(toy):
    """Winning while won changes nothing: one loss after two wins puts the player back in
    play."""
    game = table([toy], [["Crown"], ["Bless"], ["Doom"]], deck=DECK, priority=[0, 1, 2])
    play_round(game, {1: ("Bless", 0), 2: ("Doom", 0)})
    assert game.status(0) is IN_PLAY
    assert game.result is None


def test_losing_twice_in_one_round_goes_no_further_than_lost(toy):
    """Losing while lost changes nothing: one win after two losses puts the player back in
    play."""
    game = table(
        [toy], [["Blank"], ["Doom"], ["Doom"], ["Bless"]], deck=DECK, priority=[0, 1, 2, 3]
    )
    play_round(game, {1: ("Doom", 0), 2: ("Doom", 0), 3: ("Bless", 0)})
    assert game.status(0) is IN_PLAY


def test_a_lost_player_needs_two_wins_to_win(toy):
    """A second win in the same direction is needed to go further."""
    game = table(
        [toy], [["Blank"], ["Revive"], ["Bless"]], deck=DECK, statuses={0: LOST}, priority=[0, 1, 2]
    )
    play_round(game, {1: ("Revive", 0), 2: ("Bless", 0)})
    assert game.status(0) is WON
    assert game.result.kind == "win" and game.result.winners == (0,)


def test_a_winner_needs_two_losses_to_lose(toy):
    """A winner who loses is back in play; a second loss is needed to go further."""
    game = table([toy], [["Crown"], ["Doom"], ["Strike"]], deck=DECK, priority=[0, 1, 2])
    play_round(game, {1: ("Doom", 0), 2: ("Strike", 0)})
    assert game.status(0) is LOST
    assert game.result is None
