"""Bot options (``--bot-option KEY=VALUE``, ``--think``), ``--bot-time-limit`` and a program
bot's faults on the screen and in the record (issue 19, items 2 and 4), with real programs
(tests/bots/misbehaving_bot.py)."""

from __future__ import annotations

import json
import shutil
import sys
import tomllib
from pathlib import Path

import pytest
import tomli_w
from typer.testing import CliRunner

from spoiler import plugins
from spoiler.agents import options as bot_options
from spoiler.cli import app, common
from spoiler.session import records, simulate

ROOT = Path(__file__).resolve().parents[1]
MISBEHAVING = f"{sys.executable} {ROOT / 'tests' / 'bots' / 'misbehaving_bot.py'}"
#: The same program by a name that is the same on every machine: a bot's seed follows from its
#: kind, so the games below (and how many decisions each bot makes) are the same everywhere.
#: (Run from the project's folder: see ``from_the_project``.)
STABLE = "python3 tests/bots/misbehaving_bot.py"
BUILTINS_ONLY = {"SPOILER_PLUGINS": ""}


@pytest.fixture(scope="module")
def registry():
    return plugins.load(environ=BUILTINS_ONLY)


@pytest.fixture(autouse=True)
def setting(registry, monkeypatch, tmp_path):
    """The built-ins, loaded once, for the commands and for simulate's games (which keep the
    registry they load: given here, so that it goes when the test ends)."""
    monkeypatch.setattr(common, "load_registry", lambda: registry)
    monkeypatch.setattr(simulate, "_REGISTRY", registry)
    monkeypatch.setenv("SPOILER_BOT_LOGS", str(tmp_path / "logs"))


def cli(*args):
    return CliRunner().invoke(app, list(map(str, args)), env=BUILTINS_ONLY)


@pytest.fixture
def from_the_project(monkeypatch):
    if shutil.which("python3") is None:
        pytest.skip("needs python3 on PATH")
    monkeypatch.chdir(ROOT)


def faults_shown(screen: str) -> list[str]:
    return [line.strip() for line in screen.splitlines() if ": exec:" in line and "fault " in line]


