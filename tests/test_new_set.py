"""`spoiler new set NAME`: a newcomer goes from nothing to a validated, tested,
pip-installable set without editing a line.

The end-to-end test builds wheels of spoiler-game and the new set, installs the set into a
fresh virtual environment with pip and no network (spoiler-game's own dependencies, and
pytest, are seen through a folder of links to this environment's copies, as in
tests/test_install_e2e.py), runs the set's own tests there and validates it.
"""

from __future__ import annotations

import json
import os
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spoiler.cli import app
from spoiler_new import scaffold

sys.path.insert(0, str(Path(__file__).parent))
from offline_install import closure, link, run

ROOT = Path(__file__).resolve().parents[1]


def new(*args, cwd: Path):
    old = Path.cwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(app, ["new", "set", *args])
    finally:
        os.chdir(old)


def test_new_set_writes_a_complete_distribution(tmp_path):
    result = new("heist", cwd=tmp_path)
    assert result.exit_code == 0, result.output
    folder = tmp_path / "spoiler-heist"
    assert sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()) == [
        ".github/workflows/test.yml",
        ".gitignore",
        "LICENSE",
        "README.md",
        "pyproject.toml",
        "src/spoiler_heist/__init__.py",
        "tests/test_heist.py",
    ]
    project = tomllib.loads((folder / "pyproject.toml").read_text())["project"]
    assert project["name"] == "spoiler-heist"
    assert project["entry-points"]["spoiler"] == {"heist": "spoiler_heist"}
    assert project["dependencies"] == [scaffold.spoiler_range()]
    assert 'api=">=1,<2"' in (folder / "src/spoiler_heist/__init__.py").read_text()
    from spoiler.installer import install_hint

    assert f"cd spoiler-heist && {install_hint('.[test]', editable=True)}" in result.stdout


def test_new_set_writes_a_license_a_gitignore_and_a_ci_workflow():
    """As llm's and datasette's plugin templates do: an MIT LICENSE, a .gitignore for what
    Python and pip leave behind, and a GitHub Actions workflow that installs the set with its
    test extra, runs its tests and `spoiler sets validate NAME` (as the end-to-end test below
    does) on each Python the set supports."""
    import yaml

    written = scaffold.files("heist")
    assert written["LICENSE"].startswith("MIT License\n\nCopyright (c) ")
    assert "the spoiler-heist authors" in written["LICENSE"]
    assert {"__pycache__/", "*.egg-info/", "dist/", ".venv/"} <= set(written[".gitignore"].split())
    workflow = yaml.safe_load(written[".github/workflows/test.yml"])
    assert set(workflow[True]) == {"push", "pull_request"}  # (YAML reads `on` as True)
    job = workflow["jobs"]["test"]
    assert "3.11" in job["strategy"]["matrix"]["python-version"]
    runs = [step["run"] for step in job["steps"] if "run" in step]
    assert runs == [
        'python -m pip install -e ".[test]"',
        "python -m pytest",
        "spoiler sets validate heist",
    ]


@pytest.mark.parametrize("name", ["heist", "intrigue", "a-very-long-set-name"])
def test_the_readmes_comments_line_up(name):
    """In each shell block of the README, the comments start in one column, whatever the
    length of the set's name."""
    readme = scaffold.files(name)["README.md"]
    blocks = readme.split("```sh\n")[1:]
    assert len(blocks) == 3
    for block in blocks:
        lines = block.split("\n```")[0].splitlines()
        assert len({line.index("  # ") for line in lines}) == 1, lines


@pytest.mark.parametrize("name", ["intrigue", "orbit", "heist"])
def test_the_scaffolds_test_names_read_as_english(name):
    """No "a" before a vowel in a test's name ("a intrigue card"), whatever the set's name."""
    import re

    tests = scaffold.files(name)[f"tests/test_{name}.py"]
    names = re.findall(r"^def (test_\w+)", tests, re.M)
    assert names and not [n for n in names if re.search(r"(^|_)a_[aeiou]", n)], names


def test_new_set_never_overwrites(tmp_path):
    """A folder that exists and is not empty is refused (exit 2), and left as it was."""
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "notes.txt").write_text("keep me")
    result = new("heist", "--dir", str(folder), cwd=tmp_path)
    assert result.exit_code == 2
    assert "already exists and is not empty; nothing was written" in result.output
    assert [p.name for p in folder.iterdir()] == ["notes.txt"]
    assert (folder / "notes.txt").read_text() == "keep me"


@pytest.mark.parametrize("name", ["Heist", "9lives", "base", "my set", ""])
def test_new_set_refuses_a_name_it_cannot_use(tmp_path, name):
    result = new(name, cwd=tmp_path)
    assert result.exit_code == 2
    assert result.output.startswith("Error: ") and result.output.count("\n") == 1
    assert not any(tmp_path.iterdir())


def test_every_fixture_is_used_by_the_scaffolds_tests():
    """The new set's tests show the author every fixture spoiler-game's pytest plugin has."""
    import spoiler.pytest_plugin as plugin

    fixtures = {
        name
        for name, value in vars(plugin).items()
        if type(value).__name__ == "FixtureFunctionDefinition"
        or hasattr(value, "_pytestfixturefunction")
    }
    assert fixtures == {
        "spoiler_registry",
        "card_sets",
        "spoiler_table",
        "spoiler_round",
        "random_games",
    }
    tests = scaffold.files("heist")["tests/test_heist.py"]
    for fixture in fixtures:
        assert f"{fixture}," in tests or f"{fixture})" in tests, fixture


# -- end to end --------------------------------------------------------------------------------
@pytest.mark.skipif(
    not (ROOT / "pyproject.toml").is_file(), reason="needs a source checkout to build from"
)
def test_a_new_set_installs_passes_its_tests_and_validates(tmp_path):
    assert new("heist", cwd=tmp_path).exit_code == 0
    project = tmp_path / "spoiler-heist"
    wheels = tmp_path / "wheels"
    pip = (sys.executable, "-m", "pip")
    run(*pip, "wheel", "-q", "--no-deps", "--no-build-isolation", "--no-index", "-w", wheels,
        ROOT, project)  # fmt: skip

    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv)
    python = venv / "bin" / "python"
    site = run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])")
    # spoiler-game's own dependencies and pytest: links to this environment's copies.
    link(closure(*(metadata.requires("spoiler-game") or []), "pytest"), tmp_path / "deps")
    (Path(site.stdout.strip()) / "links.pth").write_text(str(tmp_path / "deps") + "\n")
    run(*pip, "--python", python, "install", "-q", "--no-index", "--find-links", wheels,
        "spoiler-heist")  # fmt: skip

    tests = run(python, "-m", "pytest", "-q", "-p", "no:cacheprovider", cwd=project)
    assert "7 passed" in tests.stdout
    spoiler = venv / "bin" / "spoiler"
    report = json.loads(
        run(spoiler, "sets", "validate", "heist", "--games", "40", "--json", cwd=tmp_path).stdout
    )
    assert report["ok"] and report["sets"][0]["games"] == 40
