"""The directory of known sets: `spoiler sets list --available` and docs/sets.md list the
same distributions, the shipped expansions among them, and the command tells which are
installed here and how to install the others."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spoiler.commands import app
from spoiler.commands import sets as sets_command

ROOT = Path(__file__).resolve().parents[1]
PAGE = (ROOT / "docs" / "sets.md").read_text(encoding="utf-8")
KNOWN = sets_command.known_distributions()


@pytest.mark.parametrize("known", KNOWN, ids=lambda k: k["name"])
def test_the_directory_page_has_every_known_distribution_with_its_sets_and_install_command(
    known,
):
    row = next((line for line in PAGE.splitlines() if f"| `{known['name']}` |" in line), "")
    assert row, f"docs/sets.md has no row for {known['name']}"
    for name in known["sets"]:
        assert f"`{name}`" in row
    assert known["about"] in row
    assert f"`spoiler install {known['name']}`" in row


def test_every_row_of_the_directory_page_is_a_known_distribution():
    rows = [line for line in PAGE.splitlines() if line.startswith("| `")]
    assert len(rows) == len(KNOWN)


@pytest.mark.parametrize("project", sorted((ROOT / "expansions").glob("*/pyproject.toml")))
def test_each_shipped_expansion_is_a_known_distribution_with_its_sets(project):
    meta = tomllib.loads(project.read_text(encoding="utf-8"))["project"]
    known = {k["name"]: k["sets"] for k in KNOWN}
    assert meta["name"] in known
    assert sorted(known[meta["name"]]) == sorted(meta["entry-points"]["spoiler"])


def test_sets_list_available_gives_the_installed_version_and_how_to_install_the_others(
    monkeypatch,
):
    elsewhere = {"name": "spoiler-nowhere", "sets": ["nowhere"], "about": "Not installed."}
    monkeypatch.setattr(sets_command, "known_distributions", lambda: [*KNOWN, elsewhere])
    result = CliRunner().invoke(app, ["sets", "list", "--available"])
    assert result.exit_code == 0, result.output
    directory = result.stdout.split("Known expansions")[1].splitlines()
    chrono = next(line for line in directory if line.startswith("spoiler-chrono"))
    assert chrono.split()[:3] == ["spoiler-chrono", "chrono", "0.1.0"]
    nowhere = next(line for line in directory if line.startswith("spoiler-nowhere"))
    assert nowhere.split()[:3] == ["spoiler-nowhere", "nowhere", "-"]
    assert directory[-1] == "Install with: spoiler install spoiler-nowhere"


def test_sets_list_without_available_lists_no_directory():
    result = CliRunner().invoke(app, ["sets", "list"])
    assert "Known expansions" not in result.stdout
