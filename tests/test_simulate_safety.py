"""Simulations that cannot be skewed or lost (issue 23).

"Every worker's full plugin set (distributions, versions, hook implementations) is checked
for every batch it runs, not once; Ctrl-C stops and reports the games finished so far (marked
partial in --json); a lost worker's batches are re-run elsewhere, and with no worker left the
run stops with one line; bounds on --games and --think, and one-line errors for every bad
address."

The cluster tests use a real Dask scheduler (``LocalCluster`` without workers of its own)
and real ``dask worker`` processes, which can join late and be killed.
"""

from __future__ import annotations

import json
import os
import pty
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spoiler import simulate as sim
from spoiler.cli import app

runner = CliRunner()
PLAN = sim.Plan(160, ("greedy", "random", "random"), ("base",), seed=5, max_rounds=40)
SKEW = '''
from spoiler import hookimpl

@hookimpl
def spoiler_round_end(game, rule):
    """A rules-only plugin: the first seat wins every game it is in."""
    rule.win(0)
'''


def refused(*args: str) -> str:
    result = runner.invoke(app, ["simulate", *args])
    assert result.exit_code == 2, result.output
    assert result.output.startswith("Error: ") and result.output.count("\n") == 1, result.output
    assert "Traceback" not in result.output
    return result.output


@pytest.mark.parametrize(
    "address, message",
    [
        ("tls://127.0.0.1:8786", "tls:// is not supported"),
        ("ucx://127.0.0.1:8786", "ucx:// is not supported"),
        ("inproc://x", "inproc:// is not supported"),
        ("garbage", "'garbage' is not a scheduler address"),
        ("tcp://", "is not a scheduler address"),
        ("tcp://127.0.0.1:70000", "is not a scheduler address"),
        ("127.0.0.1", "is not a scheduler address"),
    ],
)
def test_every_bad_cluster_address_is_one_line(address, message):
    pytest.importorskip("distributed")
    assert message in refused("--games", "2", "--cluster", address)


@pytest.mark.parametrize("think", ["inf", "nan", "-1", "0"])
def test_simulate_refuses_a_thinking_time_that_is_not_one(think):
    assert "--think must be more than 0 milliseconds" in refused("--think", think)


def test_simulate_refuses_more_games_than_it_can_keep():
    assert f"at most {sim.MAX_GAMES}" in refused("--games", str(sim.MAX_GAMES + 1))


def test_a_worker_with_a_rules_only_plugin_differs_in_its_plugin_set():
    mine = sim.installed()
    skewed = {**mine, "plugins": {**mine["plugins"], "skew": {
        "distribution": "spoiler-skew", "version": "1.0", "status": "ok",
        "hooks": ["spoiler_round_end"]}}}  # fmt: skip
    assert sim.plugin_difference(mine, mine) is None
    assert sim.plugin_difference(mine, skewed) == (
        "has plugin 'skew' (spoiler-skew 1.0), which this machine has not"
    )
    other_hooks = {**skewed["plugins"]["skew"], "hooks": []}
    assert "implementing no hook, this machine spoiler_round_end" in sim.plugin_difference(
        skewed, {**skewed, "plugins": {**skewed["plugins"], "skew": other_hooks}}
    )


# -- on a real cluster -------------------------------------------------------------------------
def skew_plugin(root: Path) -> Path:
    """A directory holding the installed distribution spoiler-skew (for PYTHONPATH)."""
    info = root / "spoiler_skew-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: spoiler-skew\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[spoiler]\nskew = spoiler_skew\n")
    (root / "spoiler_skew.py").write_text(SKEW)
    return root


