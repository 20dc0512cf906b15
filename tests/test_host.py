"""``spoiler host``: one game served over SSH (issue 8). A real server on 127.0.0.1 with a free
port, run as the command a host runs; players join through asyncssh's client, and through the
system's ``ssh`` where it is installed, and answer every prompt from what their screen shows.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spoiler import records
from spoiler.cli import app
from spoiler.installer import install_hint

sys.path.insert(0, str(Path(__file__).parent))
from scripted_player import PROMPTS, answer_for

from spoiler_host.safety import MAX_LINE, BadName, clean_line, clean_name, code_matches, join_code

asyncssh = pytest.importorskip("asyncssh")

#: Seconds any one step may take before the test gives up (never a measured time).
PATIENCE = 30
BASE_ONLY = {"SPOILER_PLUGINS": ""}


# ==============================================================================================
# The host, as a command
# ==============================================================================================
def spoiler_command() -> list[str]:
    script = Path(sys.executable).with_name("spoiler")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from spoiler.cli import main; main()"]


class Hosted:
    """``spoiler host --port 0 …`` running in a child process, its output collected."""

    def __init__(self, tmp_path: Path, *args: str, env: dict | None = None):
        self.tmp_path = tmp_path
        environ = {**os.environ, "SPOILER_HOST_KEY": str(tmp_path / "host_key"), "NO_COLOR": "1"}
        environ.pop("COLUMNS", None)
        environ.update(env if env is not None else BASE_ONLY)
        self.proc = subprocess.Popen(
            [*spoiler_command(), "host", "--port", "0", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=tmp_path,
            env=environ,
        )
        self.out: list[str] = []
        self.err: list[str] = []
        self.seat_keys: dict[str, str] = {}  # each player's, as their screen showed it
        for stream, lines in ((self.proc.stdout, self.out), (self.proc.stderr, self.err)):
            threading.Thread(target=self._collect, args=(stream, lines), daemon=True).start()
        self.wait_for(r"Waiting for \d+ player")  # the last line before the lobby opens
        self.port = int(self.wait_for(r"ssh -p (\d+) NAME@").group(1))
        self.code = self.wait_for(r"Join code:\s+(\S+)").group(1)

    @staticmethod
    def _collect(stream, lines: list[str]) -> None:
        for line in stream:
            lines.append(line)

    @property
    def output(self) -> str:
        return "".join(self.out)

    def wait_for(self, pattern: str, timeout: float = PATIENCE) -> re.Match:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = re.search(pattern, self.output)
            if found:
                return found
            if self.proc.poll() is not None and not re.search(pattern, self.output):
                time.sleep(0.2)  # the last lines may still be on their way
                found = re.search(pattern, self.output)
                if found:
                    return found
                break
            time.sleep(0.02)
        raise AssertionError(
            f"the host never printed {pattern!r}:\n{self.output}{''.join(self.err)}"
        )

    def press_enter(self) -> None:
        self.proc.stdin.write("\n")
        self.proc.stdin.flush()

    def finish(self) -> int:
        try:
            return self.proc.wait(PATIENCE)
        finally:
            self.close()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture(scope="module")
def lobby(tmp_path_factory):
    """One host for the tests that need only its lobby (8 seats: it never starts a game)."""
    hosted = Hosted(tmp_path_factory.mktemp("lobby"), "--seats", "8")
    yield hosted
    hosted.close()


@pytest.fixture
def host(tmp_path):
    started: list[Hosted] = []

    def start(*args: str, env: dict | None = None) -> Hosted:
        hosted = Hosted(tmp_path, *args, env=env)
        started.append(hosted)
        return hosted

    yield start
    for hosted in started:
        hosted.close()


# ==============================================================================================
# Players, as scripts answering what their screen asks
# ==============================================================================================
async def connect(port: int, name: str, code: str | None, **options):
    return await asyncssh.connect(
        "127.0.0.1",
        port,
        username=name,
        password=code,
        known_hosts=None,
        **{"agent_path": None, "client_keys": None, **options},
    )


class Player:
    """One player's ssh client, playing by ``answer_for``."""

    def __init__(self, hosted: Hosted, name: str, code: str | None = "", **options):
        self.hosted = hosted
        self.name = name
        self.code = hosted.code if code == "" else code  # None: no password (an ssh key)
        self.options = options  # for asyncssh.connect (client_keys=...)
        self.transcript = ""
        self.prompts = 0
        self.exit_status = None

    async def play(self, *, leave_after=None, term_type=None, send=None, before=None):
        """Join and answer every prompt until the server ends the session. With
        ``leave_after``, drop the connection at that prompt instead of answering it. ``send``
        (prompt number -> text) types that text instead of an answer, once. ``before(player,
        prompt number)`` is awaited before each answer (to hold a player back)."""
        send = dict(send or {})
        conn = await connect(self.hosted.port, self.name, self.code, **self.options)
        async with conn:
            proc = await conn.create_process(
                term_type=term_type, encoding="utf-8", errors="replace"
            )
            since, tries = "", 1
            while True:
                chunk = await asyncio.wait_for(proc.stdout.read(1 << 16), PATIENCE)
                if not chunk:
                    break
                self.transcript += chunk
                since += chunk
                given = re.search(r"Your seat key: (\S+)\.", since)
                if given:
                    self.hosted.seat_keys[self.name] = given.group(1)
                if since.endswith("Seat key: "):  # taking the seat back: the key it was given
                    since = ""
                    proc.stdin.write(self.hosted.seat_keys.get(self.name, "none") + "\n")
                    continue
                answer, tries = answer_for(since, tries)
                if answer is None:
                    continue
                self.prompts += 1
                since = ""
                if self.prompts == leave_after:
                    return  # closing the connection mid-prompt: a drop
                if before is not None:
                    await before(self, self.prompts)
                # The server may have closed the session meanwhile: read its last words.
                with contextlib.suppress(BrokenPipeError):
                    proc.stdin.write(send.pop(self.prompts, answer + "\n"))
            await proc.wait()
            self.exit_status = proc.exit_status

    async def wait_for(self, text: str, conn_proc) -> None:
        while text not in self.transcript:
            chunk = await asyncio.wait_for(conn_proc.stdout.read(1 << 16), PATIENCE)
            assert chunk, f"{self.name}'s session ended before {text!r}:\n{self.transcript}"
            self.transcript += chunk


