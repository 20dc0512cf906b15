"""Bots that are programs (``--bot exec:COMMAND``, spoiler-bot/1: docs/bots.md), run as real
processes: the example bots play whole games, and a bot that misbehaves costs its decisions,
then its seat, never the game."""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spoiler import plugins
from spoiler.agents.process import MAX_FAULTS, ProcessBot
from spoiler.agents.wire import legal_selections, selection_from_wire, view_to_wire
from spoiler.cli import app, common
from spoiler.engine import Game, Seat

ROOT = Path(__file__).resolve().parents[1]
PYTHON_BOT = f"{sys.executable} {ROOT / 'examples' / 'bots' / 'legal_bot.py'}"
NODE_BOT = f"node {ROOT / 'examples' / 'bots' / 'legal_bot.js'}"
MISBEHAVING = ROOT / "tests" / "bots" / "misbehaving_bot.py"
BUILTINS_ONLY = {"SPOILER_PLUGINS": ""}


@pytest.fixture(scope="module")
def registry():
    return plugins.load(environ=BUILTINS_ONLY)


@pytest.fixture(autouse=True)
def bot_logs(tmp_path, monkeypatch):
    monkeypatch.setenv("SPOILER_BOT_LOGS", str(tmp_path / "logs"))


def game_with(registry, bot, seed: int = 1, others: int = 2) -> Game:
    seats = [Seat("Prog", bot, "exec")]
    seats += [Seat(f"G{i}", registry.agent("greedy", i + 1, seed), "greedy") for i in range(others)]
    sets = registry.card_sets(None)
    return Game(sets, seats, seed, hooks=registry.game_hooks([s.name for s in sets]))


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_the_python_example_bot_plays_a_whole_game_in_play(registry, monkeypatch):
    monkeypatch.setattr(common, "load_registry", lambda: registry)
    result = CliRunner().invoke(
        app, ["play", "--bots", "3", "--bot", f"exec:{PYTHON_BOT}", "--seed", "5"]
    )
    assert result.exit_code == 0, result.output
    assert "Seed: 5" in result.output and "fault" not in result.output


@pytest.mark.parametrize(
    "command",
    [
        PYTHON_BOT,
        pytest.param(
            NODE_BOT,
            marks=pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js"),
        ),
    ],
    ids=["python", "javascript"],
)
def test_the_example_bots_play_in_simulate(registry, monkeypatch, command):
    monkeypatch.setattr(common, "load_registry", lambda: registry)
    result = CliRunner().invoke(
        app,
        [
            *("simulate", "--games", "3", "--players", "2", "--jobs", "1", "--json"),
            *("--bots", f"exec:{command},greedy"),
        ],
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["games"] == 3


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")
def test_the_javascript_example_bot_plays_a_whole_game(registry):
    bot = ProcessBot(NODE_BOT, 0, 11)
    game = game_with(registry, bot, seed=11)
    result = game.play()
    bot.close(result)
    assert bot.name == "legal-bot.js" and bot.faults == []


@pytest.mark.parametrize(
    "how", ["crash-at-start", "crash-mid-game", "garbage", "illegal", "sleep", "flood"]
)
def test_a_misbehaving_bot_loses_its_decisions_then_its_seat_never_the_game(registry, capfd, how):
    """Each fault is one line and a random legal choice; the third ends the program, and says
    so once."""
    bot = ProcessBot(f"{sys.executable} {MISBEHAVING} {how}", 0, 2, time_limit=0.5)
    process = bot.process
    game = game_with(registry, bot, seed=2)
    result = game.play()
    bot.close(result)
    assert result is not None
    assert len(bot.faults) == MAX_FAULTS
    lines = [fault.text for fault in bot.faults]
    assert all(line.startswith("exec:") and "\n" not in line for line in lines)
    assert [f"fault {n} of {MAX_FAULTS}" in line for n, line in enumerate(lines, 1)] == [True] * 3
    seat_lost = f"fault {MAX_FAULTS} of {MAX_FAULTS}: random legal choices play its seat now"
    assert seat_lost in lines[-1] and not any(seat_lost in line for line in lines[:-1])
    assert "Traceback" not in capfd.readouterr().err
    assert process is not None and process.poll() is not None, "the program was left running"


def test_a_bot_and_the_children_it_started_end_with_the_game(registry, tmp_path):
    pid_file = tmp_path / "child.pid"
    bot = ProcessBot(f"{sys.executable} {MISBEHAVING} fork {pid_file}", 0, 3)
    game = game_with(registry, bot, seed=3)
    bot.close(game.play())
    child = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while running(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not running(child), "the bot's child outlived the game"


def running(pid: int) -> bool:
    """Is ``pid`` a live process (not gone, not a zombie waiting for its parent)?"""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    except OSError:
        return False


def test_a_bot_that_cannot_be_started_is_one_line(registry, monkeypatch):
    monkeypatch.setattr(common, "load_registry", lambda: registry)
    result = CliRunner().invoke(app, ["play", "--bots", "2", "--bot", "exec:no-such-program-x"])
    assert result.exit_code == 2
    assert "cannot start it" in result.output and "Traceback" not in result.output


def test_a_program_bot_receives_only_what_its_seat_may_know(registry):
    """Everything a program is sent is its seat's view: its own hand as it is, the events as
    that seat saw them, and never the seed while the game runs."""
    checked = 0

    class Spy:
        """Checks each view's wire form against the game, then plays legally."""

        def check(self, view) -> None:
            nonlocal checked
            wire = view_to_wire(view)
            assert [c["id"] for c in wire["hand"]] == [c.id for c in game.state.players[0].hand]
            assert wire["events"] == [e.as_dict() for e in game.events_seen_by(0)]
            assert str(game.seed) not in json.dumps(wire)
            checked += 1

        def select(self, view):
            self.check(view)
            legal = legal_selections(view)
            return selection_from_wire(legal[-1], legal)

        def answer(self, view, question):
            self.check(view)
            return question.options[0]

    for seed in range(200):  # as many games as tests/test_hidden_information.py plays
        game = game_with(registry, Spy(), seed=10_000_000 + seed, others=3)
        game.play()
    assert checked > 1000


def test_a_bot_is_told_the_game_is_over_and_its_program_ends(registry, tmp_path, monkeypatch):
    """spoiler-bot/1 ends with game_over and the result, then standard input closes: the
    program sees it and exits by itself (here it writes what it was told to a file)."""
    told = tmp_path / "told.json"
    script = tmp_path / "bot.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'game_over':\n"
        f"        open({str(told)!r}, 'w').write(json.dumps(m))\n"
        "        continue\n"
        "    reply = m['legal'][0] if m['type'] == 'select' else "
        "{'answer': m.get('question', {}).get('options', [''])[0]}\n"
        "    print(json.dumps(reply if m['type'] != 'hello' else {}), flush=True)\n"
    )
    monkeypatch.setattr(common, "load_registry", lambda: registry)
    result = CliRunner().invoke(
        app, ["play", "--bots", "2", "--bot", f"exec:{sys.executable} {script}", "--seed", "8"]
    )
    assert result.exit_code == 0, result.output
    over = json.loads(told.read_text())
    assert over["type"] == "game_over" and over["result"]["kind"] in ("win", "default", "all_lost")
