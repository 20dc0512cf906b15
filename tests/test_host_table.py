"""A hosted game on the full-screen table (issue 20 item 1: "the same locally, at one
keyboard and over ssh, each seat its own"): each player's pseudo-terminal gets frames drawn
for its own size, redrawn when the ssh session says the terminal was resized, and no frame a
seat is shown tells it anything it may not know (the leak checker over every frame)."""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from scripted_player import answer_for
from test_host import PATIENCE, Hosted, connect, in_order, run

from spoiler import plugins, records
from spoiler.narration.leaks import Hidden, found_in

asyncssh = pytest.importorskip("asyncssh")

FRAME = re.compile(r"\x1b\[\?2026h(.*?)\x1b\[\?2026l", re.S)
ROW = re.compile(r"\x1b\[(\d+);1H(.*?)\x1b\[0m\x1b\[K", re.S)
ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
MORE = re.compile(r"press Enter\. ")


@pytest.fixture
def host(tmp_path):
    started: list[Hosted] = []

    def start(*args: str) -> Hosted:
        started.append(Hosted(tmp_path, *args))
        return started[-1]

    yield start
    for hosted in started:
        hosted.close()


def frames(output: str) -> list[list[str]]:
    """Each frame drawn, as its rows of plain text."""
    drawn = []
    for match in FRAME.finditer(output):
        rows = {int(r.group(1)): ESCAPE.sub("", r.group(2)) for r in ROW.finditer(match.group(1))}
        drawn.append([rows.get(n, "") for n in range(1, max(rows) + 1)])
    return drawn


class TablePlayer:
    """An ssh client with a pseudo-terminal of its own size, answering what each frame's
    prompt asks (Enter at a "more" page)."""

    def __init__(self, hosted: Hosted, name: str, size: tuple[int, int]):
        self.hosted, self.name, self.size = hosted, name, size
        self.output = ""
        self.resize_at: tuple[int, tuple[int, int]] | None = None  # (prompt number, size)
        self.half_typed = ""  # typed (no Enter) before that resize, then erased (Ctrl-U)
        self.after_resize = ""  # what the host wrote from the resize on
        self.prompts = 0

    async def play(self) -> None:
        conn = await connect(self.hosted.port, self.name, self.hosted.code)
        async with conn:
            proc = await conn.create_process(
                term_type="xterm", term_size=self.size, encoding="utf-8", errors="replace"
            )
            since, tries = "", 1
            while True:
                chunk = await asyncio.wait_for(proc.stdout.read(1 << 16), PATIENCE)
                if not chunk:
                    break
                self.output += chunk
                since += chunk
                answer, tries = answer_for(since, tries)
                if answer is None and MORE.search(since):
                    answer = ""
                if answer is None:
                    continue
                since = ""
                self.prompts += 1
                if self.resize_at is not None and self.prompts == self.resize_at[0]:
                    columns, rows = self.resize_at[1]
                    if self.half_typed:
                        proc.stdin.write(self.half_typed)
                        await asyncio.sleep(0.3)  # echoed after the prompt
                    resized = len(self.output)
                    proc.channel.change_terminal_size(columns, rows)
                    while not any(len(f) == rows for f in frames(self.output[resized:])):
                        self.output += await asyncio.wait_for(proc.stdout.read(1 << 16), PATIENCE)
                    await asyncio.sleep(0.2)  # (the line editor's part of the redraw)
                    self.output += await _ready(proc)
                    self.after_resize = self.output[resized:]
                    if self.half_typed:
                        proc.stdin.write("\x15")  # Ctrl-U: the half-typed line erased
                proc.stdin.write(answer + "\r")
            await proc.wait()


async def _ready(proc) -> str:
    """What the host has written that is there to read now (nothing: "")."""
    try:
        return await asyncio.wait_for(proc.stdout.read(1 << 16), 0.2)
    except TimeoutError:
        return ""


def test_each_seat_gets_frames_for_its_own_terminal_that_keep_its_secrets(host, tmp_path):
    """ann at 80x24, ben at 60x20 and resized to 100x30 at his third prompt: every frame fits
    its terminal, the table is in each frame, and the leak checker finds nothing in any
    frame of either seat; the record of the game replays."""
    hosted = host(
        "--seats", "2", "--bots", "1", "--seed", "8", "--max-rounds", "4", "--record", "game.toml"
    )  # fmt: skip
    ann = TablePlayer(hosted, "ann", (80, 24))
    ben = TablePlayer(hosted, "ben", (60, 20))
    ben.resize_at = (3, (100, 30))

    async def scenario():
        await asyncio.gather(*await in_order(hosted, (ann, ann.play()), (ben, ben.play())))

    run(scenario())
    assert hosted.finish() == 0
    record = records.load(tmp_path / "game.toml")
    game, _, difference = records.replay(record, plugins.load(environ={"SPOILER_PLUGINS": ""}))
    assert difference is None and game.over
    hidden = Hidden(game)
    for seat, player in enumerate((ann, ben)):
        drawn = frames(player.output)
        assert len(drawn) > 4, player.name
        sizes = {(max(len(r) for r in f), len(f)) for f in drawn}
        for frame in drawn:
            text = "\n".join(frame)
            assert found_in(text, hidden.facts(seat)) == [], (player.name, text)
            assert any(row.startswith("Priority") for row in frame)
        if player is ann:
            assert all(columns <= 80 and rows <= 24 for columns, rows in sizes)
        else:
            assert any(rows == 30 for _, rows in sizes), "drawn again at the new size"
            assert all(columns <= 100 and rows <= 30 for columns, rows in sizes)
        # The table was left at the end: the end of the game is in the terminal's own screen.
        ending = ESCAPE.sub("", player.output[player.output.rindex("\x1b[?1049l") :])
        assert "Final table" in ending


