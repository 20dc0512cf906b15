"""The expert bot: searches over its legal selections and answers in determinizations.

"Its play is reproducible for a seed (...) so records of games with experts replay and
--verify"; "it knows no card by name, so it plays every installed set". Tiny thinking
budgets keep these games quick: the rules of play are the same whatever the budget.
"""

from __future__ import annotations

import pytest

from spoiler import plugins
from spoiler.engine import Game, Seat
from spoiler_bots.expert import ExpertAgent

THINK = 4  # ms, so 5 rollouts a decision


@pytest.fixture(scope="module")
def registry():
    return plugins.load()


class Strict:
    """Passes decisions through, and fails the test if the engine ever refused one."""

    def __init__(self, inner):
        self.inner = inner
        self.searches = getattr(inner, "searches", False)
        self.decisions = 0

    def select(self, view):
        assert view.error is None, f"illegal selection: {view.error}"
        assert view.search is not None
        self.decisions += 1
        return self.inner.select(view)

    def answer(self, view, question):
        assert view.error is None, f"illegal answer: {view.error}"
        self.decisions += 1
        return self.inner.answer(view, question)


def expert_game(registry, sets, seed, players=4, experts=(0,), max_rounds=12):
    card_sets = registry.card_sets(sets)
    seats = [
        Seat(
            f"P{i}",
            Strict(ExpertAgent(seed, i, think_ms=THINK))
            if i in experts
            else registry.agent("greedy", i, seed),
        )
        for i in range(players)
    ]
    return Game(
        card_sets, seats, seed, max_rounds=max_rounds, hooks=registry.game_hooks(sets), strict=True
    )


@pytest.mark.parametrize("sets", [["base"], ["chrono"], ["mirror"], ["base", "chrono", "mirror"]])
def test_the_expert_plays_every_shipped_set_and_never_chooses_illegally(registry, sets):
    """It knows no card by name: any set's cards are legal moves it can search over."""
    decisions = 0
    for seed in range(3):
        game = expert_game(registry, sets, seed, players=3 + seed, experts=(0, 1))
        game.play()
        decisions += sum(s.agent.decisions for s in game.seats if isinstance(s.agent, Strict))
    assert decisions > 10


def test_the_expert_plays_the_same_game_again_from_the_same_seed(registry):
    """Its own seeded stream and a budget counted in rollouts: the same seed, the same play."""
    first = expert_game(registry, ["base", "chrono", "mirror"], 11, experts=(0, 2))
    again = expert_game(registry, ["base", "chrono", "mirror"], 11, experts=(0, 2))
    first.play()
    again.play()
    assert first.decisions == again.decisions
    assert first.result == again.result


def test_the_expert_is_registered_and_takes_its_thinking_time_from_the_options(registry):
    bot = registry.agent("expert", 1, 5, {"think": "30"})  # (--bot-option think=30)
    assert isinstance(bot, ExpertAgent) and bot.rollouts == 38  # 1.25 rollouts a millisecond
    assert registry.agent("expert", 1, 5).rollouts == 250
    # Other kinds take no options and never see them.
    assert registry.agent("greedy", 1, 5, {"think": "30"}) is not None


def test_a_game_with_experts_replays_and_verifies_from_its_record(registry, tmp_path):
    from typer.testing import CliRunner

    from spoiler.cli import app

    runner = CliRunner()
    path = tmp_path / "experts.toml"
    played = runner.invoke(
        app,
        [
            *("play", "--bots", "3", "--bot", "expert", "--think", "3", "--seed", "4"),
            *("--sets", "base", "--record", str(path)),
        ],
    )
    assert played.exit_code == 0, played.output
    verified = runner.invoke(app, ["replay", str(path), "--verify"])
    assert verified.exit_code == 0, verified.output
    assert "OK" in verified.output


def test_a_resumed_game_with_experts_thinks_as_long_as_recorded_and_ends_as_played_straight(
    tmp_path, experts_cut_after_round_2
):
    """The record keeps `--think`, so `spoiler resume` seats experts that think as long as
    they did: the resumed game ends exactly as the game played straight through."""
    from typer.testing import CliRunner

    from spoiler.cli import app

    runner = CliRunner()
    straight, record = experts_cut_after_round_2
    assert record.bot_options == {"think": "3"}
    saved = tmp_path / "saved.toml"
    record.save(saved)

    resumed = runner.invoke(app, ["resume", str(saved)])
    assert resumed.exit_code == 0, resumed.output
    assert saved.read_bytes() == straight.read_bytes()


@pytest.mark.parametrize("think", ["0", "-5", "60001", "nan"])
def test_play_refuses_a_thinking_time_out_of_range_in_one_line(think):
    from typer.testing import CliRunner

    from spoiler.cli import app

    result = CliRunner().invoke(app, ["play", "--bots", "3", "--bot", "expert", "--think", think])
    assert result.exit_code == 2
    # --think itself is more than 0; the expert says how far it goes
    assert "more than 0" in result.output and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output
