"""``spoiler simulate``: many seeded games between bots, the same figures however they run.

"Every figure is the same whatever --jobs or --cluster (each game seeded on its own)";
"before running, it checks that the workers have the same Spoiler and set versions, and
stops with a clear error naming the difference."
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from spoiler import simulate as sim
from spoiler.cli import app

runner = CliRunner()
ARGS = ["simulate", "--games", "40", "--bots", "greedy,random,random", "--max-rounds", "40"]
ARGS += ["--seed", "0", "--bot-key", "test"]  # a run's seed and key: its games again
KEYS = {
    "games",
    "players",
    "sets",
    "seed",
    "win_rate_by_kind",
    "win_rate_by_start",
    "length",
    "round_limit_share",
    "all_lost_share",
    "cards",
    "warnings",
}


def figures(*extra: str) -> dict:
    result = runner.invoke(app, [*ARGS, "--json", *extra])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def one_job() -> dict:
    return figures("--jobs", "1")


def test_simulate_reports_every_figure_the_json_promises(one_job):
    assert set(one_job) >= KEYS
    assert one_job["games"] == 40 and one_job["players"] == 3
    assert set(one_job["win_rate_by_kind"]) == {"greedy", "random"}
    assert set(one_job["win_rate_by_start"]) == {"1", "2", "3"}
    assert set(one_job["length"]) >= {"median", "p95"}
    card = one_job["cards"]["base:jewel"]
    assert set(card) >= {"played", "win_share"} and card["played"] > 0
    wins = sum(one_job["win_rate_by_start"].values())
    assert 0 < wins <= 40 / 40 * 3  # shares of games, at most every seat winning each


def test_simulate_gives_the_same_figures_with_one_process_or_two(one_job):
    assert figures("--jobs", "2") == one_job


def test_simulate_gives_the_same_figures_on_a_dask_cluster(one_job):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2,
        processes=False,
        threads_per_worker=1,
        host="127.0.0.1",
        protocol="tcp://",
        dashboard_address=None,
    ) as cluster:
        assert figures("--cluster", cluster.scheduler_address) == one_job


def test_a_cluster_worker_missing_a_set_is_refused():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1,
        processes=True,
        threads_per_worker=1,
        host="127.0.0.1",
        dashboard_address=None,
        env={"SPOILER_PLUGINS": ""},  # this worker has the built-in plugins only
    ) as cluster:
        result = runner.invoke(
            app,
            [
                "simulate",
                "--games",
                "4",
                "--sets",
                "base,chrono",
                "--cluster",
                cluster.scheduler_address,
            ],
        )
    assert result.exit_code == 2
    assert "does not have set 'chrono'" in result.output
    assert "Traceback" not in result.output


def test_workers_with_another_version_are_refused_naming_the_difference():
    local = {"spoiler": "1.0", "sets": {"base": "1.0.0"}, "bots": ["random"]}
    with pytest.raises(sim.PlanError, match=r"has set 'base' 0\.9\.0, this machine 1\.0\.0"):
        sim.check_workers(local, {"w1": {**local, "sets": {"base": "0.9.0"}}}, ["base"])
    with pytest.raises(sim.PlanError, match=r"has Spoiler 0\.9"):
        sim.check_workers(local, {"w1": {**local, "spoiler": "0.9"}}, ["base"])


def test_the_warnings_name_each_missed_balance_target():
    figures = {
        "win_rate_by_start": {"1": 0.5, "2": 0.2},
        "length": {"median": 30},
        "round_limit_share": 0.05,
        "cards": {"x:idle": {"name": "Idle", "played": 0}},
    }
    found = sim.warnings(figures, {"x": "cannot end a game on its own"})
    assert len(found) == 5
    assert found[0].startswith("starting priority 1 wins 50.0%")
    assert "Idle (x:idle) was never played" in found


@pytest.mark.parametrize(
    "args, message",
    [
        (["--bots", "greedy,,random"], "empty kind"),
        (["--bots", "greedy,random", "--players", "3"], "--bots names 2 seats"),
        (["--bots", "wizard"], "no bot kind 'wizard'"),
        (["--sets", "nope"], "no set named 'nope'"),
        (["--games", "0"], "--games must be at least 1"),
        (["--players", "9"], "2 to 8 players"),
        (["--jobs", "0"], "--jobs must be at least 1"),
    ],
)
def test_simulate_refuses_bad_options_in_one_line(args, message):
    result = runner.invoke(app, ["simulate", *args])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_simulate_times_the_experts_decisions_apart_from_the_figures():
    args = ["simulate", "--games", "2", "--bots", "expert,greedy", "--sets", "base"]
    result = runner.invoke(app, [*args, "--think", "2", "--max-rounds", "5", "--json"])
    assert result.exit_code == 0, result.output
    timing = json.loads(result.stdout)["decision_time"]
    assert set(timing) == {"expert"} and timing["expert"]["decisions"] > 0
    assert timing["expert"]["median_ms"] >= 0
