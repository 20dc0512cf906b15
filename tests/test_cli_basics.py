"""The minimal CLI: ``spoiler --version``, ``--help`` and ``rules``; and ``--help`` and
``--version`` stay light (they import neither the engine nor any plugin)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

import spoiler
from spoiler.cli import app
from spoiler.commands import engine_build

runner = CliRunner()


def test_version_prints_the_version():
    """``spoiler --version`` prints the installed version and exits 0."""
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    built = "" if engine_build() == "pure Python" else " (compiled engine)"
    assert result.stdout == f"spoiler {spoiler.__version__}{built}\n"


def test_the_version_line_says_whether_the_engine_is_compiled():
    """``engine_build`` (read by ``--version``) tells the engine module that is really
    imported: an extension module when it was built with mypyc, its source otherwise."""
    import spoiler.rules.game as engine

    compiled = not engine.__file__.endswith(".py")
    assert engine_build() == ("compiled" if compiled else "pure Python")
    # CI's compiled stage says so: there the engine must be the compiled one, or that stage
    # would test the pure engine twice.
    if os.environ.get("SPOILER_TEST_ENGINE") == "compiled":
        assert compiled, engine.__file__


def test_help_lists_the_commands():
    """``spoiler --help`` (and ``-h``, and no arguments) says what the program is and lists
    its commands."""
    for args in (["--help"], ["-h"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 0
        assert (
            "Usage" in result.stdout and "rules" in result.stdout and "--version" in result.stdout
        )
    bare = runner.invoke(app, [])
    assert "Usage" in bare.stdout and "rules" in bare.stdout


def test_rules_shows_the_seed_rules_and_every_ruling():
    """``spoiler rules`` renders docs/rules.md: the seed rules and rulings 1 to 11."""
    result = runner.invoke(app, ["rules"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    assert "The seed rules" in text
    assert "each player is given a random position of priority" in text
    for heading in (
        "Players and deal",
        "Selection is simultaneous and hidden",
        "Choices are checked when made and locked",
        "Resolution order",
        "End of round",
        "Priorities shift among all players",
        "The end",
        "Lost players",
        "Round limit",
        "Win and lose cancel out",
        "A card whose effect fails",
    ):
        assert heading in text, f"ruling {heading!r} is not shown"


def test_an_unknown_command_is_a_usage_error():
    """Bad input gets a clear error and exit code 2, no traceback."""
    result = runner.invoke(app, ["dance"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


#: What ``--help`` and ``--version`` must not load: the engine, the plugin machinery, plugins.
HEAVY = ("spoiler.rules", "spoiler.plugins", "spoiler.model", "spoiler.agents", "pluggy")

PROBE = """
import json, sys
sys.argv = ["spoiler", *sys.argv[1:]]
from spoiler.cli import main
try:
    main()
except SystemExit as exc:
    code = exc.code
else:
    code = 0
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


@pytest.mark.parametrize("flag", ["--help", "--version"])
def test_help_and_version_import_neither_the_engine_nor_plugins(flag):
    """The CLI must not import the engine or load plugins for --help and --version."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, flag], capture_output=True, text=True, timeout=60, check=True
    )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["code"] in (0, None)
    loaded = set(report["modules"])
    assert "spoiler.cli" in loaded  # the probe did run the app
    assert not loaded & set(HEAVY), f"{flag} imported {sorted(loaded & set(HEAVY))}"
    plugins = sorted(m for m in loaded if m.startswith("spoiler_"))
    assert plugins == [], f"{flag} loaded plugins {plugins}"


def test_rules_ends_with_the_rules_the_installed_sets_add():
    """``spoiler rules`` shows the seed rules, then every installed set's own rules (Chrono's
    Hourglass rule); a set with no rules of its own adds no section."""
    result = runner.invoke(app, ["rules"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    assert "Rules the installed sets add" in text
    assert text.index("The seed rules") < text.index("Chrono (chrono)")
    assert "Base" not in text.split("Rules the installed sets add")[1]


def test_a_commands_help_imports_neither_the_engine_nor_plugins():
    """`spoiler play --help` loads the play command alone: not the engine, the agents or the
    plugins it needs only once a game starts (benchmarks/startup.py times it)."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, "play", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["code"] in (0, None)
    loaded = set(report["modules"])
    assert "spoiler.commands.play" in loaded
    assert not loaded & {*HEAVY, "spoiler.search"}, sorted(loaded & {*HEAVY, "spoiler.search"})
