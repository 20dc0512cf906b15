"""Hidden information stays hidden: an agent sees only its PlayerView.

"An agent (human prompt, bot) receives a player view: its own hand, public state, what it has
been shown. It never receives the full state; hidden hands stay hidden from bots too." A spy
agent inspects every field of every view it is given, in many random games, against the
true state at that moment.
"""

from __future__ import annotations

import dataclasses

import pytest

from spoiler.agents import RandomAgent
from spoiler.cards import Card
from spoiler.engine import Game, Seat
from spoiler.state import Status
from spoiler.testing import agent, play_round, table
from spoiler.views import PlayerInfo, PlayerView

#: Every field of a PlayerView. A new field fails this test until it is checked below.
VIEW_FIELDS = {
    "seat",
    "round",
    "hand",
    "players",
    "deck_size",
    "discard",
    "ongoing",
    "known",
    "card_names",
    "playable",
    "error",
    "_public_log",
    "_secrets",
    "_upto",
    "_legal",
    "search",
}
#: The only fields that may hold cards: one's own hand (and which of it is playable), the
#: face-up discard pile, and what one has been shown.
CARD_FIELDS = {"hand", "playable", "discard", "known"}


def leaves(value):
    """Every card and every string inside a value, however nested."""
    if isinstance(value, (Card, str)):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from leaves(k)
            yield from leaves(v)
    elif isinstance(value, (tuple, list, set, frozenset)):
        for item in value:
            yield from leaves(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from leaves(getattr(value, f.name))


def ids(cards) -> list[str]:
    return [c.id for c in cards]


class Spy:
    """Plays like RandomAgent, and checks each view it is given against the true state."""

    def __init__(self, game_box: list, seed: int, seat: int):
        self.game_box = game_box
        self.seat = seat
        self.inner = RandomAgent(seed, seat)
        self.views = 0

    def select(self, view):
        self.check(view, selecting=True)
        return self.inner.select(view)

    def answer(self, view, question):
        self.check(view, selecting=False)
        return self.inner.answer(view, question)

    def check(self, view: PlayerView, selecting: bool) -> None:
        game: Game = self.game_box[0]
        st, seat = game.state, self.seat
        self.views += 1
        assert {f.name for f in dataclasses.fields(PlayerView)} == VIEW_FIELDS
        assert view.seat == seat and view.round == st.round

        # Own hand, exactly; the discard pile is face up.
        assert ids(view.hand) == ids(st.players[seat].hand)
        assert ids(view.discard) == ids(st.discard)

        # Others: public facts only.
        for info, player in zip(view.players, st.players, strict=True):
            assert type(info) is PlayerInfo
            assert isinstance(info.hand_size, int) and isinstance(info.status, Status)
            assert (info.seat, info.name) == (player.seat, player.name)
        assert isinstance(view.deck_size, int) and view.deck_size == len(st.deck)
        for name, owner, _rounds in view.ongoing:
            assert isinstance(name, str) and isinstance(owner, int)
        assert view.card_names == game.card_names
        assert view.error is None or isinstance(view.error, str)
        assert view.search is None  # only an agent that searches gets a Searcher
        for seats in view._legal.values():
            assert all(isinstance(s, int) for s in seats)

        # No card, and no card id, anywhere but in the three fields allowed to hold cards.
        card_ids = {c.id for c in game.cards}
        assert set(ids(view.playable)) <= set(ids(view.hand))
        for f in VIEW_FIELDS - CARD_FIELDS - {"_public_log", "_secrets"}:
            for leaf in leaves(getattr(view, f)):
                assert not isinstance(leaf, Card), f"view.{f} holds a card"
                assert leaf not in card_ids, f"view.{f} names card {leaf}"

        # What it knows of other hands is exactly what it was shown, and only that.
        shown = {}
        for e in st.log:
            if e.kind == "shown" and e.data["to"] == seat:
                shown[e.seat] = (e.round, list(e.secret["cards"]))
        assert {s: (r, ids(cards)) for s, (r, cards) in view.known.items()} == shown

        # Events: the whole log so far, with every secret not meant for this seat removed.
        seen = view.events
        assert len(seen) == len(st.log)
        for mine, truth in zip(seen, st.log, strict=True):
            assert truth.secret is None or not set(truth.secret) & set(truth.data), (
                f"{truth.kind} has a secret in its public part"
            )
            if truth.secret is not None and seat not in truth.secret_to:
                assert mine.secret is None and mine.data == truth.data, f"{truth.kind} leaked"
            else:
                assert mine.as_dict() == truth.as_dict()
        if selecting:
            # Selection is hidden: nobody's choice for this round is in the log yet.
            assert not any(e.kind == "selected" and e.round == st.round for e in st.log)


@pytest.mark.parametrize("players", range(2, 9))
def test_no_view_ever_shows_another_players_hand_or_selection(toy, players):
    """An agent's view holds its own hand, public facts and what it was shown: never
    another player's hand or a selection not yet revealed."""
    views = 0
    for seed in range(12):
        box: list = []
        spies = [Spy(box, seed, s) for s in range(players)]
        game = Game(
            [toy],
            [Seat(f"P{s}", spy) for s, spy in enumerate(spies)],
            seed * 31 + players,
            max_rounds=30,
        )
        box.append(game)
        game.play()
        views += sum(spy.views for spy in spies)
    assert views > 12 * players  # the spies did look


def test_a_revealed_hand_is_in_the_viewers_view_only(toy):
    """What a card reveals to a player is in that player's view, and no one else's."""
    game = table(
        [toy],
        [["Peek"], ["Crown", "Doom", "Blank"], ["Blank"]],
        deck=["Blank"] * 6,
        priority=[0, 1, 2],
    )
    events = play_round(game, {0: ("Peek", 1), 1: "Blank", 2: "Blank"})
    [shown] = [e for e in events if e.kind == "shown"]
    assert shown.secret_to == frozenset({0})
    assert sorted(shown.secret["cards"]) == ["toy:crown", "toy:doom"]

    a, b, c = (game.view(s) for s in range(3))
    assert sorted(card.name for card in a.known[1][1]) == ["Crown", "Doom"]
    assert a.known[1][0] == 1  # seen in round 1
    assert b.known == {} and c.known == {}
    for view in (b, c):
        [theirs] = [e for e in view.events if e.kind == "shown"]
        assert theirs.secret is None and theirs.data == {"to": 0}


def test_a_given_card_is_seen_by_giver_and_receiver_only(toy):
    """Only the two players a card passes between learn which card it was."""
    game = table(
        [toy],
        [["Gift"], ["Crown", "Blank", "Blank"], ["Blank"]],
        deck=["Blank"] * 6,
        priority=[0, 1, 2],
    )
    play_round(game, {0: ("Gift", 1), 1: "Blank", 2: "Blank"}, answers={1: ["Crown"]})
    for seat, sees in ((0, True), (1, True), (2, False)):
        [gave] = [e for e in game.view(seat).events if e.kind == "gave"]
        assert (gave.secret == {"card": "toy:crown"}) is sees
        assert gave.data == {"to": 0}


def test_the_question_a_card_asks_is_answered_in_private(toy):
    """An answer is seen by the player who gave it and the player whose card asked."""
    game = table(
        [toy],
        [["Gift"], ["Crown", "Blank", "Blank"], ["Blank"]],
        deck=["Blank"] * 6,
        priority=[0, 1, 2],
    )
    play_round(game, {0: ("Gift", 1), 1: "Blank", 2: "Blank"}, answers={1: ["Crown"]})
    assert [q.options for q in agent(game, 1).questions] == [("Blank", "Crown")]
    for seat, sees in ((0, True), (1, True), (2, False)):
        [answered] = [e for e in game.view(seat).events if e.kind == "answered"]
        assert (answered.secret == {"answer": "Crown"}) is sees


def test_a_spectator_sees_public_facts_only(toy):
    """The public log (``events_seen_by(None)``) holds no secret at all."""
    game = Game([toy], [Seat(f"P{s}", RandomAgent(5, s)) for s in range(4)], 5, max_rounds=20)
    game.play()
    assert all(e.secret is None for e in game.events_seen_by(None))
    assert any(e.secret is not None for e in game.state.log)