def dask_worker(address: str, plugins: Path | None = None) -> subprocess.Popen:
    """A real `dask worker` process (no nanny: killed, it stays dead)."""
    env = {k: v for k, v in os.environ.items() if k != "SPOILER_PLUGINS"}
    if plugins is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(plugins), env.get("PYTHONPATH")]))
    command = [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1"]
    command += ["--no-nanny", "--no-dashboard", "--host", "127.0.0.1"]
    return subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


@pytest.fixture
def scheduler():
    """A Dask scheduler with no worker, and a client of it."""
    distributed = pytest.importorskip("distributed")
    from spoiler_simulate.cluster import DaskCluster

    started: list[subprocess.Popen] = []
    with (
        distributed.LocalCluster(
            n_workers=0, host="127.0.0.1", protocol="tcp://", dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):

        def join(count: int, plugins: Path | None = None) -> None:
            started.extend(dask_worker(cluster.scheduler_address, plugins) for _ in range(count))
            client.wait_for_workers(len(client.nthreads()) + count, timeout=120)

        try:
            yield cluster, client, join, DaskCluster(client, sim.installed())
        finally:
            for worker in started:
                worker.kill()
                worker.wait()


@pytest.fixture(scope="module")
def straight() -> list[dict]:
    """The plan's games played in this process."""
    return list(sim.run(PLAN))


def test_a_worker_joining_late_with_another_plugin_set_is_refused_and_never_counted(
    scheduler, straight, tmp_path
):
    """A worker with a rules-only plugin joins after the run began: each batch it takes is
    refused before a game is played and played again by the others; the figures are the
    same as without it."""
    _, _, join, cluster = scheduler
    join(1)
    joined = []

    def progress(n: int) -> None:
        if not joined:  # after the first batch: the skewed worker joins
            joined.append(True)
            join(1, skew_plugin(tmp_path / "skew"))

    games = sim.run(PLAN, workers=2, progress=progress, cluster=cluster)
    assert list(games) == straight and not games.partial and games.stopped is None
    [problem] = games.refused.values()
    assert problem == "has plugin 'skew' (spoiler-skew 1.0), which this machine has not"


def test_a_worker_killed_mid_run_has_its_batches_played_by_the_others(scheduler, straight):
    _, client, join, cluster = scheduler
    join(2)
    pids = client.run(os.getpid)
    killed = []

    def progress(n: int) -> None:
        busy = [w for w, tasks in client.processing().items() if tasks]
        if not killed and busy:
            os.kill(pids[busy[0]], signal.SIGKILL)
            killed.append(busy[0])

    games = sim.run(PLAN, workers=2, progress=progress, cluster=cluster)
    assert killed and list(games) == straight and not games.partial


def test_with_no_worker_left_simulate_stops_in_one_line(scheduler, monkeypatch):
    """The only worker dies mid-run: no hang, no traceback; one line says how many games
    were played (with the figures of those, if any)."""
    cluster, client, join, _ = scheduler
    join(1)
    [pid] = client.run(os.getpid).values()
    monkeypatch.setattr(sim, "NO_WORKER_GRACE", 1.0)

    def kill_when_busy() -> None:
        deadline = time.monotonic() + 120
        while not any(client.processing().values()) and time.monotonic() < deadline:
            time.sleep(0.02)
        os.kill(pid, signal.SIGKILL)

    killer = threading.Thread(target=kill_when_busy, daemon=True)
    killer.start()
    args = ["simulate", "--games", str(sim.MAX_GAMES), "--players", "3", "--seed", "1"]
    result = runner.invoke(app, [*args, "--cluster", cluster.scheduler_address, "--json"])
    killer.join()
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    [line] = [x for x in result.output.splitlines() if "no worker is left" in x]
    assert re.search(rf"no worker is left to play the games: \d+ of {sim.MAX_GAMES} games", line)


def test_a_worker_with_a_rules_only_plugin_at_the_start_is_refused_in_one_line(scheduler, tmp_path):
    cluster, _, join, _ = scheduler
    join(1, skew_plugin(tmp_path / "skew"))
    line = refused("--games", "4", "--cluster", cluster.scheduler_address)
    assert "has plugin 'skew' (spoiler-skew 1.0), which this machine has not" in line


# -- Ctrl-C ------------------------------------------------------------------------------------
def test_ctrl_c_mid_run_reports_the_games_finished_as_partial():
    """A real `spoiler simulate` sent SIGINT once games have finished (its progress bar, on
    a terminal, says so): it stops its worker processes and prints the figures of the games
    it finished, marked partial, exit code 130."""
    spoiler = Path(sys.executable).parent / "spoiler"
    master, slave = pty.openpty()
    games = sim.MAX_GAMES
    process = subprocess.Popen(
        [spoiler, "simulate", "--games", str(games), "--players", "3", "--jobs", "2", "--json"],
        stdout=subprocess.PIPE,
        stderr=slave,
        env={**os.environ, "COLUMNS": "100", "TERM": "xterm"},
    )
    os.close(slave)
    seen = b""
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:  # until the bar counts finished games
            seen += os.read(master, 4096)
            counts = re.findall(rb"(\d+)/%d" % games, seen)
            if counts and int(counts[-1]) > 0:
                break
        else:
            pytest.fail("no game finished in time")
        process.send_signal(signal.SIGINT)
        drain = threading.Thread(target=lambda: _read_all(master, seen), daemon=True)
        drain.start()
        out, _ = process.communicate(timeout=120)
        drain.join(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
        os.close(master)
    stderr = b"".join(_READ).decode(errors="replace")
    assert process.returncode == 130, stderr
    figures = json.loads(out)
    assert figures["partial"] is True and figures["games_planned"] == games
    assert 0 < figures["games"] < games
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr
    assert f"stopped by Ctrl-C: {figures['games']} of {games} games were played" in stderr


_READ: list[bytes] = []


def _read_all(fd: int, before: bytes) -> None:
    _READ.append(before)
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # the other end closed
            return
        if not chunk:
            return
        _READ.append(chunk)


# -- bot seeds a bot cannot search back --------------------------------------------------------
def seeds_handed_to_bots(monkeypatch, plan: sim.Plan) -> list[tuple[int, int, str, int]]:
    """(game number, seat, kind, the seed its bot was given) for every bot of a real run."""
    from spoiler.model import seeds

    handed = []
    real = seeds.bot_seed

    def watched(game_seed, seat, kind, key=None):
        seed = real(game_seed, seat, kind, key)
        handed.append((seat, kind, seed))
        return seed

    monkeypatch.setattr(seeds, "bot_seed", watched)
    games = sim.run(plan)
    assert len(games) == plan.games
    return [(i // plan.players, *bot) for i, bot in enumerate(handed)]  # seat by seat


def search_back(seat: int, kind: str, seed: int, games: int) -> int | None:
    """The attack: a bot tabulates the public game_seed and bot_seed over small simulation
    seeds and every game number, and looks its own seed up; the game's seed if found."""
    from spoiler.model.seeds import bot_seed

    for run_seed in range(64):
        for number in range(games):
            candidate = sim.game_seed(run_seed, number)
            if bot_seed(candidate, seat, kind) == seed:
                return candidate
    return None


def test_a_bot_can_no_longer_search_its_games_seed_back(monkeypatch):
    """With --seed 7 the old bot seeds led back to every game's seed (and every hand); keyed
    by the run's secret, the same tabulation finds none."""
    from spoiler.model.seeds import new_key

    plan = sim.Plan(6, ("random",) * 3, ("base",), seed=7, max_rounds=20)
    found = [
        search_back(seat, kind, seed, 6)
        for _, seat, kind, seed in seeds_handed_to_bots(monkeypatch, plan)
    ]
    assert found == [sim.game_seed(7, n) for n in range(6) for _ in range(3)]  # before: all

    keyed = sim.Plan(6, ("random",) * 3, ("base",), seed=7, max_rounds=20, bot_key=new_key())
    handed = seeds_handed_to_bots(monkeypatch, keyed)
    assert [search_back(seat, kind, seed, 6) for _, seat, kind, seed in handed] == [None] * 18


def test_the_same_seed_and_key_give_the_same_games_another_key_others():
    plan = sim.Plan(8, ("random",) * 3, ("base",), seed=7, max_rounds=20, bot_key="a")
    again = sim.run(plan)
    assert list(sim.run(plan)) == list(again)
    other = sim.run(sim.Plan(8, ("random",) * 3, ("base",), seed=7, max_rounds=20, bot_key="b"))
    assert [g["plays"] for g in other] != [g["plays"] for g in again]


def test_simulate_draws_its_seed_and_key_at_random_and_prints_them():
    args = ["simulate", "--games", "4", "--players", "3", "--sets", "base", "--json"]
    first, second = (json.loads(runner.invoke(app, args).stdout) for _ in range(2))
    assert first["seed"] != second["seed"] and first["bot_key"] != second["bot_key"]
    assert len(first["bot_key"]) == 32  # 128 bits
    again = runner.invoke(app, [*args, "--seed", str(first["seed"]), "--bot-key", first["bot_key"]])
    assert json.loads(again.stdout)["cards"] == first["cards"]
    text = runner.invoke(app, args[:-1]).stdout
    assert re.search(r"seed -?\d+, bot key [0-9a-f]{32}\.", " ".join(text.split()))
