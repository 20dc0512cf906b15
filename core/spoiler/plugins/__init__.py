"""Finding and loading plugins: the built-in ones and those installed with pip.

Every plugin is an entry point in the group ``spoiler``. The ones ``spoiler-game`` itself
ships (the base set, the bots) always load; ``SPOILER_PLUGINS`` (comma-separated
*distribution* names, e.g. ``spoiler-chrono``) limits which of the others load, and
``SPOILER_PLUGINS=""`` loads none of them. An entry point loads only from a distribution that
is named, so another distribution cannot slip in under a plugin's name.

Each plugin loads on its own: one that fails to import (``sys.exit()`` included), misspells a
hook, raises in a content hook, needs another plugin API version, or claims an entry point
name, set name or bot kind that another distribution claims too (both are then broken,
neither wins; a built-in plugin keeps its own names), is recorded as broken with a one-line
reason, and everything else still works. See docs/plugins.md for what this does and does not
protect against (the trust model).
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

import pluggy

from spoiler import API_VERSION
from spoiler.entrypoints import CORE_DISTRIBUTION, normalise
from spoiler.entrypoints import allowlist as _allowlist
from spoiler.model.cards import CardSet, declaration_problems, refusal
from spoiler.model.interrupts import PLUGIN_FAILURES, Stop
from spoiler.plugins import hookspecs
from spoiler.plugins.rulehooks import with_rules

GROUP = "spoiler"
GAME_HOOKS = tuple(
    n
    for n in dir(hookspecs)
    if n.startswith("spoiler_") and n not in ("spoiler_register_sets", "spoiler_register_agents")
)


#: The prefix of a bot kind that runs a program (``--bot exec:COMMAND``, docs/bots.md).
EXEC = "exec:"


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
    #: Its key in ``Registry.plugins`` and its name in pluggy: the entry point's name, or
    #: "name (distribution)" when two distributions claim that name.
    key: str = ""

    def __post_init__(self):
        self.key = self.key or self.name


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


#: The distribution name a requirement starts with (``spoiler-game>=0.1; extra == "x"``).
_REQUIREMENT = re.compile(r"\s*([A-Za-z0-9._-]+)")


def without_entry_point(name: str | None = None) -> list[str]:
    """Installed distributions that look like card sets but declare no entry point of group
    ``spoiler`` (so no set of theirs is ever found): those of this set's name (``oops``,
    ``spoiler-oops``, ``oops-spoiler``) when ``name`` is given; else every one that depends on
    spoiler-game or is named ``spoiler-*`` and declares no ``spoiler`` or
    ``spoiler.commands`` entry point. Read from the distributions' metadata only: nothing is
    imported."""
    wanted = {normalise(n) for n in (f"{name}", f"spoiler-{name}", f"{name}-spoiler")}
    found = []
    for dist in metadata.distributions():
        dist_name = dist.metadata["Name"] or ""
        key = normalise(dist_name)
        if key == normalise(CORE_DISTRIBUTION) or dist_name in found:
            continue
        if name is not None:
            if key in wanted and not any(ep.group == GROUP for ep in dist.entry_points):
                found.append(dist_name)
            continue
        requires = {normalise(m[1]) for r in dist.requires or () if (m := _REQUIREMENT.match(r))}
        if not (key.startswith("spoiler-") or normalise(CORE_DISTRIBUTION) in requires):
            continue
        if not any(ep.group in (GROUP, "spoiler.commands") for ep in dist.entry_points):
            found.append(dist_name)
    return sorted(found)


def entry_point_fix(dist_name: str, set_name: str | None = None) -> str:
    """How to give a distribution its entry point, in a sentence."""
    module = normalise(dist_name).replace("-", "_")
    line = f'{set_name or module.removeprefix("spoiler_")} = "{module}"'
    return (
        f"distribution {dist_name!r} is installed but declares no 'spoiler' entry point: add "
        f"[project.entry-points.spoiler] with {line} (the module that registers its sets) "
        "to its pyproject.toml, and install it again"
    )


def unknown_set(name: str, known: Iterable[str]) -> str:
    """The line for a set name that is not installed: what is, or, for a distribution of
    that name with no entry point, the fix."""
    from spoiler.names import unknown

    message = unknown("set named", name, known)
    missing = without_entry_point(name)
    if missing:
        message += f"; {entry_point_fix(missing[0], name)}"
    return message


class Registry:
    """What the loaded plugins provide, and what went wrong with the others."""

    def __init__(self, pm: pluggy.PluginManager):
        self.pm = pm
        self.plugins: dict[str, PluginInfo] = {}
        self.set_infos: list[SetInfo] = []
        self.agents: dict[str, AgentKind] = {}
        #: Bot kinds that two plugins claim (so neither has), with who claims them.
        self.kind_clashes: dict[str, list[str]] = {}
        #: Every hook call is printed (SPOILER_TRACE_HOOKS): the game's hooks go through
        #: pluggy, whose monitoring prints them (plugins.rulehooks).
        self.traced = False

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
                raise UnknownName(unknown_set(name, usable))
            chosen.append(usable[name])
        return chosen

    def sets_played(self, names: list[str] | None = None) -> list[CardSet]:
        """The sets a game with the named sets plays (all usable sets when None): those, then
        the sets they are played with (``CardSet.requires``: a set that cannot end a game
        alone brings its partners). UnknownName names what is missing."""
        chosen = self.card_sets(names)
        for card_set in chosen:  # (a partner's own partners come too: it joins the walk)
            for name in card_set.requires:
                if all(s.name != name for s in chosen):
                    try:
                        chosen.extend(self.card_sets([name]))
                    except UnknownName as exc:
                        raise UnknownName(
                            f"set {card_set.name!r} is played with set {name!r}: {exc}"
                        ) from None
        return chosen

    def agent(
        self,
        kind: str,
        seat: int,
        game_seed: int,
        options: dict | None = None,
        *,
        time_limit: float | None = None,
        key: str | None = None,
    ):
        """A bot of ``kind`` for ``seat``. Its factory gets a seed derived one-way from the
        game's seed and ``key``, a secret the bot is never given (``spoiler.seeds.bot_seed``),
        never the game's seed itself. ``options``
        (``--bot-option``: names to text, ``spoiler.agents.options``) reach the factories
        that take an ``options`` parameter; the others never see them. A factory that
        refuses one raises ``spoiler.agents.options.OptionError``, which this raises again
        naming the kind. ``time_limit``: seconds a program bot (``exec:``) may take over a
        decision (``--bot-time-limit``; None: ``spoiler.agents.process.TIME_LIMIT``)."""
        if kind.startswith(EXEC):  # a program speaking spoiler-bot/1 (spoiler.agents.process)
            from spoiler.agents.process import TIME_LIMIT, ProcessBot
            from spoiler.model.seeds import bot_seed

            return ProcessBot(
                kind[len(EXEC) :],
                seat,
                bot_seed(game_seed, seat, kind, key),
                options=options,
                time_limit=TIME_LIMIT if time_limit is None else time_limit,
            )
        if kind in self.kind_clashes:
            *others, last = self.kind_clashes[kind]
            raise UnknownName(
                f"bot kind {kind!r} is claimed by {', '.join(others)} and {last}; "
                "neither is loaded (see `spoiler plugins`)"
            )
        if kind not in self.agents:
            from spoiler.names import unknown

            raise UnknownName(unknown("bot kind", kind, self.agents))
        from spoiler.agents import PluginBot, bot_failed
        from spoiler.model.seeds import bot_seed

        agent = self.agents[kind]
        seed = bot_seed(game_seed, seat, kind, key)
        program = _program(agent.factory)
        if program is not None:  # run as exec: runs one, named by its kind
            from spoiler.agents.process import TIME_LIMIT

            _check_program(kind, program)
            limit = TIME_LIMIT if time_limit is None else time_limit
            return program(seat, seed, options, time_limit=limit, label=kind)
        info = self.plugins.get(agent.plugin)
        from spoiler.agents.options import OptionError

        try:
            if options and _takes_options(agent.factory):
                bot = agent.factory(seat, seed, options=dict(options))
            else:
                bot = agent.factory(seat, seed)
        except OptionError as exc:
            raise OptionError(f"bot {kind!r}: {exc}") from None
        except PLUGIN_FAILURES as exc:
            if info is not None and info.builtin:  # the core's own bots: its own bugs
                raise
            _reraise_stop(exc)
            raise bot_failed(kind, agent.plugin, "its factory", exc) from exc
        if info is not None and info.builtin:  # trusted as the core's own code
            return bot
        return PluginBot(bot, kind, agent.plugin)

    def check_kind(self, kind: str, options: dict | None = None) -> None:
        """Raise UnknownName unless ``kind`` is a bot kind this registry can seat: an
        installed kind, or ``exec:COMMAND`` with a program that can be found; and
        ``OptionError`` when its factory refuses ``options`` (it is asked once, for seat 0,
        when it takes options; a program gets its options as they are)."""
        if kind.startswith(EXEC):
            from spoiler.agents.process import command_problem

            command = kind[len(EXEC) :]
            problem = command_problem(command)
            if problem is not None:
                raise UnknownName(f"--bot {kind if command.strip() else 'exec'}: {problem}")
            return
        if kind not in self.agents:
            self.agent(kind, 0, 0)  # raises UnknownName, naming the installed kinds
        program = _program(self.agents[kind].factory)
        if program is not None:  # looked for, not started, as an exec: one
            _check_program(kind, program)
            return
        if options and _takes_options(self.agents[kind].factory):
            from spoiler.agents import close_agent

            close_agent(self.agent(kind, 0, 0, options))

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
        return with_rules(self.pm, hooks, direct=not self.traced)

    def broken(self) -> list[PluginInfo]:
        return [p for p in self.plugins.values() if p.status == "broken"]


def _program(factory):
    """The ``spoiler.agents.process.Program`` a bot kind's factory is, or None. (Only a
    plugin that made one has imported that module: other kinds do not load it.)"""
    process = sys.modules.get("spoiler.agents.process")
    return factory if process is not None and isinstance(factory, process.Program) else None


def _check_program(kind: str, program) -> None:
    """UnknownName, saying why, unless the program a bot kind runs can be started here."""
    from spoiler.agents.process import command_problem

    problem = command_problem(program.command)
    if problem is not None:
        raise UnknownName(f"bot kind {kind!r} runs {program.command!r}: {problem}")


def _takes_options(factory) -> bool:
    import inspect

    try:
        return "options" in inspect.signature(factory).parameters
    except (TypeError, ValueError):  # a callable whose signature cannot be read
        return False


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


def load(environ=None, entry_points=None, *, before_import=None, known_broken=None) -> Registry:
    """Build the plugin manager and load every plugin (call it when plugins are needed,
    never at import). ``entry_points`` defaults to the installed ``spoiler`` group.

    Output a plugin prints while it loads goes to stderr, never to stdout (where a command's
    ``--json`` goes). ``SystemExit`` and ``KeyboardInterrupt`` raised by a plugin are its
    failure, like any exception; only the user's Ctrl-C (``spoiler.interrupts.Stop``) stops
    the loading.

    ``before_import(info)`` is called before each plugin is imported (and with None once all
    are, before the content hooks run), and ``known_broken``
    (plugin key -> reason) names plugins not to import at all: ``spoiler sets validate``
    uses both to survive plugins that kill or hang the process that imports them
    (``spoiler.isolation``)."""
    environ = os.environ if environ is None else environ
    known_broken = known_broken or {}
    if entry_points is None:
        entry_points = metadata.entry_points(group=GROUP)
    pm = pluggy.PluginManager(GROUP)
    pm.add_hookspecs(hookspecs)
    registry = Registry(pm)
    if environ.get("SPOILER_TRACE_HOOKS"):
        _trace(pm)
        registry.traced = True
    allow = _allowlist(environ)
    with stdout_to_stderr():
        for info, ep in _claims(entry_points, allow):
            registry.plugins[info.key] = info
            if info.status != "ok":
                continue
            if info.key in known_broken:
                info.status, info.error = "broken", known_broken[info.key]
                continue
            if before_import is not None:
                before_import(info)
            try:
                plugin = ep.load()
            except PLUGIN_FAILURES as exc:  # a plugin may even call sys.exit on import
                _reraise_stop(exc)
                info.status, info.error = "broken", f"failed to import: {_one_line(exc)}"
                continue
            _register(registry, info, plugin)
        pm.check_pending()  # every misspelt hook was caught above; this keeps it so
        if before_import is not None:
            before_import(None)  # every import done: now the content hooks run
        _collect_sets(registry)
        _collect_agents(registry)
    return registry


def _claims(entry_points, allow: set[str] | None) -> list[tuple[PluginInfo, Any]]:
    """Every entry point, as a PluginInfo (ok to load, disabled, or broken by a clash), in
    load order: built-ins first, then the others by name and distribution, so that nothing
    depends on how the environment lists them.

    An entry point loads only from a distribution SPOILER_PLUGINS names (the built-ins
    always). A name that two distributions claim is loaded from neither: both are reported.
    Another distribution's entry point named like a built-in one is refused (the built-in
    plugin keeps its name)."""
    distributions: dict[int, tuple[str, str]] = {}  # metadata read once per distribution
    seen, found = set(), []
    for ep in entry_points:
        dist, version = _distribution_of(ep, distributions)
        if (ep.name, dist, getattr(ep, "value", id(ep))) in seen:  # one dist found twice
            continue
        seen.add((ep.name, dist, getattr(ep, "value", id(ep))))
        found.append((PluginInfo(ep.name, dist, version, builtin=dist == CORE_DISTRIBUTION), ep))
    found.sort(key=lambda pair: (not pair[0].builtin, pair[0].name, pair[0].distribution))

    builtin_names = {info.name for info, _ in found if info.builtin}
    enabled: dict[str, list[str]] = {}
    for info, _ in found:
        if not info.builtin and allow is not None and info.distribution not in allow:
            info.status = "disabled"
            info.error = f"distribution {info.distribution!r} is not listed in SPOILER_PLUGINS"
        else:
            enabled.setdefault(info.name, []).append(info.distribution)
    keys: set[str] = set()
    # The entry points that may load get their plain name first; a disabled namesake is
    # told apart by its distribution.
    for info, _ in sorted(found, key=lambda pair: pair[0].status != "ok"):
        claimants = enabled.get(info.name, [])
        if info.status == "ok" and not info.builtin and info.name in builtin_names:
            info.status = "broken"
            info.error = (
                f"entry point name {info.name!r} belongs to the built-in plugin of "
                f"{CORE_DISTRIBUTION}; not loaded"
            )
        elif info.status == "ok" and not info.builtin and len(claimants) > 1:
            others = ", ".join(repr(d) for d in claimants if d != info.distribution)
            info.status = "broken"
            info.error = (
                f"entry point name {info.name!r} is also claimed by distribution {others}; "
                "neither is loaded"
            )
        clash = info.status == "broken" or info.name in keys
        info.key = f"{info.name} ({info.distribution})" if clash else info.name
        keys.add(info.key)
    return found


def _distribution_of(ep, cache: dict | None = None) -> tuple[str, str]:
    """(normalised distribution name, version) of an entry point. Each read of a
    distribution's name or version parses its metadata file again, so ``cache`` keeps them
    per distribution."""
    dist = getattr(ep, "dist", None)
    if dist is None:
        return "unknown", ""
    if cache is not None and id(dist) in cache:
        return cache[id(dist)]
    found = (normalise(dist.name), dist.version)
    if cache is not None:
        cache[id(dist)] = found
    return found


def _reraise_stop(exc: BaseException) -> None:
    """The user's Ctrl-C is never a plugin's failure."""
    if isinstance(exc, Stop):
        raise exc


@contextlib.contextmanager
def stdout_to_stderr():
    """Whatever is printed inside (through ``sys.stdout`` or file descriptor 1, by this process
    or by the processes it starts) goes to stderr, so that the stdout of a ``--json`` command
    stays JSON: used while plugins load, and while their code plays games (``simulate``)."""
    with contextlib.suppress(Exception):
        sys.stdout.flush()
    try:
        saved = os.dup(1)
        os.dup2(2, 1)
    except OSError:  # no descriptors to speak of (an embedded interpreter)
        saved = None
    try:
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        with contextlib.suppress(Exception):
            sys.stderr.flush()
        if saved is not None:
            os.dup2(saved, 1)
            os.close(saved)


def hooks_for(*plugins) -> dict:
    """The game hooks of these plugin objects (modules), for ``Game(hooks=...)`` in tests::

    game = table([spoiler_chrono.chrono], hands=..., hooks=hooks_for(spoiler_chrono))
    """
    pm = pluggy.PluginManager(GROUP)
    pm.add_hookspecs(hookspecs)
    for plugin in plugins:
        # Named as its entry point would be (spoiler_chrono: "chrono"), which names its rule.
        module = getattr(plugin, "__name__", None)
        name = module.rpartition(".")[2].removeprefix("spoiler_") if module else None
        pm.register(plugin, name=name)
    pm.check_pending()
    return with_rules(
        pm,
        {
            name: getattr(pm.hook, name)
            for name in GAME_HOOKS
            if getattr(pm.hook, name).get_hookimpls()
        },
    )


def _register(registry: Registry, info: PluginInfo, plugin) -> None:
    pm = registry.pm
    if pm.is_registered(plugin):  # two entry points for one module
        info.status, info.error = "broken", "the same plugin object is registered twice"
        return
    try:
        pm.register(plugin, name=info.key)
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
            # (``rule``, which every phase and effect hook has, goes without saying.)
            own = [p for p in specs[attr] if p != "rule"]
            return (
                f"{attr} asks for {', '.join(extra)}, which the hook does not have; "
                f"its parameters are: {', '.join(own)}"
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
    # Every plugin's sets first, then who may keep which name: a set name that two plugins
    # claim goes to neither (unless one is built in, which keeps it), and both are told.
    offered: list[tuple[PluginInfo, list]] = []
    for impl in registry.pm.hook.spoiler_register_sets.get_hookimpls():  # in load order
        info = registry.plugins[impl.plugin_name]
        found: list = []
        try:
            _call_one(registry.pm, "spoiler_register_sets", impl, register=found.append)
            for card_set in found:
                _check_set(card_set)
            names = [s.name for s in found]
            twice = next((n for n in names if names.count(n) > 1), None)
            if twice is not None:
                raise _SetProblem(f"set name {twice!r} is registered twice")
        except PLUGIN_FAILURES as exc:
            _reraise_stop(exc)
            _mark_broken(registry, info.key, _problem(exc))
            continue
        offered.append((info, found))
    claims = _claimants((info, [s.name for s in found]) for info, found in offered)
    for info, found in offered:
        clash = _clash("set name", info, [s.name for s in found], claims)
        if clash is not None:
            _mark_broken(registry, info.key, clash)
            continue
        for card_set in found:
            info.sets.append(card_set.name)
            registry.set_infos.append(
                SetInfo(
                    card_set.name,
                    card_set.version,
                    info.distribution,
                    len(card_set.cards),
                    "ok",
                    None,
                    info.key,
                    card_set,
                )
            )
    for info in registry.plugins.values():
        if info.status == "disabled":
            registry.set_infos.append(
                SetInfo(
                    info.key, info.version, info.distribution, 0, "disabled", info.error, info.key
                )
            )
        elif info.status == "broken" and not any(s.plugin == info.key for s in registry.set_infos):
            registry.set_infos.append(
                SetInfo(
                    info.key, info.version, info.distribution, 0, "broken", info.error, info.key
                )
            )


def _claimants(offered: Iterable[tuple[PluginInfo, Iterable[str]]]) -> dict[str, list[PluginInfo]]:
    """The plugins claiming each name (of a set, of a bot kind), in load order."""
    claims: dict[str, list[PluginInfo]] = {}
    for info, names in offered:
        for name in names:
            claims.setdefault(name, []).append(info)
    return claims


def _clash(
    what: str, info: PluginInfo, names: Iterable[str], claims: dict[str, list[PluginInfo]]
) -> str | None:
    """Why this plugin may not have its names (``what``: "set name", "bot kind"): one of
    them is another plugin's too. A built-in name stays built in; the others are told."""
    for name in names:
        others = [o for o in claims[name] if o is not info]
        if not others:
            continue
        if info.builtin and not any(o.builtin for o in others):
            continue
        who = ", ".join(f"{o.key!r} ({o.distribution})" for o in others)
        if any(o.builtin for o in others):
            return f"{what} {name!r} belongs to the built-in plugin {who}; not loaded"
        return f"{what} {name!r} is also claimed by plugin {who}; neither is loaded"
    return None


