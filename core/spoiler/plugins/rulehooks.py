"""Hooks get what cards get: a phase or card-effect hook may take a ``rule`` argument, the
verbs of its plugin's rule (``spoiler.model.verbs.Rule``), whose cause is the rule's id,
``"<plugin>:rule"`` (the plugin's name as registered: its entry point's name).

Pluggy hands every implementation the same arguments, so a per-plugin ``rule`` needs a
per-plugin call only when two plugins' implementations of one hook both take it. A
``RuleCaller`` wraps a hook caller once per game's hooks (``Registry.game_hooks``,
``hooks_for``) and picks the cheapest way for that hook:

* no implementation takes ``rule``: one call, ``rule=None``;
* one plugin's does: one call, with that plugin's rule;
* several do: each implementation called through a caller of its plugin alone (made once,
  with ``pm.subset_hook_caller``), in pluggy's order, with its own rule; a ``firstresult``
  hook stops at the first answer that is not None, as pluggy would.

When no implementation is a wrapper (and nothing monitors pluggy's hook calls, as
``SPOILER_TRACE_HOOKS`` does), the caller calls the implementations itself, in
pluggy's order and with pluggy's results (a list of the answers that are not None, or the
first of them for a ``firstresult`` hook), without going through pluggy's machinery: a
card's hooks are called many times a round, in every rollout of the expert. The cost is
then a Python call per implementation and a ``Rule`` made per call to an implementation
that takes it (no registering per play: that costs ~600 µs).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pluggy

from spoiler.model.verbs import Rule


def rule_id(plugin_name: str) -> str:
    """The cause a plugin's rule names: ``"<plugin>:rule"``."""
    return f"{plugin_name}:rule"


class RuleCaller:
    """A hook caller that gives each implementation taking ``rule`` its plugin's rule."""

    __slots__ = ("name", "_caller", "_rule", "_each", "_firstresult", "_direct")

    def __init__(self, pm: pluggy.PluginManager, caller: Any, direct: bool = True):
        self.name: str = caller.name
        self._caller = caller
        impls = caller.get_hookimpls()
        takers = [impl for impl in impls if "rule" in impl.argnames]
        spec = caller.spec
        self._firstresult = bool(spec is not None and spec.opts.get("firstresult"))
        #: The one rule id to pass, when at most one plugin's implementation takes it.
        self._rule: str | None = rule_id(takers[0].plugin_name) if len(takers) == 1 else None
        #: (caller of one plugin, its rule id or None) in pluggy's calling order, when
        #: several take it.
        self._each: list[tuple[Callable[..., Any], str | None]] = []
        if len(takers) > 1:
            plugins = pm.get_plugins()
            for impl in reversed(impls):  # pluggy calls the last registered first
                alone = pm.subset_hook_caller(
                    self.name, [p for p in plugins if p is not impl.plugin]
                )
                taken = rule_id(impl.plugin_name) if "rule" in impl.argnames else None
                self._each.append((alone, taken))
        #: (function, its argument names, its rule id or None) in pluggy's calling order,
        #: when no implementation wraps the others: called here, as pluggy would.
        self._direct: list[tuple[Callable[..., Any], tuple[str, ...], str | None]] | None = None
        if (
            direct
            and not any(impl.hookwrapper or impl.wrapper for impl in impls)
            and not any(getattr(impl, "kwargnames", ()) for impl in impls)
        ):
            self._direct = [
                (
                    impl.function,
                    tuple(impl.argnames),
                    rule_id(impl.plugin_name) if "rule" in impl.argnames else None,
                )
                for impl in reversed(impls)
            ]

    def __call__(self, **kwargs: Any) -> Any:
        direct = self._direct
        if direct is not None:
            results = []
            for function, argnames, taken in direct:
                if taken is not None:
                    kwargs["rule"] = Rule(kwargs["game"], taken)
                args = []
                try:  # (a loop, not a comprehension: a card's hooks run many times a round)
                    for name in argnames:
                        args.append(kwargs[name])
                except KeyError as exc:
                    raise pluggy.HookCallError(
                        f"hook call must provide argument {exc.args[0]!r}"
                    ) from exc
                answer = function(*args)
                if answer is not None:
                    if self._firstresult:
                        return answer
                    results.append(answer)
            return None if self._firstresult else results
        if not self._each:
            rule = self._rule
            return self._caller(rule=None if rule is None else Rule(kwargs["game"], rule), **kwargs)
        game = kwargs["game"]
        results = []
        for alone, taken in self._each:
            answer = alone(rule=None if taken is None else Rule(game, taken), **kwargs)
            if self._firstresult:
                if answer is not None:
                    return answer
            else:
                results.extend(answer)
        return None if self._firstresult else results

    def get_hookimpls(self) -> list[pluggy.HookImpl]:
        """The implementations, as the wrapped caller has them (for blaming a plugin)."""
        return self._caller.get_hookimpls()


def with_rules(
    pm: pluggy.PluginManager, callers: dict[str, Any], direct: bool = True
) -> dict[str, RuleCaller]:
    """The game's hook callers, each giving ``rule`` to the implementations that take it;
    ``direct=False``: always through pluggy (whose hook-call monitoring then sees them)."""
    return {name: RuleCaller(pm, caller, direct) for name, caller in callers.items()}
