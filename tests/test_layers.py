"""The layering of `core/spoiler/` is a test, not a hope (docs/architecture.md, "Layers").

Read with `ast`, as the team's `shape.py` measure reads it: every import counts, those inside
`if TYPE_CHECKING:` and inside functions too (a cycle of type-only imports still ties the
modules together for whoever reads or moves them), and `from a import b` counts as importing
`a` too. The tests fail on

- an import cycle anywhere under `core/` (one line per import that lies on a cycle, with the
  way back);
- a module of a layer importing a module of a higher layer (the layers, low to high, are
  LAYERS, read from docs/architecture.md);
- a module of a layer importing a facade module (the top-level modules of `core/spoiler/`),
  except `__version__` and `API_VERSION` from `spoiler` itself;
- core importing a plugin package (those of `plugins/` and `expansions/`): it finds them
  through entry points, by name.

Each problem is one line: importer -> imported, file:line.
"""

from __future__ import annotations

import ast
import re
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORE = ROOT / "core"
PACKAGE = "spoiler"
#: What a layer may import of the facade module ``spoiler`` itself.
FACADE_NAMES = frozenset({"__version__", "API_VERSION"})


def layers_from_docs(path: Path = ROOT / "docs" / "architecture.md") -> tuple[str, ...]:
    """The layers, low to high: the numbered list of the "Layers" section, one folder each."""
    section = path.read_text(encoding="utf-8").partition("\n## Layers\n")[2].split("\n## ")[0]
    return tuple(re.findall(r"^\d+\. `(\w+)/`", section, flags=re.MULTILINE))


#: The layers of core/spoiler, low to high: written once, in docs/architecture.md.
LAYERS = layers_from_docs()


def plugin_packages(root: Path = ROOT) -> frozenset[str]:
    """The import packages of the built-in plugins (plugins/) and of the expansions."""
    found = [*root.glob("plugins/*/__init__.py"), *root.glob("expansions/*/src/*/__init__.py")]
    return frozenset(p.parent.name for p in found)


# -- reading the imports -----------------------------------------------------------------------
@dataclass(frozen=True)
class Import:
    importer: str
    imported: str  # a module under the root, or the top-level name of any other package
    path: Path
    line: int
    how: str  # "", "type-only" or "in a function"
    #: The names taken from ``imported`` when they are not modules themselves (``from spoiler
    #: import __version__``); empty for a module imported as such.
    names: tuple[str, ...] = ()
    #: shape.py's extra edge: ``from a import b`` also counts as importing ``a`` itself.
    package_edge: bool = False

    def where(self, root: Path) -> str:
        how = f" ({self.how})" if self.how else ""
        return f"{self.path.relative_to(root.parent).as_posix()}:{self.line}{how}"


