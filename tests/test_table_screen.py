"""The full-screen table's frames, drawn in memory: every frame a seat is shown keeps that
seat's secrets (issue 20: "the leak checker over every full-screen frame of every seat"),
at one keyboard too, and fits the terminal it is drawn for."""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console

from spoiler import plugins
from spoiler.console.fullscreen import TableScreen
from spoiler.console.game import run_game, seat_players
from spoiler.narration.leaks import Hidden, found_in
from spoiler.session.seating import new_game


@pytest.fixture(scope="module")
def installed():
    """Every installed plugin: the base set, the bots and the expansions."""
    return plugins.load(environ={})


class Typist:
    """A player's keyboard: a random number from 1 to 8 at every prompt (a refused answer is
    asked again, as of a person)."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def readline(self) -> str:
        return f"{self.rng.randint(1, 8)}\n"

    def isatty(self) -> bool:
        return False


def played(registry, seed: int, humans: list[str], bots: int, rows: int, columns: int):
    """A game on a full-screen table of ``rows`` x ``columns``: the game and its frames, each
    with whom it was shown to, each checked for leaks after its round."""
    out = io.StringIO()
    console = Console(file=out, width=columns, height=rows, color_system=None, force_terminal=True)
    reader = 0 if len(humans) == 1 else None
    screen = TableScreen(console, reader, stdin=Typist(seed), delay=0.0)
    frames: list = []
    screen.on_frame = lambda text: frames.append((screen.shown_to, text))
    seats = seat_players(registry, humans, bots, "greedy", seed, screen)
    game = new_game(registry, seats, None, seed, 12)
    hidden, checked = Hidden(game), [0]

    def check(game) -> None:
        for shown_to, text in frames[checked[0] :]:
            eyes = range(len(humans)) if shown_to is None else [shown_to]
            for seat in eyes:
                assert found_in(text, hidden.facts(seat)) == [], (seat, text)
        checked[0] = len(frames)

    with screen.shown():
        run_game(game, screen, check)
    check(game)
    assert game.over
    return game, frames, out.getvalue()


@pytest.mark.parametrize("rows, columns", [(24, 80), (20, 60), (60, 200)])
def test_every_frame_a_player_against_bots_is_shown_keeps_their_secrets(installed, rows, columns):
    """One human against bots, every installed set, seeded games: no frame shows another
    hand, a selection before it resolves, a private answer, a card's secret information
    before it resolves, the deck's order, or the seed before the game ends."""
    for i in range(4):
        seed = random.Random(f"table {i}").getrandbits(64)
        _, frames, _ = played(installed, seed, ["Ann"], 1 + i % 3, rows, columns)
        assert frames
        for _, text in frames:
            lines = text.rstrip("\n").split("\n")
            assert len(lines) <= rows - 1 and all(len(line) <= columns for line in lines)


def test_every_frame_at_one_keyboard_shows_each_player_only_what_they_may_know(installed):
    """Three humans and a bot at one keyboard: a frame drawn for a player's decision (after
    the others looked away) keeps that player's secrets; every other frame, which anyone at
    the keyboard may see, keeps everyone's."""
    for i in range(2):
        seed = random.Random(f"table hot seat {i}").getrandbits(64)
        _, frames, _ = played(installed, seed, ["Ann", "Ben", "Cy"], 1, 24, 80)
        assert {shown_to for shown_to, _ in frames} >= {None, 0, 1, 2}
        handovers = [text for _, text in frames if "press Enter when only you can see" in text]
        assert handovers and all("Your hand" not in text for text in handovers)
