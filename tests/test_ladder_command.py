"""``spoiler ladder``: bot kinds rated (OpenSkill, Plackett-Luce) from free-for-all games on
a seeded schedule, with head-to-head shares; and what it needs of ``spoiler simulate``: a kind
per seat per game (``Plan.seating``) and kinds with options of their own (``expert@think=800``).

(tests/test_ladder.py is another ladder: the rules' lost / in play / won ruling.)
"""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spoiler.cli import app
from spoiler.session import simulate as sim
from spoiler_ladder import rating

runner = CliRunner()
LEGAL_BOT = Path(__file__).resolve().parents[1] / "examples" / "bots" / "legal_bot.py"


def test_a_kind_may_carry_options_of_its_own():
    assert sim.variant("expert") == ("expert", {})
    assert sim.variant("expert@think=800") == ("expert", {"think": "800"})
    assert sim.variant("exec:python3 bot.py@depth=3") == ("exec:python3 bot.py", {"depth": "3"})
    # an @ that is not followed by KEY=VALUE is the command's own
    assert sim.variant("exec:python3 a@b.py") == ("exec:python3 a@b.py", {})


@pytest.mark.parametrize("bad", ["expert@think=0", "expert@think=fast", "expert@think=inf"])
def test_a_thinking_time_the_expert_refuses_is_refused_before_any_game(bad):
    """The option reaches the expert as text; its factory refuses it when the plan is
    checked, naming the kind."""
    plan = sim.Plan(2, (bad, "random"), ("base",))
    with pytest.raises(sim.PlanError, match=r"bot 'expert': think=.* is not a thinking time"):
        sim.check(plan)


def test_a_seating_plan_seats_its_kinds_game_by_game():
    seating = (("greedy", "random"), ("random", "greedy"), ("random", "random@x=1"))
    plan = sim.Plan(5, ("greedy", "random"), ("base",), seed=3, seating=seating)
    assert plan.players == 2 and plan.kinds() == ["greedy", "random", "random@x=1"]
    sim.check(plan)
    games = sim.run(plan)
    assert [g["bots"] for g in games] == [list(seating[n % 3]) for n in range(5)]
    with pytest.raises(sim.PlanError, match="as many players"):
        sim.check(sim.Plan(2, ("greedy",), seating=(("greedy", "random"), ("greedy",))))


# ----------------------------------------------------------------------------------------------
# The schedule
# ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("kinds", "players"),
    [(2, 4), (3, 4), (4, 4), (5, 4), (3, 2), (8, 3), (3, 8), (12, 6)],
)
def test_the_schedule_puts_every_kind_in_every_seat_beside_every_other(kinds, players):
    names = [f"k{i}" for i in range(kinds)]
    block = rating.block_size(kinds, players)
    seating = rating.schedule(names, players, 3 * block, seed=7)
    assert len(seating) == 3 * block and all(len(row) == players for row in seating)
    for start in range(0, len(seating), block):  # each block on its own is balanced
        counts = rating.seat_counts(seating[start : start + block], names)
        assert len({n for row in counts.values() for n in row}) == 1, counts
    met = {(a, b) for row in seating for a in row for b in row if a != b}
    assert met == {(a, b) for a in names for b in names if a != b}
    assert rating.schedule(names, players, 3 * block, seed=7) == seating  # seeded
    assert rating.schedule(names, players, 3 * block, seed=8) != seating


def test_a_game_ranks_its_winners_first_and_a_kind_once_at_its_best_seat():
    assert rating.ranking({"bots": ["a", "b", "c"], "winners": [1]}) == {"a": 2, "b": 1, "c": 2}
    assert rating.ranking({"bots": ["a", "b", "a", "b"], "winners": [2]}) == {"a": 1, "b": 2}
    assert rating.ranking({"bots": ["a", "b"], "winners": []}) == {"a": 1, "b": 1}  # a draw


def test_tied_places_are_rated_as_tied():
    """OpenSkill before 6.2 told a game's tied losers apart by their order (or moved them all
    up with the winner): the winner gains what the losers lose, and the losers alike."""
    games = [{"bots": ["a", "b", "c", "d"], "winners": [0]}]
    rated = {r["bot"]: r for r in rating.ladder(["a", "b", "c", "d"], games)["ratings"]}
    assert rated["a"]["mu"] > rating.MU
    assert rated["b"]["mu"] == rated["c"]["mu"] == rated["d"]["mu"] < rating.MU
    assert sum(r["mu"] for r in rated.values()) == pytest.approx(4 * rating.MU, abs=0.01)
    draw = [{"bots": ["a", "b", "c"], "winners": []}]
    assert {r["mu"] for r in rating.ladder(["a", "b", "c"], draw)["ratings"]} == {rating.MU}