def run(*coroutines):
    async def together():
        return await asyncio.wait_for(asyncio.gather(*coroutines), 2 * PATIENCE)

    return asyncio.run(together())


async def in_order(hosted: Hosted, *plays) -> list[asyncio.Future]:
    """Start each (player, their play) in turn, the next once the last is in the lobby: the
    seats, and so the seeded game, are the same every time."""
    started, names = [], []
    for player, play in plays:
        started.append(asyncio.ensure_future(play))
        names.append(clean_name(player.name))
        while f"In the lobby: {', '.join(names)}." not in hosted.output:
            await asyncio.sleep(0.01)
    return started


def play_in_order(hosted: Hosted, *plays) -> None:
    async def scenario():
        await asyncio.gather(*await in_order(hosted, *plays))

    run(scenario())


def flat(text: str) -> str:
    """Screen text with its wrapping undone (rich wraps sentences at the terminal width)."""
    return " ".join(text.split())


# ==============================================================================================
# A whole game
# ==============================================================================================
def test_three_players_and_a_bot_play_a_whole_seeded_game_and_its_record_replays(host, tmp_path):
    """Three players join with the code; the third fills the table and the game starts, a
    bot in the fourth seat. Each plays at their own screen to the final table and result;
    the host saves the record, which replays with `spoiler replay --verify`."""
    hosted = host(
        "--seats", "3", "--bots", "1", "--seed", "21", "--max-rounds", "8", "--record", "game.toml"
    )
    players = [Player(hosted, name) for name in ("ann", "ben", "cat")]
    play_in_order(hosted, *((p, p.play()) for p in players))
    assert hosted.finish() == 0
    for player in players:
        screen = player.transcript
        assert player.exit_status == 0
        assert "The game begins: ann, ben, cat and 1 greedy bot(s)" in screen
        assert f"{player.name} (you)" in screen
        assert "Final table" in screen
        assert re.search(
            r"won in round|Draw: the round limit|Everyone lost", screen.split("Final table")[-1]
        )
        assert player.prompts >= 1
    record = records.load(tmp_path / "game.toml")
    assert [p.kind for p in record.players] == ["human", "human", "human", "greedy"]
    assert record.over
    verified = CliRunner().invoke(
        app, ["replay", "--verify", str(tmp_path / "game.toml")], env=BASE_ONLY
    )
    assert verified.exit_code == 0, verified.output
    assert "OK" in verified.output
    assert "Saved to game.toml." in hosted.output


def test_bots_of_several_kinds_take_the_hosted_seats_in_turn(host, tmp_path):
    """`--bot random,greedy`, as `spoiler play` takes it: the table's bots are of each kind
    in turn, every screen says so, and the record keeps each seat's kind."""
    hosted = host(
        *("--seats", "2", "--bots", "2", "--bot", "random,greedy"),
        *("--seed", "4", "--max-rounds", "4", "--record", "game.toml"),
    )
    players = [Player(hosted, name) for name in ("ann", "ben")]
    play_in_order(hosted, *((p, p.play()) for p in players))
    assert hosted.finish() == 0
    assert all("and 2 random/greedy bot(s)" in flat(p.transcript) for p in players)
    assert "Hosting Spoiler for 2 player(s) and 2 random/greedy bot(s), with base." in hosted.output
    record = records.load(tmp_path / "game.toml")
    assert [p.kind for p in record.players] == ["human", "human", "random", "greedy"]


def test_a_bot_that_is_a_program_takes_a_hosted_seat(host, tmp_path):
    """`--bot exec:COMMAND` in a hosted game: the example Python bot plays beside two
    players to the end, and the record replays."""
    bot = Path(__file__).resolve().parents[1] / "examples" / "bots" / "legal_bot.py"
    hosted = host(
        *("--seats", "2", "--bots", "1", "--bot", f"exec:{sys.executable} {bot}"),
        *("--seed", "5", "--max-rounds", "6", "--record", "game.toml"),
    )
    players = [Player(hosted, name) for name in ("ann", "ben")]
    play_in_order(hosted, *((p, p.play()) for p in players))
    assert hosted.finish() == 0
    assert all("Final table" in p.transcript for p in players)
    assert "fault" not in hosted.output
    record = records.load(tmp_path / "game.toml")
    assert record.over and record.players[2].kind == f"exec:{sys.executable} {bot}"
    verified = CliRunner().invoke(
        app, ["replay", "--verify", str(tmp_path / "game.toml")], env=BASE_ONLY
    )
    assert verified.exit_code == 0, verified.output


