"""The entry points of the installed distributions, read cheaply, and the one reading of
``SPOILER_PLUGINS``: for the plugin loader (``spoiler.plugins``) and the command table
(``spoiler.commands``) alike. It imports nothing of spoiler, so it sits below every layer.

``installed(group)`` answers what ``importlib.metadata.entry_points(group=...)`` answers, from
the same files: the ``*.dist-info`` (and ``*.egg-info``) folders in the directories of
``sys.path``, the first distribution of a name winning. It exists because importing
``importlib.metadata`` costs a third of ``import typer`` (it imports email, csv and zipfile:
18 ms against 60 ms), and ``spoiler --help``, which lists the commands other distributions
add, must stay within 1.2 times ``import typer`` (benchmarks/startup.py); reading the files
costs about a millisecond. tests/test_command_plugins.py checks that the two agree.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable

#: The distribution whose plugins and commands are built in.
CORE_DISTRIBUTION = "spoiler-game"


def normalise(name: str) -> str:
    """A distribution's name as packaging tools compare them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def allowlist(environ) -> set[str] | None:
    """The distributions SPOILER_PLUGINS names (normalised), or None when it is not set."""
    raw = environ.get("SPOILER_PLUGINS")
    if raw is None:
        return None
    return {normalise(n.strip()) for n in raw.split(",") if n.strip()}


class EntryPoint:
    """An entry point of an installed distribution: its ``name``, its ``value``
    (``module:attribute``), and the distribution's name (normalised, as its metadata folder
    is named), version and summary (read from its metadata when first asked for)."""

    def __init__(self, name: str, value: str, group: str, metadata: _Metadata):
        self.name, self.value, self.group = name, value, group
        self.folder = metadata.folder
        self.distribution = normalise(_stem_name(metadata.folder))
        self._metadata = metadata  # shared by the entry points of one distribution

    def __repr__(self) -> str:
        return f"EntryPoint({self.name!r}, {self.value!r}, {self.group!r})"

    @property
    def version(self) -> str:
        return self._metadata.get("version")

    @property
    def summary(self) -> str:
        return self._metadata.get("summary")

    def load(self):
        """The object the entry point names (importing its module)."""
        from importlib import import_module

        found = _VALUE.match(self.value)
        if found is None:
            raise ValueError(f"entry point {self.name!r} = {self.value!r} is not module:attribute")
        target = import_module(found["module"])
        for attribute in filter(None, (found["attr"] or "").split(".")):
            target = getattr(target, attribute)
        return target


class _Metadata:
    """A distribution's metadata folder, its headers read once, when first asked for."""

    def __init__(self, folder: str):
        self.folder = folder
        self._headers: dict[str, str] | None = None

    def get(self, field: str) -> str:
        if self._headers is None:
            self._headers = _headers(self.folder)
        return self._headers.get(field, "")


#: What importlib.metadata.EntryPoint accepts: "module", "module:attr.sub", extras after.
_VALUE = re.compile(r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?((?P<extras>\[.*\])\s*)?$")


def installed(group: str, path: Iterable[str] | None = None) -> list[EntryPoint]:
    """Every entry point of ``group`` in the distributions installed on ``path`` (default:
    ``sys.path``), in the order importlib.metadata finds them."""
    header = f"[{group}]".encode()
    found: list[EntryPoint] = []
    seen: set[str] = set()
    for directory in sys.path if path is None else path:
        try:
            children = os.listdir(directory or ".")
        except OSError:  # not a directory (a zip file, a path that is gone)
            continue
        for child in children:
            if not child.endswith((".dist-info", ".egg-info")):
                continue
            key = normalise(_stem_name(child))
            if key in seen:
                continue
            seen.add(key)
            folder = os.path.join(directory, child)
            try:  # read as bytes: most hold no such group, and need no decoding
                with open(os.path.join(folder, "entry_points.txt"), "rb") as file:
                    data = file.read()
            except OSError:  # none (most distributions), or an egg-info that is a file
                continue
            if header in data:
                metadata = _Metadata(folder)
                text = data.decode("utf-8", "replace")
                found.extend(EntryPoint(n, v, group, metadata) for n, v in _section(text, group))
    return found


def _stem_name(folder: str) -> str:
    """The distribution's name in a metadata folder's name (``name-version.dist-info``)."""
    return os.path.splitext(os.path.basename(folder))[0].partition("-")[0]


def _section(text: str, group: str) -> list[tuple[str, str]]:
    """The ``name = value`` lines of one section of an entry_points.txt (an INI file)."""
    entries, current = [], None
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = line.strip("[]")
        elif current == group:
            name, equals, value = line.partition("=")
            if equals:
                entries.append((name.strip(), value.strip()))
    return entries


def _headers(folder: str) -> dict[str, str]:
    """The Name, Version and Summary of a distribution's metadata (its first lines)."""
    wanted = {"name", "version", "summary"}
    headers: dict[str, str] = {}
    for file in ("METADATA", "PKG-INFO"):
        try:
            with open(os.path.join(folder, file), encoding="utf-8") as lines:
                for line in lines:
                    if not line.strip():
                        break  # the headers end; the description follows
                    field, colon, value = line.partition(":")
                    if colon and field.lower() in wanted:
                        headers.setdefault(field.lower(), value.strip())
        except OSError:
            continue
        break
    return headers
