"""The command line's conventions (docs/cli.md): lists of names repeated or comma-separated
alike, an unknown name told with the closest installed one, a broken pipe ending quietly
with BROKEN_PIPE, values completed by the shell, no private Typer import."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spoiler.cli import app
from spoiler.commands import completion
from spoiler.commands.group import BROKEN_PIPE

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


@pytest.mark.parametrize(
    ("repeated", "commas"),
    [
        (
            ["cards", "list", "--set", "base", "--set", "chrono"],
            ["cards", "list", "--set", "base,chrono"],
        ),
        (["rules", "--set", "chrono", "--set", "mirror"], ["rules", "--set", "chrono,mirror"]),
        (
            [
                "play",
                "--bots",
                "3",
                "--seed",
                "2",
                "--max-rounds",
                "3",
                "--sets",
                "base",
                "--sets",
                "chrono",
            ],
            ["play", "--bots", "3", "--seed", "2", "--max-rounds", "3", "--sets", "base,chrono"],
        ),
        (
            [
                "simulate",
                "--seed",
                "1",
                "--games",
                "2",
                "--jobs",
                "1",
                "--bots",
                "random",
                "--bots",
                "greedy",
                "--json",
            ],
            [
                "simulate",
                "--seed",
                "1",
                "--games",
                "2",
                "--jobs",
                "1",
                "--bots",
                "random,greedy",
                "--json",
            ],
        ),
    ],
    ids=["cards list --set", "rules --set", "play --sets", "simulate --bots"],
)
def test_a_repeated_option_is_the_same_as_its_values_comma_separated(repeated, commas):
    first, second = runner.invoke(app, repeated), runner.invoke(app, commas)
    assert first.exit_code == 0, first.output
    if "--json" in repeated:  # a simulation's bots are keyed anew every run: same plan
        import json

        one, other = json.loads(first.stdout), json.loads(second.stdout)
        assert one["bots"] == other["bots"] == ["random", "greedy"]
        assert one["seed"] == other["seed"] and one["players"] == other["players"] == 2
    else:
        assert first.stdout == second.stdout


def test_a_repeated_sets_option_plays_every_set_named():
    result = runner.invoke(
        app,
        [
            "play",
            "--bots",
            "3",
            "--seed",
            "2",
            "--max-rounds",
            "2",
            "--sets",
            "base",
            "--sets",
            "chrono",
        ],
    )
    assert "with base, chrono." in result.stdout


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ["play", "--bots", "3", "--sets", "chrno"],
            "no set named 'chrno' (did you mean 'chrono'?",
        ),
        (
            ["play", "--bots", "3", "--bot", "greddy"],
            "no bot kind 'greddy' (did you mean 'greedy'?",
        ),
        (["rules", "--set", "mirorr"], "no set named 'mirorr' (did you mean 'mirror'?"),
        (
            ["sets", "validate", "chrno", "--games", "0"],
            "no set named 'chrno' (did you mean 'chrono'?",
        ),
        (["cards", "list", "--set", "bsae"], "no set named 'bsae' (did you mean 'base'?"),
        (["cards", "show", "Acuse"], "no card named 'Acuse' (did you mean 'Accuse'?)"),
    ],
)
def test_an_unknown_name_gets_one_line_with_the_closest_installed_name(args, line):
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and line in result.stderr


def test_spoiler_plugins_naming_no_installed_distribution_is_warned_about_with_the_closest():
    result = runner.invoke(app, ["sets", "list"], env={"SPOILER_PLUGINS": "spoiler-chrno"})
    assert result.exit_code == 0
    assert result.stderr.strip().splitlines() == [
        "Warning: SPOILER_PLUGINS names 'spoiler-chrno', which is no installed plugin "
        "distribution (did you mean 'spoiler-chrono'? installed: spoiler-chrono, spoiler-mirror)"
    ]


def test_a_broken_pipe_exits_quietly_with_its_documented_code():
    """`spoiler cards list | head -0`: the reader is gone before anything is written."""
    process = subprocess.Popen(
        [sys.executable, "-m", "spoiler", "cards", "list"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    process.stdout.close()
    stderr = process.stderr.read()
    assert process.wait(timeout=60) == BROKEN_PIPE == 141
    assert stderr == b""


def test_sets_and_bot_kinds_complete_after_the_last_comma():
    assert completion.complete_sets("base,ch") == ["base,chrono"]
    assert "greedy" in completion.complete_bots("gr")
    assert completion.complete_cards("acc") == ["Accuse"]


def test_record_files_complete_from_the_folder_typed(tmp_path):
    (tmp_path / "game.toml").write_text("")
    (tmp_path / "notes.txt").write_text("")
    (tmp_path / "old").mkdir()
    assert completion.complete_records(f"{tmp_path}/") == [
        f"{tmp_path}/game.toml",
        f"{tmp_path}/old/",
    ]
    assert completion.complete_records(f"{tmp_path}/ga") == [f"{tmp_path}/game.toml"]


def test_the_shell_is_offered_set_names_for_sets():
    """What the shell receives through click's completion protocol (_SPOILER_COMPLETE)."""
    result = subprocess.run(
        [str(Path(sys.executable).parent / "spoiler")],
        env={
            **__import__("os").environ,
            "_SPOILER_COMPLETE": "complete_bash",
            "COMP_WORDS": "spoiler play --sets ch",
            "COMP_CWORD": "3",
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "chrono" in result.stdout.split()


def test_no_module_imports_a_private_part_of_typer():
    for path in [*(ROOT / "core").rglob("*.py"), *(ROOT / "plugins").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            assert not any(n.startswith("typer._") for n in names), f"{path}: {names}"


def test_the_duel_example_of_play_help_seats_a_human_against_one_bot():
    """`spoiler play --players You --bots 1`, as play --help shows it, starts (no usage error)."""
    result = runner.invoke(
        app, ["play", "--players", "You", "--bots", "1", "--seed", "3"], input=""
    )
    assert result.exit_code != 2, result.output
    assert "for You against 1 greedy bot" in result.stdout


def test_several_bot_kinds_take_the_bots_seats_in_turn(tmp_path):
    """`--bot greedy --bot random` is `--bot greedy,random`: the bots' seats alternate."""
    record = tmp_path / "game.toml"
    args = ["play", "--bots", "3", "--seed", "4", "--max-rounds", "2", "--sets", "base"]
    result = runner.invoke(
        app, [*args, "--bot", "greedy", "--bot", "random", "--record", str(record)]
    )
    assert result.exit_code == 0, result.output
    assert "watching 3 greedy/random bots" in result.stdout
    from spoiler.session import records

    assert [p.kind for p in records.load(record).players] == ["greedy", "random", "greedy"]
    assert (
        "Play it again: spoiler play --seed 4 --sets base --bots 3 --bot greedy --bot random"
        in (result.stdout)
    )
    again = runner.invoke(app, [*args, "--bot", "greedy,random"])
    assert again.stdout.splitlines()[0] == result.stdout.splitlines()[0]