def test_a_hosted_program_bots_options_and_faults_reach_every_screen_and_the_record(host, tmp_path):
    """--bot-option and --bot-time-limit reach a hosted game's program bot and its record;
    each fault of the bot is one line on every player's screen, and kept in the record."""
    bot = Path(__file__).resolve().parent / "bots" / "misbehaving_bot.py"
    hosted = host(
        *("--seats", "2", "--bots", "1", "--bot", f"exec:{sys.executable} {bot} garbage"),
        *("--bot-option", "depth=3", "--bot-time-limit", "4"),
        *("--seed", "5", "--max-rounds", "6", "--record", "game.toml"),
    )
    players = [Player(hosted, name) for name in ("ann", "ben")]
    play_in_order(hosted, *((p, p.play()) for p in players))
    assert hosted.finish() == 0
    record = records.load(tmp_path / "game.toml")
    assert record.bot_options == {"depth": "3"} and record.bot_time_limit == 4.0
    kept = [f["fault"] for r in record.rounds for f in r.faults]
    assert kept and all("select: its reply is not JSON" in line for line in kept)
    for player in players:
        assert flat(player.transcript).count("its reply is not JSON") == len(kept)


def upto_round(screen: str, number: int) -> str:
    """What a screen showed before round ``number`` began (all of it when it never did)."""
    heading = re.search(rf"─+ Round {number} ─+", screen)
    return screen[: heading.start()] if heading else screen


def test_no_hosted_screen_shows_what_its_seat_may_not_know(host, tmp_path):
    """The hosted game replayed round by round from its record: after each round, what each
    player's screen had shown (up to the next round's heading) holds none of the facts
    hidden from their seat then (spoiler.leaks: another's hand, draws and selections, private
    answers, the deck's order, the seed), and the host's screen none hidden from a
    spectator. A seat's own secrets are on its screen. All installed sets play."""
    from spoiler import plugins
    from spoiler.leaks import assert_keeps_secrets, hidden_facts
    from spoiler.narrate import narrate

    seed = "8446744073709551"
    hosted = host(
        "--seats", "3", "--bots", "1", "--seed", seed, "--max-rounds", "10",
        "--record", "game.toml", env={},
    )  # fmt: skip
    players = [Player(hosted, name) for name in ("ann", "ben", "cat")]
    play_in_order(hosted, *((p, p.play()) for p in players))
    assert hosted.finish() == 0
    screens = [p.transcript for p in players] + [hosted.output]
    readers = [0, 1, 2, None]  # the seats joined in this order; None: the host's screen

    record = records.load(tmp_path / "game.toml")
    game = records.build_game(record, plugins.load())
    game.start()
    while True:
        for screen, reader in zip(screens, readers, strict=True):
            assert_keeps_secrets(upto_round(screen, game.round + 1), game, reader)
        if game.over:
            break
        game.play_round()
    assert game.round == len(record.rounds) >= 3
    names = [p.name for p in game.state.players]
    for seat, screen in enumerate(screens[:3]):
        own = [e for e in game.state.log if e.secret is not None and seat in e.secret_to]
        assert len(own) > 5
        for event in own:
            assert flat(narrate(event, names, game.cards_by_id, seat)) in flat(screen)
    for screen in screens:
        assert seed not in screen.split("Final table")[0]
        assert f"Seed: {seed}" in screen.split("Final table")[1]
    assert len(hidden_facts(game, 0)) > 20  # what ann's screen was checked against, at the end


# ==============================================================================================
# The lobby
# ==============================================================================================
def test_the_host_starts_with_enter_and_bots_take_the_seats_left(host):
    """Two of four expected players are in; the host presses Enter; two bots fill the table."""
    hosted = host("--seats", "4", "--seed", "3", "--max-rounds", "2")

    async def scenario():
        ann, ben = Player(hosted, "ann"), Player(hosted, "ben")
        games = await in_order(hosted, (ann, ann.play()), (ben, ben.play()))
        hosted.press_enter()
        await asyncio.gather(*games)
        return ann, ben

    ann, ben = run(scenario())[0]
    assert hosted.finish() == 0
    assert "and 2 greedy bot(s)" in ann.transcript
    assert "Final table" in ben.transcript


def test_a_name_already_taken_is_refused_with_a_clear_message(lobby):
    hosted = lobby

    async def scenario():
        first = await connect(hosted.port, "ann", hosted.code)
        proc = await first.create_process(encoding="utf-8")
        await Player(hosted, "ann").wait_for("Welcome to Spoiler, ann", proc)
        second = await connect(hosted.port, "ANN", hosted.code)
        result = await second.run(term_type=None, check=False)
        second.close()
        first.close()
        return result

    result = run(scenario())[0]
    assert result.exit_status == 1
    assert "the name 'ANN' is taken at this table" in result.stdout


