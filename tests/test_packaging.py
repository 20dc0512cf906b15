"""What each distribution ships: its licence, its metadata, and everything its tests need.

Builds the sdist and, from it, the wheel of spoiler-game and of each expansion once (offline,
no build isolation, as tests/test_install_e2e.py does) and reads what is inside. `.ci/run`
goes further: it runs `pytest` from each unpacked sdist.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXPANSIONS = ("spoiler-chrono", "spoiler-mirror")
PROJECTS = {"spoiler-game": ROOT, **{name: ROOT / "expansions" / name for name in EXPANSIONS}}

pytestmark = pytest.mark.skipif(
    not all((path / "pyproject.toml").is_file() for path in PROJECTS.values()),
    reason="needs a source checkout with expansions/",
)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, tuple[Path, Path]]:
    """{distribution: (sdist, wheel)}, the wheel built from the sdist."""
    out = tmp_path_factory.mktemp("dist")
    found = {}
    for name, path in PROJECTS.items():
        subprocess.run(
            [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(path)],
            check=True,
            capture_output=True,
        )
        stem = name.replace("-", "_")
        found[name] = (next(out.glob(f"{stem}-*.tar.gz")), next(out.glob(f"{stem}-*.whl")))
    return found


def sdist_names(sdist: Path) -> set[str]:
    with tarfile.open(sdist) as tar:
        return {member.name.partition("/")[2] for member in tar.getmembers()}


def wheel_names(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as zf:
        return set(zf.namelist())


def wheel_metadata(wheel: Path):
    with zipfile.ZipFile(wheel) as zf:
        name = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        return Parser().parsestr(zf.read(name).decode())


@pytest.mark.parametrize("name", PROJECTS)
def test_every_wheel_and_sdist_ships_the_mit_licence(built, name):
    sdist, wheel = built[name]
    assert "LICENSE" in sdist_names(sdist)
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in wheel_names(wheel))
    meta = wheel_metadata(wheel)
    assert meta["License-Expression"] == "MIT" and meta["License-File"] == "LICENSE"


def test_the_expansions_carry_the_same_licence_as_the_game():
    text = (ROOT / "LICENSE").read_text()
    assert "MIT License" in text
    for name in EXPANSIONS:
        assert (ROOT / "expansions" / name / "LICENSE").read_text() == text


@pytest.mark.parametrize("name", PROJECTS)
def test_metadata_names_authors_keywords_and_classifiers(built, name):
    meta = wheel_metadata(built[name][1])
    classifiers = meta.get_all("Classifier")
    assert meta["Author"] and meta["Keywords"]
    assert "Environment :: Console" in classifiers
    assert "Topic :: Games/Entertainment" in classifiers
    assert "Programming Language :: Python :: 3.11" in classifiers
    assert "Programming Language :: Python :: 3.13" in classifiers
    assert meta["Requires-Python"] == ">=3.11"


def test_the_game_wheel_is_typed_and_runs_as_python_m_spoiler(built):
    names = wheel_names(built["spoiler-game"][1])
    assert {"spoiler/py.typed", "spoiler/__main__.py"} <= names
    result = subprocess.run(
        [sys.executable, "-m", "spoiler", "--version"], capture_output=True, text=True
    )
    assert result.returncode == 0 and "0." in result.stdout


def test_the_game_sdist_holds_the_code_and_tests_of_every_expansion(built):
    """Its test paths include expansions/, so their code must come with their tests."""
    names = sdist_names(built["spoiler-game"][0])
    for name in EXPANSIONS:
        package = name.replace("-", "_")
        assert f"expansions/{name}/src/{package}/__init__.py" in names
        assert f"expansions/{name}/pyproject.toml" in names
        assert any(n.startswith(f"expansions/{name}/tests/test_") for n in names)
    assert {"tests/conftest.py", "CHANGELOG.md", "README.md", "docs/rules.md"} <= names


@pytest.mark.parametrize("name", EXPANSIONS)
def test_an_expansion_sdist_holds_its_code_and_its_tests(built, name):
    names = sdist_names(built[name][0])
    package = name.replace("-", "_")
    assert f"src/{package}/__init__.py" in names and f"src/{package}/cards.py" in names
    assert any(n.startswith("tests/test_") for n in names)
    assert {"pyproject.toml", "README.md", "LICENSE"} <= names


def test_the_changelog_keeps_an_unreleased_section():
    text = (ROOT / "CHANGELOG.md").read_text()
    assert "Keep a Changelog" in text
    assert "\n## [Unreleased]\n" in text


def test_the_long_description_has_no_link_that_leads_nowhere_on_the_index(built):
    """README.md's relative links lead nowhere on a package index page: with no links-base
    (spoiler-game has no public home yet), each is its text and the file's path."""
    sys.path.insert(0, str(ROOT))
    try:
        from hatch_build import RELATIVE
    finally:
        sys.path.remove(str(ROOT))
    description = wheel_metadata(built["spoiler-game"][1]).get_payload()
    assert description.startswith("# Spoiler")
    assert RELATIVE.findall(description) == []
    assert "`docs/installing.md`" in description
    assert "(docs/installing.md)" not in description


