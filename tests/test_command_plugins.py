"""Commands are plugins (issue 18): every command is an entry point of the group
``spoiler.commands``; spoiler-game's own resolve from a static table, another distribution's
are found from its metadata, listed by ``spoiler --help`` with their distribution, limited by
SPOILER_PLUGINS, and reported (never a traceback) when broken or claimed twice."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from spoiler import entrypoints
from spoiler.cli import app
from spoiler.commands import discovery
from spoiler.commands.builtin import BUILTIN
from spoiler.commands.group import command_from
from spoiler.testing import FakeEntryPoint

ROOT = Path(__file__).resolve().parents[1]


def tournament_app() -> typer.Typer:
    tournament = typer.Typer(add_completion=False)

    @tournament.command()
    def run(rounds: int = typer.Option(3, "--rounds")) -> None:
        """Play a tournament of bots."""
        typer.echo(f"A tournament of {rounds} rounds.")

    return tournament


class BrokenOnImport:
    """Stands for a command module that raises as it is imported."""


def fake(name: str, plugin=None, **kwargs) -> FakeEntryPoint:
    kwargs.setdefault("summary", "Tournaments of bots for Spoiler.")
    return FakeEntryPoint(name, plugin, **kwargs)


@pytest.fixture
def installed(monkeypatch):
    """Installs fake ``spoiler.commands`` entry points (beside spoiler-game's own)."""

    def install(*entry_points):
        monkeypatch.setattr(discovery, "installed", lambda group: list(entry_points))

    return install


def run(*args, env=None):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "100", **(env or {})})


# -- spoiler-game's own commands ---------------------------------------------------------------
def test_the_builtin_table_is_spoiler_games_own_entry_points():
    """builtin.py, pyproject.toml and the installed metadata name the same commands, in the
    same order, with the same objects."""
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    in_pyproject = declared["project"]["entry-points"]["spoiler.commands"]
    assert list(in_pyproject.items()) == [(n, target) for n, (target, _) in BUILTIN.items()]
    own = [
        ep
        for ep in metadata.entry_points(group="spoiler.commands")
        if entrypoints.normalise(ep.dist.name) == "spoiler-game"
    ]
    assert {ep.name: ep.value for ep in own} == in_pyproject


@pytest.mark.parametrize("name", list(BUILTIN))
def test_a_builtins_summary_in_the_table_is_its_own_short_help(name):
    """`spoiler --help` shows the table's line without importing the command: it must be
    what the command says of itself."""
    target, summary = BUILTIN[name]
    assert command_from(target).get_short_help_str(limit=1000) == summary


def test_spoiler_play_reads_no_entry_points(monkeypatch):
    """A built-in command resolves from the table: running it finds no other command."""

    def refuse(*args, **kwargs):
        raise AssertionError("entry points were scanned")

    monkeypatch.setattr(discovery, "find", refuse)
    monkeypatch.setattr(entrypoints, "installed", refuse)
    for args in (["play", "--help"], ["sets", "list", "--json"], ["rules", "--help"]):
        result = run(*args, env={"SPOILER_PLUGINS": ""})
        assert result.exit_code == 0, result.output


# -- finding the entry points ------------------------------------------------------------------
@pytest.mark.parametrize("group", ["spoiler", "spoiler.commands", "console_scripts", "pytest11"])
def test_the_quick_reading_of_entry_points_agrees_with_importlib_metadata(group):
    """spoiler.entrypoints.installed reads the files importlib.metadata reads, itself."""
    quick = {
        (ep.name, ep.value, ep.distribution, ep.version) for ep in entrypoints.installed(group)
    }
    slow = {
        (ep.name, ep.value, entrypoints.normalise(ep.dist.name), ep.dist.version)
        for ep in metadata.entry_points(group=group)
    }
    assert quick and quick == slow


def test_the_quick_reading_takes_the_first_distribution_of_a_name(tmp_path):
    for where, version in (("first", "1.0"), ("second", "2.0")):
        info = tmp_path / where / f"spoiler_twice-{version}.dist-info"
        info.mkdir(parents=True)
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: spoiler-twice\nVersion: {version}\n"
            "Summary: Twice installed.\n\nThe description: Name: not a header.\n"
        )
        (info / "entry_points.txt").write_text(
            "# a comment\n[console_scripts]\nx = y:z\n\n[spoiler.commands]\ntwice = twice:app\n"
        )
    [found] = entrypoints.installed(
        "spoiler.commands", [str(tmp_path / "first"), str(tmp_path / "second")]
    )
    assert (found.name, found.value, found.distribution, found.version, found.summary) == (
        "twice",
        "twice:app",
        "spoiler-twice",
        "1.0",
        "Twice installed.",
    )


# -- who has which name ------------------------------------------------------------------------
def status(infos, name, dist):
    [info] = [i for i in infos if i.name == name and i.distribution == dist]
    return info.status, info.error