def test_a_name_with_escape_sequences_is_refused_before_anyone_sees_it(host, monkeypatch):
    """A username with terminal escape sequences or control characters is refused at login
    (the SSH layer's own check, which this client is made to skip): no screen and not the
    host's shows any of it, and the table fills as if it never came."""
    import asyncssh.connection

    hosted = host("--seats", "2", "--seed", "4", "--max-rounds", "1")
    monkeypatch.setattr(asyncssh.connection, "saslprep", lambda text: text)
    evil = "\x1b[2J\x1b]0;pwned\x07ev\x1b[31mil\x9b1m"
    with pytest.raises(asyncssh.Error):
        run(connect(hosted.port, evil, hosted.code))
    ann, ben = Player(hosted, "ann"), Player(hosted, "ben")
    play_in_order(hosted, (ann, ann.play()), (ben, ben.play()))
    assert hosted.finish() == 0
    assert "The game begins: ann, ben" in ann.transcript
    for screen in (ann.transcript, ben.transcript, hosted.output):
        assert "\x1b" not in screen and "pwned" not in screen and "evil" not in screen


def test_a_long_name_is_cut_and_its_spaces_made_plain(host):
    hosted = host("--seats", "2", "--seed", "4", "--max-rounds", "1")
    long = Player(hosted, "Anastasia  \u00a0Bartholomew-Featherstonehaugh")
    ben = Player(hosted, "ben")
    play_in_order(hosted, (long, long.play()), (ben, ben.play()))
    assert hosted.finish() == 0
    assert "The game begins: Anastasia Bartholome, ben" in ben.transcript


def test_a_name_that_cleans_to_nothing_or_is_a_number_is_refused(lobby):
    hosted = lobby

    async def scenario():
        results = []
        for name in ("   ", "42"):
            conn = await connect(hosted.port, name, hosted.code)
            results.append(await conn.run(term_type=None, check=False))
            conn.close()
        return results

    blank, number = run(scenario())[0]
    assert blank.exit_status == 1 and "a name needs letters" in blank.stdout
    assert number.exit_status == 1 and "'42' is a number" in number.stdout


# ==============================================================================================
# Dropping out
# ==============================================================================================
def test_a_player_who_drops_and_rejoins_within_wait_gets_their_screen_back(host, tmp_path):
    """ann's connection drops at her first prompt; she joins again with the same name and
    code, is welcomed back, is asked again, and plays to the end. ben is told both."""
    hosted = host(
        "--seats", "2", "--seed", "8", "--max-rounds", "3", "--wait", "30", "--record", "game.toml"
    )

    async def scenario():
        ann, ben = Player(hosted, "ann"), Player(hosted, "ben")
        ann_game, ben_game = await in_order(
            hosted, (ann, ann.play(leave_after=1)), (ben, ben.play())
        )
        await ann_game
        while "ann dropped out" not in hosted.output:
            await asyncio.sleep(0.02)
        back = Player(hosted, "ann")
        await back.play()
        await ben_game
        return back, ben

    back, ben = run(scenario())[0]
    assert hosted.finish() == 0
    assert "Welcome back, ann. Here is this round so far." in back.transcript
    assert "Play which card?" in back.transcript
    assert "Final table" in back.transcript
    assert "ann dropped out. Their seat waits 30 s for them to join again." in ben.transcript
    assert "ann is back." in ben.transcript
    record = records.load(tmp_path / "game.toml")
    assert [p.kind for p in record.players] == ["human", "human"] and record.over


def test_a_player_away_longer_than_wait_is_replaced_by_a_bot_and_everyone_is_told(host):
    """ann drops and stays away: after --wait a bot plays her seat, everyone is told, and
    joining again as ann is refused with the reason."""
    hosted = host("--seats", "2", "--seed", "8", "--max-rounds", "3", "--wait", "0.3")
    refused = {}

    async def try_to_come_back(player, prompt):
        if prompt == 1:  # ben holds his first answer until the bot has ann's seat
            while "ann did not come back" not in hosted.output:
                await asyncio.sleep(0.02)
            conn = await connect(hosted.port, "ann", hosted.code)
            refused["late"] = await conn.run(term_type=None, check=False)
            conn.close()

    async def scenario():
        ann, ben = Player(hosted, "ann"), Player(hosted, "ben")
        await asyncio.gather(
            *await in_order(
                hosted, (ann, ann.play(leave_after=1)), (ben, ben.play(before=try_to_come_back))
            )
        )
        return ben

    ben = run(scenario())[0]
    assert hosted.finish() == 0
    told = "ann did not come back within 0.3 s: a greedy bot plays for them from now on."
    assert told in hosted.output
    assert told in ben.transcript
    assert "Final table" in ben.transcript
    assert "late" in refused, ben.transcript + hosted.output
    assert refused["late"].exit_status == 1
    assert (
        "ann did not come back within 0.3 s and a bot plays for them now" in refused["late"].stdout
    )


