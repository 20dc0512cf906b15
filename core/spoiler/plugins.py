"""Finding and loading plugins: the built-in ones and those installed with pip.

Every plugin is an entry point in the group ``spoiler``. The ones ``spoiler-game`` itself
ships (the base set, the bots) always load; ``SPOILER_PLUGINS`` (comma-separated entry point
names) limits which of the others load, and ``SPOILER_PLUGINS=""`` loads none of them.

Each plugin loads on its own: one that fails to import, misspells a hook, raises in a
content hook, needs another plugin API version, or brings a set whose name is taken, is
recorded as broken with a one-line reason, and everything else still works.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

import pluggy

from spoiler import API_VERSION, hookspecs
from spoiler.cards import CardSet

GROUP = "spoiler"
CORE_DISTRIBUTION = "spoiler-game"
GAME_HOOKS = tuple(
    n
    for n in dir(hookspecs)
    if n.startswith("spoiler_") and n not in ("spoiler_register_sets", "spoiler_register_agents")
)


@dataclass
class PluginInfo:
    name: str  # the entry point's name
    distribution: str
    version: str
    builtin: bool
    status: str = "ok"  # ok, broken or disabled
    error: str | None = None
    sets: list[str] = field(default_factory=list)
    hooks: list[str] = field(default_factory=list)
    plugin: object = None


@dataclass
class SetInfo:
    name: str
    version: str
    distribution: str
    cards: int
    status: str  # ok, broken or disabled
    error: str | None = None
    plugin: str = ""
    card_set: CardSet | None = None

    def as_dict(self) -> dict:
        return {
            "name": self.name,
            "version": self.version,
            "distribution": self.distribution,
            "cards": self.cards,
            "status": self.status,
            "error": self.error,
        }


@dataclass
class AgentKind:
    kind: str
    factory: Callable[..., Any]  # (seat, seed), or (seat, seed, options)
    description: str
    plugin: str


class UnknownName(LookupError):
    """A set or agent kind that is not installed (or not usable)."""


class Registry:
    """What the loaded plugins provide, and what went wrong with the others."""

    def __init__(self, pm: pluggy.PluginManager):
        self.pm = pm
        self.plugins: dict[str, PluginInfo] = {}
        self.set_infos: list[SetInfo] = []
        self.agents: dict[str, AgentKind] = {}

    @property
    def sets(self) -> dict[str, CardSet]:
        return {i.name: i.card_set for i in self.set_infos if i.status == "ok" and i.card_set}

    def card_sets(self, names: list[str] | None = None) -> list[CardSet]:
        """The named sets (all usable sets when None); UnknownName names what is missing."""
        usable = self.sets
        if names is None:
            return list(usable.values())
        chosen = []
        for name in names:
            if name not in usable:
                info = next((i for i in self.set_infos if i.name == name), None)
                if info is not None:
                    raise UnknownName(f"set {name!r} is {info.status}: {info.error}")
                raise UnknownName(
                    f"no set named {name!r} (installed: {', '.join(sorted(usable)) or 'none'})"
                )
            chosen.append(usable[name])
        return chosen

    def agent(self, kind: str, seat: int, game_seed: int, options: dict | None = None):
        """A bot of ``kind`` for ``seat``. Its factory gets a seed derived one-way from the
        game's seed (``spoiler.seeds.bot_seed``), never the game's seed itself. ``options``
        (such as ``think_ms``) reach the factories that take an ``options`` parameter; the
        others never see them."""
        if kind not in self.agents:
            raise UnknownName(
                f"no bot kind {kind!r} (installed: {', '.join(sorted(self.agents)) or 'none'})"
            )
        from spoiler.seeds import bot_seed

        factory = self.agents[kind].factory
        seed = bot_seed(game_seed, seat, kind)
        if options and _takes_options(factory):
            return factory(seat, seed, options=dict(options))
        return factory(seat, seed)

    def game_hooks(self, set_names) -> dict:
        """Hook callers for a game with these sets: a plugin's phase and effect hooks take part
        only when one of its sets is in the game (or when it provides no set at all)."""
        wanted = set(set_names)
        outside = [
            info.plugin
            for info in self.plugins.values()
            if info.status == "ok" and info.sets and not wanted & set(info.sets)
        ]
        hooks = {}
        for name in GAME_HOOKS:
            caller = (
                self.pm.subset_hook_caller(name, outside)
                if outside
                else getattr(self.pm.hook, name)
            )
            if caller.get_hookimpls():
                hooks[name] = caller
        return hooks

    def broken(self) -> list[PluginInfo]:
        return [p for p in self.plugins.values() if p.status == "broken"]


def _takes_options(factory) -> bool:
    import inspect

    try:
        return "options" in inspect.signature(factory).parameters
    except (TypeError, ValueError):  # a callable whose signature cannot be read
        return False


def _allowlist(environ) -> set[str] | None:
    raw = environ.get("SPOILER_PLUGINS")
    if raw is None:
        return None
    return {n.strip() for n in raw.split(",") if n.strip()}


def api_compatible(spec: str, version: str = API_VERSION) -> bool:
    """Does ``version`` satisfy a version specifier like ">=1,<2", "~=1.0" or "==1.*"?"""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    try:
        return SpecifierSet(spec).contains(version, prereleases=True)
    except (InvalidSpecifier, TypeError):
        raise ValueError(f"unreadable API range {spec!r}") from None


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def load(environ=None, entry_points=None) -> Registry:
    """Build the plugin manager and load every plugin (call it when plugins are needed,
    never at import). ``entry_points`` defaults to the installed ``spoiler`` group."""
    environ = os.environ if environ is None else environ
    if entry_points is None:
        entry_points = metadata.entry_points(group=GROUP)
    pm = pluggy.PluginManager(GROUP)
    pm.add_hookspecs(hookspecs)
    if environ.get("SPOILER_TRACE_HOOKS"):
        _trace(pm)
    registry = Registry(pm)
    allow = _allowlist(environ)

    # Built-ins first, then the others by name: the load order (and so who wins a name
    # collision) never depends on how the environment lists entry points.
    ordered = sorted(
        entry_points,
        key=lambda ep: (
            _distribution_of(ep)[0] != CORE_DISTRIBUTION,
            ep.name,
            _distribution_of(ep)[0],
        ),
    )
    for ep in ordered:
        dist, version = _distribution_of(ep)
        info = PluginInfo(ep.name, dist, version, builtin=dist == CORE_DISTRIBUTION)
        if ep.name in registry.plugins:
            # Two distributions claim one entry point name: the first keeps it.
            other = registry.plugins[ep.name].distribution
            info.status = "broken"
            info.error = f"entry point name {ep.name!r} is already used by distribution {other!r}"
            registry.plugins[f"{ep.name} ({dist})"] = info
            continue
        registry.plugins[ep.name] = info
        if not info.builtin and allow is not None and ep.name not in allow:
            info.status, info.error = "disabled", "not listed in SPOILER_PLUGINS"
            continue
        try:
            plugin = ep.load()
        except (Exception, SystemExit) as exc:  # a plugin may even call sys.exit on import
            info.status, info.error = "broken", f"failed to import: {_one_line(exc)}"
            continue
        _register(registry, info, plugin)
    pm.check_pending()  # every misspelt hook was caught above; this keeps it so
    _collect_sets(registry)
    _collect_agents(registry)
    return registry


def _distribution_of(ep) -> tuple[str, str]:
    """(normalised distribution name, version) of an entry point."""
    dist = getattr(ep, "dist", None)
    if dist is None:
        return "unknown", ""
    return re.sub(r"[-_.]+", "-", dist.name).lower(), dist.version


def hooks_for(*plugins) -> dict:
    """The game hooks of these plugin objects (modules), for ``Game(hooks=...)`` in tests::

    game = table([spoiler_chrono.chrono], hands=..., hooks=hooks_for(spoiler_chrono))
    """
    pm = pluggy.PluginManager(GROUP)
    pm.add_hookspecs(hookspecs)
    for plugin in plugins:
        pm.register(plugin)
    pm.check_pending()
    return {
        name: getattr(pm.hook, name)
        for name in GAME_HOOKS
        if getattr(pm.hook, name).get_hookimpls()
    }


def _register(registry: Registry, info: PluginInfo, plugin) -> None:
    pm = registry.pm
    if pm.is_registered(plugin):  # two entry points for one module
        info.status, info.error = "broken", "the same plugin object is registered twice"
        return
    try:
        pm.register(plugin, name=info.name)
    except Exception as exc:
        reason = _bad_parameters(pm, plugin) or " ".join(str(exc).split())
        info.status, info.error = "broken", f"invalid hook implementation: {reason}"
        return
    unknown = [hc.name for hc in pm.get_hookcallers(plugin) or [] if not hc.has_spec()]
    if unknown:
        pm.unregister(plugin)
        info.status = "broken"
        info.error = f"implements unknown hook(s) {', '.join(_suggest(pm, n) for n in unknown)}"
        return
    info.plugin = plugin
    info.hooks = sorted(hc.name for hc in pm.get_hookcallers(plugin) or [])


def _specs(pm: pluggy.PluginManager) -> dict[str, tuple[str, ...]]:
    """Every hook spec, with its parameters."""
    return {
        name: tuple(caller.spec.argnames)
        for name, caller in vars(pm.hook).items()
        if name.startswith("spoiler_") and caller.spec is not None
    }


def _suggest(pm: pluggy.PluginManager, name: str) -> str:
    """An unknown hook's name, with the closest spec's name when one is close."""
    import difflib

    close = difflib.get_close_matches(name, list(_specs(pm)), n=1, cutoff=0.6)
    return f"{name} (did you mean {close[0]}?)" if close else f"{name} (misspelt?)"


def _bad_parameters(pm: pluggy.PluginManager, plugin) -> str | None:
    """Which hook implementation asks for a parameter its spec lacks, and the spec's own."""
    import inspect

    specs = _specs(pm)
    for attr in dir(plugin):
        if attr not in specs or pm.parse_hookimpl_opts(plugin, attr) is None:
            continue
        try:
            params = list(inspect.signature(getattr(plugin, attr)).parameters)
        except (TypeError, ValueError):
            continue
        extra = [p for p in params if p not in specs[attr] and p != "self"]
        if extra:
            return (
                f"{attr} asks for {', '.join(extra)}, which the hook does not have; "
                f"its parameters are: {', '.join(specs[attr])}"
            )
    return None