# ----------------------------------------------------------------------------------------------
# The command
# ----------------------------------------------------------------------------------------------
def ladder(*args: str) -> dict:
    result = runner.invoke(app, ["ladder", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def greedy_and_random() -> dict:
    return ladder(
        *("--bots", "random,greedy", "--games", "60", "--players", "4", "--sets", "base"),
        *("--seed", "1", "--bot-key", "test", "--jobs", "1"),
    )


def test_the_ladder_ranks_greedy_above_random(greedy_and_random):
    ratings = greedy_and_random["ratings"]
    assert [r["bot"] for r in ratings] == ["greedy", "random"]
    assert ratings[0]["mu"] > ratings[1]["mu"]
    h2h = greedy_and_random["head_to_head"]
    assert h2h["greedy"]["random"]["share"] > h2h["random"]["greedy"]["share"]


def test_the_json_holds_ratings_head_to_head_and_the_plan(greedy_and_random):
    f = greedy_and_random
    assert set(f) >= {"ratings", "head_to_head", "plan", "results", "decision_time"}
    for r in f["ratings"]:
        assert set(r) == {"bot", "mu", "sigma", "low", "high", "games"}
        assert r["low"] == pytest.approx(r["mu"] - 1.96 * r["sigma"], abs=0.01)
        assert r["high"] == pytest.approx(r["mu"] + 1.96 * r["sigma"], abs=0.01)
        assert r["games"] == 60  # two kinds, four seats: both in every game
    pair = f["head_to_head"]["greedy"]["random"]
    assert set(pair) == {"games", "ahead", "behind", "tied", "share", "p"}
    assert pair["p"] == back_p(f) == float(f"{sim.sign_test(pair['ahead'], pair['behind']):.3g}")
    assert pair["games"] == pair["ahead"] + pair["behind"] + pair["tied"] == 60
    back = f["head_to_head"]["random"]["greedy"]
    assert (back["ahead"], back["behind"], back["tied"]) == (
        pair["behind"],
        pair["ahead"],
        pair["tied"],
    )
    plan = f["plan"]
    assert plan["bots"] == ["random", "greedy"] and plan["games"] == 60
    assert plan["players"] == 4 and plan["sets"] == ["base"] and plan["seed"] == 1
    assert plan["schedule"]["seats"] == {"random": [30] * 4, "greedy": [30] * 4}
    assert plan["model"]["name"] == "PlackettLuce"
    assert sum(f["results"].values()) == 60


def test_a_ladder_draws_its_seed_and_bot_key_and_plays_again_from_them():
    args = ("--bots", "random,greedy", "--games", "8", "--sets", "base", "--jobs", "1")
    first = ladder(*args)
    again = ladder(
        *args, "--seed", str(first["plan"]["seed"]), "--bot-key", first["plan"]["bot_key"]
    )
    assert again == first
    assert ladder(*args)["plan"]["bot_key"] != first["plan"]["bot_key"]
    shown = runner.invoke(app, ["ladder", *args])
    assert re.search(r"seed -?\d+,\s+bot\s+key\s+[0-9a-f]{32};", shown.stdout)


def test_a_bot_key_that_is_no_key_is_refused_in_one_line():
    result = runner.invoke(app, ["ladder", "--bots", "random,greedy", "--bot-key", "a b"])
    assert result.exit_code == 2
    assert "--bot-key: 'a b' is not a bot key: 1 to 64 letters, digits, - or _" in result.stderr


def test_the_ladder_is_the_same_with_one_process_or_two():
    args = ("--bots", "random,greedy,random@x=1", "--games", "24", "--sets", "base")
    args += ("--seed", "0", "--bot-key", "test")
    one, two = ladder(*args, "--jobs", "1"), ladder(*args, "--jobs", "2")
    assert one == two


def test_the_ladder_is_the_same_on_a_dask_cluster():
    distributed = pytest.importorskip("distributed")
    args = ("--bots", "random,greedy", "--games", "16", "--sets", "base", "--bot-key", "k")
    args += ("--seed", "0")
    with distributed.LocalCluster(
        n_workers=2,
        processes=False,
        threads_per_worker=1,
        host="127.0.0.1",
        protocol="tcp://",
        dashboard_address=None,
    ) as cluster:
        on_cluster = ladder(*args, "--cluster", cluster.scheduler_address)
    assert on_cluster == ladder(*args, "--jobs", "1")


def test_a_program_bot_can_be_on_the_ladder():
    f = ladder(
        *("--bots", f"greedy,exec:{sys.executable} {LEGAL_BOT}", "--games", "6"),
        *("--players", "2", "--sets", "base", "--jobs", "1"),
    )
    assert {r["bot"] for r in f["ratings"]} == {"greedy", f"exec:{sys.executable} {LEGAL_BOT}"}
    assert all(r["games"] == 6 for r in f["ratings"])


def test_two_variants_of_one_kind_have_a_rating_each():
    f = ladder(
        *("--bots", "random,expert@think=2,expert@think=4", "--games", "3", "--players", "3"),
        *("--sets", "base", "--jobs", "1"),
    )
    assert {r["bot"] for r in f["ratings"]} == {"random", "expert@think=2", "expert@think=4"}
    assert set(f["decision_time"]) == {"expert@think=2", "expert@think=4"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "random,nobody"], "no bot kind 'nobody'"),
        (["--bots", "greedy"], "a ladder rates two kinds or more"),
        (["--bots", "greedy,greedy"], "names 'greedy' twice"),
        (["--bots", "greedy,,random"], "has an empty kind"),
        (["--games", "0"], "--games must be at least 1"),
        (["--players", "1"], "2 to 8 players, not 1"),
        (["--players", "9"], "2 to 8 players, not 9"),
        (["--think", "0"], "--think must be more than 0"),
        (["--bots", "random,expert@think=soon"], "think=soon is not a thinking time"),
        (["--bots", "random,exec:no-such-program-here"], "no program 'no-such-program-here'"),
        (["--sets", "nowhere"], "no set named 'nowhere'"),
        (["--jobs", "2", "--cluster", "tcp://127.0.0.1:1"], "do not go together"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, message):
    kinds = [] if "--bots" in args else ["--bots", "random,greedy"]  # --bots repeated adds up
    result = runner.invoke(app, ["ladder", *kinds, "--games", "2", *args])
    assert result.exit_code == 2, result.output
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output


def test_without_openskill_the_ladder_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "openskill", None)  # import openskill raises ImportError
    result = runner.invoke(app, ["ladder", "--bots", "random,greedy", "--games", "2"])
    assert result.exit_code == 2
    from spoiler.installer import install_hint

    assert f"install it with: {install_hint('spoiler-game[ladder]')}" in result.stderr