def test_ctrl_c_at_a_player_terminal_is_a_drop_not_a_crash(host):
    """A break (Ctrl-C at an ssh pseudo-terminal) leaves the game: the player is told how
    to come back; the others play on."""
    hosted = host("--plain", "--seats", "2", "--seed", "8", "--max-rounds", "2", "--wait", "0.2")

    async def scenario():
        ben = Player(hosted, "ben")
        (ben_game,) = await in_order(hosted, (ben, ben.play()))
        conn = await connect(hosted.port, "ann", hosted.code)
        proc = await conn.create_process(term_type="xterm", encoding="utf-8")
        ann = Player(hosted, "ann")
        await ann.wait_for("Play which card?", proc)
        proc.channel.send_break(0)
        rest = await asyncio.wait_for(proc.stdout.read(), PATIENCE)
        conn.close()
        await ben_game
        return ann.transcript + rest, ben

    ann_screen, ben = run(scenario())[0]
    assert hosted.finish() == 0
    assert "You left the game. To come back within 0.2 s: ssh -p" in ann_screen
    assert "ann dropped out" in ben.transcript
    assert "Final table" in ben.transcript


def test_a_screen_is_drawn_at_its_own_terminal_width_with_its_colours(host):
    """ann's terminal is 60 columns and 256 colours, ben's a plain pipe: each screen is drawn
    for its own terminal."""
    hosted = host("--plain", "--seats", "2", "--seed", "8", "--max-rounds", "1")

    async def scenario():
        ben = Player(hosted, "ben")
        (ben_game,) = await in_order(hosted, (ben, ben.play()))
        conn = await connect(hosted.port, "ann", hosted.code)
        proc = await conn.create_process(
            term_type="xterm-256color", term_size=(60, 24), encoding="utf-8"
        )
        ann = Player(hosted, "ann")
        await ann.wait_for("Play which card?", proc)
        proc.stdin.write("1\r")
        await ann.wait_for("Play again at this table", proc)  # (issue 20: a rematch)
        proc.stdin.write("n\r")
        ann.transcript += await asyncio.wait_for(proc.stdout.read(), PATIENCE)
        conn.close()
        await ben_game
        return ann.transcript, ben.transcript

    ann, ben = run(scenario())[0]
    assert hosted.finish() == 0
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", ann)
    rule = next(line for line in plain.split("\r\n") if "Round 1 " in line and "─" in line)
    assert len(rule.rstrip()) == 60
    assert "\x1b[" in ann and "\x1b[" not in ben
    assert "\r\n" in ann and "\r\n" not in ben  # a terminal's line ends, a pipe's


def test_q_at_a_prompt_leaves_the_game_and_log_shows_the_game_so_far_without_a_pager(host):
    """The in-game commands work on a hosted screen: `log` prints the game so far (a pager
    would run on the host's machine), `q` leaves the game as closing the window does: the
    others play on and a bot takes the seat."""
    hosted = host("--seats", "2", "--seed", "8", "--max-rounds", "2", "--wait", "0.2")
    ann, ben = Player(hosted, "ann"), Player(hosted, "ben")
    play_in_order(hosted, (ann, ann.play(send={1: "log\n", 2: "q\n"})), (ben, ben.play()))
    assert hosted.finish() == 0
    assert "The game so far, as ann saw it" in ann.transcript
    assert "You left the game. To come back within 0.2 s: ssh -p" in ann.transcript
    assert "ann dropped out" in ben.transcript
    assert "ann did not come back within 0.2 s" in ben.transcript
    assert "Final table" in ben.transcript


# ==============================================================================================
# The host's Ctrl-C
# ==============================================================================================
def test_ctrl_c_on_the_host_ends_the_game_for_everyone_saves_it_and_exits_130(host, tmp_path):
    hosted = host("--seats", "2", "--seed", "3", "--record", "game.toml")  # 4 rounds or more

    interrupted = asyncio.Event()

    async def think_forever_in_round_2(player, prompt):
        if "Round 2" in player.transcript:
            await interrupted.wait()

    async def scenario():
        ann, ben = Player(hosted, "ann"), Player(hosted, "ben")
        games = await in_order(
            hosted, *((p, p.play(before=think_forever_in_round_2)) for p in (ann, ben))
        )
        while "Round 2" not in ann.transcript:
            await asyncio.sleep(0.02)
        hosted.proc.send_signal(signal.SIGINT)
        while "The host ended the game." not in hosted.output:
            await asyncio.sleep(0.02)
        interrupted.set()
        await asyncio.gather(*games)
        return ann, ben

    ann, ben = run(scenario())[0]
    assert hosted.finish() == 130
    for player in (ann, ben):
        assert "The host ended the game." in player.transcript
        assert player.exit_status == 130
    assert "Game stopped in round" in hosted.output
    assert "game.toml holds the" in hosted.output
    assert "Traceback" not in "".join(hosted.err)
    verified = CliRunner().invoke(
        app, ["replay", "--verify", str(tmp_path / "game.toml")], env=BASE_ONLY
    )
    assert verified.exit_code == 0, verified.output


def test_ctrl_c_on_the_host_in_the_lobby_sends_everyone_home_and_exits_130(host, tmp_path):
    """Stopped before the game began: whoever is in the lobby is told, nothing is recorded."""
    hosted = host("--seats", "3", "--record", "game.toml")

    async def scenario():
        conn = await connect(hosted.port, "ann", hosted.code)
        proc = await conn.create_process(term_type=None, encoding="utf-8")
        await Player(hosted, "ann").wait_for("Welcome to Spoiler, ann", proc)
        hosted.proc.send_signal(signal.SIGINT)
        rest = await asyncio.wait_for(proc.stdout.read(), PATIENCE)
        await proc.wait()
        conn.close()
        return rest, proc.exit_status

    rest, status = run(scenario())[0]
    assert hosted.finish() == 130
    assert "The host stopped before the game began." in rest and status == 130
    assert "Stopped before the game began." in hosted.output
    assert not (tmp_path / "game.toml").exists()


