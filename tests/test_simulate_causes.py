"""``spoiler simulate`` reports wins by cause (issue 21, item 8): for each card and each set
rule, the share of wins whose deciding event it made, credited to the card or rule that made
the ``won`` event (not to the card the winner or the victim played)."""

from __future__ import annotations

import io
import json
from importlib import metadata

import pytest
from rich.console import Console
from typer.testing import CliRunner

from spoiler import hookimpl, plugins
from spoiler.cli import app
from spoiler.model.cards import ANOTHER_PLAYER, CardSet
from spoiler.session import simulate as sim
from spoiler.testing import FakeEntryPoint

toys = CardSet(
    "toys",
    "1.0",
    rules="At the end of round 1 of a game whose seed is even, the player 1st in priority wins.",
    labels={"toys:rule": "the Toy rule"},
)


@toys.card
class Dud:
    text = "Nothing happens."
    copies = 12

    @staticmethod
    def main(play):
        pass


@toys.card
class Gift:
    text = "Choose another player. From round 2 on, they win."
    copies = 4
    target = ANOTHER_PLAYER

    @staticmethod
    def main(play):
        if play.game.round >= 2:
            play.win(play.target)


class ToyPlugin:
    @hookimpl
    def spoiler_register_sets(self, register):
        register(toys)

    @hookimpl
    def spoiler_round_end(self, game, rule):
        """The rule wins exactly the games of an even seed, in round 1 (no Gift wins then)."""
        if game.round == 1 and game.seed % 2 == 0:
            rule.win(game.state.priority[-1])  # (after the shift: last was 1st)


@pytest.fixture
def toy_registry(monkeypatch):
    """simulate's games see the built-in plugins and the toy set."""
    builtins = [
        ep
        for ep in metadata.entry_points(group=plugins.GROUP)
        if ep.dist is not None and ep.dist.name == plugins.CORE_DISTRIBUTION
    ]
    registry = plugins.load({}, [*builtins, FakeEntryPoint("toys", ToyPlugin())])
    monkeypatch.setattr(sim, "_REGISTRY", registry)
    return registry


PLAN = sim.Plan(60, ("random",) * 3, ("toys",), seed=5)


def test_wins_by_cause_credits_a_rule_the_share_of_wins_it_made(toy_registry):
    """The toy rule wins every game of an even seed, and nothing else does in those games: its
    row counts exactly those wins, as a share of all wins, with a Wilson interval."""
    games = sim.run(PLAN)
    figures = sim.report(PLAN, games, ["toys"])
    even = sum(sim.game_seed(PLAN.seed, n) % 2 == 0 for n in range(PLAN.games))
    wins = sum(len(g["winners"]) for g in games)
    assert 0 < even < PLAN.games
    rule = figures["wins_by_cause"]["toys:rule"]
    assert rule["name"] == "the Toy rule" and rule["kind"] == "rule"
    assert rule["wins"] == even
    assert rule["share"] == round(even / wins, 4)
    assert rule["share_95"] == sim.interval(even, wins)
    assert rule["share_95"][0] < rule["share"] < rule["share_95"][1]


def test_a_win_is_credited_to_the_card_that_made_it(toy_registry):
    """Gift makes its target win: the win is Gift's, never the card the winner played (a Dud,
    or nothing); every win is credited to some cause, and the shares add up to 1."""
    games = sim.run(PLAN)
    figures = sim.report(PLAN, games, ["toys"])
    causes = figures["wins_by_cause"]
    wins = sum(len(g["winners"]) for g in games)
    assert causes["toys:gift"]["wins"] == wins - causes["toys:rule"]["wins"] > 0
    assert causes["toys:dud"] == {
        "name": "Dud",
        "kind": "card",
        "wins": 0,
        "share": 0.0,
        "share_95": sim.interval(0, wins),
    }
    assert sum(c["wins"] for c in causes.values()) == wins
    assert abs(sum(c["share"] for c in causes.values()) - 1) < 0.001
    # The old figure credits the cards winners played: Dud gets a share there.
    assert figures["cards"]["toys:dud"]["win_share"] > 0


def test_a_win_by_default_is_credited_to_the_loss_that_left_one_player():
    """A player left alone wins by default: the deciding event is the knockout, so the win
    goes to its cause."""
    deciding = {"won": {}, "knockout": "base:accuse"}
    assert sim.deciding_causes("default", [2], deciding) == ["base:accuse"]
    assert sim.deciding_causes("win", [0, 1], {"won": {0: "a:x", 1: "a:rule"}}) == [
        "a:x",
        "a:rule",
    ]
    assert sim.deciding_causes("draw", [], deciding) == []


def test_wins_by_cause_are_in_the_json_and_the_table(toy_registry, monkeypatch):
    """`--json` has `wins_by_cause`, keyed by card id or rule id; the table has a row for each
    cause that decided a win, and names the cards that decided none."""
    import spoiler_simulate
    from spoiler_simulate import print_figures

    result = CliRunner().invoke(
        app, ["simulate", "--games", "20", "--players", "3", "--sets", "toys", "--json"]
    )
    assert result.exit_code == 0, result.output
    causes = json.loads(result.stdout)["wins_by_cause"]
    assert {"toys:rule", "toys:gift", "toys:dud"} <= set(causes)
    figures = sim.report(PLAN, sim.run(PLAN), ["toys"])
    figures["decision_time"] = {}
    out = io.StringIO()
    monkeypatch.setattr(
        spoiler_simulate, "console", lambda: Console(file=out, width=120, color_system=None)
    )
    print_figures(figures)
    text = out.getvalue()
    assert "Wins by cause" in text
    assert "the Toy rule (toys:rule)" in text and "Gift (toys:gift)" in text
    assert "Cards that decided no win: Dud." in text
