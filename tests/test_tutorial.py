"""``spoiler play --tutorial`` (issue 20, item 6): a short game against bots whose screen
explains priority, choosing at the same time, losing and winning as they happen. Played
through the CLI with piped input, and in a pseudo-terminal as a person would."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spoiler.cli import app
from spoiler.console import tutorial

BASE_ONLY = {"SPOILER_PLUGINS": "", "COLUMNS": "100", "NO_COLOR": "1"}
#: Answers for any prompt, tried in turn: a card, a target, a number or an option is among
#: the first three (a refused one is asked again, and the next answer tried).
ANSWERS = "1\n2\n3\n" * 80


def flat(text: str) -> str:
    return " ".join(text.replace("│", " ").split())


def guide_says(text: str) -> str:
    """The first words of a guide's panel, as they are found in the flattened screen."""
    return " ".join(text.split()[:6])


def play_tutorial(monkeypatch=None, seed: int | None = None) -> str:
    if seed is not None:
        monkeypatch.setattr(tutorial, "SEED", seed)
    result = CliRunner().invoke(app, ["play", "--tutorial"], input=ANSWERS, env=BASE_ONLY)
    assert result.exit_code == 0, result.output
    return result.output


def test_the_tutorial_explains_each_idea_right_after_it_happens():
    """The fixed deal, played with piped answers: the guide explains priority right after the
    priorities are drawn, choosing before the first card prompt, that the others chose
    after their selection, a loss right after it, and how the game ended after Game over."""
    screen = flat(play_tutorial())
    assert "Spoiler for You against 2 random bots, with base." in screen

    def after(event: str, explained: str, within: int = 400) -> None:
        at = screen.index(event)
        said = screen.index(guide_says(explained))
        assert at < said, f"{explained!r} told before {event!r}"
        assert said - at < within, f"{explained!r} not told right after {event!r}"

    after("Priorities: 1st", tutorial.PRIORITY)
    assert screen.index(guide_says(tutorial.SELECTING)) < screen.index("Play which card?")
    after(" selected a card.", tutorial.OTHERS_CHOSE.format(name=""))
    after(" lost (", tutorial.THEY_LOST.format(name="").removeprefix(" "))
    after("Final table", "The game ended", within=1500)  # under the end screen
    assert flat(tutorial.AFTER) in screen[-400:]  # the last word


@pytest.mark.parametrize("seed", [4, 13, 62])
def test_the_guide_follows_the_games_events_not_its_seed(seed, monkeypatch):
    """Other deals: each explanation is on the screen exactly when its event is (a loss,
    yours or another's, a win, a loss and a win cancelling out, a card that did nothing, one
    cancelled), and at most once."""
    screen = flat(play_tutorial(monkeypatch, seed))
    happened = {
        tutorial.YOU_LOST: r"You lost \([^)]*\)(\.|, but)",
        tutorial.THEY_LOST.format(name=""): r"(Ada|Bix) lost \([^)]*\)(\.|, but)",
        tutorial.WON.format(name=""): r"won \([^)]*\)(!|, but)",
        tutorial.CANCEL_OUT.format(name=""): "back in play",
        tutorial.NOTHING: "Nothing happens",
        tutorial.CANCELLED: r"was cancelled \(",
    }
    for explained, event in happened.items():
        words = guide_says(explained)
        told = screen.count(words)
        assert told == (1 if re.search(event, screen.replace(words, "")) else 0), explained
    assert screen.count(guide_says(tutorial.PRIORITY)) == 1


def test_the_tutorial_plays_its_own_table_and_refuses_table_options_in_one_line():
    result = CliRunner().invoke(
        app, ["play", "--tutorial", "--bots", "3", "--seed", "4"], env=BASE_ONLY
    )
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "Error: --tutorial plays its own table: leave out --bots, --seed"
    ]


def test_the_tutorial_in_a_terminal_played_as_a_person_would(tmp_path):
    """In a pseudo-terminal of 80x24: the guide's panels come as the game goes, each prompt
    is answered from what the screen shows, and the game ends with its result."""
    pexpect = pytest.importorskip("pexpect")
    script = Path(sys.executable).with_name("spoiler")
    command, argv = (
        (str(script), ["play", "--tutorial", "--delay", "0"])
        if script.exists()
        else (sys.executable, ["-c", "from spoiler.cli import main; main()", "play", "--tutorial"])
    )
    env = {**os.environ, "SPOILER_PLUGINS": "", "TERM": "xterm", "NO_COLOR": "1"}
    env.pop("COLUMNS", None)
    child = pexpect.spawn(
        command, argv, cwd=str(tmp_path), env=env, encoding="utf-8", dimensions=(24, 80), timeout=20
    )
    prompts = [
        r"Play which card\? \[1-(\d+)\]",
        r"Target\? \[([\d, ]+)\]",
        r"\? \[(\d+)-(\d+)\]",
        r"\? \[(\d+)(?:, \d+)+\]",
        r"Watch the rest\? \[Y/n\]",
        r"Play again\? s: same seed",
        pexpect.EOF,
    ]
    screen, card, asked = "", 1, 0
    while True:
        which = child.expect(prompts)
        screen += child.before + (child.after if isinstance(child.after, str) else "")
        if which == 6:
            break
        asked += 1
        assert asked < 200, "the tutorial keeps asking"
        if which == 0:
            card = card + 1 if "cannot be played now: it needs" in child.before else 1
            child.sendline(str(card))
        elif which == 1:
            child.sendline(child.match.group(1).split(",")[0].strip())
        elif which in (2, 3):
            child.sendline(child.match.group(1))
        else:
            child.sendline("")
    child.close()
    assert child.exitstatus == 0
    shown = flat(re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen))
    for explained in (tutorial.PRIORITY, tutorial.SELECTING, tutorial.RESOLVING):
        assert guide_says(explained) in shown
    assert "Guide" in shown and "Final table" in shown
    assert "The game ended" in shown
