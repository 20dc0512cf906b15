"""A table no one can break (issue 23): no keystroke, name or key file a player or a host
brings ends a game. The prompts' parsers are total functions; a prompt that fails is its seat's
problem; names that read as a command or as another player's are refused; the host key is
announced as what it is, and a key path that is not a file is one line, not a hang.

Hosted games are a real ``spoiler host`` on loopback with asyncssh clients (tests/test_host.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from spoiler.cards import ANOTHER_PLAYER, CardSet, NameACard, NameANumber
from spoiler.console.human import HumanAgent, _match, _match_seat, is_command, number
from spoiler.console.screen import QuitGame, Screen
from spoiler.testing import table

sys.path.insert(0, str(Path(__file__).parent))
from scripted_player import PROMPTS, answer_for
from test_host import BASE_ONLY, PATIENCE, FakeChannel, FakeLoop, Player, connect, host, run
from test_host import spoiler_command as spoiler_command

from spoiler_host.safety import BadName, clean_name, name_key

asyncssh = pytest.importorskip("asyncssh")
__all__ = ["host"]  # the fixture, used by name

#: What the Why of issue 23 typed: digits to str.isdigit() that int() refuses, and others.
NOT_NUMBERS = ["²", "³", "①", "٣", "1²", "¹⁰", "Ⅻ", "𝟙", "-", "1_0", "+2", " ", "0x1"]  # noqa: RUF001


# ==============================================================================================
# The parsers: total functions
# ==============================================================================================
def test_only_ascii_digits_are_a_number_at_a_prompt():
    """`²`, `①`, `٣` pass str.isdigit() and int() refuses or reads them: the prompts take
    neither; ASCII digits (and a minus sign) only."""
    assert number("3") == 3 and number(" 12 ") == 12 and number("-2") == -2
    assert number("007") == 7
    for text in NOT_NUMBERS:
        assert number(text) is None, text


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=30))
def test_every_parser_takes_any_unicode_text_without_raising(text):
    """Over every unicode category: each parser answers (a choice or None), never raises."""
    found = number(text)
    assert found is None or text.strip().lstrip("-").isascii()
    assert _match(text, ["Stone", "Guess"]) in (None, 0, 1)
    assert is_command(text) in (True, False)

    class View:
        def name_of(self, seat):
            return ["Ada", "Cog", "Bea"][seat]

    assert _match_seat(text, [1, 2], View()) in (None, 1, 2)


def prompt_cards() -> CardSet:
    cards = CardSet("prompts", "1.0.0")

    @cards.card
    class Guess:
        text = "Choose another player and name a card. Nothing happens."
        target = ANOTHER_PLAYER
        ask = NameACard()

    @cards.card
    class Count:
        text = "Name a number from 2 to 4. Nothing happens."
        ask = NameANumber(2, 4)

    @cards.card
    class Stone:
        text = "No effect."
        copies = 12

    return cards


def human_typing(typed: list[str], hand: list[str]):
    game = table([prompt_cards()], hands=[hand, ["Stone"], ["Stone"]], deck=["Stone"] * 6)
    out = io.StringIO()
    stdin = io.StringIO("".join(line + "\n" for line in typed))
    screen = Screen(Console(file=out, width=100, color_system=None), reader=0, stdin=stdin)
    screen.follow(game)
    game.seats[0].agent = HumanAgent(screen)
    game.seats[0].kind = "human"
    return game, out


@pytest.mark.parametrize("typed", NOT_NUMBERS[:8])
def test_a_superscript_or_circled_digit_is_refused_and_asked_again_at_every_prompt(typed):
    """At the card, target and number prompts, `²` and its kind are one refusal each and
    the prompt again; then the answers typed count."""
    game, out = human_typing([typed, "1", typed, "3", typed, "3"], ["Guess", "Count"])
    game.play_round()
    assert game.decisions[-1]["selections"][0] == {
        "card": "prompts:guess",
        "targets": [2],
        "info": "Stone",
    }
    shown = " ".join(out.getvalue().split())
    assert "Please answer with a card's number (1 to 2) or its name." in shown
    assert "Please answer with one of the numbers shown, or a player's name" in shown
    assert "Please answer with a number from 1 to 3, or one of the names shown." in shown

    game, out = human_typing([typed, "2", typed, "4"], ["Guess", "Count"])
    game.play_round()
    assert game.decisions[-1]["selections"][0]["info"] == 4
    assert f"{typed!r} is not a whole number. Try again." in out.getvalue()


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.text(alphabet=st.characters(exclude_categories=("Cs",), exclude_characters="\n")),
        min_size=1,
        max_size=4,
    )
)
def test_any_line_typed_at_any_prompt_is_an_answer_a_command_or_a_refusal(lines):
    """Whatever is typed first, the round is played: a legal selection is made from the
    lines that follow (q leaves, as documented)."""
    game, _ = human_typing([*lines, *["2", "4"] * 8], ["Stone", "Count"])
    with contextlib.suppress(QuitGame):
        game.play_round()
        chosen = game.decisions[-1]["selections"][0]
        assert chosen["card"] in ("prompts:stone", "prompts:count")


# ==============================================================================================
# A hosted seat whose prompt fails
# ==============================================================================================
def seat_with_a_terminal(fails: int):
    """A real Table with one connected seat whose prompt raises ``fails`` times."""
    from spoiler_host.table import Table
    from spoiler_host.terminal import Terminal

    told: list[str] = []
    table_ = Table(
        ["ann"],
        wait=30,
        call_later=lambda delay, fn: None,
        make_bot=lambda seat: f"bot for seat {seat}",
        bot_kind="greedy",
        tell_host=told.append,
    )
    seat = table_.seats[0]
    channel = FakeChannel()
    seat.terminal = Terminal(FakeLoop(), channel)
    seat.human = "ann's prompts"
    calls = []

    def prompt(human):
        calls.append(human)
        if len(calls) <= fails:
            raise ValueError("invalid literal for int() with base 10: '²'")
        return "ann's answer"

    answer = table_.decide(seat, prompt, lambda bot: f"answered by {bot}").result(PATIENCE)
    return answer, told, "".join(channel.written)


def test_a_prompt_that_fails_is_asked_again_and_only_its_player_is_told():
    answer, told, screen = seat_with_a_terminal(fails=2)
    assert answer == "ann's answer"
    assert screen.count("Sorry, that prompt failed (ValueError: invalid literal") == 2
    assert "Asking again." in screen
    assert (
        told
        == [
            "ann's prompt failed (ValueError: invalid literal for int() with base 10: "
            "'²'); asking again."
        ]
        * 2
    )


def test_a_prompt_that_keeps_failing_gives_the_seat_to_a_bot_and_everyone_is_told():
    answer, told, screen = seat_with_a_terminal(fails=99)
    assert answer == "answered by bot for seat 0"
    assert told[-1].startswith("ann's prompt failed 3 times in a row (ValueError")
    assert told[-1].endswith("a greedy bot plays for them from now on.")
    assert "a greedy bot plays for them from now on." in " ".join(screen.split())


# ==============================================================================================
# Hosted: the Why's keystrokes at each prompt of a real game
# ==============================================================================================
class Attacker(Player):
    """A player who types each of ``bad`` at every kind of prompt before answering it."""

    def __init__(self, hosted, name: str, bad: list[str]):
        super().__init__(hosted, name)
        self.bad = bad
        self.tried: dict[str, int] = {}

    async def play(self, **_):
        conn = await connect(self.hosted.port, self.name, self.hosted.code)
        async with conn:
            proc = await conn.create_process(term_type="xterm", encoding="utf-8")
            since, tries = "", 1
            while True:
                chunk = await asyncio.wait_for(proc.stdout.read(1 << 16), PATIENCE)
                if not chunk:
                    break
                self.transcript += chunk
                since += chunk
                kind = next((k for k, p in PROMPTS if p.search(since)), None)
                answer, tries = answer_for(since, tries)
                if answer is None or kind is None:
                    continue
                since = ""
                done = self.tried.get(kind, 0)
                if done < len(self.bad):
                    self.tried[kind] = done + 1
                    answer = self.bad[done]
                with contextlib.suppress(BrokenPipeError):
                    proc.stdin.write(answer + "\r")
            await proc.wait()
            self.exit_status = proc.exit_status


def test_superscript_and_circled_digits_at_each_hosted_prompt_are_refused_and_the_game_goes_on(
    host,
):
    """Issue 23's first finding: `²` at a card or target prompt ended the hosted game for
    everyone. Now each is one refusal and the prompt again, and the game ends as games do."""
    from test_host import play_in_order

    hosted = host("--plain", "--seats", "3", "--seed", "5", "--max-rounds", "8")
    ann, ben = Attacker(hosted, "ann", ["²", "³", "①", "٣"]), Player(hosted, "ben")
    cat = Player(hosted, "cat")
    play_in_order(hosted, (ann, ann.play()), (ben, ben.play()), (cat, cat.play()))
    assert hosted.finish() == 0
    screen = " ".join(re.sub(r"\x1b\[[0-9;]*m", "", ann.transcript).split())
    # every prompt kind (issue 20 added "Play again?" at the end)
    assert ann.tried == {"card": 4, "target": 4, "range": 4, "listed": 4, "again": 4}
    assert screen.count("Please answer with a card's number") >= 4
    assert "Please answer with one of the numbers shown, or a player's name" in screen
    assert "Please answer with a number from 1 to" in screen
    assert screen.count("Please answer y (play again) or n (leave).") == 4
    assert "Final table" in ben.transcript and "Final table" in ann.transcript
    assert "Traceback" not in hosted.output + "".join(hosted.err)


# ==============================================================================================
# Names
# ==============================================================================================
@pytest.mark.parametrize("name", ["q", "Q", "quit", "log", "back", "?", "?ada", "help", "help me"])
def test_a_name_that_is_a_prompt_command_is_refused(name):
    """Typed at a target prompt, `q` would leave the game instead of naming the player."""
    with pytest.raises(BadName, match="is a command at the game's prompts"):
        clean_name(name)


@pytest.mark.parametrize(
    "name, alike",
    [
        ("Ada", "ADA"),
        ("Ada", "\u0410da"),  # Cyrillic A
        ("ada", "\u0430d\u0430"),  # Cyrillic a
        ("Ada", "Ａｄａ"),  # noqa: RUF001 — fullwidth
        ("Ada", "𝐀𝐝𝐚"),  # noqa: RUF001 — mathematical bold
        ("Ada", "Adá"),
        ("Al", "AI"),
        ("Bob", "B0b"),
        ("Bo", "Βο"),  # noqa: RUF001 — Greek
        ("Ann Lee", "AnnLee"),
    ],
)
def test_names_that_read_alike_compare_equal(name, alike):
    assert name_key(name) == name_key(alike)


@pytest.mark.parametrize("name, other", [("Ada", "Ida"), ("ann", "anne"), ("Bob", "Rob")])
def test_names_that_read_differently_stay_apart(name, other):
    assert name_key(name) != name_key(other)


def test_a_name_that_reads_as_a_seated_players_is_refused_in_the_lobby(host):
    hosted = host("--seats", "8")

    async def scenario():
        first = await connect(hosted.port, "ann", hosted.code)
        proc = await first.create_process(encoding="utf-8")
        await Player(hosted, "ann").wait_for("Welcome to Spoiler, ann", proc)
        copy = await connect(hosted.port, "\u0430nn", hosted.code)  # Cyrillic a
        result = await copy.run(term_type=None, check=False)
        copy.close()
        first.close()
        return result

    result = run(scenario())[0]
    assert result.exit_status == 1
    assert "is taken at this table (it reads as 'ann', who is here)" in result.stdout


# ==============================================================================================
# The host key
# ==============================================================================================
def host_output(tmp_path: Path, key: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, **BASE_ONLY, "SPOILER_HOST_KEY": str(key), "NO_COLOR": "1"}
    return subprocess.run(
        [*spoiler_command(), "host", "--port", "0"],
        input="",
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=PATIENCE,
    )


def test_a_fifo_at_the_host_key_path_is_one_line_not_a_hang(tmp_path):
    key = tmp_path / "key"
    os.mkfifo(key, 0o600)
    result = host_output(tmp_path, key)
    assert result.returncode == 1
    assert result.stderr.strip() == (
        f"Error: host key {key}: {key} is not a regular file; move it away to make a new key"
    )


def test_an_rsa_host_key_is_announced_as_rsa(tmp_path):
    from test_host import Hosted

    key = tmp_path / "host_key"  # where Hosted points SPOILER_HOST_KEY
    key.write_bytes(asyncssh.generate_private_key("ssh-rsa", key_size=2048).export_private_key())
    key.chmod(0o600)
    hosted = Hosted(tmp_path, "--seats", "2")
    try:
        fingerprint = asyncssh.read_private_key(str(key)).get_fingerprint()
        assert f"Host key:   {fingerprint} (rsa)" in hosted.output
        assert "ed25519" not in hosted.output
    finally:
        hosted.close()


# ==============================================================================================
# Fair reading: each seat's input at a bounded pace
# ==============================================================================================
class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_token_bucket_allows_a_burst_then_its_rate():
    from spoiler_host.terminal import Throttle

    clock = Clock()
    bucket = Throttle(rate=2, burst=3, clock=clock)
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    assert bucket.wait() == pytest.approx(0.5)
    clock.now = 0.5
    assert bucket.take() and not bucket.take()
    clock.now = 100
    assert bucket.tokens <= 3 and [bucket.take() for _ in range(4)].count(True) == 3


class PausingChannel(FakeChannel):
    def __init__(self):
        super().__init__()
        self.paused = 0
        self.resumed = 0

    def pause_reading(self):
        self.paused += 1

    def resume_reading(self):
        self.resumed += 1


class LaterLoop(FakeLoop):
    def __init__(self):
        self.later: list = []

    def call_later(self, delay, fn):
        self.later.append((delay, fn))


def test_a_flood_of_lines_is_cut_to_the_burst_and_reading_pauses_and_the_player_is_told():
    from spoiler_host.terminal import LINE_BURST, MAX_QUEUED_LINES, Terminal

    loop, channel = LaterLoop(), PausingChannel()
    terminal = Terminal(loop, channel, throttle=True)
    terminal.received("1\n" * 10_000)
    assert terminal._lines.qsize() == min(LINE_BURST, MAX_QUEUED_LINES)
    assert channel.paused == 1 and len(loop.later) == 1
    told = " ".join("".join(channel.written).split())
    assert "You are typing faster than the game reads: your input is read more slowly" in told
    assert f"{10_000 - int(LINE_BURST)} line(s) were ignored." in told
    delay, resume = loop.later[0]
    assert 0 < delay <= 1
    resume()
    assert channel.resumed == 1


def test_typing_at_a_human_pace_is_never_slowed():
    from spoiler_host.terminal import Terminal

    loop, channel = LaterLoop(), PausingChannel()
    terminal = Terminal(loop, channel, throttle=True)
    for answer in ("1", "2", "log", "? Jewel", "3"):
        terminal.received(answer + "\r")
    assert channel.paused == 0 and not channel.written
    assert [terminal.readline() for _ in range(5)] == ["1\n", "2\n", "log\n", "? Jewel\n", "3\n"]


async def flood(hosted, name: str, stop: asyncio.Event) -> str:
    """A player who joins and types lines as fast as the connection takes them."""
    conn = await connect(hosted.port, name, hosted.code)
    seen = []
    async with conn:
        proc = await conn.create_process(term_type=None, encoding="utf-8", errors="replace")

        async def read():
            while chunk := await proc.stdout.read(1 << 16):
                seen.append(chunk)

        reader = asyncio.ensure_future(read())
        with contextlib.suppress(BrokenPipeError, ConnectionError, asyncssh.Error):
            while not stop.is_set() and not proc.stdin.is_closing():
                proc.stdin.write("1\n2\n3\n" * 4096)
                await proc.stdin.drain()
        with contextlib.suppress(asyncio.TimeoutError, asyncssh.Error):
            await asyncio.wait_for(reader, PATIENCE)
    return "".join(seen)


def test_a_player_who_floods_is_throttled_and_told_while_the_others_play_to_the_end(host):
    """ann types as fast as her connection goes, all game long; ben and cat play a whole
    game (the harness only bounds how long they may take), ann is told she is slowed."""
    hosted = host("--seats", "3", "--seed", "11", "--max-rounds", "6", "--wait", "0")

    async def scenario():
        stop = asyncio.Event()
        flooding = asyncio.ensure_future(flood(hosted, "ann", stop))
        while "In the lobby: ann." not in hosted.output:
            await asyncio.sleep(0.01)
        ben, cat = Player(hosted, "ben"), Player(hosted, "cat")
        games = [asyncio.ensure_future(ben.play())]
        while "In the lobby: ann, ben." not in hosted.output:
            await asyncio.sleep(0.01)
        games.append(asyncio.ensure_future(cat.play()))
        await asyncio.gather(*games)
        stop.set()
        return await flooding, ben, cat

    ann, ben, cat = run(scenario())[0]
    assert hosted.finish() == 0
    assert "Final table" in ben.transcript and "Final table" in cat.transcript
    assert "You are typing faster than the game reads" in " ".join(ann.split())


# ==============================================================================================
# Letting in: login limits as OpenSSH has them
# ==============================================================================================
class Knocking:
    """A connection as Host.admit sees it."""

    def __init__(self, source: str, username: str = "", *, hello: bool | None = None):
        self.source, self.username = source, username
        self.said_hello = bool(username) if hello is None else hello
        self.opened = 0.0  # connected at the loop's time 0
        self.aborted = False
        self.conn = self

    def abort(self):
        self.aborted = True


def door():
    from spoiler_host.server import Host, HostOptions

    class Loop:
        def time(self):
            return 10.0  # ten seconds after every Knocking connected

    options = HostOptions(2, 0, "greedy", None, 1, 10, None, 0, "127.0.0.1", 1, "code", None)
    host_ = Host(options, None, None, keyboard=False)
    host_.loop = Loop()  # type: ignore[assignment]
    return host_


def test_a_few_connections_per_address_and_the_oldest_silent_one_makes_room():
    from spoiler_host.server import PER_SOURCE

    host_ = door()
    idle = [Knocking("10.0.0.1") for _ in range(PER_SOURCE)]
    for conn in idle:
        assert host_.admit(conn)
        host_.logging_in[conn] = None
    idle[0].said_hello = True  # still in its handshake: the silent ones go first
    newcomer = Knocking("10.0.0.1")
    assert host_.admit(newcomer) and idle[1].aborted and not idle[0].aborted
    busy = door()
    for _ in range(PER_SOURCE):
        busy.logging_in[Knocking("10.0.0.1", username="mallory")] = None
    assert not busy.admit(Knocking("10.0.0.1"))  # nobody silent to make room
    assert busy.admit(Knocking("10.0.0.2"))


def test_a_connection_in_its_key_exchange_is_not_pushed_out_by_silent_sockets():
    """A player coming back is in its key exchange (its version sent, no name yet) for a
    while on a loaded machine: silent sockets from its address arriving after it make room
    among themselves, never by pushing it out."""
    from spoiler_host.server import PER_SOURCE

    host_ = door()
    coming_back = Knocking("10.0.0.1", hello=True)
    host_.logging_in[coming_back] = None
    for _ in range(3 * PER_SOURCE):
        idle = Knocking("10.0.0.1")
        if host_.admit(idle):
            host_.logging_in[idle] = None
    assert not coming_back.aborted


def test_when_the_door_is_full_a_connection_silent_for_a_second_makes_room():
    from spoiler_host.server import STARTUPS

    host_ = door()
    waiting = [Knocking(f"10.0.{i}.1", username="x") for i in range(STARTUPS[2])]
    for conn in waiting:
        host_.logging_in[conn] = None
    assert not host_.admit(Knocking("10.9.9.9"))  # every one of them said hello
    waiting[5].said_hello, waiting[5].username = False, ""
    assert host_.admit(Knocking("10.9.9.9")) and waiting[5].aborted


def test_past_the_start_strangers_are_dropped_at_random_and_players_never():
    from spoiler_host.server import STARTUPS

    start, rate, full = STARTUPS
    host_ = door()
    for i in range(start + (full - start) // 2):
        host_.logging_in[Knocking(f"10.0.{i}.1", username="x")] = None
    let_in = sum(host_.admit(Knocking("10.9.9.9")) for _ in range(2000))
    drop = rate + (1 - rate) * 0.5
    assert 2000 * (1 - drop) * 0.7 < let_in < 2000 * (1 - drop) * 1.3
    host_.player_sources.add("10.9.9.9")
    assert all(host_.admit(Knocking("10.9.9.9")) for _ in range(200))
    for i in range(full):
        host_.logging_in[Knocking(f"10.1.{i}.1", username="x")] = None
    assert not host_.admit(Knocking("10.9.9.8"))
    assert host_.admit(Knocking("10.9.9.9"))


async def door_dealt_with(sockets) -> None:
    """Wait until the host has closed all but a few of ``sockets`` (it let in the rest)."""
    from spoiler_host.server import PER_SOURCE

    for sock in sockets:
        sock.setblocking(False)
    closed: set = set()
    for _ in range(PATIENCE * 50):
        for sock in sockets:
            if sock not in closed:
                try:
                    if sock.recv(1 << 16) == b"":
                        closed.add(sock)
                except BlockingIOError:
                    pass  # still open
                except ConnectionResetError:
                    closed.add(sock)
        if len(closed) >= len(sockets) - PER_SOURCE:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"the host closed only {len(closed)} of {len(sockets)} idle sockets")


def test_two_hundred_idle_sockets_do_not_keep_a_dropped_player_from_their_seat(host):
    """Issue 23: sixteen idle TCP connections had every login slot, and a dropped player
    failed 48 of 48 rejoins. Now 200 sockets that never say a word, from the player's own
    address, are held to a few (the oldest silent ones make room for newcomers), and ann, who
    dropped, joins again at the first try and plays to the end."""
    import socket

    hosted = host("--seats", "2", "--seed", "8", "--max-rounds", "3", "--wait", "30")

    async def scenario():
        ann, ben = Player(hosted, "ann"), Player(hosted, "ben")
        ann_game, ben_game = await in_order_(hosted, ann, ben)
        await ann_game
        while "ann dropped out" not in hosted.output:
            await asyncio.sleep(0.02)
        idle = [socket.create_connection(("127.0.0.1", hosted.port)) for _ in range(200)]
        await door_dealt_with(idle)
        try:
            back = Player(hosted, "ann")
            await back.play()
            await ben_game
        finally:
            for sock in idle:
                sock.close()
        return back, ben

    async def in_order_(hosted, ann, ben):
        from test_host import in_order

        return await in_order(hosted, (ann, ann.play(leave_after=1)), (ben, ben.play()))

    back, ben = run(scenario())[0]
    assert hosted.finish() == 0
    assert "Welcome back, ann. Here is this round so far." in back.transcript
    assert "Final table" in back.transcript and "ann is back." in ben.transcript


# ==============================================================================================
# The turn clock
# ==============================================================================================
async def silent(hosted, name: str) -> str:
    """A player who joins, watches, and never answers."""
    conn = await connect(hosted.port, name, hosted.code)
    seen = []
    async with conn:
        proc = await conn.create_process(term_type=None, encoding="utf-8")
        while chunk := await asyncio.wait_for(proc.stdout.read(1 << 16), PATIENCE):
            seen.append(chunk)
    return "".join(seen)


def test_a_silent_seat_is_warned_then_a_bot_decides_for_it_and_everyone_sees_the_wait(
    host, tmp_path
):
    """Issue 23: a player who never answers stalled the table for ever. With --turn-time,
    they are warned, then a bot makes each decision for them; the others see whom the
    table waits for and for how long; the record replays."""
    from typer.testing import CliRunner

    from spoiler.cli import app

    hosted = host(
        "--seats", "2", "--seed", "3", "--max-rounds", "2", "--turn-time", "1",
        "--record", "game.toml",
    )  # fmt: skip

    async def scenario():
        ann = asyncio.ensure_future(silent(hosted, "ann"))
        while "In the lobby: ann." not in hosted.output:
            await asyncio.sleep(0.01)
        ben = Player(hosted, "ben")
        await ben.play()
        return await ann, ben

    ann, ben = run(scenario())[0]
    assert hosted.finish() == 0
    ann, others = " ".join(ann.split()), " ".join(ben.transcript.split())
    assert "1 s left to decide; then a greedy bot decides for you." in ann
    assert "Your 1 s ran out: a greedy bot decided for you this time." in ann
    assert re.search(r"Waiting for ann \(\d+ s so far\): a greedy bot decides for them in", others)
    assert "ann took longer than 1 s: a greedy bot decided for them this time." in others
    assert "Final table" in others and "Final table" in ann
    verified = CliRunner().invoke(
        app, ["replay", "--verify", str(tmp_path / "game.toml")], env=BASE_ONLY
    )
    assert verified.exit_code == 0, verified.output


def test_a_turn_clock_warns_once_then_ends_the_turn():
    from spoiler_host.terminal import TurnClock, TurnOver

    clock, warned = Clock(), []
    turn = TurnClock(120, warned.append, clock=clock)
    assert turn.left() == 90  # warned 30 s before the end
    clock.now = 90
    turn.ring()
    assert warned == [turn] and turn.left() == 30 and not turn.expired()
    clock.now = 120
    assert turn.expired()
    with pytest.raises(TurnOver):
        turn.ring()
    assert TurnClock(8, warned.append, clock=clock).warn_at == clock.now + 6  # a quarter


@pytest.mark.parametrize("given", ["0.5", "-1", "nan", "90000"])
def test_a_turn_time_that_is_not_a_limit_is_refused_in_one_line(given, tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from spoiler.cli import app

    monkeypatch.setenv("SPOILER_HOST_KEY", str(tmp_path / "key"))
    result = CliRunner().invoke(app, ["host", "--turn-time", given], env=BASE_ONLY)
    assert result.exit_code == 2
    assert "--turn-time must be 0 (no limit) or from 1 to 86400 seconds" in result.output


# ==============================================================================================
# Seats bound to their player
# ==============================================================================================
def dropped_ann(host, *, after, **ann_options):
    """ann (and ben) join, ann drops at her first prompt; ``after(hosted)`` runs while her
    seat waits. Returns what ``after`` returned, the hosted game and ben."""
    from test_host import in_order

    hosted = host("--seats", "2", "--seed", "8", "--max-rounds", "3", "--wait", "30")

    async def scenario():
        ann, ben = Player(hosted, "ann", **ann_options), Player(hosted, "ben")
        ann_game, ben_game = await in_order(
            hosted, (ann, ann.play(leave_after=1)), (ben, ben.play())
        )
        await ann_game
        while "ann dropped out" not in hosted.output:
            await asyncio.sleep(0.02)
        done = await after(hosted)
        await ben_game
        return done, ann, ben

    done, ann, ben = run(scenario())[0]
    return done, hosted, ann, ben


async def take_seat_with(hosted, name: str, typed: list[str], **options) -> str:
    """Join as ``name`` with the code and type ``typed`` at the seat key prompts."""
    conn = await connect(hosted.port, name, hosted.code, **options)
    screen = ""
    async with conn:
        proc = await conn.create_process(term_type=None, encoding="utf-8")
        while chunk := await asyncio.wait_for(proc.stdout.read(1 << 16), PATIENCE):
            screen += chunk
            if screen.endswith("Seat key: "):
                proc.stdin.write(typed.pop(0) + "\n" if typed else "\n")
                screen += "\n"
        await proc.wait()
        return screen + f"\n[exit {proc.exit_status}]"


def test_a_seat_taken_with_the_join_code_alone_is_refused_and_its_player_takes_it_back(host):
    """Issue 23: anyone with the shared code could take a dropped player's seat and see their
    hand. Now the seat asks for the key its player was shown once, at first join: three
    wrong ones and the connection is closed; ann, with hers, plays on."""

    async def after(hosted):
        stolen = await take_seat_with(hosted, "ann", ["k7dq-m2xa", "ann", "1"])
        back = Player(hosted, "ann")
        await back.play()
        return stolen, back

    (stolen, back), hosted, ann, ben = dropped_ann(host, after=after)
    assert hosted.finish() == 0
    assert ann.transcript.count("Your seat key: ") == 1
    assert "it is shown only now, and taking your seat back if you drop out needs it" in " ".join(
        ann.transcript.split()
    )
    flat = " ".join(stolen.split())
    assert "ann's seat is kept for the player who took it: type the seat key ann was given" in flat
    assert flat.count("That is not ann's seat key.") == 2
    assert flat.endswith("Sorry: that is not ann's seat key. [exit 1]")
    assert "Your hand" not in stolen
    assert "Someone failed 3 times to take ann's seat." in hosted.output
    assert "Welcome back, ann." in back.transcript and "Final table" in back.transcript
    assert ben.transcript.count("ann is back.") == 1  # the one who failed never sat down


def test_a_seat_bound_to_an_ssh_key_is_taken_back_with_that_key_and_no_code(host):
    """A client that offered an ssh key at first join has its seat bound to it too: coming
    back with that key (proven by the ssh login) needs neither the code nor the seat key;
    another key does not let anyone in."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    other = asyncssh.generate_private_key("ssh-ed25519")

    async def after(hosted):
        with contextlib.suppress(asyncssh.PermissionDenied):
            await connect(hosted.port, "ann", None, client_keys=[other])
            return "the other key got in", None
        back = Player(hosted, "ann", None, client_keys=[key])
        await back.play()
        return "refused", back

    (other_key, back), hosted, ann, ben = dropped_ann(host, after=after, client_keys=[key])
    assert hosted.finish() == 0
    assert other_key == "refused"
    assert "or join again from this ssh key: your seat knows it" in " ".join(ann.transcript.split())
    assert "Seat key:" not in back.transcript
    assert "Welcome back, ann." in back.transcript and "Final table" in back.transcript
    assert "ann is back." in ben.transcript


