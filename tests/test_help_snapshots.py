"""Every command's --help at 80 columns, as a user reads it, compared with a snapshot in
tests/help/ (issue 11): the whole one-line summaries, the Examples sections, the options.

A change to a command's help fails here until its snapshot is written again, on purpose:

    SPOILER_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_help_snapshots.py

(a new command gets its snapshot the same way). Then read the diff of tests/help/ before
committing it: it is the help as users will see it.

Typer lays help out a little differently from one version to the next ("COMMAND" or
"[COMMAND]"), so the snapshots are compared only under the Typer that wrote them
(tests/help/TYPER); under another, the checks that hold for every version still run.
"""

from __future__ import annotations

import os
from importlib import metadata
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from spoiler.cli import app

SNAPSHOTS = Path(__file__).parent / "help"
UPDATE = os.environ.get("SPOILER_UPDATE_SNAPSHOTS") == "1"
WIDTH = 80
TYPER = metadata.version("typer")
WRITTEN_BY = SNAPSHOTS / "TYPER"


def commands(group=None, path=()):
    """Every command path: (), ("play",), ("sets", "list") …"""
    group = group or typer.main.get_command(app)
    yield path
    for name, command in getattr(group, "commands", {}).items():
        if not command.hidden:
            yield from commands(command, (*path, name))


def help_text(path) -> str:
    result = CliRunner().invoke(
        app, [*path, "--help"], prog_name="spoiler", terminal_width=WIDTH, env={"COLUMNS": "80"}
    )
    assert result.exit_code == 0, result.output
    return result.stdout


def snapshot_of(path) -> Path:
    return SNAPSHOTS / ("-".join(("spoiler", *path)) + ".txt")


PATHS = sorted(commands())


@pytest.mark.parametrize("path", PATHS, ids=lambda p: " ".join(("spoiler", *p)))
def test_help_matches_its_snapshot(path):
    text = help_text(path)
    snapshot = snapshot_of(path)
    if UPDATE:
        snapshot.parent.mkdir(exist_ok=True)
        snapshot.write_text(text, encoding="utf-8")
        WRITTEN_BY.write_text(TYPER + "\n", encoding="utf-8")
    written_by = WRITTEN_BY.read_text(encoding="utf-8").strip()
    if written_by != TYPER:
        pytest.skip(f"the snapshots were written under Typer {written_by}; this is {TYPER}")
    assert snapshot.exists(), (
        f"no snapshot of `{' '.join(('spoiler', *path))} --help`: write it with "
        "SPOILER_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_help_snapshots.py"
    )
    assert text == snapshot.read_text(encoding="utf-8"), (
        f"`{' '.join(('spoiler', *path))} --help` changed; if that is meant, write its "
        "snapshot again: SPOILER_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_help_snapshots.py"
    )


@pytest.mark.parametrize("path", PATHS, ids=lambda p: " ".join(("spoiler", *p)))
def test_help_fits_80_columns_and_has_examples(path):
    text = help_text(path)
    assert all(len(line) <= WIDTH for line in text.splitlines()), text
    assert "Examples:" in text


def test_every_snapshot_is_of_a_command_that_exists():
    known = {snapshot_of(p).name for p in PATHS}
    stale = sorted(p.name for p in SNAPSHOTS.glob("*.txt") if p.name not in known)
    assert not stale, f"snapshots of commands that no longer exist: {stale}"


def test_the_commands_are_listed_each_on_one_line_play_first():
    text = help_text(())
    listed = text.split("Commands:\n")[1].split("\n\n")[0].splitlines()
    assert listed[0].split()[0] == "play"
    assert all(line.startswith("  ") and not line.startswith("   ") for line in listed), listed


#: The docs site's page of every command's --help, made of the snapshots above (so it is as
#: current as they are, under any Typer). Written with them by SPOILER_UPDATE_SNAPSHOTS=1.
HELP_PAGE = Path(__file__).resolve().parents[1] / "docs" / "cli-help.md"


def help_page() -> str:
    parts = [
        "# Every command's `--help`\n\n"
        "What `spoiler COMMAND --help` prints, for every command and subcommand, at 80\n"
        "columns. This page is generated from the help snapshots in `tests/help/` (which\n"
        "`tests/test_help_snapshots.py` compares with the real program) and checked by that\n"
        "test: do not edit it; write it again with\n"
        "`SPOILER_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_help_snapshots.py`.\n"
        "The options are explained in the [command line reference](cli.md).\n"
    ]
    for path in PATHS:
        text = snapshot_of(path).read_text(encoding="utf-8").rstrip()
        parts.append(f"## `{' '.join(('spoiler', *path))}`\n\n```text\n{text}\n```\n")
    return "\n".join(parts)


def test_the_docs_page_of_every_help_is_the_snapshots():
    page = help_page()
    if UPDATE:
        HELP_PAGE.write_text(page, encoding="utf-8")
    assert HELP_PAGE.exists() and HELP_PAGE.read_text(encoding="utf-8") == page, (
        "docs/cli-help.md is not the help snapshots: write it again with "
        "SPOILER_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_help_snapshots.py"
    )
