"""Properties of every game: hypothesis plays many seeded random games with the toy set and
checks the engine's invariants after every round."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from spoiler.agents import RandomAgent
from spoiler.engine import Game, Seat
from spoiler.records import RecordedAgent
from spoiler.state import Status
from spoiler.testing import check_invariants

games = dict(
    seed=st.integers(0, 2**32 - 1), players=st.integers(2, 8), max_rounds=st.integers(1, 40)
)
fast = settings(max_examples=100, deadline=None)


class Watched(RandomAgent):
    """A random agent that remembers which seats were asked to select, and in which round."""

    def __init__(self, seed: int, seat: int, asked: list):
        super().__init__(seed, seat)
        self.seat, self.asked = seat, asked

    def select(self, view):
        self.asked.append((view.round, self.seat, view.me.status))
        return super().select(view)


def new_game(toy, seed, players, max_rounds, agents=None) -> Game:
    agents = agents or [RandomAgent(seed, s) for s in range(players)]
    seats = [Seat(f"P{s}", a) for s, a in enumerate(agents)]
    return Game([toy], seats, seed, max_rounds=max_rounds)


def rounds(game: Game):
    """Play the game round by round, yielding (statuses before, priority before, events)."""
    game.start()
    while not game.over:
        before = [p.status for p in game.state.players]
        priority = list(game.state.priority)
        start = len(game.state.log)
        game.play_round()
        yield before, priority, game.state.log[start:]


@fast
@given(**games)
def test_cards_are_conserved_after_every_round(toy, seed, players, max_rounds):
    """Deck + hands + cards on the table + discard pile + plays = the deck as built."""
    game = new_game(toy, seed, players, max_rounds)
    built = sorted(c.id for c in toy.cards for _ in range(c.copies))
    for _ in rounds(game):
        check_invariants(game)
        st_ = game.state
        now = st_.deck + st_.discard + st_.in_play + [p.card for p in st_.plays]
        now += [c for p in st_.players for c in p.hand]
        assert sorted(c.id for c in now) == built


@fast
@given(**games)
def test_lost_players_never_select_or_draw(toy, seed, players, max_rounds):
    """Lost players do not select and do not draw (ruling 8)."""
    asked: list = []
    game = new_game(
        toy, seed, players, max_rounds, [Watched(seed, s, asked) for s in range(players)]
    )
    for before, _, events in rounds(game):
        selected = {e.seat for e in events if e.kind == "selected"}
        assert all(before[s] is not Status.LOST for s in selected)
        # The end-of-round draw (no card caused it) skips whoever is lost by then.
        for e in events:
            if e.kind == "drew" and e.cause is None:
                assert game.status(e.seat) is not Status.LOST
    assert all(status is not Status.LOST for _, _, status in asked)


@fast
@given(**games)
def test_priorities_are_a_permutation_that_rotates_by_one(toy, seed, players, max_rounds):
    """Priorities are a random permutation; each round 2nd becomes 1st and 1st becomes last
    (when no card changed them)."""
    game = new_game(toy, seed, players, max_rounds)
    for _, priority, events in rounds(game):
        assert sorted(game.state.priority) == list(range(players))
        if not any(e.kind == "priority_changed" for e in events):
            assert game.state.priority == priority[1:] + priority[:1]


@fast
@given(**games)
def test_every_game_ends_by_the_round_limit(toy, seed, players, max_rounds):
    """Ruling 9: reaching the round limit with no winner ends the game as a draw."""
    game = new_game(toy, seed, players, max_rounds)
    result = game.play()
    assert result is game.result and 1 <= result.round == game.round <= max_rounds
    statuses = [game.status(s) for s in range(players)]
    if result.kind == "draw":
        assert result.round == max_rounds and result.winners == ()
        assert Status.WON not in statuses
        assert sum(s is not Status.LOST for s in statuses) >= 2
    else:
        assert result.kind in ("win", "default", "all_lost")
    assert game.state.log[-1].kind == "game_over"


def replay_agents(game: Game) -> list[RecordedAgent]:
    """Agents that make exactly the decisions recorded in ``game.decisions``."""
    return [RecordedAgent(seat.name, game.decisions, s) for s, seat in enumerate(game.seats)]


@fast
@given(**games)
def test_the_same_seed_and_selections_give_the_same_event_log(toy, seed, players, max_rounds):
    """Every game is reproducible from its seed and its selections."""
    game = new_game(toy, seed, players, max_rounds)
    game.play()
    replay = new_game(toy, seed, players, max_rounds, replay_agents(game))
    replay.play()
    assert [e.as_dict() for e in replay.state.log] == [e.as_dict() for e in game.state.log]
    assert replay.result == game.result
