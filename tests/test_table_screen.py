"""The full-screen table's frames, drawn in memory: every frame a seat is shown keeps that
seat's secrets (issue 20: "the leak checker over every full-screen frame of every seat"),
at one keyboard too, and fits the terminal it is drawn for."""

from __future__ import annotations

import io
import itertools
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


def test_a_watched_round_longer_than_its_place_is_paged_never_scrolled(installed):
    """Four bots watched at 80x24, a frame after each event worth reading: the round's place
    fills from the top of a page, every line keeping its row, and once it is full the next
    page starts at the top with what the last one did not show whole. A scroll (the lines
    moved up by a line or two) never happens; every sentence of the game was on a frame."""
    from spoiler.console.regions import ANSI
    from spoiler.console.screen import EVERYTHING, Screen

    registry = plugins.load(environ={"SPOILER_PLUGINS": ""})
    console = Console(
        file=io.StringIO(), width=80, height=24, color_system=None, force_terminal=True
    )
    screen = TableScreen(console, EVERYTHING, stdin=io.StringIO(), delay=0.0001)
    regions: list[list[str]] = []
    screen.on_frame = lambda text: regions.append(
        [ANSI.sub("", line).rstrip() for line in screen.outcome_drawn]
    )
    game = new_game(registry, seat_players(registry, [], 4, "greedy", 5, screen), None, 5, 12)
    with screen.shown():
        run_game(game, screen)
    turned = 0
    for before, after in itertools.pairwise(regions):
        if after[: len(before)] == before or not before:
            continue  # the page grew (or a frame with no round yet)
        turned += 1
        kept = next(k for k in range(len(before), -1, -1) if after[:k] == before[len(before) - k :])
        assert kept <= 2, (before, after)  # at most a sentence the old page showed in part
    assert turned >= 2, "the game's rounds were longer than their place"
    # Every sentence of the game, as the transcript tells it, was on some frame.
    plain = io.StringIO()
    transcript = Screen(Console(file=plain, width=80, color_system=None), EVERYTHING, delay=0)
    game = new_game(registry, seat_players(registry, [], 4, "greedy", 5, transcript), None, 5, 12)
    run_game(game, transcript)
    shown = " ".join(" ".join(region) for region in regions)
    for line in plain.getvalue().splitlines():
        if line.startswith("  ") and " played " in line:
            assert line.strip() in shown, line