def _problem(exc: BaseException) -> str:
    return str(exc) if isinstance(exc, _SetProblem) else _one_line(exc)


class _SetProblem(Exception):
    pass


def _check_set(card_set: object) -> None:
    """Refuse a registered set that cannot load: one written for another plugin API, or whose
    declarations a game could not rely on (``spoiler.cards.declaration_problems``, which also
    checks the cards put straight into ``CardSet.cards``)."""
    if isinstance(card_set, CardSet):
        try:
            compatible = api_compatible(card_set.api)
        except ValueError as exc:
            raise _SetProblem(f"set {card_set.name!r}: {exc}") from None
        if not compatible:
            raise _SetProblem(
                f"set {card_set.name!r} needs plugin API {card_set.api}, "
                f"but this spoiler-game has API {API_VERSION}"
            )
    refused = [p for p in declaration_problems(card_set) if p.refused]
    if refused:
        raise _SetProblem(refusal(refused))


def _collect_agents(registry: Registry) -> None:
    # As with set names: every plugin's bot kinds first, then who may keep which kind. A kind
    # that two plugins claim goes to neither (a built-in kind stays built in), both are told,
    # and ``Registry.agent`` names both when the kind is asked for.
    offered: list[tuple[PluginInfo, dict[str, AgentKind]]] = []
    for impl in registry.pm.hook.spoiler_register_agents.get_hookimpls():  # in load order
        info = registry.plugins[impl.plugin_name]
        found: dict[str, AgentKind] = {}

        def register(kind, factory, description="", _found=found, _name=info.key):
            if kind in _found:
                raise _SetProblem(f"bot kind {kind!r} is registered twice")
            _found[kind] = AgentKind(kind, factory, description, _name)

        try:
            _call_one(registry.pm, "spoiler_register_agents", impl, register=register)
        except PLUGIN_FAILURES as exc:
            _reraise_stop(exc)
            _mark_broken(registry, info.key, _problem(exc))
            continue
        offered.append((info, found))
    claims = _claimants(offered)
    for info, found in offered:
        clash = _clash("bot kind", info, found, claims)
        if clash is not None:
            _mark_broken(registry, info.key, clash)
            continue
        registry.agents.update(found)
    registry.kind_clashes = {
        kind: [f"{o.distribution} (plugin {o.key!r})" for o in claimants]
        for kind, claimants in claims.items()
        if len(claimants) > 1 and kind not in registry.agents
    }


def _trace(pm: pluggy.PluginManager) -> None:
    """SPOILER_TRACE_HOOKS=1: print every hook call and what it returned to stderr."""

    def before(hook_name, hook_impls, kwargs):
        names = ", ".join(i.plugin_name for i in hook_impls)
        # ``rule`` is None when no implementation of the hook takes it (plugins.rulehooks).
        given = sorted(k for k, v in kwargs.items() if v is not None or k != "rule")
        print(f"hook {hook_name}({', '.join(given)}) -> [{names}]", file=sys.stderr)

    def after(outcome, hook_name, hook_impls, kwargs):
        if outcome.exception is not None:
            print(f"hook {hook_name} raised {outcome.exception!r}", file=sys.stderr)

    pm.add_hookcall_monitoring(before, after)