def test_plain_gives_every_seat_the_transcript(host):
    hosted = host("--seats", "2", "--seed", "8", "--max-rounds", "1", "--plain")
    ann = TablePlayer(hosted, "ann", (80, 24))
    ben = TablePlayer(hosted, "ben", (80, 24))

    async def scenario():
        await asyncio.gather(*await in_order(hosted, (ann, ann.play()), (ben, ben.play())))

    run(scenario())
    assert hosted.finish() == 0
    for player in (ann, ben):
        assert "\x1b[?1049h" not in player.output and not frames(player.output)
        assert "Final table" in player.output


class TableSpectator:
    """A spectator's ssh client with a pseudo-terminal: types ``log`` once round ``at`` is on
    its screen, and ``q`` once the log is shown; reads until the host closes the session."""

    def __init__(self, hosted: Hosted, name: str, size: tuple[int, int], at: int = 2):
        self.hosted, self.name, self.size, self.at = hosted, name, size, at
        self.output = ""

    async def watch(self, code: str) -> None:
        conn = await connect(self.hosted.port, self.name, code)
        async with conn:
            proc = await conn.create_process(
                term_type="xterm", term_size=self.size, encoding="utf-8", errors="replace"
            )
            step = 0
            while chunk := await asyncio.wait_for(proc.stdout.read(1 << 16), 2 * PATIENCE):
                self.output += chunk
                shown = frames(self.output)
                if step == 0 and any(f[0].startswith(f"Round {self.at} ") for f in shown):
                    step = 1
                    proc.stdin.write("log\r")
                elif step == 1 and "as a spectator sees it (page 1 of" in self.output:
                    step = 2
                    proc.stdin.write("q\r")
            await proc.wait()


def test_a_spectator_watches_on_the_table_and_reads_the_log_and_no_frame_shows_a_secret(
    host, tmp_path
):
    """zed watches at 80x24: every frame fits, holds the table of players and never a hand;
    ``log`` shows the public log on frames of its own, ``q`` goes back to the table; and the
    leak checker finds nothing a spectator may not know in any of zed's frames."""
    hosted = host(
        "--seats", "2", "--bots", "1", "--seed", "8", "--max-rounds", "4", "--record", "game.toml"
    )  # fmt: skip
    code = hosted.wait_for(r"Watch code:\s+(\S+)").group(1)
    ann = TablePlayer(hosted, "ann", (80, 24))
    ben = TablePlayer(hosted, "ben", (80, 24))
    zed = TableSpectator(hosted, "zed", (80, 24))

    async def scenario():
        watching = asyncio.ensure_future(zed.watch(code))
        while "zed is watching." not in hosted.output:
            await asyncio.sleep(0.01)
        await asyncio.gather(*await in_order(hosted, (ann, ann.play()), (ben, ben.play())))
        await watching

    run(scenario())
    assert hosted.finish() == 0
    record = records.load(tmp_path / "game.toml")
    game, _, difference = records.replay(record, plugins.load(environ={"SPOILER_PLUGINS": ""}))
    assert difference is None and game.over
    hidden = Hidden(game)
    drawn = frames(zed.output)
    tables = [frame for frame in drawn if any(row.startswith("Priority") for row in frame)]
    logs = [frame for frame in drawn if "as a spectator sees it (page" in frame[0]]
    assert len(tables) > 4 and logs
    assert "Round 1" in "\n".join(logs[0])
    after_log = drawn[drawn.index(logs[-1]) + 1 :]
    assert after_log and any(row.startswith("Priority") for row in after_log[0]), "back"
    for frame in drawn:
        text = "\n".join(frame)
        assert len(frame) <= 24 and all(len(row.rstrip()) <= 80 for row in frame)
        assert found_in(text, hidden.facts(None)) == [], text
        assert "Your hand" not in text
    assert "Watching. /say TEXT to talk, log" in ESCAPE.sub("", zed.output)
    ending = ESCAPE.sub("", zed.output[zed.output.rindex("\x1b[?1049l") :])
    assert "Final table" in ending


def test_after_a_resize_the_line_editor_puts_back_a_half_typed_line_after_the_prompt(host):
    """ann has typed "ab" (no Enter) at her second prompt when she resizes her terminal to
    100x30: the frame is drawn again at the new size with its prompt, and "ab" is back right
    after the prompt (the server's line editor counted the prompt's columns); she erases it
    and answers, and the game goes on to its end."""
    hosted = host("--seats", "1", "--bots", "2", "--seed", "8", "--max-rounds", "3")
    ann = TablePlayer(hosted, "ann", (80, 24))
    ann.resize_at, ann.half_typed = (2, (100, 30)), "ab"

    async def scenario():
        await asyncio.gather(*await in_order(hosted, (ann, ann.play())))

    run(scenario())
    assert hosted.finish() == 0
    last = list(FRAME.finditer(ann.after_resize))[-1]
    assert len(frames(last.group(0))[0]) == 30
    prompt = ESCAPE.sub("", last.group(1)).rstrip("\n").splitlines()[-1]
    assert re.fullmatch(r"\S.*\? \[[^\]]+\] ", prompt), prompt
    assert ESCAPE.sub("", ann.after_resize[last.end() :]).startswith("ab")
    assert "Final table" in ESCAPE.sub("", ann.output[ann.output.rindex("\x1b[?1049l") :])