def modules(root: Path) -> dict[str, Path]:
    """Every module under ``root`` (a folder holding packages), by dotted name."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        name = ".".join(path.relative_to(root).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


class _Reader(ast.NodeVisitor):
    def __init__(self, name: str, path: Path, known: dict[str, Path]):
        self.name, self.path, self.known = name, path, known
        self.is_package = path.name == "__init__.py"
        self.context: list[str] = []
        self.found: list[Import] = []

    def visit_If(self, node: ast.If) -> None:
        test = node.test
        type_only = (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
            isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
        )
        if not type_only:
            self.generic_visit(node)
            return
        self.context.append("type-only")
        for child in node.body:
            self.visit(child)
        self.context.pop()
        for child in node.orelse:
            self.visit(child)

    def _function(self, node: ast.AST) -> None:
        self.context.append("in a function")
        self.generic_visit(node)
        self.context.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = _function

    def _resolve(self, dotted: str) -> str:
        """The longest prefix of ``dotted`` that is a known module, or its top-level name."""
        name = dotted
        while name and name not in self.known:
            name = name.rpartition(".")[0]
        return name or dotted.partition(".")[0]

    def _add(self, node: ast.stmt, imported: str, **extra) -> None:
        if imported != self.name:
            how = self.context[-1] if self.context else ""
            self.found.append(Import(self.name, imported, self.path, node.lineno, how, **extra))

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(node, self._resolve(alias.name))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = node.module or ""
        if node.level:  # relative: as the import system (and shape.py) resolve it
            parts = self.name.split(".")
            parts = parts[: len(parts) - node.level + self.is_package]
            base = ".".join([*parts, base] if base else parts)
        package = self._resolve(base)
        names = []
        for alias in node.names:
            if f"{base}.{alias.name}" in self.known:  # a module: `from spoiler import plugins`
                self._add(node, f"{base}.{alias.name}")
            elif alias.name != "*":
                names.append(alias.name)
        if names:
            self._add(node, package, names=tuple(names))
        elif package in self.known:
            self._add(node, package, package_edge=True)


def imports(root: Path) -> list[Import]:
    """Every import of every module under ``root``."""
    known = modules(root)
    found = []
    for name, path in known.items():
        reader = _Reader(name, path, known)
        reader.visit(ast.parse(path.read_text(encoding="utf-8"), str(path)))
        found += reader.found
    return found


# -- the rules ---------------------------------------------------------------------------------
def cycle_problems(found: Iterable[Import], root: Path) -> list[str]:
    """Each import that lies on a cycle, with the way back to its importer."""
    found = list(found)
    graph: dict[str, set[str]] = {}
    for imp in found:
        graph.setdefault(imp.importer, set()).add(imp.imported)
    component = {m: i for i, comp in enumerate(_components(graph)) for m in comp}
    problems = []
    for imp in found:
        a, b = imp.importer, imp.imported
        if a in component and component[a] == component.get(b):
            back = _path(graph, b, a, {m for m, c in component.items() if c == component[a]})
            problems.append(f"cycle: {a} -> {b}  {imp.where(root)}; back: {' -> '.join(back)}")
    return sorted(set(problems))


def layer_problems(
    found: Iterable[Import],
    root: Path,
    layers: tuple[str, ...],
    package: str = PACKAGE,
    outside: Iterable[str] = (),
) -> list[str]:
    """Imports against the layers, of the facade, or of a plugin package."""
    rank = {layer: i for i, layer in enumerate(layers)}
    known = modules(root)
    outside = frozenset(outside)
    found = list(found)
    foundation = _foundation(found, package, known)
    problems = []
    for imp in found:
        if imp.package_edge:
            continue
        where = imp.where(root)
        here = _layer(imp.importer, package, known)
        if imp.imported.partition(".")[0] in outside:
            problems.append(
                f"plugin package: {imp.importer} -> {imp.imported}  {where}: core finds plugins "
                "through entry points, by name"
            )
            continue
        if here is None or imp.imported not in known:  # the facade imports anything
            continue
        there = _layer(imp.imported, package, known)
        if here not in rank:
            problems.append(
                f"no layer: {imp.importer} is in folder {here!r}, which is not one of the "
                f"layers ({', '.join(layers)})  {where}"
            )
        elif there is None:
            if imp.imported == package and set(imp.names) <= FACADE_NAMES:
                continue
            if imp.imported in foundation:
                continue
            taken = f" ({', '.join(imp.names)})" if imp.names else ""
            problems.append(
                f"facade: {imp.importer} -> {imp.imported}{taken}  {where}: a layer imports "
                f"nothing of the facade but {' and '.join(sorted(FACADE_NAMES))} from {package}"
            )
        elif there in rank and rank[there] > rank[here]:
            problems.append(
                f"layers: {imp.importer} ({here}) -> {imp.imported} ({there}, a higher layer)  "
                f"{where}"
            )
    return sorted(set(problems))


def _foundation(found: list[Import], package: str, known: dict[str, Path]) -> frozenset[str]:
    """The top-level modules that import nothing of the package (spoiler.entrypoints): below
    every layer, so any may import them."""
    leaning = {imp.importer for imp in found if imp.imported.partition(".")[0] == package}
    return frozenset(
        m for m in known if m != package and _layer(m, package, known) is None and m not in leaning
    )


def _layer(module: str, package: str, known: dict[str, Path]) -> str | None:
    """The layer (folder) a module of ``package`` is in; None for a facade module."""
    parts = module.split(".")
    if parts[0] != package or len(parts) < 2:
        return None
    if len(parts) == 2 and known[module].name != "__init__.py":
        return None  # a top-level module: spoiler.testing
    return parts[1]


def _components(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    comp.append(member)
                    if member == node:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def _path(graph: dict[str, set[str]], start: str, end: str, within: set[str]) -> list[str]:
    """A shortest import path from ``start`` to ``end`` among ``within``."""
    came: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        if node == end:
            break
        for child in sorted(graph.get(node, ())):
            if child in within and child not in came:
                came[child] = node
                queue.append(child)
    path: list[str] = []
    step: str | None = end
    while step is not None:
        path.append(step)
        step = came[step]
    return path[::-1]


# -- the core ----------------------------------------------------------------------------------
def test_the_layers_are_listed_in_the_architecture_page():
    assert LAYERS[0] == "model" and len(LAYERS) == len(set(LAYERS)) >= 5, LAYERS


def test_every_folder_of_the_core_is_a_layer():
    """A new folder says where it stands: a line in docs/architecture.md, "Layers"."""
    folders = sorted(p.parent.name for p in (CORE / PACKAGE).glob("*/__init__.py"))
    assert [f for f in folders if f not in LAYERS] == []
    assert [layer for layer in LAYERS if layer not in folders] == []


def test_no_import_cycle_under_core():
    problems = cycle_problems(imports(CORE), CORE)
    assert not problems, "\n" + "\n".join(problems)


def test_imports_follow_the_layers():
    problems = layer_problems(imports(CORE), CORE, LAYERS, outside=plugin_packages())
    assert not problems, "\n" + "\n".join(problems)


# -- the checks themselves, on small packages ---------------------------------------------------
def make(root: Path, files: dict[str, str]) -> Path:
    """A package tree under ``root`` (every folder a package); returns ``root``."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        for folder in path.relative_to(root).parents:
            if folder != Path("."):
                (root / folder / "__init__.py").touch()
        path.write_text(text, encoding="utf-8")
    return root