# ==============================================================================================
# Safety of the server
# ==============================================================================================
def test_a_wrong_code_is_refused(lobby):
    hosted = lobby

    async def scenario():
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(hosted.port, "ann", "not-the-code")

    run(scenario())


def test_the_code_is_read_as_typed_aloud_ignoring_case_and_dashes(lobby):
    hosted = lobby

    async def scenario():
        typed = hosted.code.upper().replace("-", " ")
        conn = await connect(hosted.port, "ann", typed)
        conn.close()

    run(scenario())


def test_fifty_bad_logins_at_once_while_a_game_runs_do_not_stop_it(host):
    hosted = host("--seats", "2", "--seed", "6", "--max-rounds", "5")

    async def bad_login(i: int):
        try:
            await connect(hosted.port, f"mallory{i}", f"guess-{i}")
        except (asyncssh.PermissionDenied, asyncssh.DisconnectError, OSError):
            return True
        return False

    async def scenario():
        burst_over = asyncio.Event()

        async def after_the_burst(player, prompt):
            if prompt == 1:
                await burst_over.wait()

        ann, ben = Player(hosted, "ann"), Player(hosted, "ben")
        games = await in_order(hosted, (ann, ann.play(before=after_the_burst)), (ben, ben.play()))
        while "Round 1" not in ann.transcript:
            await asyncio.sleep(0.02)
        refused = await asyncio.gather(*(bad_login(i) for i in range(50)))
        burst_over.set()
        await asyncio.gather(*games)
        return refused, ann

    refused, ann = run(scenario())[0]
    assert all(refused)
    assert hosted.finish() == 0
    assert "Final table" in ann.transcript


def test_exec_sftp_subsystems_and_forwarding_are_refused(lobby):
    hosted = lobby

    async def scenario():
        refusals = {}
        async with await connect(hosted.port, "ann", hosted.code) as conn:
            attempts = {
                "exec": lambda: conn.create_process("cat /etc/passwd"),
                "sftp": conn.start_sftp_client,
                "subsystem": lambda: conn.create_process(subsystem="netconf"),
                "local forward": lambda: conn.create_connection(
                    asyncssh.SSHTCPSession, "127.0.0.1", hosted.port
                ),
                "remote forward": lambda: conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 22),
                "unix socket": lambda: conn.create_unix_connection(
                    asyncssh.SSHUNIXSession, "/tmp/anything"
                ),
            }
            for what, attempt in attempts.items():
                try:
                    await attempt()
                    refusals[what] = False
                except (asyncssh.ChannelOpenError, asyncssh.ChannelListenError, asyncssh.SFTPError):
                    refusals[what] = True
        return refusals

    before = hosted.output
    refusals = run(scenario())[0]
    assert refusals == dict.fromkeys(refusals, True)
    assert "In the lobby" not in hosted.output[len(before) :]  # none of it made a player


def test_agent_and_x11_forwarding_are_refused(lobby, tmp_path):
    """The server never reaches back into a joiner's machine: a client that forwards its ssh
    agent, or its X display, is refused."""
    hosted = lobby

    async def scenario():
        refusals = {}
        agent = {"agent_forwarding": True, "agent_path": str(tmp_path / "agent.sock")}
        async with await connect(hosted.port, "xena", hosted.code, **agent) as conn:
            chan, _ = await conn.create_session(asyncssh.SSHClientSession, term_type=None)
            # asyncssh's client asks for agent forwarding without wanting a reply (as OpenSSH's
            # does): ask again, wanting one, to hear the server's answer.
            refusals["agent"] = await chan._make_request(b"auth-agent-req@openssh.com") is False
        async with await connect(hosted.port, "yuri", hosted.code) as conn:
            try:
                await conn.create_process(
                    x11_forwarding=True,
                    x11_display="127.0.0.1:0",
                    x11_auth_path=str(tmp_path / "Xauthority"),
                )
                refusals["x11"] = False
            except asyncssh.ChannelOpenError as exc:
                refusals["x11"] = exc.reason == "X11 forwarding request failed"
        return refusals

    assert run(scenario())[0] == {"agent": True, "x11": True}


def test_a_one_megabyte_line_is_refused_and_the_game_goes_on(host):
    """At ann's first prompt she sends a 1 MB line: she is told it was ignored and asked
    again; nobody else's screen (nor the host's) shows any of it."""
    hosted = host("--seats", "2", "--seed", "9", "--max-rounds", "2")
    ann, ben = Player(hosted, "ann"), Player(hosted, "ben")
    run(ann.play(send={1: "x" * (1 << 20) + "\n"}), ben.play())
    assert hosted.finish() == 0
    assert "That line was over 200 characters: it was ignored." in ann.transcript
    assert "xxxxxxxxxx" not in ann.transcript
    assert "xxxxxxxxxx" not in ben.transcript and "xxxxxxxxxx" not in hosted.output
    assert "Final table" in ann.transcript