def test_spoiler_plugins_limits_commands_as_it_limits_sets():
    found = discovery.find({"SPOILER_PLUGINS": "spoiler-other"}, [fake("tournament")])
    assert status(found, "tournament", "spoiler-tournament") == (
        "disabled",
        "distribution 'spoiler-tournament' is not listed in SPOILER_PLUGINS",
    )
    assert all(i.status == "ok" for i in found if i.builtin)  # the built-ins always


def test_a_command_name_two_distributions_claim_goes_to_neither():
    found = discovery.find(
        {}, [fake("tournament", dist="spoiler-a"), fake("tournament", dist="spoiler-b")]
    )
    assert status(found, "tournament", "spoiler-a") == (
        "broken",
        "command name 'tournament' is also claimed by distribution 'spoiler-b'; neither is loaded",
    )
    assert status(found, "tournament", "spoiler-b")[0] == "broken"


def test_another_distribution_cannot_take_a_builtin_commands_name():
    found = discovery.find({}, [fake("play", dist="spoiler-evil")])
    assert status(found, "play", "spoiler-evil") == (
        "broken",
        "command name 'play' belongs to the built-in command of spoiler-game; not loaded",
    )
    assert status(found, "play", "spoiler-game") == ("ok", None)


# -- the command line --------------------------------------------------------------------------
def test_another_distributions_command_is_listed_with_its_distribution_and_runs(installed):
    installed(fake("tournament", tournament_app()))
    listed = run("--help").stdout
    assert "tournament  Tournaments of bots for Spoiler. (spoiler-tournament)" in listed
    assert listed.index("plugins ") < listed.index("tournament ")  # after the built-ins
    result = run("tournament", "--rounds", "5")
    assert result.exit_code == 0, result.output
    assert result.stdout == "A tournament of 5 rounds.\n"


