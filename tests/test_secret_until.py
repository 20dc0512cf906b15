"""Secrets that last as long as the card says: ``Ask(secret=True)`` keeps the information
until the card's last part has resolved, and ``until=`` keeps it until a phase of the round
is over (issue 21, item 5)."""

from __future__ import annotations

import pytest

from spoiler.model.cards import ANOTHER_PLAYER, SECRET_UNTIL, Ask, CardSet, NameANumber
from spoiler.rules.game import ROUND
from spoiler.state import Status
from spoiler.testing import agent, play_round, table


def sealed_bid_set(until: str | None = None) -> CardSet:
    """A toy set: Sealed Bid names a number in secret and acts At End of Round only."""
    toys = CardSet("toys", "1.0")
    question = NameANumber(1, 3, secret=True, until=until)

    @toys.card
    class SealedBid:
        text = (
            "Choose another player and name a number from 1 to 3 in secret. At End of Round, "
            "they name a number from 1 to 3: if the numbers match, they lose."
        )
        target = ANOTHER_PLAYER
        ask = question

        @staticmethod
        def at_end(play):
            if play.ask(play.target, "Sealed Bid: name a number", ("1", "2", "3")) == str(
                play.info
            ):
                play.lose(play.target)

    @toys.card
    class Peek:
        text = "Choose another player. They name a number from 1 to 3 (it does nothing)."
        target = ANOTHER_PLAYER

        @staticmethod
        def main(play):
            play.ask(play.target, "Peek: name a number", ("1", "2", "3"))

    @toys.card
    class Wait:
        text = "Nothing happens."
        copies = 9

        @staticmethod
        def main(play):
            pass

    return toys


def numbers_seen(view, card_id: str) -> list:
    """The information of ``card_id``'s plays that this view's events tell."""
    return [
        e.data["info"]
        for e in view.events
        if e.cause == card_id and e.kind in ("played", "revealed") and "info" in e.data
    ]


def test_a_secret_of_a_card_acting_only_at_end_of_round_is_kept_until_it_resolved():
    """Ruling: a secret card whose only part is At End of Round keeps its information hidden
    mid round (before, it was told at once and the target could dodge); it is told once the
    part has resolved."""
    toys = sealed_bid_set()
    game = table(
        [toys], [["Sealed Bid"], ["Wait"], ["Peek"]], deck=["Wait"] * 9, priority=[0, 1, 2]
    )
    events = play_round(
        game,
        {0: ("Sealed Bid", 1, 2), 1: "Wait", 2: ("Peek", 1)},
        answers={1: ["3", "2"]},
    )
    mid_round, at_end = agent(game, 1).views[-2:]  # asked by Peek, then by Sealed Bid
    assert numbers_seen(mid_round, "toys:sealed-bid") == []
    assert numbers_seen(at_end, "toys:sealed-bid") == []
    assert game.status(1) is Status.LOST
    kinds = [e.kind for e in events]
    revealed = kinds.index("revealed")
    assert kinds.index("at_end") < revealed < kinds.index("cleared")
    assert events[revealed].data == {"card": "toys:sealed-bid", "info": 2}


@pytest.mark.parametrize(
    ("until", "after", "before"),
    [
        ("mid round", "played", "at_end"),
        ("end", "at_end", "cleared"),
        ("At End of Round", "at_end", "cleared"),
        ("the draw", "drew", "priorities_shifted"),
        ("priority shift", "priorities_shifted", "round_started"),
    ],
)
def test_until_keeps_a_secret_until_that_phase_of_the_round_is_over(until, after, before):
    """``Ask(secret=True, until=PHASE)``: the information is told once that phase of the
    round is over, not before (case does not matter; "end" is the At End of Round phase)."""
    toys = sealed_bid_set(until=until)
    game = table([toys], [["Sealed Bid"], ["Wait"]], deck=["Wait"] * 9, priority=[0, 1])
    events = play_round(game, {0: ("Sealed Bid", 1, 1), 1: "Wait"}, answers={1: ["3"]})
    last_after = max(i for i, e in enumerate(events) if e.kind == after)
    events += play_round(game, {0: "Wait", 1: "Wait"}) if before == "round_started" else []
    kinds = [e.kind for e in events]
    revealed = kinds.index("revealed")
    assert last_after < revealed < kinds.index(before, revealed)
    assert numbers_seen(agent(game, 1).views[0], "toys:sealed-bid") == []  # when it answered


def test_a_secret_kept_until_a_phase_is_told_to_its_player_at_once():
    """The player who chose the information sees it all along (their ``played`` event holds
    it), whatever ``until`` says; the others see it only in the ``revealed`` event."""
    toys = sealed_bid_set(until="the draw")
    game = table([toys], [["Sealed Bid"], ["Wait"]], deck=["Wait"] * 9, priority=[0, 1])
    events = play_round(game, {0: ("Sealed Bid", 1, 3), 1: "Wait"}, answers={1: ["1"]})
    played = next(e for e in events if e.kind == "played" and e.cause == "toys:sealed-bid")
    assert played.seen_by(0).secret == {"info": 3} and played.seen_by(1).secret is None


def test_standoff_still_tells_its_number_as_soon_as_it_has_resolved():
    """A secret card with a main effect and no At End of Round part is told right after its
    main effect, as before (Standoff)."""
    from spoiler_base import base

    game = table([base], [["Standoff"], ["Supply"]], deck=["Supply"] * 9, priority=[0, 1])
    events = play_round(game, {0: ("Standoff", 1, 2), 1: "Supply"}, answers={1: ["1"]})
    kinds = [e.kind for e in events]
    assert kinds.index("revealed") < [i for i, k in enumerate(kinds) if k == "played"][1]


@pytest.mark.parametrize(
    ("ask", "message"),
    [
        (
            NameANumber(1, 3, secret=True, until="selection"),
            "until must be one of 'mid round', 'at end of round', 'end'",
        ),
        (NameANumber(1, 3, until="end"), "keeps nothing until 'end': add secret=True"),
    ],
)
def test_until_must_name_a_phase_a_secret_can_last_until(ask: Ask, message: str):
    """A secret cannot be kept until a phase before its card is played, nor be kept at all
    without ``secret=True``: the card is refused, naming what is wrong."""
    toys = CardSet("toys", "1.0")
    bid = type("Bid", (), {"text": "Name a number.", "ask": ask, "main": lambda play: None})
    with pytest.raises(ValueError, match=f"card Bid: its question.*{message}"):
        toys.card(bid)


def test_the_phases_a_secret_can_last_until_are_rows_of_the_round():
    """``SECRET_UNTIL`` names phases of ``ROUND``, from mid round (when the card is played)
    to the last before the game may end."""
    names = [phase.name for phase in ROUND]
    allowed = names[names.index("mid round") : names.index("end check")]
    assert sorted(set(SECRET_UNTIL.values())) == sorted(allowed)
