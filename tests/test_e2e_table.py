"""The full-screen table (issue 20 item 1) in a real pseudo-terminal: ``spoiler play`` at a
terminal draws each decision as one frame that fits it, with the table, the hand and the
whole last round, paged with Enter when the round is longer than its place.

The frames are read from what the program wrote: each is drawn between the two codes of
synchronised output, a row at a time (``ESC [ row ;1H``, the row, ``ESC [0m ESC [K``)."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

FRAME = re.compile(r"\x1b\[\?2026h(.*?)\x1b\[\?2026l", re.S)
ROW = re.compile(r"\x1b\[(\d+);1H(.*?)\x1b\[0m\x1b\[K", re.S)
ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
ALTERNATE = "\x1b[?1049h"
SAVE = r"to resume later\?[\s\S]*?\[y/N\]"

CARD = r"Play which card\? \[1-(\d+)\]"
TARGET = r"Target\? \[([\d, ]+)\]"
NUMBER_RANGE = r"\? \[(\d+)-(\d+)\]"
NUMBERED = r"\? \[1-(\d+)\]"
LISTED = r"\? \[(\d+)(?:, \d+)+\]"
ENTER = r"[Pp]ress Enter"
WATCH = r"Watch the rest\? \[Y/n\]"
AGAIN = r"Play again\? s: same seed"
PROMPTS = [CARD, TARGET, NUMBER_RANGE, NUMBERED, LISTED, ENTER, WATCH, AGAIN]
#: Seed 12 with the base set: You stay in the game for all its 4 rounds.
GAME = ("--seed", "12", "--sets", "base", "--max-rounds", "4")


def spawn(*args: str, cwd: Path, rows: int, columns: int):
    script = Path(sys.executable).with_name("spoiler")
    command, argv = (
        (str(script), list(args))
        if script.exists()
        else (sys.executable, ["-c", "from spoiler.cli import main; main()", *args])
    )
    env = {**os.environ, "SPOILER_PLUGINS": "", "TERM": "xterm", "NO_COLOR": "1"}
    for name in ("COLUMNS", "LINES"):
        env.pop(name, None)
    return pexpect.spawn(
        command, argv, cwd=str(cwd), env=env, encoding="utf-8", dimensions=(rows, columns),
        timeout=20,
    )  # fmt: skip


def frames(output: str) -> list[tuple[list[str], str]]:
    """Each frame drawn, as its rows of plain text, and what came after it up to the next
    frame (the prompt the line editor wrote, and what was typed)."""
    found = list(FRAME.finditer(output))
    result = []
    for i, match in enumerate(found):
        rows = {int(r.group(1)): ESCAPE.sub("", r.group(2)) for r in ROW.finditer(match.group(1))}
        after = output[match.end() : found[i + 1].start() if i + 1 < len(found) else len(output)]
        result.append(([rows.get(n, "") for n in range(1, max(rows) + 1)], ESCAPE.sub("", after)))
    return result


def answer(which: int, match) -> str:
    """What a person answers, from the prompt alone (the same in both kinds of screen)."""
    if which == 1:
        return match.group(1).split(",")[0].strip()
    if which in (2, 4):
        return match.group(1)
    return "" if which >= 5 else "1"


def play(child) -> str:
    """Answer every prompt until "Play again?"; return all the program wrote."""
    output = ""
    for _ in range(300):
        which = child.expect(PROMPTS)
        output += child.before + child.after
        if which == 7:
            child.sendline("")
            child.expect(pexpect.EOF)
            child.close()
            assert child.exitstatus == 0
            return output + child.before
        child.sendline(answer(which, child.match))
    raise AssertionError("the game keeps asking")


def flat(text: str) -> str:
    return " ".join(text.split())


def told_by_the_transcript(tmp_path) -> dict[int, list[str]]:
    """The same game with --plain, on a terminal wide enough that no sentence wraps: for each
    round, its sentences of plays, of "Nothing happens" and of players knocked out."""
    child = spawn("play", "--plain", *GAME, cwd=tmp_path, rows=50, columns=250)
    transcript = ESCAPE.sub("", play(child))
    rounds: dict[int, list[str]] = {}
    current = 0
    for line in transcript.splitlines():
        heading = re.fullmatch(r"─+ Round (\d+) ─+", line.strip())
        if heading:
            current = int(heading.group(1))
        elif re.match(r"  \S", line) and re.search(r" played |Nothing happens| out: ", line):
            rounds.setdefault(current, []).append(flat(line))
    return rounds


@pytest.mark.parametrize("rows, columns", [(24, 80), (20, 60)])
def test_every_decision_shows_the_table_the_hand_and_the_whole_last_round(tmp_path, rows, columns):
    """At 80x24 and at 60x20: every frame fits the terminal; every card prompt's frame holds
    the table (each player) and the hand; and every sentence of the last round (each play,
    each "Nothing happens", each knockout) was on the screen between the two decisions,
    on the decision's frame or the pages before it."""
    sentences = told_by_the_transcript(tmp_path)
    assert any("Nothing happens" in s for told in sentences.values() for s in told)
    output = play(spawn("play", *GAME, cwd=tmp_path, rows=rows, columns=columns))
    assert ALTERNATE in output
    drawn = frames(output)
    card_frames = [i for i, (_, after) in enumerate(drawn) if re.search(CARD, after)]
    assert len(card_frames) == 4, "You choose a card in each of the 4 rounds"
    for shown, _ in drawn:
        assert len(shown) <= rows and all(len(row.rstrip()) <= columns for row in shown)
    for i in card_frames:
        shown = drawn[i][0]
        assert shown[0].startswith("Round ") and "You to choose" in shown[0]
        assert any(row.startswith("Priority") and "Status" in row for row in shown)
        for name in ("You", "Ada", "Bix", "Cog"):
            assert any(f" {name} " in row for row in shown), name
        assert any(row.startswith("Your hand") for row in shown)
        # (rich before 14 pads the number column by a space)
        assert any(row.lstrip().startswith("1 ") for row in shown), "the first card of the hand"
    # Round N is told between the card prompt of round N and that of round N+1 (the last
    # round, before the game's end).
    ends = [*card_frames[1:], len(drawn) - 1]
    for number, (start, end) in enumerate(zip(card_frames, ends, strict=True), 1):
        seen = " ".join(flat("\n".join(shown)) for shown, _ in drawn[start : end + 1])
        for sentence in sentences.get(number, []):
            assert sentence in seen, f"round {number}: {sentence!r} was never on the screen"


