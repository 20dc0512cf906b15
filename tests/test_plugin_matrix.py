"""The plugin-misbehaviour matrix (issue 13): each misbehaving plugin, installed for real,
against `sets list --json`, `plugins --json`, `sets validate --json` and `play`. No command
shows a traceback, none exits 0 without saying what went wrong, `--json` stays JSON.

`sets list`, `plugins` and `play` run as real `spoiler` processes; `sets validate` runs in
this process (it never imports a plugin itself: its child processes do), with its time
limits shortened so the hanging and looping cases stay quick.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spoiler import isolation, validation
from spoiler.cli import app

sys.path.insert(0, str(Path(__file__).parent))
from misbehaving import (
    CASES,
    EXPECT,
    PRINTED_IN_GAME,
    command_for,
    environ,
    install,
    run,
    verdict,
)

PAIRS = [(case, command) for case, commands in EXPECT.items() for command in commands]


@pytest.fixture(scope="module")
def sites(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("sites")
    return {case: install(case, root) for case in CASES}


@pytest.mark.parametrize("case, command", PAIRS, ids=[f"{c}-{m}" for c, m in PAIRS])
def test_a_misbehaving_plugin_is_reported_never_a_crash_or_a_silent_pass(
    sites, monkeypatch, case, command
):
    monkeypatch.chdir(sites[case])  # whatever a stopped game saves stays out of the way
    if command == "sets validate":
        monkeypatch.setattr(isolation, "IMPORT_SECONDS", 2.0)
        monkeypatch.setattr(validation, "ROUND_SECONDS", 0.5)
        result = CliRunner().invoke(app, command_for(case, command), env=environ(case, sites[case]))
        assert isinstance(result.exception, SystemExit | None), result.exception
        done = subprocess.CompletedProcess([], result.exit_code, result.stdout, result.stderr)
    else:
        done = run(case, command, sites[case])
    assert verdict(case, command, done) is None, verdict(case, command, done)


@pytest.mark.parametrize("command", ["sets validate", "simulate", "simulate in processes"])
def test_what_plugin_code_prints_during_games_goes_to_stderr_never_into_json(sites, command):
    """A hook and a card effect that call print(), in the games of a --json command played
    by real processes (the parent, its pool's workers, validation's children): stdout is
    the JSON alone, and what they printed is on stderr."""
    done = run("prints_in_game", command, sites["prints_in_game"])
    assert done.returncode == 0, done.stderr[-300:]
    json.loads(done.stdout)
    assert "hello from" not in done.stdout
    assert re.search(PRINTED_IN_GAME, done.stderr, re.S)