def hellos(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


# ==============================================================================================
# Options
# ==============================================================================================
def test_options_are_names_to_text_and_think_is_short_for_the_option_think():
    assert bot_options.parse(["depth=3", "style=very bold"]) == {"depth": "3", "style": "very bold"}
    assert bot_options.parse([], think=800.0) == {"think": "800"}
    assert bot_options.parse(["think=50"], think=800.0) == {"think": "50"}  # the pair wins
    assert bot_options.parse(["a=1", "a=2"]) == {"a": "2"}  # the last one given


def test_bot_options_reach_a_program_bot_in_its_hello_and_the_record_keeps_them(tmp_path):
    told, path = tmp_path / "told.jsonl", tmp_path / "game.toml"
    result = cli(
        *("play", "--bots", 2, "--bot", f"exec:{MISBEHAVING} tell {told}", "--seed", 4),
        *("--bot-option", "depth=3", "--think", 50, "--record", path),
    )
    assert result.exit_code == 0, result.output
    assert [h["options"] for h in hellos(told)] == [{"think": "50", "depth": "3"}] * 2
    record = records.load(path)
    assert record.bot_options == {"think": "50", "depth": "3"}
    assert tomllib.loads(path.read_text())["options"]["bot_options"] == record.bot_options


def test_resume_gives_the_bots_their_recorded_options_and_time_limit_again(registry, tmp_path):
    told, path = tmp_path / "told.jsonl", tmp_path / "game.toml"
    kind = f"exec:{MISBEHAVING} tell {told}"
    played = cli(
        *("play", "--bots", 2, "--bot", kind, "--seed", 6, "--record", path),
        *("--bot-option", "depth=3", "--bot-time-limit", 7),
    )
    assert played.exit_code == 0, played.output
    cut_after_round(path, 1)
    told.unlink()
    resumed = cli("resume", path)
    assert resumed.exit_code == 0, resumed.output
    assert [h["options"] for h in hellos(told)] == [{"depth": "3"}] * 2
    record = records.load(path)
    assert record.bot_time_limit == 7.0 and record.over


def cut_after_round(path: Path, rounds: int, **options) -> None:
    """The record as if its game had stopped after ``rounds`` rounds (marked as edited),
    with ``options`` set in its options table."""
    data = tomllib.loads(path.read_text())
    del data["result"]
    data["rounds"] = data["rounds"][:rounds]
    data["options"].update(options)
    data["checksum"] = records.EDITED
    path.write_text(tomli_w.dumps(data))


def test_an_older_record_with_think_ms_resumes_with_the_same_thinking_time(tmp_path):
    """Records made before --bot-option kept ``--think`` as ``options.think_ms``: such a
    record resumes with the option think, so the expert plays on as it did."""
    straight, old = tmp_path / "straight.toml", tmp_path / "old.toml"
    args = ("play", "--bots", 2, "--bot", "expert", "--sets", "base", "--seed", 3)
    assert cli(*args, "--think", 5, "--record", straight).exit_code == 0
    old.write_text(straight.read_text())
    data = tomllib.loads(old.read_text())
    del data["options"]["bot_options"]
    old.write_text(tomli_w.dumps(data))
    cut_after_round(old, 1, think_ms=5.0)
    assert records.load(old).bot_options == {"think": "5"}
    resumed = cli("resume", old)
    assert resumed.exit_code == 0, resumed.output
    assert records.load(old).result == records.load(straight).result
    assert [r.log for r in records.load(old).rounds] == [
        r.log for r in records.load(straight).rounds
    ]


def test_a_record_with_options_that_are_not_names_to_text_is_refused(tmp_path):
    path = tmp_path / "game.toml"
    assert cli("play", "--bots", 2, "--seed", 1, "--record", path).exit_code == 0
    for bad, words in [
        ({"bot_options": {"depth": 3}}, "options.bot_options depth: the value must be text"),
        ({"bot_options": {"3d": "x"}}, "'3d' is not an option name"),
        ({"bot_time_limit": 0}, "options.bot_time_limit: 0 is not a time limit"),
        ({"bot_time_limit": "soon"}, "options.bot_time_limit: 'soon' is not a time limit"),
    ]:
        data = tomllib.loads(path.read_text())
        data["options"].update(bad)
        data["checksum"] = records.EDITED
        with pytest.raises(records.RecordError, match=words):
            records.parse(data)


BAD = [
    (["--bot-option", "depth"], "--bot-option 'depth': expected KEY=VALUE"),
    (["--bot-option", "3d=1"], "'3d' is not an option name"),
    (["--bot-option", "=1"], "'' is not an option name"),
    (["--think", "-5"], "--think must be more than 0 milliseconds"),
    (["--bot-time-limit", "0"], "--bot-time-limit: 0.0 is not a time limit"),
    (["--bot-time-limit", "-1"], "is not a time limit"),
    (["--bot-time-limit", "inf"], "is not a time limit"),
    (["--bot-time-limit", "nan"], "is not a time limit"),
]
COMMANDS = {
    "play": ["play", "--bots", "2", "--bot", "expert"],
    "host": ["host", "--seats", "1", "--bots", "1", "--bot", "expert"],
    "simulate": ["simulate", "--games", "1", "--bots", "expert,random", "--jobs", "1"],
    "ladder": ["ladder", "--games", "1", "--bots", "expert,random", "--jobs", "1"],
}


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize(
    ("args", "message"),
    [*BAD, (["--bot-option", "think=0"], "bot 'expert': think=0 is not a thinking time")],
)
def test_a_bad_bot_option_is_one_line_and_exit_2(command, args, message):
    result = cli(*COMMANDS[command], *args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr
    assert "Traceback" not in result.output


def test_simulate_and_the_ladder_give_every_bot_the_options(tmp_path):
    told = tmp_path / "told.jsonl"
    kind = f"exec:{MISBEHAVING} tell {told}"
    result = cli(
        *("simulate", "--games", 2, "--bots", f"{kind},random", "--jobs", 1, "--json"),
        *("--bot-option", "depth=3", "--bot-time-limit", 4),
    )
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert figures["bot_options"] == {"depth": "3"} and figures["bot_time_limit"] == 4.0
    assert [h["options"] for h in hellos(told)] == [{"depth": "3"}] * 2
    told.unlink()
    result = cli(
        *("ladder", "--games", 2, "--players", 2, "--bots", f"{kind}@style=bold,random"),
        *("--jobs", 1, "--json", "--bot-option", "depth=3", "--bot-option", "style=plain"),
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["plan"]["bot_options"] == {"depth": "3", "style": "plain"}
    # the kind's own option wins over --bot-option
    assert [h["options"] for h in hellos(told)] == [{"depth": "3", "style": "bold"}] * 2


# ==============================================================================================
# Faults: one line on the screen and in the record
# ==============================================================================================
def test_a_bot_that_sleeps_past_the_time_limit_faults_and_the_record_keeps_the_limit(
    tmp_path, from_the_project
):
    path = tmp_path / "game.toml"
    result = cli(
        *("play", "--bots", 2, "--bot", f"exec:{STABLE} sleep", "--seed", 1),
        *("--bot-time-limit", 0.3, "--record", path),
    )
    assert result.exit_code == 0, result.output
    # (A reply that comes late may yet be read for a later decision and be refused as
    # illegal there: how many faults say "no reply" depends on the machine's load.)
    shown = faults_shown(result.stdout)
    assert len(shown) == 6 and "no reply within 0.3 s" in result.stdout
    record = records.load(path)
    assert record.bot_time_limit == 0.3
    assert sum(len(r.faults) for r in record.rounds) == 6


def test_each_fault_is_one_line_on_the_screen_and_in_the_record_and_replay_tells_it(
    tmp_path, from_the_project
):
    """Seed 1 gives each bot more than three decisions: three faults each, the third saying
    (once) that random legal choices play its seat from then on."""
    path = tmp_path / "game.toml"
    result = cli(
        *("play", "--bots", 2, "--bot", f"exec:{STABLE} garbage", "--seed", 1),
        *("--record", path),
    )
    assert result.exit_code == 0, result.output
    shown = faults_shown(result.stdout)
    for name in ("Ada", "Bix"):
        mine = [line for line in shown if line.startswith(f"{name}: exec:")]
        assert [f"fault {n} of 3" in line for n, line in enumerate(mine, 1)] == [True] * 3
        assert sum("random legal choices play its seat now" in line for line in mine) == 1
    assert "fault" not in result.stderr
    record = records.load(path)
    kept = [(f["seat"], f["fault"]) for r in record.rounds for f in r.faults]
    assert len(kept) == 6
    names = record.names
    assert sorted(f"{names[seat]}: {text}" for seat, text in kept) == sorted(shown)
    assert records.load(path).over and cli("replay", "--verify", path).exit_code == 0
    replayed = cli("replay", path)
    assert replayed.exit_code == 0, replayed.output
    assert sorted(faults_shown(replayed.stdout)) == sorted(shown)


def test_a_fault_line_never_shows_what_the_bot_sent_which_goes_to_its_log(tmp_path):
    """An illegal reply may name a card in the bot's hand: the screen and the record say only
    that it was illegal; the bot's log has the reply."""
    path = tmp_path / "game.toml"
    result = cli(
        *("play", "--bots", 2, "--bot", f"exec:{MISBEHAVING} illegal", "--seed", 5),
        *("--record", path),
    )
    assert result.exit_code == 0, result.output
    assert "its reply is not one of the legal selections" in result.stdout
    assert "no-such-card" not in result.stdout and "no-such-card" not in path.read_text()
    logs = "".join(p.read_text() for p in (tmp_path / "logs").iterdir())
    assert "no-such-card" in logs


def test_simulate_tells_each_fault_on_stderr_with_its_game(tmp_path):
    result = cli(
        *("simulate", "--games", 1, "--bots", f"exec:{MISBEHAVING} garbage,random"),
        *("--jobs", 1, "--json"),
    )
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stderr.splitlines() if "fault" in line]
    assert len(lines) == 3 and all(
        line.startswith("spoiler: game 0, seat 1: exec:") for line in lines
    )


def test_the_environment_tells_an_opponents_faults_on_stderr(capfd):
    pytest.importorskip("pettingzoo")
    from spoiler.env import raw_env

    env = raw_env(2, ["base"], opponents=f"exec:{MISBEHAVING} garbage")
    env.reset(seed=1)
    for _agent in env.agent_iter():
        _obs, _reward, termination, truncation, info = env.last()
        env.step(None if termination or truncation else info["actions"][0])
    env.close()
    lines = [line for line in capfd.readouterr().err.splitlines() if "fault" in line]
    assert lines and all(line.startswith("spoiler.env: seat 2: exec:") for line in lines)