def test_a_resize_draws_the_frame_again_at_the_new_size(tmp_path):
    child = spawn("play", *GAME, cwd=tmp_path, rows=24, columns=80)
    child.expect(CARD)
    child.setwinsize(30, 100)  # SIGWINCH
    child.expect(CARD)  # the frame, and the prompt after it, drawn again
    shown, after = frames(child.before + child.after)[-1]
    assert len(shown) == 30
    rule = next(row for row in shown if row.startswith("Your hand"))
    assert len(rule) == 100  # the hand's heading spans the new width
    assert re.search(CARD, after)
    child.sendline("1")  # and the game goes on at the new size
    child.expect(TARGET)
    assert len(frames(child.before + child.after)[-1][0]) == 30
    child.sendintr()
    child.expect(SAVE)
    child.sendline("n")
    child.expect(pexpect.EOF)


def test_what_is_typed_before_a_frame_appears_is_not_taken_as_its_answer(tmp_path):
    """Seed 74 deals You Spoiler, Purge and Assassin. A "q" typed while the game starts
    would have ended it; it is dropped, and the frame's prompt takes the answer typed to it."""
    child = spawn("play", "--seed", "74", "--sets", "base", cwd=tmp_path, rows=24, columns=80)
    child.send("q\r")
    child.expect(CARD)
    child.send("2\r")
    child.expect(r"Target\? \[2, 3, 4\]")
    shown = frames(child.before + child.after)[-1][0]
    assert any(row.startswith("Purge: choose") for row in shown)
    child.sendintr()
    child.expect(SAVE)
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130


def test_the_end_of_the_game_stays_in_the_terminal_after_the_table_is_gone(tmp_path):
    """The table is drawn in the alternate screen; once the game is over, the terminal's own
    screen comes back with the final table, the result and the seed in it, to keep."""
    output = play(spawn("play", *GAME, cwd=tmp_path, rows=24, columns=80))
    after = ESCAPE.sub("", output[output.rindex("\x1b[?1049l") :])
    assert "Final table" in after
    assert "Seed: 12. Play it again: spoiler play --seed 12" in flat(after)


def test_plain_gives_the_transcript_at_a_terminal(tmp_path):
    child = spawn("play", "--plain", *GAME, cwd=tmp_path, rows=24, columns=80)
    output = play(child)
    assert ALTERNATE not in output and not frames(output)
    assert "Your hand" in output and "Final table" in output


