"""`spoiler new set NAME`: a newcomer goes from nothing to a validated, tested,
pip-installable set without editing a line.

The end-to-end test builds wheels of spoiler-game and the new set, installs the set into a
fresh virtual environment with pip and no network (spoiler-game's own dependencies, and
pytest, are seen through a folder of links to this environment's copies, as in
tests/test_install_e2e.py), runs the set's own tests there and validates it.
"""

from __future__ import annotations

import json
import keyword
import os
import pkgutil
import re
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
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
    assert "version" not in project and project["dynamic"] == ["version"]
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


NAME = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*")


def refused(name: str, cwd: Path) -> str:
    """The one line `spoiler new set NAME` refuses the name with (nothing written)."""
    result = new(name, cwd=cwd)
    assert result.exit_code == 2, result.output
    assert result.output.startswith("Error: ") and result.output.count("\n") == 1, result.output
    assert "Traceback" not in result.output
    assert not any(cwd.iterdir())
    return result.output


def installed_spoiler_distributions() -> list[str]:
    names = {scaffold.normalise(d.metadata["Name"]) for d in metadata.distributions()}
    return sorted(n.removeprefix("spoiler-") for n in names if n.startswith("spoiler-"))


def test_the_installed_spoiler_distributions_include_the_game_and_the_expansions():
    assert {"game", "chrono", "mirror"} <= set(installed_spoiler_distributions())


@pytest.mark.parametrize("name", installed_spoiler_distributions())
def test_new_set_refuses_a_name_whose_distribution_is_installed(tmp_path, name):
    """`spoiler new set game` then its own `pip install -e` step would uninstall Spoiler."""
    if not NAME.fullmatch(name):
        pytest.skip(f"{name!r} is not a set name anyway")
    line = refused(name, tmp_path)
    assert f"'spoiler-{name}'" in line and "would replace it" in line


def test_new_set_refuses_game_naming_spoiler_itself(tmp_path):
    line = refused("game", tmp_path)
    assert f"spoiler-game {metadata.version('spoiler-game')} is installed" in line


@pytest.mark.parametrize(
    "name",
    sorted(
        m.name.removeprefix("spoiler_").replace("_", "-")
        for m in pkgutil.iter_modules()
        if m.name.startswith("spoiler_") and NAME.fullmatch(m.name.removeprefix("spoiler_"))
    ),
)
def test_new_set_refuses_a_name_whose_package_is_importable(tmp_path, name):
    """spoiler_bots, spoiler_host ... ship in spoiler-game: a set named `bots` would shadow
    them."""
    line = refused(name, tmp_path)
    assert "would shadow it" in line or "would replace it" in line or "built-in set" in line


@pytest.mark.parametrize(
    "name", [k for k in keyword.kwlist + keyword.softkwlist if NAME.fullmatch(k)]
)
def test_new_set_refuses_every_python_keyword(tmp_path, name):
    assert "is a Python keyword" in refused(name, tmp_path)


@pytest.mark.parametrize("name", ["hookimpl", "register", "sorted", "range", "play", "seat"])
def test_new_set_refuses_a_name_its_own_code_uses(tmp_path, name):
    assert f"uses for something else ({name!r})" in refused(name, tmp_path)


@settings(max_examples=60, deadline=None)
@given(st.from_regex(NAME, fullmatch=True).filter(lambda n: len(n) < 30))
def test_every_name_new_set_accepts_makes_a_set_whose_code_holds(name):
    """Whatever name is accepted, the set's module binds the set, the hooks and the names it
    imports as the template means them, and its tests compile."""
    import spoiler

    try:
        scaffold.check_name(name)
    except scaffold.ScaffoldError:
        return
    name_ = name.replace("-", "_")
    written = scaffold.files(name)
    namespace: dict = {"__name__": "spoiler_" + name_}
    exec(compile(written[f"src/spoiler_{name_}/__init__.py"], "set", "exec"), namespace)
    assert isinstance(namespace[name_], spoiler.CardSet) and namespace[name_].name == name
    assert [c.name for c in namespace[name_].cards] == ["Stash", "Pickpocket"]
    for imported in ("hookimpl", "CardSet", "Play", "Game", "ANOTHER_PLAYER"):
        assert namespace[imported] is getattr(spoiler, imported)
    assert callable(namespace["spoiler_register_sets"]) and namespace["LOOT_TO_WIN"] == 3
    compile(written[f"tests/test_{name_}.py"], "tests", "exec")


def test_a_failed_write_leaves_nothing_behind_and_the_retry_works(tmp_path, monkeypatch):
    """A file that cannot be written (here a name too long for the file system) fails the
    command in one line, and leaves no half-written folder to block the next try."""
    complete = scaffold.files
    monkeypatch.setattr(
        scaffold, "files", lambda name: {**complete(name), "x" * 300 + ".py": "never written"}
    )
    result = new("heist", "--dir", "deep/er/heist", cwd=tmp_path)
    assert result.exit_code == 2 and result.output.startswith("Error: cannot write")
    assert result.output.count("\n") == 1 and "Traceback" not in result.output
    assert not any(tmp_path.iterdir())
    monkeypatch.setattr(scaffold, "files", complete)
    assert new("heist", "--dir", "deep/er/heist", cwd=tmp_path).exit_code == 0
    assert (tmp_path / "deep/er/heist/src/spoiler_heist/__init__.py").is_file()


def test_new_set_fills_an_empty_folder_and_leaves_it_empty_if_it_fails(tmp_path, monkeypatch):
    folder = tmp_path / "empty"
    folder.mkdir()
    complete = scaffold.files
    monkeypatch.setattr(scaffold, "files", lambda name: {**complete(name), "x" * 300: ""})
    assert new("heist", "--dir", str(folder), cwd=tmp_path).exit_code == 2
    assert folder.is_dir() and not any(folder.iterdir())
    monkeypatch.setattr(scaffold, "files", complete)
    assert new("heist", "--dir", str(folder), cwd=tmp_path).exit_code == 0
    written = {path.split("/")[0] for path in complete("heist")}
    assert sorted(p.name for p in folder.iterdir()) == sorted(written)


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
    # The version is written once: a release changes one line, and both the distribution
    # and the set (as `spoiler sets list` shows it) take it.
    package = project / "src/spoiler_heist/__init__.py"
    package.write_text(
        package.read_text().replace('__version__ = "0.1.0"', '__version__ = "0.2.0"')
    )
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
    assert [w.name for w in wheels.glob("spoiler_heist-*")] == [
        "spoiler_heist-0.2.0-py3-none-any.whl"
    ]
    listed = json.loads(run(spoiler, "sets", "list", "--json", cwd=tmp_path).stdout)
    assert {s["name"]: s["version"] for s in listed["sets"]}["heist"] == "0.2.0"
