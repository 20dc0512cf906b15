"""The built-in bots: what the greedy bot does in each situation its description names, that
bots see only their player's view, and that a game of bots replays from its seed.

Each greedy test deals a hand-built table and asks the bot for seat 0 what it selects.
"""

from __future__ import annotations

from spoiler import plugins
from spoiler.agents import RandomAgent
from spoiler.engine import Game, Seat
from spoiler.testing import table
from spoiler.views import Question
from spoiler_base import base
from spoiler_base.cards import TREASURE
from spoiler_bots import GreedyAgent

DECK = ["Supply"] * 20


def greedy_choice(game, seat: int = 0, seed: int = 0):
    selection = GreedyAgent(seed, seat).select(game.view(seat))
    game.check_selection(seat, selection)  # always a legal selection
    card = selection.card.name
    return card, selection.targets, selection.info


def bots_game(kinds: list[str], seed: int) -> Game:
    registry = plugins.load(environ={"SPOILER_PLUGINS": ""})
    seats = [Seat(f"P{i}", registry.agent(kind, i, seed), kind) for i, kind in enumerate(kinds)]
    return Game([base], seats, seed, hooks=registry.game_hooks(["base"]))


def test_bots_are_registered_through_the_agents_hook():
    """Bots are provided through the agents hook: `random` and `greedy`."""
    registry = plugins.load(environ={"SPOILER_PLUGINS": ""})
    assert {"random", "greedy"} <= set(registry.agents)
    assert registry.agents["greedy"].plugin == "bots"
    assert isinstance(registry.agent("random", 2, 7), RandomAgent)
    assert isinstance(registry.agent("greedy", 2, 7), GreedyAgent)


# -- greedy: takes a win when it has one -------------------------------------------------------
def test_greedy_plays_a_jewel_pair():
    """Takes a win when it has one: a Jewel with another Jewel in hand."""
    game = table(
        [base],
        [["Accuse", "Jewel", "Jewel"], ["Supply"] * 3, ["Supply"] * 3],
        deck=DECK,
        priority=[1, 2, 0],
    )
    for seed in range(10):
        assert greedy_choice(game, seed=seed)[0] == "Jewel"


def test_greedy_plays_its_third_treasure():
    """Takes a win when it has one: the third treasure token."""
    game = table([base], [["Shield", "Treasure", "Spoiler"], ["Supply"] * 3], deck=DECK)
    game.state.players[0].counters[TREASURE] = 2
    assert greedy_choice(game)[0] == "Treasure"


def test_greedy_plays_crown_with_the_biggest_hand():
    """Takes a win when it has one: Crown when it will hold more cards than anyone."""
    game = table([base], [["Crown", "Jewel", "Hex", "Echo"], ["Supply"] * 2], deck=DECK)
    assert greedy_choice(game)[0] == "Crown"
    game = table([base], [["Crown", "Jewel", "Hex"], ["Supply"] * 3], deck=DECK)
    assert greedy_choice(game)[0] != "Crown"


def test_greedy_does_not_throw_away_a_lone_jewel():
    """A Jewel without its pair wins nothing: the greedy bot keeps it."""
    game = table([base], [["Jewel", "Spyglass", "Supply"], ["Supply"] * 3], deck=DECK)
    assert greedy_choice(game)[0] != "Jewel"


# -- greedy: protects itself when threatened ---------------------------------------------------
def test_greedy_shields_itself_when_about_to_win():
    """Protects itself when threatened: with two treasure tokens on the table, everyone aims
    at it, so it raises a Shield."""
    game = table(
        [base], [["Shield", "Supply", "Spyglass"], ["Supply"] * 3, ["Supply"] * 3], deck=DECK
    )
    game.state.players[0].counters[TREASURE] = 2
    assert greedy_choice(game)[0] == "Shield"


def test_greedy_does_not_waste_a_shield_when_safe():
    """With no threat, a Shield is kept for later."""
    game = table(
        [base], [["Shield", "Supply", "Spyglass"], ["Supply"] * 3, ["Supply"] * 3], deck=DECK
    )
    assert greedy_choice(game)[0] != "Shield"


# -- greedy: aims at the player closest to winning ---------------------------------------------
def test_greedy_aims_at_the_player_closest_to_winning():
    """Aims at the player closest to winning: the one with the most treasure tokens."""
    game = table(
        [base],
        [["Standoff", "Hex", "Jewel"], ["Supply"] * 3, ["Supply"] * 3, ["Supply"] * 3],
        deck=DECK,
    )
    game.state.players[2].counters[TREASURE] = 2
    for seed in range(10):
        card, targets, _ = greedy_choice(game, seed=seed)
        assert targets == (2,), card