def test_seat_keys_are_random_40_bits_and_read_like_the_join_code():
    from spoiler_host.safety import code_matches, seat_key

    keys = {seat_key() for _ in range(200)}
    assert len(keys) == 200
    assert all(re.fullmatch(r"[0-9a-hjkmnp-tv-z]{4}-[0-9a-hjkmnp-tv-z]{4}", k) for k in keys)
    some = keys.pop()
    assert code_matches(some.upper().replace("-", " "), some)


def test_offering_a_seats_public_key_without_signing_with_it_proves_nothing():
    """Public keys are public: a client may offer ann's and then log in with the code. Only a
    login that the key itself completed (asyncssh checked the signature) binds to the seat."""
    from spoiler_host.server import _Connection

    key = asyncssh.generate_private_key("ssh-ed25519")

    class Door:
        class options:
            code = "k7dq-m2xa-p9rt"

        def seat_for_key(self, username, data):
            return "ann's seat" if data == key.public_data else None

    signed = _Connection(Door())
    assert signed.validate_public_key("ann", key)
    assert signed.proven_key == key.public_data  # the login ended there: signed
    offered = _Connection(Door())
    assert offered.validate_public_key("ann", key)
    assert asyncio.run(offered.validate_password("ann", "k7dq-m2xa-p9rt"))
    assert offered.proven_key is None