def back_p(f: dict) -> float:
    """The same pair, seen from the other side: the sign test is two-sided."""
    return f["head_to_head"]["random"]["greedy"]["p"]


@pytest.mark.parametrize(
    "ahead, behind", [(0, 0), (1, 0), (5, 5), (3, 10), (0, 20), (418, 374), (480, 298)]
)
def test_the_sign_test_is_the_exact_two_sided_binomial_p_value(ahead, behind):
    n = ahead + behind
    tail = sum(math.comb(n, k) for k in range(min(ahead, behind) + 1)) / 2**n
    assert sim.sign_test(ahead, behind) == pytest.approx(min(1.0, 2 * tail), rel=1e-9)
    assert sim.sign_test(ahead, behind) == sim.sign_test(behind, ahead)


def test_the_sign_test_of_a_long_ladder_costs_no_big_integers():
    """100,000 games: the chance of 50,500 against 49,500 between equals is about 0.16%."""
    assert sim.sign_test(50_500, 49_500) == pytest.approx(0.00157, rel=0.01)


def test_rank_by_rank_says_which_neighbours_the_games_tell_apart(greedy_and_random):
    [line] = rating.rank_by_rank(greedy_and_random)
    pair = greedy_and_random["head_to_head"]["greedy"]["random"]
    assert line.startswith(
        f"greedy against random: ahead in {pair['ahead']} games, behind in {pair['behind']} "
    )
    assert line.endswith(": told apart).") == (pair["p"] < 0.05)


def test_the_table_shows_ratings_and_head_to_head():
    result = runner.invoke(
        app, ["ladder", "--bots", "random,greedy", "--games", "8", "--sets", "base", "--jobs", "1"]
    )
    assert result.exit_code == 0, result.output
    for words in (
        "Ratings (OpenSkill, Plackett-Luce)",
        "95% interval",
        "Head to head",
        "vs 2",
        "Rank by rank",
        " games, behind in ",
    ):
        assert words in result.stdout


def test_simulate_takes_a_kind_with_options_of_its_own_too():
    result = runner.invoke(
        app,
        [
            *("simulate", "--bots", "greedy,expert@think=2", "--games", "2", "--sets", "base"),
            *("--jobs", "1", "--json"),
        ],
    )
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert set(figures["win_rate_by_kind"]) == {"greedy", "expert@think=2"}
    assert set(figures["decision_time"]) == {"expert@think=2"}