def _call_one(pm: pluggy.PluginManager, hook: str, impl, **kwargs):
    """Call one plugin's implementation of a content hook (through pluggy, so that
    SPOILER_TRACE_HOOKS sees it), so that its failure is that plugin's alone."""
    others = [p for p in pm.get_plugins() if p is not impl.plugin]
    return pm.subset_hook_caller(hook, others)(**kwargs)


def _mark_broken(registry: Registry, name: str, error: str) -> None:
    info = registry.plugins[name]
    info.status, info.error = "broken", error
    registry.set_infos = [s for s in registry.set_infos if s.plugin != name]
    for kind in [k for k, a in registry.agents.items() if a.plugin == name]:
        del registry.agents[kind]
    if info.plugin is not None and registry.pm.is_registered(info.plugin):
        registry.pm.unregister(info.plugin)
    info.plugin = None
    registry.set_infos.append(
        SetInfo(name, info.version, info.distribution, 0, "broken", error, name)
    )


def _collect_sets(registry: Registry) -> None:
    taken: dict[str, str] = {}
    for impl in registry.pm.hook.spoiler_register_sets.get_hookimpls():  # in load order
        info = registry.plugins[impl.plugin_name]
        found: list = []
        try:
            _call_one(registry.pm, "spoiler_register_sets", impl, register=found.append)
            for card_set in found:
                _check_set(card_set, taken, info)
        except Exception as exc:
            _mark_broken(
                registry,
                info.name,
                _one_line(exc) if not isinstance(exc, _SetProblem) else str(exc),
            )
            continue
        for card_set in found:
            taken[card_set.name] = info.name
            info.sets.append(card_set.name)
            registry.set_infos.append(
                SetInfo(
                    card_set.name,
                    card_set.version,
                    info.distribution,
                    len(card_set.cards),
                    "ok",
                    None,
                    info.name,
                    card_set,
                )
            )
    for info in registry.plugins.values():
        if info.status == "disabled":
            registry.set_infos.append(
                SetInfo(
                    info.name, info.version, info.distribution, 0, "disabled", info.error, info.name
                )
            )
        elif info.status == "broken" and not any(s.plugin == info.name for s in registry.set_infos):
            registry.set_infos.append(
                SetInfo(
                    info.name, info.version, info.distribution, 0, "broken", info.error, info.name
                )
            )


