"""Issue 11 in a real pseudo-terminal, typed as a person would: the commands every prompt
takes (?, ? NAME, log, back, q with the offer to save, then resume), and a game where the
human is knocked out in round 1 and chooses to watch the rest."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

CARD = r"Play which card\? \[1-\d+\]"
# Seed 74, base set: You hold Spoiler, Purge and Assassin; Bix's Assassin knocks you out in
# round 1 whatever you play.
SEED = "74"


def spawn(*args: str, cwd: Path):
    if args[:1] in (("play",), ("resume",), ("replay",)):  # the transcript at a terminal
        args = (args[0], "--plain", *args[1:])  # (a terminal gets the table)
    script = Path(sys.executable).with_name("spoiler")
    command, argv = (
        (str(script), list(args))
        if script.exists()
        else (sys.executable, ["-c", "from spoiler.cli import main; main()", *args])
    )
    env = {**os.environ, "SPOILER_PLUGINS": "", "TERM": "xterm", "NO_COLOR": "1", "PAGER": "cat"}
    env.pop("COLUMNS", None)
    return pexpect.spawn(
        command, argv, cwd=str(cwd), env=env, encoding="utf-8", dimensions=(50, 100), timeout=20
    )


def test_help_a_cards_text_the_log_back_and_quit_with_save_then_resume(tmp_path):
    """The first prompt says how to get help and quit; `?` lists the commands, `? Accuse`
    shows a card with its rulings (a card of the game, not in your hand), `log` the game so
    far, `back` at a target prompt returns to the card prompt, and `q` stops the game with
    the offer to save it, which `spoiler resume` then continues."""
    child = spawn("play", "--seed", SEED, "--sets", "base", "--delay", "0", cwd=tmp_path)
    child.expect(r"Type \? for help, \? NAME for a card, q to quit\.")
    child.expect(CARD)
    child.sendline("?")
    child.expect("At any prompt you can type:")
    child.expect(r"back\W+(\[0m)?\s*choose your card again")
    child.expect(CARD)
    child.sendline("? Accuse")
    child.expect(r"Choose another player who has not lost and name a card")
    child.expect(r"Rulings:")
    child.expect(CARD)
    child.sendline("? Acuse")
    child.expect(r"No card named 'Acuse' in this game\. Did you mean: Accuse")
    child.expect(CARD)
    child.sendline("log")
    child.expect(r"The game so far, as You saw it")
    child.expect(r"You got Spoiler, Purge and Assassin\.")
    child.expect(CARD)
    child.sendline("2")  # Purge: it asks for a target
    child.expect(r"Target\? \[2, 3, 4\]")
    child.sendline("back")
    child.expect("Your hand")
    child.expect(CARD)
    child.sendline("q")
    child.expect(r"Game stopped in round 1\.")
    child.expect(r"to spoiler-74\.toml, to resume later\? \[y/N\]")
    child.sendline("y")
    child.expect(r"Saved to spoiler-74\.toml; continue with: spoiler resume spoiler-74\.toml")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "Traceback" not in child.before

    child = spawn("resume", "spoiler-74.toml", cwd=tmp_path)
    child.expect(r"Resuming spoiler-74\.toml after round 0")
    child.expect(CARD)
    child.sendline("q")
    child.expect(r"Game stopped in round 1\. spoiler-74\.toml holds the rounds up to 0")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130


def test_knocked_out_in_round_1_the_human_is_told_by_whom_and_watches_the_rest(tmp_path):
    """Then the end screen says who knocked out whom, and "play again, same seed" deals the
    same hand again."""
    child = spawn(
        "play", "--seed", SEED, "--sets", "base", "--max-rounds", "4", "--delay", "0",
        cwd=tmp_path,
    )  # fmt: skip
    child.expect(CARD)
    child.sendline("2")
    child.expect(r"Target\? ")
    child.sendline("2")
    child.expect(r"You are out: knocked out by Bix's Assassin in round 1\.")
    child.expect(r"You are out of this game\. Watch the rest\? \[Y/n\]")
    child.sendline("")
    while True:  # a lost player may still be asked a question (Tribute, Purge)
        which = child.expect([r"\? \[1-(\d+)\]", r"\? \[(\d+), ", r"Play again\?", pexpect.EOF])
        if which >= 2:
            break
        child.sendline("1" if which == 0 else child.match.group(1))
    assert which == 2, "a finished game offers to play again"
    shown = child.before
    assert "Round 2" in shown and "Final table" in shown
    assert "Knocked out:" in shown and "Round 1: you, by Bix's Assassin." in shown
    assert "Play which card" not in shown  # a lost player does not select
    child.sendline("s")  # play again, the same deal
    child.expect(r"Spoiler for You against 3 greedy bots, with base\.")
    child.expect(r"You got Spoiler, Purge and Assassin\.")
    child.expect(CARD)
    child.sendline("q")
    child.expect(r"to resume later\? \[y/N\]")
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