def test_what_a_player_types_reaches_only_their_own_prompts(host):
    """ben types a stray word at his first prompt: only his screen shows it (refused and
    asked again); ann's screen and the host's never do, and the game goes on."""
    hosted = host("--seats", "2", "--seed", "9", "--max-rounds", "2")
    ann, ben = Player(hosted, "ann"), Player(hosted, "ben")
    play_in_order(hosted, (ann, ann.play()), (ben, ben.play(send={1: "xyzzy\n"})))
    assert hosted.finish() == 0
    assert ben.transcript.count("xyzzy") == 1
    assert "xyzzy" not in ann.transcript and "xyzzy" not in hosted.output
    assert "Final table" in ann.transcript


def test_binary_garbage_and_escape_sequences_typed_are_cleaned_and_asked_again(host):
    hosted = host("--seats", "2", "--seed", "9", "--max-rounds", "2")
    ann, ben = Player(hosted, "ann"), Player(hosted, "ben")
    garbage = "\x00\xff\ufffd\x1b[2J\x1b]52;c;aGk=\x07\x08\x7f\n"
    run(ann.play(send={1: garbage}), ben.play())
    assert hosted.finish() == 0
    assert "Please answer with a card's number" in ann.transcript
    assert "\x1b]52" not in ann.transcript and "\x1b[2J" not in ann.transcript
    assert "Final table" in ann.transcript


# ==============================================================================================
# What comes in: names, lines, codes
# ==============================================================================================
@pytest.mark.parametrize(
    "raw, name",
    [
        ("ann", "ann"),
        ("  ann\tlee  ", "ann lee"),
        ("\x1b[31mann\x1b[0m", "ann"),
        ("a\x1b]0;title\x07nn", "ann"),
        ("\u202eann\u200b", "ann"),  # bidi override and zero-width characters
        ("x" * 50, "x" * 20),
    ],
)
def test_a_joining_name_is_cleaned_to_plain_text(raw, name):
    assert clean_name(raw) == name


@pytest.mark.parametrize("raw", ["", "   ", "\x1b[2J", "\x00\x07", "12"])
def test_a_name_with_nothing_left_or_only_digits_is_refused(raw):
    with pytest.raises(BadName):
        clean_name(raw)


def test_a_typed_line_is_cleaned_and_a_line_too_long_is_refused_whole():
    assert clean_line("  2\x1b[A\x07 ") == "2"
    assert clean_line("x" * (MAX_LINE + 1)) is None


def test_join_codes_are_random_60_bits_in_three_groups_easy_to_read_aloud():
    codes = {join_code() for _ in range(200)}
    assert len(codes) == 200
    for code in codes:
        assert re.fullmatch(
            r"[0-9a-hjkmnp-tv-z]{4}-[0-9a-hjkmnp-tv-z]{4}-[0-9a-hjkmnp-tv-z]{4}", code
        )
    assert code_matches(" " + code.upper().replace("-", " ") + " ", code)
    assert not code_matches(code[:-1], code)
    assert code_matches("o1l0-0000-0000", "0110-0000-0000")  # o, i, l read as 0, 1, 1


class FakeLoop:
    """Runs what is handed to the loop at once (the terminal's tests need no server)."""

    def call_soon_threadsafe(self, fn, *args):
        fn(*args)


class FakeChannel:
    def __init__(self, pending: int = 0):
        self.written: list[str] = []
        self.pending = pending
        self.closed = False

    def get_write_buffer_size(self) -> int:
        return self.pending

    def write(self, text: str) -> None:
        self.written.append(text)

    def close(self) -> None:
        self.closed = True


def test_typed_input_becomes_bounded_clean_lines_and_type_ahead_is_capped():
    from spoiler_host.terminal import MAX_QUEUED_LINES, Terminal

    channel = FakeChannel()
    terminal = Terminal(FakeLoop(), channel)
    terminal.received("1\r\n2\x1b[A\n3")
    terminal.received("\r")
    assert [terminal.readline() for _ in range(3)] == ["1\n", "2\n", "3\n"]
    terminal.received("x" * 10_000)  # no line end yet: not kept
    terminal.received("x" * 10_000 + "\n")
    assert terminal.readline() == "\n"  # asked again, after being told why
    assert "it was ignored" in "".join(channel.written)
    terminal.received("1\n" * 100)
    assert terminal._lines.qsize() == MAX_QUEUED_LINES


def test_a_client_that_stops_reading_is_dropped_rather_than_buffered_without_end():
    from spoiler_host.terminal import MAX_PENDING_OUTPUT, Dropped, Terminal

    channel = FakeChannel(pending=MAX_PENDING_OUTPUT + 1)
    terminal = Terminal(FakeLoop(), channel)
    terminal.console.print("the next round")
    assert channel.closed and terminal.closed and not channel.written
    with pytest.raises(Dropped):
        terminal.readline()


# ==============================================================================================
# The system's ssh client
# ==============================================================================================
SSH = shutil.which("ssh")