class _SetProblem(Exception):
    pass


def _check_set(card_set, taken: dict, info: PluginInfo) -> None:
    if not isinstance(card_set, CardSet):
        raise _SetProblem(f"registered {card_set!r}, which is not a spoiler.CardSet")
    if card_set.name in taken:
        other = taken[card_set.name]
        raise _SetProblem(f"set name {card_set.name!r} is already taken by plugin {other!r}")
    try:
        compatible = api_compatible(card_set.api)
    except ValueError as exc:
        raise _SetProblem(f"set {card_set.name!r}: {exc}") from None
    if not compatible:
        raise _SetProblem(
            f"set {card_set.name!r} needs plugin API {card_set.api}, "
            f"but this spoiler-game has API {API_VERSION}"
        )
    for card in card_set.cards:
        if not card.id.startswith(card_set.name + ":"):
            raise _SetProblem(f"card id {card.id!r} is outside set {card_set.name!r}")


def _collect_agents(registry: Registry) -> None:
    for impl in registry.pm.hook.spoiler_register_agents.get_hookimpls():
        name = impl.plugin_name
        found: dict = {}

        def register(kind, factory, description="", _found=found, _name=name):
            if kind in registry.agents or kind in _found:
                raise _SetProblem(f"bot kind {kind!r} is already taken")
            _found[kind] = AgentKind(kind, factory, description, _name)

        try:
            _call_one(registry.pm, "spoiler_register_agents", impl, register=register)
        except Exception as exc:
            _mark_broken(
                registry, name, _one_line(exc) if not isinstance(exc, _SetProblem) else str(exc)
            )
            continue
        registry.agents.update(found)


def _trace(pm: pluggy.PluginManager) -> None:
    """SPOILER_TRACE_HOOKS=1: print every hook call and what it returned to stderr."""

    def before(hook_name, hook_impls, kwargs):
        names = ", ".join(i.plugin_name for i in hook_impls)
        print(f"hook {hook_name}({', '.join(sorted(kwargs))}) -> [{names}]", file=sys.stderr)

    def after(outcome, hook_name, hook_impls, kwargs):
        if outcome.exception is not None:
            print(f"hook {hook_name} raised {outcome.exception!r}", file=sys.stderr)

    pm.add_hookcall_monitoring(before, after)
