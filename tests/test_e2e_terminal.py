"""``spoiler play`` in a real pseudo-terminal, played the way a person would: read the
prompt, type an answer, press Enter; and stopped with Ctrl-C."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

CARD = r"Play which card\? \[1-(\d+)\]"
TARGET = r"Target\? \[([\d, ]+)\]"
NUMBER_RANGE = r"\? \[(\d+)-(\d+)\]"
NUMBERED = r"\? \[1-(\d+)\]"
LISTED = r"\? \[(\d+)(?:, \d+)+\]"  # options that are numbers, typed as themselves
SAVE = r"to resume later\? \[y/N\]"
WATCH = r"Watch the rest\? \[Y/n\]"
AGAIN = (
    r"Play again\? s: same seed \(the same deal\), n: new seed, r: reveal every hand, "
    r"Enter: leave"
)


def spawn(*args: str, cwd: Path):
    if args[:1] == ("play",):  # the transcript at a terminal (a terminal gets the table)
        args = ("play", "--plain", *args[1:])
    script = Path(sys.executable).with_name("spoiler")
    command, argv = (
        (str(script), list(args))
        if script.exists()
        else (sys.executable, ["-c", "from spoiler.cli import main; main()", *args])
    )
    env = {**os.environ, "SPOILER_PLUGINS": "", "TERM": "xterm", "NO_COLOR": "1"}
    env.pop("COLUMNS", None)
    return pexpect.spawn(
        command, argv, cwd=str(cwd), env=env, encoding="utf-8", dimensions=(40, 100), timeout=20
    )


def test_a_whole_game_in_a_terminal_played_as_a_person_would(tmp_path):
    """Start `spoiler play`, answer every prompt from what the screen shows (a card by its
    number, trying the next one when a card cannot be played, the first target offered,
    the first option), and see the game through to its final table and result."""
    child = spawn("play", "--seed", "12", "--sets", "base", "--max-rounds", "4", cwd=tmp_path)
    card_tries, prompts, screen = 1, 0, ""
    while True:
        which = child.expect(
            [CARD, TARGET, NUMBER_RANGE, NUMBERED, LISTED, pexpect.EOF, WATCH, AGAIN]
        )
        if which == 5:
            break
        if which >= 6:  # out of the game: watch it; at its end: leave
            screen = child.before
            child.sendline("")
            continue
        prompts += 1
        assert prompts < 200, "the game keeps asking"
        if which == 0:
            refused = "cannot be played now: it needs" in child.before
            card_tries = card_tries + 1 if refused else 1
            child.sendline(str(card_tries))
        elif which == 1:
            child.sendline(child.match.group(1).split(",")[0].strip())
        elif which in (2, 4):
            child.sendline(child.match.group(1))
        else:
            child.sendline("1")
    child.close()
    assert child.exitstatus == 0
    assert prompts >= 4, "a human plays at least one card a round"
    assert "Final table" in screen
    *shown, last, seed, _ = screen.strip().splitlines()  # then the prompt to play again
    assert re.search(r"won|Draw|Everyone lost", last), last
    # The seed gives every hand away: it is told once, when the game is over.
    assert seed.strip() == (
        "Seed: 12. Play it again: spoiler play --seed 12 --sets base --players You --bots 3 "
        "--bot greedy --max-rounds 4"
    )
    assert not any("Seed" in line or "seed 12" in line for line in shown)
    assert "Traceback" not in screen


def test_ctrl_c_at_a_prompt_stops_the_game_cleanly_with_exit_code_130(tmp_path):
    """Ctrl-C ends the game cleanly: a closing line, an offer to save it, exit code 130 and
    no traceback."""
    child = spawn("play", "--seed", "3", "--sets", "base", cwd=tmp_path)
    child.expect(CARD)
    child.sendintr()
    child.expect(r"Game stopped in round 1\. Seed 3\.")
    child.expect(SAVE)
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "Traceback" not in child.before
    assert list(tmp_path.iterdir()) == []


def play_to_the_end(child) -> str:
    """Answer every prompt as a person would until "Play again?"; return the screen."""
    card_tries = 1
    for _ in range(200):
        which = child.expect([CARD, TARGET, NUMBER_RANGE, NUMBERED, LISTED, WATCH, AGAIN])
        if which == 6:
            return child.before
        if which == 0:
            card_tries = card_tries + 1 if "cannot be played now" in child.before else 1
            child.sendline(str(card_tries))
        elif which == 1:
            child.sendline(child.match.group(1).split(",")[0].strip())
        elif which in (2, 4):
            child.sendline(child.match.group(1))
        else:
            child.sendline("" if which == 5 else "1")
    raise AssertionError("the game keeps asking")


def test_play_again_with_record_saves_the_next_game_beside_the_first(tmp_path):
    """Issue 20: "Play again?" after a game played with `--record` ended in a TypeError. The
    next game is recorded too, in a numbered file beside the first."""
    child = spawn(
        "play", "--seed", "5", "--sets", "base", "--max-rounds", "2", "--record", "game.toml",
        cwd=tmp_path,
    )  # fmt: skip
    play_to_the_end(child)
    child.sendline("s")
    child.expect(CARD)
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert "Traceback" not in child.before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game-2.toml", "game.toml"]


PAGER_PROBE = (
    "import os, sys; sys.stdin.read(); "
    "open('less.txt', 'w').write(os.environ.get('LESS', '(unset)'))"
)


@pytest.mark.parametrize("less, seen", [(None, "-R"), ("-X", "-X")], ids=["unset", "the reader's"])
def test_the_rules_page_through_less_with_colours_shown(tmp_path, less, seen):
    """Issue 20: on Python 3.11 and 3.12, `spoiler rules` (and `log`) showed raw escape codes
    in less. The pager is run with LESS=-R, unless the reader set LESS themselves. (From
    Python 3.13 on, pydoc gives less its own LESS, -R and a prompt, whatever was set.)"""
    if sys.version_info >= (3, 13):
        seen = "-R"  # pydoc's own, which starts with -R
    env = {"PAGER": f'{sys.executable} -c "{PAGER_PROBE}"'}
    if less is not None:
        env["LESS"] = less
    child = pexpect.spawn(
        sys.executable,
        ["-c", "from spoiler.cli import main; main()", "rules"],
        cwd=str(tmp_path),
        env={**{k: v for k, v in os.environ.items() if k != "LESS"}, **env, "TERM": "xterm"},
        encoding="utf-8",
        timeout=20,
    )
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    told = (tmp_path / "less.txt").read_text()
    assert told.startswith(seen) if sys.version_info >= (3, 13) else told == seen


# -- line editing (issue 20): seed 74 deals You Spoiler, Purge and Assassin -------------------
PURGE_TARGET = r"Target\? \[2, 3, 4\]"


def test_tab_completes_a_card_name_at_the_card_prompt(tmp_path):
    child = spawn("play", "--seed", "74", "--sets", "base", cwd=tmp_path)
    child.expect(CARD)
    child.send("pu\t\r")  # completed to "Purge", which asks for a target
    child.expect(PURGE_TARGET)
    child.sendintr()
    child.expect(SAVE)
    child.sendline("n")
    child.expect(pexpect.EOF)


def test_the_arrow_keys_edit_the_line_instead_of_becoming_part_of_the_answer(tmp_path):
    """Typed: x, left arrow, Delete (the x is gone), 2. The answer is 2 (Purge)."""
    child = spawn("play", "--seed", "74", "--sets", "base", cwd=tmp_path)
    child.expect(CARD)
    child.send("x\x1b[D\x1b[3~2\r")
    child.expect(PURGE_TARGET)
    assert "Please answer" not in child.before
    child.sendintr()
    child.expect(SAVE)
    child.sendline("n")
    child.expect(pexpect.EOF)


def test_what_is_typed_before_a_prompt_appears_is_not_taken_as_its_answer(tmp_path):
    """Keys pressed while the game starts (or bots think) answered the next prompt before
    the player had seen their hand; a "q" typed early would have ended the game."""
    child = spawn("play", "--seed", "74", "--sets", "base", cwd=tmp_path)
    child.send("q\r")  # long before the first prompt: the program is still starting
    child.expect(CARD)
    child.send("2\r")
    child.expect(PURGE_TARGET)
    child.sendintr()
    child.expect(SAVE)
    child.sendline("n")
    child.expect(pexpect.EOF)


def test_at_the_end_r_shows_the_game_again_with_every_hand_and_choice(tmp_path):
    """Issue 20: "the end screen can show every hand and selection of the game, round by
    round"; then the game still offers to play again."""
    child = spawn("play", "--seed", "5", "--sets", "base", "--max-rounds", "2", cwd=tmp_path)
    play_to_the_end(child)
    child.sendline("r")
    child.expect(r"(Ada|Bix|Cog) got (?!a hand)\w+")
    child.expect(r"(Ada|Bix|Cog) selected (?!a card)\w+")
    child.expect(AGAIN)
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