@pytest.mark.skipif(SSH is None, reason="no ssh client installed on this machine")
def test_three_players_through_the_system_ssh_client_and_a_bot_play_a_game_that_replays(
    host, tmp_path
):
    """Nothing but ssh on the players' side: a pseudo-terminal each, the code typed at the
    password prompt, every card chosen at their own screen. Three join, a bot fills the
    fourth seat, the seeded game is played to its end, and its record replays with
    `spoiler replay --verify`."""
    pexpect = pytest.importorskip("pexpect")
    hosted = host(
        "--plain",
        "--seats",
        "3",
        "--bots",
        "1",
        "--seed",
        "12",
        "--max-rounds",
        "6",
        "--record",
        "game.toml",
    )

    def join(name: str):
        child = pexpect.spawn(
            SSH,
            [
                "-tt",
                "-p",
                str(hosted.port),
                "-F",
                "/dev/null",
                "-o",
                "StrictHostKeyChecking=no",
                "-o",
                "UserKnownHostsFile=/dev/null",
                "-o",
                "PubkeyAuthentication=no",
                "-o",
                "LogLevel=ERROR",
                f"{name}@127.0.0.1",
            ],
            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TERM": "xterm-256color"},
            encoding="utf-8",
            timeout=PATIENCE,
            dimensions=(40, 100),
        )
        child.expect("assword:")
        child.sendline(hosted.code)
        return child

    children, names = [], []
    for name in ("ann", "ben", "cat"):  # one by one: the same seats, so the same game
        children.append(join(name))
        names.append(name)
        hosted.wait_for(re.escape(f"In the lobby: {', '.join(names)}."))
    screens = {child: "" for child in children}
    tries = {child: 1 for child in children}
    done = set()
    prompts = [pattern for _, pattern in PROMPTS]
    deadline = time.monotonic() + 2 * PATIENCE
    while len(done) < len(children):
        assert time.monotonic() < deadline, "the game keeps asking"
        for child in children:
            if child in done:
                continue
            which = child.expect([*prompts, pexpect.EOF, pexpect.TIMEOUT], timeout=0.05)
            if which == len(prompts):
                screens[child] += child.before
                done.add(child)
            elif which < len(prompts):
                seen = child.before + child.after
                screens[child] += seen
                answer, tries[child] = answer_for(seen, tries[child])
                child.sendline(answer)
    for child in children:
        child.close()
    assert hosted.finish() == 0
    for screen in screens.values():
        assert "The game begins: ann, ben, cat and 1 greedy bot(s)" in flat(screen)
        assert "Final table" in screen
        assert "\x1b[" in screen  # colours, for a terminal that has them
    record = records.load(tmp_path / "game.toml")
    assert [p.kind for p in record.players] == ["human", "human", "human", "greedy"]
    assert record.over and record.rounds  # every round's choices made at the three screens
    verified = CliRunner().invoke(
        app, ["replay", "--verify", str(tmp_path / "game.toml")], env=BASE_ONLY
    )
    assert verified.exit_code == 0 and "OK" in verified.output, verified.output


# ==============================================================================================
# The command itself
# ==============================================================================================
def test_without_asyncssh_host_says_in_one_line_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "asyncssh", None)
    result = CliRunner().invoke(app, ["host"])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        "Error: spoiler host needs asyncssh: install it with: " + install_hint("spoiler-game[host]")
    ]


def test_other_commands_do_not_import_asyncssh():
    code = "import sys; from spoiler.cli import app; print('asyncssh' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize(
    "args, message",
    [
        (["--seats", "0"], "--seats must be 1 or more"),
        (["--seats", "6", "--bots", "3"], "Spoiler is for 2 to 8 players, not 9"),
        (["--seats", "1"], "Spoiler is for 2 to 8 players, not 1"),
        (["--port", "70000"], "--port must be from 0 to 65535"),
        (["--bot", "nosuch"], "nosuch"),
        (["--bot", "greedy,nosuch"], "nosuch"),
        (["--bot", "greedy", "--bot", ""], "--bot"),
        (["--sets", "nosuch"], "nosuch"),
    ],
)
def test_options_that_make_no_table_are_refused_in_one_line(args, message, tmp_path, monkeypatch):
    monkeypatch.setenv("SPOILER_HOST_KEY", str(tmp_path / "key"))
    result = CliRunner().invoke(app, ["host", *args], env=BASE_ONLY)
    assert result.exit_code == 2
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_the_host_key_is_made_once_private_and_its_fingerprint_printed(host, tmp_path):
    hosted = host("--seats", "2")
    key = tmp_path / "host_key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    fingerprint = asyncssh.read_private_key(str(key)).get_fingerprint()
    assert f"Host key:   {fingerprint} (ed25519)" in hosted.output
    hosted.close()
    again = host("--seats", "2")
    assert f"Host key:   {fingerprint}" in again.output


def test_a_host_key_others_can_read_is_refused(tmp_path, monkeypatch):
    key = tmp_path / "key"
    key.write_bytes(asyncssh.generate_private_key("ssh-ed25519").export_private_key())
    key.chmod(0o644)
    monkeypatch.setenv("SPOILER_HOST_KEY", str(key))
    result = CliRunner().invoke(app, ["host"], env=BASE_ONLY)
    assert result.exit_code == 1
    assert "can be read by other users" in result.output and "chmod 600" in result.output


def test_listening_beyond_this_machine_prints_one_warning(host):
    hosted = host("--seats", "2", "--bind", "127.0.0.2")  # still loopback, but not the default
    assert "Warning: listening on 127.0.0.2: anyone who can reach this machine" in hosted.output
    assert "--bind" not in hosted.output