def test_a_pipe_gets_the_transcript(tmp_path):
    """No terminal (input from a pipe): the transcript, as before the table existed."""
    script = Path(sys.executable).with_name("spoiler")
    import subprocess

    env = {**os.environ, "SPOILER_PLUGINS": "", "TERM": "xterm"}
    done = subprocess.run(
        [str(script), "play", *GAME],
        input="1\n" * 60,
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )
    assert ALTERNATE not in done.stdout and "\x1b[?2026h" not in done.stdout
    assert "Play which card? [1-3] 1" in done.stdout


def unfinished_record(tmp_path) -> Path:
    """Seed 1, Ann against two bots, stopped by the end of its piped answers: a record of
    the 2 whole rounds played, and the game not over."""
    import subprocess

    script = Path(sys.executable).with_name("spoiler")
    command = (
        [str(script)]
        if script.exists()
        else [sys.executable, "-c", "from spoiler.cli import main; main()"]
    )
    env = {**os.environ, "SPOILER_PLUGINS": "", "TERM": "dumb"}
    game = ["play", "--players", "Ann", "--bots", "2", "--seed", "1", "--sets", "base"]
    done = subprocess.run(
        [*command, *game, "--record", "ann.toml"],
        input="1\n2\n1\n2\n",
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )
    assert "ann.toml holds the 2 whole rounds played" in done.stdout, done.stdout
    return tmp_path / "ann.toml"


def answer_all(child) -> str:
    """Answer every prompt until the program ends; return all it wrote."""
    output = ""
    for _ in range(300):
        which = child.expect([*PROMPTS, pexpect.EOF])
        output += child.before
        if which == len(PROMPTS):
            child.close()
            assert child.exitstatus == 0
            return output
        output += child.after
        child.sendline(answer(which, child.match))
    raise AssertionError("it keeps asking")


def test_a_replay_at_a_terminal_is_drawn_on_the_table_a_round_until_enter(tmp_path):
    """``spoiler replay`` at 80x24: the recorded rounds on the full-screen table, each frame
    fitting the terminal with the table and the player's hand, each round held until Enter;
    then the terminal's own screen says where the record stops."""
    unfinished_record(tmp_path)
    output = answer_all(spawn("replay", "ann.toml", cwd=tmp_path, rows=24, columns=80))
    assert ALTERNATE in output
    drawn = frames(output)
    for shown, _ in drawn:
        assert len(shown) <= 24 and all(len(row.rstrip()) <= 80 for row in shown)
    held = [(shown, after) for shown, after in drawn if re.search(ENTER, after)]
    headings = {shown[0].split("   ")[0] for shown, _ in held}
    assert {"Round 1", "Round 2"} <= headings, "each recorded round held on its frame"
    for shown, _ in held:
        assert any(" Ann (you) " in row for row in shown)
        assert any(row.startswith("Your hand") for row in shown)
    seen = flat(" ".join("\n".join(shown) for shown, _ in drawn))
    assert "You played" in seen
    after = flat(ESCAPE.sub("", output[output.rindex("\x1b[?1049l") :]))
    assert "The record stops after round 2; the game is not over." in after


def test_a_replay_with_plain_is_the_transcript(tmp_path):
    unfinished_record(tmp_path)
    child = spawn("replay", "--plain", "ann.toml", cwd=tmp_path, rows=24, columns=80)
    output = answer_all(child)
    assert ALTERNATE not in output and not frames(output)
    assert "The record stops after round 2" in output


def test_a_resumed_game_is_played_on_the_table(tmp_path):
    """``spoiler resume`` at 80x24: the game goes on on the full-screen table, each card
    prompt's frame with the table and the hand, the round where the record stopped named in
    the outcome; the end of the game and where it was saved stay in the terminal."""
    unfinished_record(tmp_path)
    output = answer_all(spawn("resume", "ann.toml", cwd=tmp_path, rows=24, columns=80))
    assert ALTERNATE in output
    drawn = frames(output)
    cards = [shown for shown, after in drawn if re.search(CARD, after)]
    assert cards, "Ann chooses a card on the table"
    for shown in cards:
        assert "Ann to choose" in shown[0]
        assert any(row.startswith("Your hand") for row in shown)
    seen = flat(" ".join("\n".join(shown) for shown, _ in drawn))
    assert "That was round 2, where the record stopped. The game goes on." in seen
    after = flat(ESCAPE.sub("", output[output.rindex("\x1b[?1049l") :]))
    assert "Final table" in after and "Saved to ann.toml." in after