def test_greedy_accuses_with_a_card_it_has_seen():
    """Names a card it has been shown in the target's hand."""
    game = table(
        [base], [["Accuse", "Supply", "Jewel"], ["Crown", "Hex"], ["Supply"] * 2], deck=DECK
    )
    game.reveal(1, 0)
    game.state.players[1].counters[TREASURE] = 1
    card, targets, info = greedy_choice(game)
    assert (card, targets) == ("Accuse", (1,)) and info in ("Crown", "Hex")


# -- greedy: Spoiler only when it can still catch a card ---------------------------------------
def test_greedy_uses_spoiler_on_a_player_after_it():
    """Uses Spoiler when it can still catch a card: its priority is ahead of the target's."""
    game = table(
        [base],
        [["Spoiler", "Jewel", "Supply"], ["Supply"] * 3, ["Supply"] * 3],
        deck=DECK,
        priority=[0, 1, 2],
    )
    game.state.players[2].counters[TREASURE] = 2
    assert greedy_choice(game)[:2] == ("Spoiler", (2,))


def test_greedy_never_spoils_a_player_before_it():
    """A Spoiler aimed at an earlier player comes too late: the greedy bot does not play it."""
    game = table(
        [base],
        [["Spoiler", "Jewel", "Supply"], ["Supply"] * 3, ["Supply"] * 3],
        deck=DECK,
        priority=[2, 1, 0],
    )
    game.state.players[2].counters[TREASURE] = 2
    assert greedy_choice(game)[0] != "Spoiler"


def test_greedy_gives_away_its_least_useful_card():
    """Asked to give or discard a card, it parts with the one it values least."""
    game = table([base], [["Treasure", "Swap", "Jewel"], ["Supply"] * 3], deck=DECK)
    question = Question("Give B which card?", ("Jewel", "Swap", "Treasure"), "base:tribute")
    assert GreedyAgent(0, 0).answer(game.view(0), question) == "Swap"


# -- hidden information and determinism --------------------------------------------------------
def test_bots_never_see_hidden_information():
    """An agent sees only its PlayerView: changing a hidden hand changes nothing it does."""
    for seed in range(20):
        choices = set()
        for hidden in (["Jewel", "Jewel", "Crown"], ["Shield", "Hex", "Swap"]):
            game = table(
                [base],
                [["Accuse", "Spoiler", "Treasure"], hidden, ["Supply"] * 3],
                deck=DECK,
                seed=seed,
            )
            view = game.view(0)
            assert view.hand == game.hand(0) and not hasattr(view, "hands")
            picks = [bot(seed, 0).select(view) for bot in (GreedyAgent, RandomAgent)]
            choices.add(tuple((p.card.name, p.targets, p.info) for p in picks))
        assert len(choices) == 1


def test_bots_views_hold_only_their_own_secrets():
    """Every view a bot receives during a game shows secrets only to those they belong to."""
    seen = []

    class Watching(GreedyAgent):
        def select(self, view):
            seen.append(view)
            return super().select(view)

    seats = [Seat(f"P{i}", Watching(3, i)) for i in range(4)]
    Game([base], seats, 3).play()
    assert seen
    for view in seen:
        for event in view.events:
            assert event.secret is None or view.seat in event.secret_to


def test_greedy_never_makes_an_illegal_selection():
    """Every selection the greedy bot makes passes the rules' check the first time: no view
    it receives carries an error, in games of 2 to 8 players."""
    errors = []

    class Checked(GreedyAgent):
        def select(self, view):
            errors.append(view.error)
            return super().select(view)

    for seed in range(40):
        players = 2 + seed % 7
        Game([base], [Seat(f"P{i}", Checked(seed, i)) for i in range(players)], seed).play()
    assert errors and set(errors) == {None}


def test_bots_games_replay_exactly_from_their_seed():
    """Every game is reproducible from its seed: bots draw from their own seeded RNG."""
    for seed in (1, 2, 3):
        kinds = ["greedy", "random", "greedy", "random"]
        logs = []
        for _ in range(2):
            game = bots_game(kinds, seed)
            game.play()
            logs.append([e.as_dict() for e in game.state.log])
        assert logs[0] == logs[1]


def test_greedy_beats_random_bots_more_often_than_not():
    """The greedy bot is a real heuristic: over 200 seeded games it wins far more than the
    one game in four a random seat would."""
    wins = 0
    for seed in range(200):
        game = bots_game(["greedy" if i == seed % 4 else "random" for i in range(4)], seed)
        result = game.play()
        wins += (seed % 4) in result.winners
    assert wins > 70
