"""A set whose distribution is installed but declares no ``spoiler`` entry point (issue 21,
item 9): every place that looks the set up names the distribution and the fix, the
``[project.entry-points.spoiler]`` table, instead of "no set named 'oops'"."""

from __future__ import annotations

import sys

import pytest
from typer.testing import CliRunner

from spoiler import plugins
from spoiler.cli import app
from spoiler.cli import sets as sets_cli

FIX = (
    "distribution 'spoiler-oops' is installed but declares no 'spoiler' entry point: add "
    '[project.entry-points.spoiler] with oops = "spoiler_oops" (the module that registers '
    "its sets) to its pyproject.toml, and install it again"
)


@pytest.fixture
def oops_installed(tmp_path, monkeypatch):
    """spoiler-oops 0.1.0, installed (a dist-info on sys.path) with no entry points at all,
    as `pip install` leaves a set whose pyproject.toml forgot them."""
    info = tmp_path / "spoiler_oops-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: spoiler-oops\nVersion: 0.1.0\nRequires-Dist: spoiler-game\n"
    )
    (tmp_path / "spoiler_oops.py").write_text("")
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    monkeypatch.setattr(sets_cli, "ISOLATE", False)


def test_a_set_whose_distribution_has_no_entry_point_is_named_with_the_fix(oops_installed):
    with pytest.raises(plugins.UnknownName) as caught:
        plugins.load({}).card_sets(["oops"])
    assert str(caught.value).startswith("no set named 'oops' (installed: base")
    assert str(caught.value).endswith(f"; {FIX}")


def test_sets_validate_names_the_missing_entry_point(oops_installed):
    result = CliRunner().invoke(app, ["sets", "validate", "oops", "--games", "1"])
    assert result.exit_code == 2
    assert FIX in " ".join(result.stderr.split())


def test_sets_list_notes_a_distribution_with_no_entry_point(oops_installed):
    result = CliRunner().invoke(app, ["sets", "list", "--json"])
    assert result.exit_code == 0
    assert "spoiler-oops" not in result.stdout  # the JSON lists sets, and it has none
    assert f"Note: {FIX}." in " ".join(result.stderr.split())


def test_the_card_sets_fixture_names_the_fix(oops_installed, card_sets):
    with pytest.raises(pytest.fail.Exception, match="declares no 'spoiler' entry point: add"):
        card_sets("oops")


def test_an_unknown_set_with_no_such_distribution_is_told_as_before(oops_installed):
    with pytest.raises(plugins.UnknownName) as caught:
        plugins.load({}).card_sets(["nope"])
    assert "entry point" not in str(caught.value)
