"""Every Python snippet in docs/plugins.md runs as written.

Snippets run in the order the page gives them, each in a fresh namespace. One marked
``<!-- module: NAME -->`` is the source of the importable module NAME (the tutorial's
package), so later snippets import it as a reader's project would. Functions named
``test_*`` that a snippet defines are called, with the fixtures they name built the way
spoiler-game's pytest plugin builds them, around a registry where the tutorial's plugin is
installed.
"""

from __future__ import annotations

import importlib
import inspect
import re
import sys
from importlib import metadata
from pathlib import Path

import pytest

from spoiler import plugins, testing
from spoiler.cards import CardSet

DOCS = (Path(__file__).resolve().parents[1] / "docs" / "plugins.md").read_text(encoding="utf-8")
SNIPPET = re.compile(r"(?:<!-- module: (\w+) -->\n)?```python\n(.*?)```", re.S)


def snippets() -> list[tuple[str | None, str]]:
    return [(m.group(1), m.group(2)) for m in SNIPPET.finditer(DOCS)]


def fixtures(registry) -> dict:
    """The pytest plugin's fixtures, over ``registry`` (see spoiler.pytest_plugin)."""

    def card_sets(*names):
        return [n if isinstance(n, CardSet) else registry.card_sets([n])[0] for n in names]

    return {
        "spoiler_registry": registry,
        "card_sets": card_sets,
        "spoiler_table": lambda sets, hands, **o: testing.table(card_sets(*sets), hands, **o),
        "spoiler_round": testing.play_round,
        "random_games": lambda sets, games=20, **o: testing.random_games(
            card_sets(*sets), games, **o
        ),
    }


def test_every_python_snippet_in_the_plugin_guide_runs(tmp_path, monkeypatch):
    pytest.importorskip("spoiler_chrono")
    found = snippets()
    assert len(found) >= 5 and any(module for module, _ in found)
    monkeypatch.syspath_prepend(str(tmp_path))
    builtins = [
        ep
        for ep in metadata.entry_points(group=plugins.GROUP)
        if ep.dist is not None and ep.dist.name == plugins.CORE_DISTRIBUTION
    ]
    ran_tests = 0
    for number, (module, code) in enumerate(found):
        if module is not None:
            package = tmp_path / module
            package.mkdir()
            (package / "__init__.py").write_text(code, encoding="utf-8")
            sys.modules.pop(module, None)
            installed = importlib.import_module(module)
            monkeypatch.setitem(sys.modules, module, installed)
            registry = plugins.load({}, [*builtins, testing.FakeEntryPoint(module, installed)])
            continue
        namespace: dict = {"__name__": f"plugins_md_snippet_{number}"}
        exec(compile(code, f"docs/plugins.md snippet {number + 1}", "exec"), namespace)
        for name, value in namespace.items():
            if name.startswith("test_") and inspect.isfunction(value):
                given = fixtures(registry)
                value(**{p: given[p] for p in inspect.signature(value).parameters})
                ran_tests += 1
    assert ran_tests >= 3
