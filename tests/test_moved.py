"""API 1's module paths still import after the core moved into layers (issue 18: "old module
paths re-export for API 1"): each is the very module at its new path, so code written for
API 1, its monkeypatches included, works unchanged."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from spoiler.moved import MOVED, MOVED_PACKAGES


@pytest.mark.parametrize(("old", "new"), sorted(MOVED.items()))
def test_an_old_path_is_the_module_at_its_new_path(old, new):
    moved = importlib.import_module(old)
    assert moved is importlib.import_module(new)
    assert moved.__spec__.name == new  # the module keeps its own spec (pickling, reloading)


def test_the_names_card_authors_imported_from_api_1_paths_are_there():
    from spoiler.cards import ANOTHER_PLAYER, CardSet, NameACard, Ongoing  # noqa: F401
    from spoiler.engine import Game, Play, Result, Seat  # noqa: F401
    from spoiler.state import Status  # noqa: F401
    from spoiler.views import PlayerView, Question, Selection  # noqa: F401


def test_a_patch_through_an_old_path_reaches_the_code_at_the_new_one(monkeypatch):
    import spoiler.cli.common as old
    import spoiler.commands.common as new

    monkeypatch.setattr(old, "load_registry", lambda: "patched")
    assert new.load_registry() == "patched"


def test_a_path_that_never_existed_is_still_not_found():
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("spoiler.no_such_module")


def test_an_old_path_imports_in_a_fresh_interpreter():
    """As a plugin written for API 1 does, first thing: no other import has run before."""
    done = subprocess.run(
        [sys.executable, "-c", "from spoiler.engine import Play; from spoiler.cards import Card"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("old", "new"),
    [
        *sorted(MOVED_PACKAGES.items()),
        ("spoiler_bots.expert", "spoiler_game.bots.expert"),
        ("spoiler_base.cards", "spoiler_game.base.cards"),
        ("spoiler_host.server", "spoiler_game.host.server"),
    ],
)
def test_a_built_in_plugins_old_name_is_its_module_inside_spoiler_game(old, new):
    """spoiler_bots and the others were top-level packages; they are spoiler_game.bots ...
    now, and the old names import for one release (docs/architecture.md, "Built-in plugins")."""
    moved = importlib.import_module(old)
    assert moved is importlib.import_module(new)
    assert moved.__spec__.name == new


def test_a_built_in_plugins_old_name_imports_in_a_fresh_interpreter():
    done = subprocess.run(
        [sys.executable, "-c", "import spoiler; from spoiler_bots.greedy import GreedyAgent"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_a_real_package_of_an_old_name_wins_over_the_alias(tmp_path):
    """A third party's spoiler-bots may have a package spoiler_bots: the name is no longer
    spoiler-game's, so that package is the one imported, and its modules are its own."""
    (tmp_path / "spoiler_bots").mkdir()
    (tmp_path / "spoiler_bots" / "__init__.py").write_text("WHOSE = 'theirs'\n")
    code = (
        "import spoiler, spoiler_bots\n"
        "print(spoiler_bots.WHOSE)\n"
        "try:\n"
        "    import spoiler_bots.greedy\n"
        "except ModuleNotFoundError:\n"
        "    print('no greedy')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["theirs", "no", "greedy"]
