"""docs/hooks.md cannot drift from the code: every hook, with every parameter, every Ongoing
handler and every verb is documented, and every example in it runs."""

from __future__ import annotations

import inspect
import re
import types
from pathlib import Path

import pluggy
import pytest

from spoiler import hookspecs
from spoiler.cards import Ongoing
from spoiler.verbs import Verbs

DOCS = (Path(__file__).parent.parent / "docs" / "hooks.md").read_text(encoding="utf-8")
HEADING = re.compile(r"^(#{2,4}) (spoiler_\w+)\((.*)\)\s*$", re.M)


def plugin_manager() -> pluggy.PluginManager:
    pm = pluggy.PluginManager("spoiler")
    pm.add_hookspecs(hookspecs)
    return pm


def hooks() -> dict[str, tuple[str, ...]]:
    """Every hook the plugin manager knows, with its parameters."""
    pm = plugin_manager()
    return {
        name: tuple(getattr(pm.hook, name).spec.argnames)
        for name in dir(pm.hook)
        if name.startswith("spoiler_")
    }


def sections() -> dict[str, tuple[str, str]]:
    """Documented hook -> (the signature in its heading, the text of its section)."""
    found = {}
    matches = list(HEADING.finditer(DOCS))
    for match in matches:
        end = DOCS.find("\n#", match.end())
        found[match.group(2)] = (match.group(3), DOCS[match.end() : end if end != -1 else None])
    return found


def test_the_plugin_manager_has_every_hook_in_hookspecs():
    """Walking ``pm.hook`` finds the hooks hookspecs.py declares (at least ten)."""
    declared = {n for n, f in vars(hookspecs).items() if n.startswith("spoiler_") and callable(f)}
    assert set(hooks()) == declared
    assert len(declared) >= 10


@pytest.mark.parametrize("name", sorted(hooks()))
def test_every_hook_is_documented_with_its_exact_signature_and_parameters(name):
    """Each hook has a heading with its exact signature, and a line for each parameter."""
    documented = sections()
    assert name in documented, f"{name} is missing from docs/hooks.md"
    signature, text = documented[name]
    params = hooks()[name]
    assert signature == ", ".join(params), f"docs/hooks.md shows {name}({signature})"
    for param in params:
        assert re.search(rf"^- `{param}`", text, re.M), (
            f"parameter {param!r} of {name} is not described in docs/hooks.md"
        )
    assert "Return value:" in text, f"docs/hooks.md does not say what {name} returns"
    assert "```python" in text, f"{name} has no example in docs/hooks.md"


def test_no_hook_is_documented_that_does_not_exist():
    assert set(sections()) <= set(hooks())


@pytest.mark.parametrize("handler", Ongoing.HANDLERS)
def test_every_ongoing_handler_is_documented(handler):
    """The Ongoing handlers table shows each handler with its parameters."""
    params = [p for p in inspect.signature(getattr(Ongoing, handler)).parameters if p != "self"]
    assert f"| `{handler}({', '.join(params)})` |" in DOCS


@pytest.mark.parametrize("verb", sorted(n for n in vars(Verbs) if not n.startswith("_")))
def test_every_verb_is_documented(verb):
    """The verbs table and the questions list name every verb a card may use."""
    assert f"`{verb}(" in DOCS or f"`{verb}`" in DOCS, f"verb {verb} is missing from docs/hooks.md"


def test_every_example_in_the_hooks_docs_runs():
    """The examples are real code: each block runs, and its hook implementations register
    (pluggy refuses a misspelt hook or a parameter the hook does not have)."""
    blocks = re.findall(r"```python\n(.*?)```", DOCS, re.S)
    assert len(blocks) >= len(hooks())
    pm = plugin_manager()
    for number, block in enumerate(blocks):
        example = types.ModuleType(f"hooks_example_{number}")
        exec("from spoiler import hookimpl\n" + block, vars(example))
        pm.register(example)
    pm.check_pending()
    assert len(pm.get_plugins()) == len(blocks)
