"""Hooks get what cards get: a phase or card-effect hook may take ``rule``, the verbs of its
plugin's rule, whose cause is ``"<plugin>:rule"`` (docs/hooks.md, the rule argument)."""

from __future__ import annotations

import types

import pytest

from spoiler import hookimpl
from spoiler.model.errors import CardError
from spoiler.plugins import hooks_for
from spoiler.state import Status
from spoiler.testing import play_round, table

DECK = ["Blank"] * 12


def plugin(name: str, **hooks) -> types.ModuleType:
    """A plugin module named ``spoiler_<name>`` whose hooks are these functions."""
    module = types.ModuleType(f"spoiler_{name}")
    for hook, fn in hooks.items():
        fn.__name__ = hook
        setattr(module, hook, hookimpl(fn))
    return module


def test_a_hook_acts_through_its_rule_whose_cause_is_the_plugins_rule(toy):
    """``rule.lose(seat)`` is ``game.lose(seat, cause="<plugin>:rule")``."""

    def spoiler_round_end(game, rule):
        if game.round == 1:
            rule.lose(1)
            rule.note(f"{rule.id} struck")

    game = table(
        [toy],
        [["Blank"], ["Blank"], ["Blank"]],
        deck=DECK,
        hooks=hooks_for(plugin("sudden", spoiler_round_end=spoiler_round_end)),
    )
    events = play_round(game)
    lost = [e for e in events if e.kind == "lost"]
    assert [(e.seat, e.cause) for e in lost] == [(1, "sudden:rule")]
    assert [e.data["message"] for e in events if e.kind == "note"] == ["sudden:rule struck"]
    assert game.status(1) is Status.LOST


def test_two_plugins_on_one_hook_each_get_their_own_rule(toy):
    """Each implementation acts as its own plugin's rule, in pluggy's order (the last
    registered first), and one that takes no rule still runs."""
    seen = []

    def first(game, rule):
        rule.add_counter(0, "first:mark")

    def second(game, rule):
        rule.add_counter(1, "second:mark")

    def plain(game):
        seen.append(game.round)

    hooks = hooks_for(
        plugin("first", spoiler_round_start=first),
        plugin("plain", spoiler_round_start=plain),
        plugin("second", spoiler_round_start=second),
    )
    game = table([toy], [["Blank"], ["Blank"]], deck=DECK, hooks=hooks)
    events = play_round(game)
    counters = [(e.seat, e.cause) for e in events if e.kind == "counter"]
    assert counters == [(1, "second:rule"), (0, "first:rule")]
    assert seen == [1]


def test_a_would_lose_hook_with_its_rule_prevents_and_the_first_answer_stops_the_others(toy):
    """A firstresult hook split by plugin still stops at the first True, as pluggy does."""
    asked = []

    def shield(game, seat, cause, rule):
        asked.append("shield")
        rule.note("shielded")
        return True

    def second(game, seat, cause, rule):
        asked.append("second")
        return None

    hooks = hooks_for(
        plugin("shield", spoiler_would_lose=shield), plugin("later", spoiler_would_lose=second)
    )
    game = table([toy], [["Doom"], ["Blank"]], deck=DECK, hooks=hooks)
    events = play_round(game, {0: ("Doom", 1)})
    assert asked == ["second", "shield"]
    assert game.status(1) is Status.IN_PLAY
    assert [e.cause for e in events if e.kind == "note"] == ["shield:rule"]
    assert [e.kind for e in events if e.seat == 1 and "loss" in e.kind] == ["loss_prevented"]


def test_a_hook_that_takes_no_rule_keeps_working(toy):
    """Existing implementations take a subset of the arguments, as pluggy allows."""

    def spoiler_round_end(game):
        game.win(0, cause="old:rule")

    game = table(
        [toy],
        [["Blank"], ["Blank"]],
        deck=DECK,
        hooks=hooks_for(plugin("old", spoiler_round_end=spoiler_round_end)),
    )
    play_round(game)
    assert game.result is not None and game.result.winners == (0,)


def test_a_misspelt_verb_of_a_rule_fails_naming_the_closest_verb(toy):
    """As a card's misspelt verb does: the plugin is blamed and the closest verb named."""

    def spoiler_round_end(game, rule):
        rule.loose(1)

    game = table(
        [toy],
        [["Blank"], ["Blank"], ["Blank"]],
        deck=DECK,
        hooks=hooks_for(plugin("typo", spoiler_round_end=spoiler_round_end)),
    )
    with pytest.raises(CardError) as caught:
        play_round(game)
    assert str(caught.value) == (
        "plugin 'typo' failed in spoiler_round_end: "
        "Rule has no attribute 'loose'; did you mean 'lose'?"
    )


def test_a_hook_called_directly_answers_as_pluggy_would_in_pluggys_order():
    """A hook with no wrapper is called by the engine's own caller, not through pluggy: the
    same implementations in the same order (the last registered first), each with its own
    rule, the same answers, and a firstresult hook stops at the first that is not None."""
    import pluggy

    from spoiler.plugins import GROUP, hookspecs
    from spoiler.plugins.rulehooks import with_rules

    calls: list[str] = []

    def would_lose(name: str, answer):
        def spoiler_would_lose(game, seat, cause, rule):
            calls.append(f"{name}:{rule.id}")
            return answer

        return spoiler_would_lose

    def card_drawn(name: str):
        def spoiler_card_drawn(game, seat, card):
            calls.append(name)
            return name

        return spoiler_card_drawn

    pm = pluggy.PluginManager(GROUP)
    pm.add_hookspecs(hookspecs)
    first = plugin("first", spoiler_card_drawn=card_drawn("first"))
    pm.register(first, name="first")
    pm.register(plugin("unreached", spoiler_would_lose=would_lose("unreached", True)), name="u")
    pm.register(plugin("stops", spoiler_would_lose=would_lose("stops", True)), name="stops")
    pm.register(plugin("passes", spoiler_would_lose=would_lose("passes", None)), name="passes")
    pm.register(plugin("second", spoiler_card_drawn=card_drawn("second")), name="second")
    names = ("spoiler_would_lose", "spoiler_card_drawn")
    game = types.SimpleNamespace()
    answers = {}
    for direct in (True, False):
        callers = with_rules(pm, {n: getattr(pm.hook, n) for n in names}, direct=direct)
        calls.clear()
        lost = callers["spoiler_would_lose"](game=game, seat=1, cause=None)
        drawn = callers["spoiler_card_drawn"](game=game, seat=1, card=None)
        answers[direct] = (lost, drawn, list(calls))
    assert (
        answers[True]
        == answers[False]
        == (
            True,
            ["second", "first"],
            ["passes:passes:rule", "stops:stops:rule", "second", "first"],
        )
    )
