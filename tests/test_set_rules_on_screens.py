"""Set rules reach every screen (issue 21, item 7): the rules a game's sets add
(``CardSet(rules=...)``) are shown to ssh players when the game starts, and ``rules`` at
any prompt, local or hosted, shows them again."""

from __future__ import annotations

import io
import sys
import time
from pathlib import Path

import pytest
from rich.console import Console

from spoiler.console.human import COMMANDS, HumanAgent, is_command
from spoiler.console.screen import Screen
from spoiler.model.cards import CardSet
from spoiler.testing import play_round, table
from spoiler_base import base

sys.path.insert(0, str(Path(__file__).parent))

CHRONO_RULES = "Chrono rules: At the start of each round, in priority order,"


def ruled_set() -> CardSet:
    ruled = CardSet(
        "ruled", "1.0", rules="Whoever holds a Stone at a round's end is a fine person."
    )
    ruled.card(type("Stone", (), {"text": "No effect.", "copies": 9, "main": lambda play: None}))
    return ruled


def human(game, seat: int, typed: str) -> io.StringIO:
    out = io.StringIO()
    screen = Screen(
        Console(file=out, width=100, color_system=None), reader=seat, stdin=io.StringIO(typed)
    )
    screen.follow(game)
    game.seats[seat].agent = HumanAgent(screen)
    game.seats[seat].kind = "human"
    return out


def test_rules_at_a_prompt_shows_the_rules_the_games_sets_add():
    """`rules` at the card prompt prints each set's rules, then asks again."""
    game = table([base, ruled_set()], [["Stone"], ["Stone"]], deck=["Stone"] * 6, hooks={})
    out = human(game, 0, "rules\nstone\n")
    play_round(game, {1: "Stone"})
    shown = " ".join(out.getvalue().split())
    assert "Ruled rules: Whoever holds a Stone at a round's end is a fine person." in shown
    assert shown.count("Play which card?") == 2
    assert game.decisions[-1]["selections"][0]["card"] == "ruled:stone"


def test_rules_at_a_prompt_says_so_when_no_set_adds_any():
    game = table([base], [["Supply"], ["Supply"]], deck=["Supply"] * 6)
    out = human(game, 0, "RULES\nsupply\n")
    play_round(game, {1: "Supply"})
    shown = " ".join(out.getvalue().split())
    assert (
        "The sets of this game add no rules of their own (Spoiler's own: spoiler rules)." in shown
    )


def test_rules_is_an_in_game_command_listed_in_the_help():
    """Listed by `?`, and a word no answer (nor a hosted player's name) can be."""
    assert "rules" in [command for command, _ in COMMANDS]
    assert is_command("rules") and is_command(" Rules ")


@pytest.fixture
def host(tmp_path):
    """`spoiler host` in a child process, as tests/test_host.py runs it."""
    pytest.importorskip("asyncssh")
    from test_host import Hosted

    started = []

    def start(*args: str, env: dict | None = None):
        started.append(Hosted(tmp_path, *args, env=env))
        return started[-1]

    yield start
    for hosted in started:
        hosted.close()


def test_ssh_players_see_the_sets_rules_when_the_game_starts_and_at_a_prompt(host):
    """Over ssh: the rules of the game's sets when it begins, and `rules` at a prompt."""
    from test_host import Player, flat, play_in_order

    hosted = host(
        "--seats", "1", "--bots", "1", "--sets", "base,chrono", "--seed", "7",
        "--max-rounds", "2", env={},
    )  # fmt: skip
    ann = Player(hosted, "ann")
    play_in_order(hosted, (ann, ann.play(send={1: "rules\n"})))
    assert hosted.finish() == 0
    seen = flat(ann.transcript)
    begins = seen.index("The game begins")
    assert CHRONO_RULES in seen[begins : seen.index("Round 1")]
    assert seen.count(CHRONO_RULES) >= 2  # and again when asked, at the first prompt


def test_a_hosted_game_of_a_set_that_cannot_end_a_game_alone_has_its_partner_too(host):
    """As `spoiler play` does: `host --sets mirror` deals the base set in too, and says so."""
    pytest.importorskip("spoiler_mirror")
    from test_host import PATIENCE

    hosted = host("--seats", "8", "--sets", "mirror", env={})
    assert "with base, mirror." in hosted.output
    note = "Note: mirror cannot end a game alone, so base is in the deck too."
    deadline = time.monotonic() + PATIENCE  # (stderr is read by a thread of its own)
    while note not in "".join(hosted.err) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert note in "".join(hosted.err)
