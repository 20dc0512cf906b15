"""Which commands ``spoiler`` has: spoiler-game's own (the static table
``spoiler.commands.builtin``) and those other distributions add through the entry point group
``spoiler.commands`` (the entry point's name is the command's, its object a click command or
group, or a Typer app). Who may have which name follows the rules the plugin loader applies
to set names and bot kinds (``spoiler.plugins``):

- ``SPOILER_PLUGINS`` limits the commands of other distributions as it limits their plugins:
  the command of a distribution it leaves out is not there;
- a built-in command keeps its name: another distribution's command of that name is reported
  (``spoiler plugins``) and never loaded;
- a name two distributions claim goes to neither, and both are reported.

Finding the commands reads metadata only (``spoiler.entrypoints``): no command is imported
until it runs (or ``spoiler plugins`` checks it). A command that fails to import is reported
in one line when it is invoked, and every other command still works.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any

from spoiler.entrypoints import CORE_DISTRIBUTION, allowlist, installed, normalise

GROUP = "spoiler.commands"


class CommandInfo:
    """One command, or one distribution's claim to a command name. (A plain class, not a
    dataclass: ``spoiler --help`` imports this module, and ``dataclasses`` alone costs 1%
    of ``import typer``.)"""

    def __init__(
        self,
        name: str,
        distribution: str,
        version: str,
        builtin: bool,
        target: str = "",
        summary: str = "",
        entry: Any = None,
    ):
        self.name, self.distribution, self.version, self.builtin = (
            name,
            distribution,
            version,
            builtin,
        )
        self.target = target  # the entry point's value: module:attribute
        self.summary = summary  # a built-in's line in the table; another's distribution's
        self.entry = entry  # what loads it: an entry point (None for a built-in)
        self.status = "ok"  # ok, broken or disabled
        self.error: str | None = None

    def __repr__(self) -> str:
        return f"CommandInfo({self.name!r}, {self.distribution!r}, {self.status!r})"


class Unusable(Exception):
    """A command that cannot be loaded: ``reason`` says why, and the message which command
    it is too, in one line."""

    def __init__(self, info: CommandInfo, reason: str):
        super().__init__(f"command {info.name!r} of {info.distribution} {reason}")
        self.reason = reason


def find(environ=None, entry_points=None) -> list[CommandInfo]:
    """Every command: the built-ins (in the table's order), then every other distribution's
    claims by name and distribution, each ok, disabled (by SPOILER_PLUGINS) or broken (a name
    claimed twice, or a built-in's). ``entry_points`` defaults to the installed
    ``spoiler.commands`` group; spoiler-game's own entry points there are the table's."""
    from spoiler import __version__
    from spoiler.commands.builtin import BUILTIN

    environ = os.environ if environ is None else environ
    found = [
        CommandInfo(name, CORE_DISTRIBUTION, __version__, True, target, summary)
        for name, (target, summary) in BUILTIN.items()
    ]
    others: dict[tuple[str, str], CommandInfo] = {}
    for ep in installed(GROUP) if entry_points is None else entry_points:
        dist = normalise(ep.distribution)
        if dist != CORE_DISTRIBUTION and (ep.name, dist) not in others:  # one dist found twice
            value = getattr(ep, "value", "")
            others[ep.name, dist] = CommandInfo(
                ep.name, dist, ep.version, False, value, ep.summary, entry=ep
            )
    claims = sorted(others.values(), key=lambda c: (c.name, c.distribution))
    allow = allowlist(environ)
    enabled: dict[str, list[str]] = {}
    for info in claims:
        if allow is not None and info.distribution not in allow:
            info.status = "disabled"
            info.error = f"distribution {info.distribution!r} is not listed in SPOILER_PLUGINS"
        else:
            enabled.setdefault(info.name, []).append(info.distribution)
    for info in claims:
        if info.status != "ok":
            continue
        if info.name in BUILTIN:
            info.status = "broken"
            info.error = (
                f"command name {info.name!r} belongs to the built-in command of "
                f"{CORE_DISTRIBUTION}; not loaded"
            )
        elif len(enabled[info.name]) > 1:
            rivals = ", ".join(repr(d) for d in enabled[info.name] if d != info.distribution)
            info.status = "broken"
            info.error = (
                f"command name {info.name!r} is also claimed by distribution {rivals}; "
                "neither is loaded"
            )
    return found + claims


def load(info: CommandInfo):
    """The click command ``info`` names (a Typer app converted). ``Unusable``, with the
    reason, for a command that is not ok, fails to import, or is no command at all."""
    from spoiler.model.interrupts import PLUGIN_FAILURES, Stop

    if info.status != "ok":
        raise Unusable(info, f"is {info.status}: {info.error}")
    try:
        with contextlib.redirect_stdout(sys.stderr):  # what it prints stays out of --json
            found = info.entry.load() if info.entry is not None else _target(info.target)
    except PLUGIN_FAILURES as exc:  # sys.exit() in a plugin is its failure too
        if isinstance(exc, Stop):  # the user's Ctrl-C
            raise
        raise Unusable(info, f"failed to import: {one_line(exc)}") from None
    try:
        command = as_command(found)
    except Exception as exc:  # a Typer app with no command, say
        raise Unusable(info, f"makes no command: {one_line(exc)}") from None
    if command is None:
        raise Unusable(info, f"is not a click command or a Typer app: {type(found).__name__}")
    return command


def as_command(found):
    """A click command or group as it is (of Typer's click, or of click itself), a Typer app
    converted to one; None for anything else."""
    import typer

    if isinstance(found, typer.Typer):
        return typer.main.get_command(found)
    kinds = [sys.modules[name].Command for name in _CLICKS if name in sys.modules]
    return found if isinstance(found, tuple(kinds)) else None


_CLICKS = ("typer._click.core", "click.core")


def _target(target: str):
    from importlib import import_module

    module, _, attribute = target.partition(":")
    return getattr(import_module(module), attribute)


def one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def checked(environ=None, entry_points=None) -> list[CommandInfo]:
    """Every command as ``find`` gives it, each one that is ok loaded to see that it works
    (for ``spoiler plugins``): one that does not is broken, with the reason."""
    infos = find(environ, entry_points)
    for info in infos:
        if info.status != "ok":
            continue
        try:
            load(info)
        except Unusable as exc:
            info.status, info.error = "broken", exc.reason
    return infos
