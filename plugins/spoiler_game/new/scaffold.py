"""``spoiler new set NAME``: a complete, working expansion to start from.

It writes a distribution that installs with pip, passes its own tests and
``spoiler sets validate NAME`` as it is: a ``pyproject.toml`` (written with tomli-w) with the
``spoiler`` entry point, a ``src/`` package with a set of two cards and one rule of its own,
tests using the pytest fixtures ``spoiler-game`` installs, a README saying what to do next, an
MIT LICENSE, a ``.gitignore`` and a GitHub Actions workflow running the tests and ``spoiler sets
validate NAME``.
"""

from __future__ import annotations

import ast
import builtins
import datetime
import functools
import keyword
import os
import re
import shutil
import tempfile
from pathlib import Path

import tomli_w

from spoiler import API_VERSION, __version__


class ScaffoldError(ValueError):
    """A name or a folder ``spoiler new set`` cannot use."""


def check_name(name: str) -> str:
    """A set name the scaffold can build a distribution and a package from: one that shadows
    nothing installed and breaks nothing the template writes (ScaffoldError says why not)."""
    if not re.fullmatch(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*", name or ""):
        raise ScaffoldError(
            f"set name {name!r} must be lower-case letters and digits, starting with a letter "
            "(words may be joined by - or _), e.g. heist"
        )
    if name == "base":
        raise ScaffoldError("'base' is the name of the built-in set; choose another")
    name_ = name.replace("-", "_")
    if keyword.iskeyword(name_) or keyword.issoftkeyword(name_):
        raise ScaffoldError(
            f"set name {name!r} is a Python keyword, and the set's code names its set "
            f"{name_!r}; choose another"
        )
    distribution = f"spoiler-{name}"
    owner = installed_distributions().get(normalise(distribution))
    if owner is not None:
        raise ScaffoldError(
            f"set name {name!r} makes the distribution {distribution!r}, and {owner} is "
            "installed: installing the new set would replace it; choose another"
        )
    package = "spoiler_" + name_
    if _importable(package):
        raise ScaffoldError(
            f"set name {name!r} makes the package {package!r}, and a module of that name is "
            "already importable: the new set would shadow it; choose another"
        )
    plugin = installed_plugins().get(name)
    if plugin is not None:
        raise ScaffoldError(
            f"set name {name!r} is already a plugin's name (from {plugin}); choose another"
        )
    if name_ in template_names():
        raise ScaffoldError(
            f"set name {name!r} is a name the new set's code uses for something else ({name_!r}); "
            "choose another"
        )
    return name


def normalise(name: str) -> str:
    """A distribution's name as packaging tools compare them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def installed_distributions() -> dict[str, str]:
    """Every installed distribution: its normalised name, then its name and version."""
    from importlib import metadata

    found: dict[str, str] = {}
    for dist in metadata.distributions():
        name = dist.metadata["Name"]
        if name:
            found.setdefault(normalise(name), f"{name} {dist.version}")
    return found


def installed_plugins() -> dict[str, str]:
    """The names of the ``spoiler`` entry points installed, with the distribution of each."""
    from importlib import metadata

    found: dict[str, str] = {}
    for entry in metadata.entry_points(group="spoiler"):
        dist = entry.dist.metadata["Name"] if entry.dist is not None else "?"
        found.setdefault(entry.name, dist)
    return found


def _importable(module: str) -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a broken package of that name: still taken
        return True


def template_names() -> frozenset[str]:
    """Every name the new set's code uses besides the set's own (imports, classes, functions,
    parameters, module constants, builtins; not attributes, which cannot clash): naming the set after one would break that code.
    Read from the template itself, so the list cannot drift from it."""
    return _template_names()


@functools.cache
def _template_names() -> frozenset[str]:
    probe = "zz_probe_set"
    names: set[str] = set(dir(builtins))
    for path, text in files(probe).items():
        if not path.endswith(".py"):
            continue
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Name):
                names.add(node.id)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif isinstance(node, ast.FunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.alias):
                names.add((node.asname or node.name).split(".")[0])
    return frozenset(n for n in names if probe not in n)


def spoiler_range(version: str = __version__) -> str:
    """The spoiler-game releases a new set is tried with: this minor series (0.x) or this
    major one (1.0 and later)."""
    major, minor = (int(p) for p in version.split(".")[:2])
    if major == 0:
        return f"spoiler-game>={major}.{minor},<{major}.{minor + 1}"
    return f"spoiler-game>={major}.{minor},<{major + 1}"


def files(name: str) -> dict[str, str]:
    """Each file of the new distribution, by path, with its text."""
    name_ = name.replace("-", "_")  # the set's name as a Python identifier
    package = "spoiler_" + name_
    title = name.replace("-", " ").replace("_", " ").title()
    major = int(API_VERSION.split(".")[0])
    fields = {
        "name": name,
        "name_": name_,
        "title": title,
        "package": package,
        "api": f">={major},<{major + 1}",
    }
    pyproject = {
        "build-system": {"requires": ["hatchling"], "build-backend": "hatchling.build"},
        "project": {
            "name": f"spoiler-{name}",
            "dynamic": ["version"],  # written once: __version__ in the package
            "description": f"{title}: an expansion for Spoiler",
            "readme": "README.md",
            "requires-python": ">=3.11",
            "dependencies": [spoiler_range()],
            "optional-dependencies": {"test": ["pytest>=8"]},
            "entry-points": {"spoiler": {name: package}},
        },
        "tool": {
            "hatch": {
                "version": {"path": f"src/{package}/__init__.py"},
                "build": {"targets": {"wheel": {"packages": [f"src/{package}"]}}},
            },
            "pytest": {"ini_options": {"testpaths": ["tests"]}},
            "ruff": {"line-length": 100},  # as Spoiler's own code, so card texts fit a line
        },
    }
    readme = {
        f"{block}_block": _commands(
            [(line.format(**fields), comment.format(**fields)) for line, comment in commands]
        )
        for block, commands in README_COMMANDS.items()
    }
    return {
        "pyproject.toml": tomli_w.dumps(pyproject),
        "README.md": README.format(**fields, **readme),
        "LICENSE": LICENSE.format(year=datetime.date.today().year, **fields),
        ".gitignore": GITIGNORE,
        ".github/workflows/test.yml": WORKFLOW.format(**fields),
        f"src/{package}/__init__.py": PACKAGE.format(**fields),
        f"tests/test_{name_}.py": TESTS.format(**fields),
    }


def _commands(lines: list[tuple[str, str]]) -> str:
    """Shell lines with their comments in one column, two spaces past the longest line."""
    width = max(len(line) for line, _ in lines) + 2
    return "\n".join(f"{line:<{width}}# {comment}" for line, comment in lines)


def write_set(name: str, directory: Path | None = None) -> Path:
    """Write the distribution for set ``name`` into ``directory`` (default
    ``./spoiler-NAME``), which must not exist or be empty; returns the folder.

    The files are written into a temporary folder beside it, then renamed into place: a write
    that fails leaves nothing behind (no half-written folder to block the next try)."""
    check_name(name)
    folder = Path(directory) if directory is not None else Path(f"spoiler-{name}")
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise ScaffoldError(f"{folder} already exists and is not empty; nothing was written")
    target = folder.absolute()
    made = [p for p in reversed(target.parents) if not p.exists()]
    for parent in made:
        parent.mkdir()
    existed = target.is_dir()  # an empty folder: stage inside it, then move each file up
    staging = Path(
        tempfile.mkdtemp(prefix=".spoiler-new-", dir=target if existed else target.parent)
    )
    moved: list[Path] = []
    try:
        for path, text in files(name).items():
            written = staging / path
            written.parent.mkdir(parents=True, exist_ok=True)
            with open(written, "x", encoding="utf-8") as out:  # "x": never overwrite
                out.write(text)
        if existed:
            for entry in sorted(staging.iterdir()):
                if (target / entry.name).exists():  # made meanwhile: never overwrite
                    raise FileExistsError(17, "File exists", str(target / entry.name))
                entry.rename(target / entry.name)
                moved.append(target / entry.name)
            staging.rmdir()
        else:
            os.chmod(staging, 0o777 & ~_umask())  # mkdtemp's folder is private; make it usual
            os.rename(staging, target)  # fails if a file or a folder with files is there now
    except BaseException:
        for entry in moved:
            shutil.rmtree(entry, ignore_errors=True)
        shutil.rmtree(staging, ignore_errors=True)
        for parent in reversed(made):
            try:
                parent.rmdir()
            except OSError:
                break
        raise
    return folder


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


PACKAGE = '''\
"""{title}: an expansion for Spoiler.

A card is a class whose attributes read like the printed card; its effects act only through
the verbs (play.lose, play.add_counter ...). `@staticmethod` and `play: Play` let your editor
and type checker complete `play.` and catch a misspelt verb. The set's rule is a hook: it runs only in games
that use this set. Rename, rewrite, add cards: `spoiler sets validate {name}` and
`python -m pytest` tell you what is wrong.
"""

from collections.abc import Callable

from spoiler import ANOTHER_PLAYER, CardSet, Game, Play, hookimpl

#: Loot: a public counter on each player, named after the set so it clashes with no other.
LOOT = "{name}:loot"
#: The cause the set's rule gives for what it does (shown to players by its label).
RULE = "{name}:rule"
LOOT_TO_WIN = 3

#: The distribution's version (pyproject.toml reads it here) and the set's.
__version__ = "0.1.0"

{name_} = CardSet(
    "{name}",
    __version__,
    title="{title}",
    description="Players gather loot; the first to hold enough of it wins.",
    rules=f"At the end of each round, a player with {{LOOT_TO_WIN}} or more loot spends "
    f"{{LOOT_TO_WIN}} and wins.",
    labels={{LOOT: "loot", RULE: "the {title} rule"}},
    api="{api}",
)


@{name_}.card
class Stash:
    text = "Gain 1 loot."
    copies = 4

    @staticmethod
    def main(play: Play) -> None:
        play.add_counter(play.player, LOOT, 1)


@{name_}.card
class Pickpocket:
    text = "Choose another player. Take 1 of their loot; if they have none, they lose."
    copies = 2
    target = ANOTHER_PLAYER
    rulings = ("A player who has lost can still have their loot taken.",)

    @staticmethod
    def main(play: Play) -> None:
        if play.counter(play.target, LOOT) > 0:
            play.add_counter(play.target, LOOT, -1)
            play.add_counter(play.player, LOOT, 1)
        else:
            play.lose(play.target)


@hookimpl
def spoiler_register_sets(register: Callable[[CardSet], None]) -> None:
    register({name_})


@hookimpl
def spoiler_round_end(game: Game) -> None:
    """The set's rule: enough loot wins at the end of a round."""
    for seat in sorted(range(len(game.state.players)), key=game.priority_of):
        if game.counter(seat, LOOT) >= LOOT_TO_WIN:
            game.add_counter(seat, LOOT, -LOOT_TO_WIN, cause=RULE)
            game.win(seat, cause=RULE)
'''

TESTS = '''\
"""{title}'s tests: one per card and rule, quoting the text, then random games.

The fixtures (spoiler_registry, card_sets, spoiler_table, spoiler_round, random_games) come
with spoiler-game; tables and random games run {title}'s rule, as a real game does.
"""

from spoiler import Status

from {package} import LOOT


def test_{name_}_is_installed_and_ok(spoiler_registry):
    """`spoiler sets list` shows the set as ok (a broken plugin says why here)."""
    [info] = [i for i in spoiler_registry.set_infos if i.name == "{name}"]
    assert info.status == "ok", info.error


def test_stash_gains_one_loot(spoiler_table, spoiler_round):
    """Stash: "Gain 1 loot." """
    game = spoiler_table(["{name}"], hands=[["Stash"], ["Stash"]])
    spoiler_round(game, {{0: "Stash", 1: "Stash"}})
    assert game.counter(0, LOOT) == 1 and game.counter(1, LOOT) == 1


def test_pickpocket_takes_a_loot(spoiler_table, spoiler_round):
    """Pickpocket: "Choose another player. Take 1 of their loot" """
    game = spoiler_table(["{name}"], hands=[["Pickpocket"], ["Stash"]], priority=[1, 0])
    spoiler_round(game, {{0: ("Pickpocket", 1), 1: "Stash"}})
    assert (game.counter(0, LOOT), game.counter(1, LOOT)) == (1, 0)


def test_pickpocket_makes_a_player_with_no_loot_lose(spoiler_table, spoiler_round):
    """Pickpocket: "if they have none, they lose." """
    game = spoiler_table(["{name}"], hands=[["Pickpocket"], ["Stash"]], priority=[0, 1])
    spoiler_round(game, {{0: ("Pickpocket", 1), 1: "Stash"}})
    assert game.status(1) is Status.LOST


def test_the_{name_}_rule_enough_loot_wins(spoiler_table, spoiler_round):
    """The rule: "a player with 3 or more loot spends 3 and wins." """
    game = spoiler_table(["{name}"], hands=[["Stash"], ["Stash"]])
    game.add_counter(0, LOOT, 2, cause="test")
    spoiler_round(game, {{0: "Stash", 1: "Stash"}})
    assert game.status(0) is Status.WON and game.counter(0, LOOT) == 0
    assert game.result.winners == (0,)


def test_a_base_card_can_name_one_of_the_{name_}_cards(card_sets, spoiler_table, spoiler_round):
    """Base and {title} cards share a table: Accuse names a card; they hold it, they lose."""
    sets = card_sets("base", "{name}")
    game = spoiler_table(sets, hands=[["Stash", "Pickpocket"], ["Accuse"]], priority=[0, 1])
    spoiler_round(game, {{0: "Stash", 1: ("Accuse", 0, "Pickpocket")}})
    assert game.counter(0, LOOT) == 1 and game.status(0) is Status.LOST


def test_random_games_keep_the_rules(random_games):
    """Seeded random games of {title} with the base set: no effect fails, no rule breaks."""
    results = random_games(["base", "{name}"], games=20)
    assert len(results) == 20
'''

#: The README's shell lines, by block, each with its comment.
README_COMMANDS = {
    "try": [
        ('pip install -e ".[test]"', "the game now finds the set by itself"),
        ("spoiler sets show {name}", "its rules and cards"),
        ("spoiler play --sets base,{name}", "a game with the base set"),
    ],
    "test": [
        ("python -m pytest", "the tests in tests/, with spoiler-game's fixtures"),
        ("spoiler sets validate {name}", "static checks, then 200 random games with the base set"),
    ],
    "share": [
        ("pip wheel --no-deps -w dist .", "dist/spoiler_{name_}-0.1.0-py3-none-any.whl"),
    ],
}

README = """\
# spoiler-{name}

{title}, an expansion for [Spoiler](https://pypi.org/project/spoiler-game/): two cards and
a rule of its own, to rewrite as you like.

## Try it

```sh
{try_block}
```

## Test it

```sh
{test_block}
```

The workflow in `.github/workflows/test.yml` runs both on every push and pull request.

## Share it

```sh
{share_block}
```

Whoever installs the wheel gets the cards in their next game. The card author's guide is
Spoiler's docs/plugins.md. The set is under the MIT License (`LICENSE`): change it if you wish.
"""

LICENSE = """\
MIT License

Copyright (c) {year} the spoiler-{name} authors

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
"""

GITIGNORE = """\
__pycache__/
*.py[cod]
*.egg-info/
.venv/
build/
dist/
.pytest_cache/
.ruff_cache/
.mypy_cache/
"""

#: GitHub Actions: the set's tests and `spoiler sets validate` on each supported Python.
WORKFLOW = """\
name: test

on:
  push:
  pull_request:

jobs:
  test:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        python-version: ["3.11", "3.12", "3.13"]
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: ${{{{ matrix.python-version }}}}
      - name: Install the set and its test dependencies
        run: python -m pip install -e ".[test]"
      - name: Run the tests
        run: python -m pytest
      - name: Validate the set
        run: spoiler sets validate {name}
"""