def test_a_command_written_with_click_itself_runs_and_fails_as_ours_do(installed):
    click = pytest.importorskip("click")

    @click.command()
    @click.option("--rounds", type=int, default=3)
    def bracket(rounds):
        """A bracket of bots."""
        click.echo(f"{rounds} rounds")

    installed(fake("bracket", bracket))
    assert run("bracket", "--rounds", "2").stdout == "2 rounds\n"
    done = subprocess.run(
        [sys.executable, "-c", CLICK_PROBE],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip().splitlines() == [
        "Error: Invalid value for '--rounds': 'x' is not a valid integer. "
        "Try: spoiler bracket --help"
    ]


#: `spoiler bracket --rounds x` in a process of its own (a usage error exits the process).
CLICK_PROBE = """
import sys, click
from spoiler.commands import discovery
from spoiler.testing import FakeEntryPoint

@click.command()
@click.option("--rounds", type=int, default=3)
def bracket(rounds):
    pass

discovery.installed = lambda group: [FakeEntryPoint("bracket", bracket)]
sys.argv = ["spoiler", "bracket", "--rounds", "x"]
from spoiler.cli import main
main()
"""


def test_a_command_that_fails_to_import_is_reported_in_one_line(installed):
    installed(fake("tournament", error=RuntimeError("no bracket today")))
    result = run("tournament", "--rounds", "5")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.stderr.strip().splitlines() == [
        "Error: command 'tournament' of spoiler-tournament failed to import: "
        "RuntimeError: no bracket today (see `spoiler plugins`)"
    ]
    assert run("sets", "list").exit_code == 0  # everything else still works
    rows = {r["name"]: r for r in json.loads(run("plugins", "--json").stdout)["plugins"]}
    assert rows["spoiler tournament"] == {
        "name": "spoiler tournament",
        "command": "tournament",
        "distribution": "spoiler-tournament",
        "version": "1.0",
        "builtin": False,
        "status": "broken",
        "error": "failed to import: RuntimeError: no bracket today",
        "sets": [],
        "bots": [],
        "hooks": [],
    }
    assert rows["spoiler play"]["status"] == "ok" and rows["spoiler play"]["builtin"]
    table = run("plugins", env={"COLUMNS": "200"}).stdout
    assert "failed to import: RuntimeError: no bracket today" in table


def test_something_that_is_no_command_is_reported(installed):
    installed(fake("tournament", BrokenOnImport()))
    result = run("tournament")
    assert result.exit_code == 1
    assert "is not a click command or a Typer app: BrokenOnImport" in result.stderr


def test_a_clash_is_reported_and_neither_command_runs(installed):
    installed(
        fake("tournament", tournament_app(), dist="spoiler-a"),
        fake("tournament", tournament_app(), dist="spoiler-b"),
    )
    assert "claimed by spoiler-a and spoiler-b: neither is loaded" in " ".join(
        run("--help").stdout.split()
    )
    result = run("tournament")
    assert result.exit_code == 1 and "A tournament" not in result.stdout
    assert "command 'tournament' is claimed by spoiler-a and spoiler-b" in result.stderr
    rows = {r["name"]: r for r in json.loads(run("plugins", "--json").stdout)["plugins"]}
    assert rows["spoiler tournament (spoiler-a)"]["status"] == "broken"
    assert (
        "also claimed by distribution 'spoiler-a'"
        in rows["spoiler tournament (spoiler-b)"]["error"]
    )


def test_a_third_party_cannot_shadow_a_builtin_command(installed):
    installed(fake("play", tournament_app(), dist="spoiler-evil"))
    result = run("play", "--help")
    assert result.exit_code == 0 and "Play a game against bots" in result.stdout
    rows = {r["name"]: r for r in json.loads(run("plugins", "--json").stdout)["plugins"]}
    assert "belongs to the built-in command" in rows["spoiler play (spoiler-evil)"]["error"]


def test_a_command_left_out_by_spoiler_plugins_is_not_there(installed):
    installed(fake("tournament", tournament_app()))
    for allowed in ("", "spoiler-chrono"):
        environ = {"SPOILER_PLUGINS": allowed}
        assert "tournament" not in run("--help", env=environ).stdout
        result = run("tournament", env=environ)
        assert result.exit_code == 2 and "No such command 'tournament'" in result.stderr
    result = run("tournament", env={"SPOILER_PLUGINS": "spoiler-tournament"})
    assert result.exit_code == 0 and "A tournament of 3 rounds." in result.stdout


# -- a real distribution, installed with pip ---------------------------------------------------
TOURNAMENT = '''"""spoiler tournament: a command another distribution adds."""

import typer

app = typer.Typer(add_completion=False)


@app.command()
def tournament(rounds: int = typer.Option(3, "--rounds", help="Rounds to play.")) -> None:
    """Play a tournament of bots."""
    typer.echo(f"A tournament of {rounds} rounds.")
'''

PYPROJECT = """[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[project]
name = "spoiler-tournament"
version = "0.4.0"
description = "Tournaments of bots for Spoiler."
dependencies = ["spoiler-game"]

[project.entry-points."spoiler.commands"]
tournament = "spoiler_tournament:app"
"""


def test_a_command_plugin_installed_with_pip_is_listed_and_runs(tmp_path):
    """pip installs spoiler-tournament (offline, into a folder on the path): `spoiler --help`
    lists its command, which runs; SPOILER_PLUGINS can leave it out."""
    project = tmp_path / "spoiler-tournament"
    (project / "spoiler_tournament").mkdir(parents=True)
    (project / "spoiler_tournament" / "__init__.py").write_text(TOURNAMENT)
    (project / "pyproject.toml").write_text(PYPROJECT)
    target = tmp_path / "site"
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index"]
    pip += ["--no-build-isolation", "--target", str(target), str(project)]
    subprocess.run(pip, check=True, capture_output=True, timeout=300)

    def spoiler(*args, **env):
        return subprocess.run(
            [sys.executable, "-c", "from spoiler.cli import main; main()", *args],
            capture_output=True,
            text=True,
            timeout=60,
            env={"PYTHONPATH": str(target), "COLUMNS": "100", "PATH": "/usr/bin:/bin", **env},
        )

    listed = spoiler("--help")
    assert "tournament  Tournaments of bots for Spoiler. (spoiler-tournament)" in listed.stdout
    played = spoiler("tournament", "--rounds", "2")
    assert played.returncode == 0 and played.stdout == "A tournament of 2 rounds.\n", played.stderr
    rows = {r["name"]: r for r in json.loads(spoiler("plugins", "--json").stdout)["plugins"]}
    assert rows["spoiler tournament"]["version"] == "0.4.0"
    assert rows["spoiler tournament"]["status"] == "ok"
    left_out = spoiler("tournament", SPOILER_PLUGINS="")
    assert left_out.returncode == 2 and "No such command 'tournament'" in left_out.stderr


def test_an_error_no_handler_expects_is_reported_as_itself():
    """With Typer 0.28, click's ``Abort`` and ``Exit`` live in ``typer`` and not beside the
    other exceptions: looking for them there turned every unexpected error (the TypeError of
    "Play again?" after ``--record``, issue 20) into an AttributeError of the error handling."""
    done = subprocess.run(
        [sys.executable, "-c", FAILING_PROBE], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1
    assert "ZeroDivisionError" in done.stderr and "AttributeError" not in done.stderr


#: `spoiler divide`, a command that fails with an error nobody expects.
FAILING_PROBE = """
import sys, typer
from spoiler.commands import discovery
from spoiler.testing import FakeEntryPoint

divide = typer.Typer()

@divide.command()
def run():
    1 / 0

discovery.installed = lambda group: [FakeEntryPoint("divide", divide)]
sys.argv = ["spoiler", "divide"]
from spoiler.cli import main
main()
"""