def test_the_links_of_the_readme_become_absolute_under_a_links_base():
    sys.path.insert(0, str(ROOT))
    try:
        from hatch_build import for_the_index
    finally:
        sys.path.remove(str(ROOT))
    text = "See [installing](docs/installing.md#upgrading), [x](https://a.example/b) or [up](#top)."
    assert for_the_index(text, "https://code.example/spoiler/blob/main/") == (
        "See [installing](https://code.example/spoiler/blob/main/docs/installing.md#upgrading), "
        "[x](https://a.example/b) or [up](#top)."
    )
    assert for_the_index(text) == (
        "See installing (`docs/installing.md`), [x](https://a.example/b) or [up](#top)."
    )


@pytest.mark.parametrize("name", EXPANSIONS)
def test_an_expansions_set_has_its_distributions_version(built, name):
    """The version is written once (``__version__`` in cards.py): the wheel's metadata and
    the CardSet say the same."""
    import re

    wheel = built[name][1]
    stem = name.replace("-", "_")
    with zipfile.ZipFile(wheel) as zf:
        cards = zf.read(f"{stem}/cards.py").decode()
    assert re.search(r'^__version__ = "([^"]+)"$', cards, re.M)
    assert re.search(r"CardSet\(\n\s+\"\w+\",\n\s+__version__,", cards)
    version = re.search(r'^__version__ = "([^"]+)"$', cards, re.M).group(1)
    assert wheel_metadata(wheel)["Version"] == version


def build_asked_to_compile(mode: str, out: Path) -> subprocess.CompletedProcess:
    """Build spoiler-game's wheel with ``SPOILER_COMPILE=mode`` on a machine whose C compiler
    fails (``CC=false``), as one without a compiler does."""
    env = {**os.environ, "SPOILER_COMPILE": mode, "CC": "false"}
    # (No dependency check: this environment need not have what compiling needs.)
    command = [sys.executable, "-m", "build", "--no-isolation", "--skip-dependency-check"]
    command += ["--wheel", "--outdir", str(out)]
    return subprocess.run([*command, str(ROOT)], env=env, capture_output=True, text=True)


def test_a_build_that_cannot_compile_the_engine_gives_the_pure_wheel_and_says_so(tmp_path):
    done = build_asked_to_compile("1", tmp_path)
    assert done.returncode == 0, done.stderr
    wheel = next(tmp_path.glob("spoiler_game-*.whl"))
    assert wheel.name.endswith("-py3-none-any.whl")
    assert not [name for name in wheel_names(wheel) if name.endswith(".so")]
    said = [line for line in (done.stdout + done.stderr).splitlines() if "not compiled" in line]
    assert len(said) == 1 and "building the pure-Python wheel" in said[0]


def test_a_build_that_requires_the_compiled_engine_fails_where_it_cannot_compile(tmp_path):
    done = build_asked_to_compile("require", tmp_path)
    assert done.returncode != 0
    assert not list(tmp_path.glob("*.whl"))
