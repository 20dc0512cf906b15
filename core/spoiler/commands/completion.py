"""Values completed by the shell (docs/cli.md, "Completion"): set names, bot kinds, card
names and record files. Each is a Typer ``autocompletion`` function, given the word typed so
far; plugins are loaded only when the shell asks. Options that take a list (``--sets
base,ch``) complete the name after the last comma.

(No ``from __future__ import annotations``: Typer reads ``incomplete: str`` to know what to
pass.)"""

from pathlib import Path


def _registry():
    from spoiler.plugins import load, stdout_to_stderr

    with stdout_to_stderr():  # a plugin printing as it loads would garble the shell's list
        return load()


def _names_after_comma(incomplete: str, names) -> list[str]:
    done, _, last = incomplete.rpartition(",")
    prefix = f"{done}," if done else ""
    taken = set(done.split(",")) if done else set()
    return [prefix + n for n in sorted(names) if n.startswith(last) and n not in taken]


def complete_sets(incomplete: str) -> list[str]:
    """Installed, usable set names."""
    return _names_after_comma(incomplete, _registry().sets)


def complete_bots(incomplete: str) -> list[str]:
    """Installed bot kinds (and ``exec:``, a program)."""
    return _names_after_comma(incomplete, [*_registry().agents, "exec:"])


def complete_cards(incomplete: str) -> list[str]:
    """Card names (any case) of the installed sets."""
    wanted = incomplete.lower().strip("'\"")
    names = {c.name for s in _registry().sets.values() for c in s.cards}
    return [n for n in sorted(names) if n.lower().startswith(wanted)]


def complete_records(incomplete: str) -> list[str]:
    """Record files (``*.toml``) and the folders that may hold them."""
    typed = Path(incomplete or ".")
    if incomplete.endswith("/") or not incomplete:
        folder, stem = typed, ""
    else:
        folder, stem = typed.parent, typed.name
    found = []
    try:
        entries = sorted(folder.iterdir())
    except OSError:
        return []
    for entry in entries:
        if not entry.name.startswith(stem) or (entry.name.startswith(".") and not stem):
            continue
        shown = str(entry) if incomplete else entry.name
        if entry.is_dir():
            found.append(shown + "/")
        elif entry.suffix == ".toml":
            found.append(shown)
    return found
