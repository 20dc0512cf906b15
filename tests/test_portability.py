"""Spoiler declares POSIX (docs/installing.md, "Platforms"): where a POSIX-only call is
missing, record writing and ``sets validate`` still work, and say so where they do less.
Each test hides the feature (``os.O_NOFOLLOW``; child processes, which need ``pass_fds`` and
``select()`` on pipes) and shows what a user gets there."""

from __future__ import annotations

import json
import os

import pytest
from typer.testing import CliRunner

from spoiler.agents import process
from spoiler.commands import app
from spoiler.plugins import isolation
from spoiler.session import recordfile

BUILTINS_ONLY = {"SPOILER_PLUGINS": ""}


def test_without_o_nofollow_or_flock_a_new_record_is_written_and_read_back(tmp_path, monkeypatch):
    monkeypatch.delattr(os, "O_NOFOLLOW", raising=False)
    monkeypatch.setattr(recordfile, "fcntl", None)
    path = tmp_path / "game.toml"
    with recordfile.RecordFile.create(path) as held:
        held.write(b"seed = 1\n")
    assert path.read_bytes() == b"seed = 1\n"


def test_without_o_nofollow_a_symlink_put_at_the_path_after_the_check_is_refused(
    tmp_path, monkeypatch
):
    """The race O_NOFOLLOW closes: a symlink appears at the resolved path between the check
    and the create. O_EXCL alone refuses it, and nothing is created where it points."""
    monkeypatch.delattr(os, "O_NOFOLLOW", raising=False)
    target = tmp_path / "elsewhere.toml"
    path = tmp_path / "game.toml"
    path.symlink_to(target)
    monkeypatch.setattr(recordfile, "real_path", lambda p: p)  # resolved before it appeared
    with pytest.raises(recordfile.FileProblem, match="it exists"):
        recordfile.RecordFile.create(path)
    assert not target.exists()


def validate(*args: str):
    return CliRunner().invoke(
        app,
        ["sets", "validate", "base", "--games", "3", "--seed", "5", "--json", *args],
        env=BUILTINS_ONLY,
    )


def test_without_child_processes_sets_validate_runs_in_its_own_process_and_says_so(
    monkeypatch,
):
    """Where pass_fds and select() on pipes are missing (Windows), the sets are validated in
    the command's own process, with the same verdict, and one line on stderr says what that
    costs; stdout stays JSON."""
    with_children = validate()
    monkeypatch.setattr(isolation, "CHILDREN", False)
    monkeypatch.setattr(isolation, "validate", lambda *a, **k: pytest.fail("a child was made"))
    here = validate()
    assert here.exit_code == with_children.exit_code == 0, here.stderr
    assert json.loads(here.stdout) == json.loads(with_children.stdout)
    assert here.stderr.splitlines() == [isolation.IN_PROCESS]
    assert isolation.IN_PROCESS not in with_children.stderr


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_without_posix_an_exec_bot_is_refused_in_one_line(monkeypatch, command):
    """A bot that is a program is waited on with select() on its pipe and ended with its
    process group: where those are missing, ``--bot exec:...`` is one line, exit 2."""
    monkeypatch.setattr(process, "POSIX", False)
    option = "--bot" if command == "play" else "--bots"
    result = CliRunner().invoke(
        app,
        [command, "--bots" if command == "play" else "--games", "2", option, "exec:python3"],
        env=BUILTINS_ONLY,
    )
    assert result.exit_code == 2, (result.stdout, result.exception)
    assert result.stderr.splitlines() == [result.stderr.strip()]
    assert result.stderr.startswith("Error: ") and process.NOT_POSIX in result.stderr
