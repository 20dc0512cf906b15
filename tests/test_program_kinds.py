"""A plugin's bot kind that runs a program (``spoiler.agents.process.Program``): seated as
``exec:COMMAND`` would be, under the kind's name (issue 19, item 3; docs/bots.md), with real
programs (examples/bots/legal_bot.py, tests/bots/misbehaving_bot.py)."""

from __future__ import annotations

import json
import shlex
import sys
from importlib import metadata
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spoiler import hookimpl, plugins
from spoiler.agents.process import ProcessBot, Program
from spoiler.cli import app, common
from spoiler.session import records, simulate
from spoiler.testing import FakeEntryPoint

ROOT = Path(__file__).resolve().parents[1]
PYTHON = shlex.quote(sys.executable)
LEGAL = f"{PYTHON} {shlex.quote(str(ROOT / 'examples' / 'bots' / 'legal_bot.py'))}"
MISBEHAVING = f"{PYTHON} {shlex.quote(str(ROOT / 'tests' / 'bots' / 'misbehaving_bot.py'))}"


class Programs:
    """A plugin whose bot kinds are programs."""

    def __init__(self, kinds: dict[str, str]):
        self.kinds = kinds

    @hookimpl
    def spoiler_register_agents(self, register):
        for kind, command in self.kinds.items():
            register(kind, Program(command), f"runs {command}")


def load(**kinds: str) -> plugins.Registry:
    builtins = [
        ep for ep in metadata.entry_points(group=plugins.GROUP) if ep.name in ("base", "bots")
    ]
    return plugins.load(
        environ={}, entry_points=[*builtins, FakeEntryPoint("progs", Programs(kinds))]
    )


@pytest.fixture
def seat_programs(monkeypatch, tmp_path):
    """Seat this plugin's kinds in the commands; bots' logs in the test's folder."""
    monkeypatch.setenv("SPOILER_BOT_LOGS", str(tmp_path / "logs"))

    def use(**kinds: str) -> plugins.Registry:
        registry = load(**kinds)
        monkeypatch.setattr(common, "load_registry", lambda: registry)
        monkeypatch.setattr(simulate, "_REGISTRY", registry)
        return registry

    return use


def cli(*args):
    return CliRunner().invoke(app, list(map(str, args)))


def test_a_plugin_kind_that_runs_a_program_plays_a_whole_game_under_its_name(
    seat_programs, tmp_path
):
    seat_programs(legal=LEGAL)
    path = tmp_path / "game.toml"
    result = cli("play", "--bots", 3, "--bot", "legal", "--seed", 4, "--record", path)
    assert result.exit_code == 0, result.output
    record = records.load(path)
    assert record.over and [p.kind for p in record.players] == ["legal"] * 3
    assert "a random legal choice is played" not in " ".join(result.output.split())


def test_a_program_kind_gets_the_bot_options_in_its_hello(seat_programs, tmp_path):
    told = tmp_path / "told.jsonl"
    seat_programs(teller=f"{MISBEHAVING} tell {shlex.quote(str(told))}")
    result = cli("play", "--bots", 2, "--bot", "teller", "--seed", 4, "--bot-option", "depth=3")
    assert result.exit_code == 0, result.output
    hellos = [json.loads(line) for line in told.read_text().splitlines()]
    assert [(h["seat"], h["options"]) for h in hellos] == [(0, {"depth": "3"}), (1, {"depth": "3"})]


def test_a_program_kinds_faults_name_the_kind_and_its_time_limit_is_the_commands(
    seat_programs,
):
    seat_programs(sleepy=f"{MISBEHAVING} sleep")
    result = cli(
        *("play", "--bots", 2, "--bot", "sleepy", "--seed", 2, "--max-rounds", 3),
        *("--bot-time-limit", 0.5),
    )
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert (
        "sleepy: select: no reply within 0.5 s; a random legal choice is played (fault 1 of 3)"
        in text
    )
    assert "exec:" not in text


def test_a_program_kind_plays_in_simulate(seat_programs):
    seat_programs(legal=LEGAL)
    result = cli("simulate", "--bots", "legal,greedy", "--games", 4, "--seed", 1, "--json")
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert figures["games"] == 4


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_a_program_kind_whose_program_is_not_found_is_refused_before_the_game(
    seat_programs, command
):
    seat_programs(gone="no-such-bot-program --level 3")
    kinds = ("--bots", 2, "--bot", "gone") if command == "play" else ("--bots", "gone,greedy")
    result = cli(command, *kinds)
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "Error: bot kind 'gone' runs 'no-such-bot-program --level 3': "
        "no program 'no-such-bot-program' found"
    ]


@pytest.mark.parametrize(
    ("command", "reason"),
    [
        ("", "Program(''): needs a command to run"),
        ("bot 'x", 'Program("bot \'x"): No closing quotation'),
    ],
)
def test_a_program_that_cannot_be_a_command_makes_its_plugin_broken(command, reason):
    registry = load(odd=command)
    assert "odd" not in registry.agents
    assert reason in registry.plugins["progs"].error


def test_a_program_is_a_factory_of_process_bots(tmp_path, monkeypatch):
    monkeypatch.setenv("SPOILER_BOT_LOGS", str(tmp_path))
    bot = Program(LEGAL)(1, 7, {"depth": "2"}, time_limit=3.0, label="legal")
    try:
        assert isinstance(bot, ProcessBot)
        assert (bot.seat, bot.time_limit, bot.label) == (1, 3.0, "legal")
    finally:
        bot.close()


def test_a_program_kind_is_rated_on_the_ladder_under_its_name(seat_programs):
    seat_programs(legal=LEGAL)
    result = cli(
        *("ladder", "--bots", "legal,random", "--games", 4, "--players", 2),
        *("--sets", "base", "--jobs", 1, "--seed", 3, "--json"),
    )
    assert result.exit_code == 0, result.output
    ratings = json.loads(result.stdout)["ratings"]
    assert sorted((r["bot"], r["games"]) for r in ratings) == [("legal", 4), ("random", 4)]