def check(root: Path, *, outside: Iterable[str] = ()) -> list[str]:
    found = imports(root)
    return cycle_problems(found, root) + layer_problems(
        found, root, ("low", "high"), package="pkg", outside=outside
    )


def test_a_cycle_is_found_with_each_import_on_it_and_the_way_back(tmp_path):
    root = make(
        tmp_path / "src",
        {
            "pkg/low/a.py": "from pkg.low import b\n",
            "pkg/low/b.py": "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from pkg.low.c import C\n",
            "pkg/low/c.py": "def f():\n    import pkg.low.a\n",
        },
    )
    assert check(root) == [
        "cycle: pkg.low.a -> pkg.low.b  src/pkg/low/a.py:1; back: pkg.low.b -> pkg.low.c -> "
        "pkg.low.a",
        "cycle: pkg.low.b -> pkg.low.c  src/pkg/low/b.py:3 (type-only); back: pkg.low.c -> "
        "pkg.low.a -> pkg.low.b",
        "cycle: pkg.low.c -> pkg.low.a  src/pkg/low/c.py:2 (in a function); back: pkg.low.a -> "
        "pkg.low.b -> pkg.low.c",
    ]


def test_a_relative_import_cycle_is_found(tmp_path):
    root = make(
        tmp_path / "src",
        {"pkg/high/a.py": "from . import b\n", "pkg/high/b.py": "from .a import thing\n"},
    )
    assert [line.split("  ")[0] for line in check(root)] == [
        "cycle: pkg.high.a -> pkg.high.b",
        "cycle: pkg.high.b -> pkg.high.a",
    ]


def test_an_import_of_a_higher_layer_is_refused(tmp_path):
    root = make(
        tmp_path / "src",
        {
            "pkg/low/a.py": "import os\n\n\ndef f():\n    from pkg.high.b import B\n",
            "pkg/low/c.py": "",
            "pkg/high/b.py": "from pkg.low import c\n",  # downwards: fine
        },
    )
    assert check(root) == [
        "layers: pkg.low.a (low) -> pkg.high.b (high, a higher layer)  src/pkg/low/a.py:5 "
        "(in a function)"
    ]


def test_a_layer_may_import_only_the_version_of_the_facade(tmp_path):
    root = make(
        tmp_path / "src",
        {
            "pkg/__init__.py": "__version__ = '1'\nAPI_VERSION = '1'\n",
            "pkg/testing.py": "from pkg.low import a\n",  # the facade imports anything
            "pkg/low/a.py": "from pkg import __version__, API_VERSION\nfrom pkg import high\n",
            "pkg/high/b.py": "from pkg.testing import helper\nfrom pkg import table\n",
        },
    )
    assert check(root) == [
        "facade: pkg.high.b -> pkg (table)  src/pkg/high/b.py:2: a layer imports nothing of "
        "the facade but API_VERSION and __version__ from pkg",
        "facade: pkg.high.b -> pkg.testing (helper)  src/pkg/high/b.py:1: a layer imports nothing of "
        "the facade but API_VERSION and __version__ from pkg",
        "layers: pkg.low.a (low) -> pkg.high (high, a higher layer)  src/pkg/low/a.py:2",
    ]


def test_a_top_level_module_that_imports_nothing_of_the_package_is_below_every_layer(tmp_path):
    root = make(
        tmp_path,
        {
            "pkg/low/a.py": "import pkg.base\nimport pkg.helper\n",
            "pkg/base.py": "import os\n",
            "pkg/helper.py": "import pkg.low.a\n",
        },
    )
    found = check(root)
    assert any("pkg.low.a -> pkg.helper" in line for line in found), found
    assert not any("pkg.base" in line for line in found), found


def test_a_plugin_package_is_never_imported(tmp_path):
    root = make(tmp_path / "src", {"pkg/low/a.py": "import json\nimport base_cards.cards\n"})
    assert check(root, outside={"base_cards"}) == [
        "plugin package: pkg.low.a -> base_cards  src/pkg/low/a.py:2: core finds plugins "
        "through entry points, by name"
    ]


def test_a_folder_that_is_no_layer_is_named(tmp_path):
    root = make(tmp_path / "src", {"pkg/extra/a.py": "from pkg.low import b\n", "pkg/low/b.py": ""})
    assert check(root) == [
        "no layer: pkg.extra.a is in folder 'extra', which is not one of the layers (low, high)  "
        "src/pkg/extra/a.py:1"
    ]
