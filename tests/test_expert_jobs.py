"""The expert on every core: ``--bot-option jobs=N`` shares its rollouts among this process
and N - 1 workers (issue 24, item 3).

"Results identical for a given budget (in rollouts) and worker count"; "workers get only
what the seat may know"; "started once per agent, closed by its close(), cleaned up on
errors and Ctrl-C"; "simulate and the ladder keep one worker per game"; "bad values get one
clear line and exit 2". The workers are real processes.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spoiler import plugins
from spoiler.agents import close_agents
from spoiler.cli import app
from spoiler.engine import Game, Seat
from spoiler.search import Searcher, determinize
from spoiler.search.transfer import Catalogue, dumps, loads
from spoiler_game.bots import parallel
from spoiler_game.bots.expert import ExpertAgent

THINK = "12"  # ms: 15 rollouts a decision, shared among the processes
ALL_SETS = ["base", "chrono", "mirror"]
needs_two_cores = pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="needs two cores")


@pytest.fixture(scope="module")
def registry():
    return plugins.load()


def expert_game(registry, seed, jobs, sets=ALL_SETS, players=4) -> Game:
    """Two experts (with ``jobs``) and greedy bots, played to the end; its agents closed."""
    options = {"think": THINK, "jobs": str(jobs)}
    seats = [
        Seat(f"P{i}", registry.agent("expert", i, seed, options) if i < 2 else
             registry.agent("greedy", i, seed))
        for i in range(players)
    ]  # fmt: skip
    game = Game(
        registry.card_sets(sets), seats, seed, max_rounds=15, hooks=registry.game_hooks(sets)
    )
    try:
        game.play()
    finally:
        close_agents(game)
    return game


def worker_processes(mark: str) -> list[int]:
    """The pids of live worker processes started with ``SPOILER_TEST_MARK=mark``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
            cmdline = (entry / "cmdline").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        marked = f"SPOILER_TEST_MARK={mark}".encode() in environ.split(b"\0")
        if marked and state != "Z" and b"spoiler_game.bots.parallel" in cmdline:
            found.append(int(entry.name))
    return found


# -- the same play -----------------------------------------------------------------------------
@needs_two_cores
@pytest.mark.parametrize("seed", [3, 8])
def test_with_two_jobs_the_expert_plays_the_very_game_it_plays_with_one(registry, seed):
    """Each rollout depends only on its task (candidate, deal), and the values are added up
    in the same order: the same choices for the same budget, whatever the processes."""
    alone, shared = expert_game(registry, seed, 1), expert_game(registry, seed, 2)
    assert shared.decisions == alone.decisions
    assert shared.result == alone.result
    assert [e.as_dict() for e in shared.state.log] == [e.as_dict() for e in alone.state.log]
    assert not any(getattr(s.agent, "faults", None) for s in shared.seats)  # workers were used


@needs_two_cores
def test_two_jobs_give_the_same_game_every_run(registry):
    first, again = expert_game(registry, 21, 2), expert_game(registry, 21, 2)
    assert first.decisions == again.decisions and first.result == again.result


@needs_two_cores
def test_two_jobs_share_the_rollouts_with_a_worker(registry, monkeypatch):
    """The worker plays its share (not this process alone): each halving round's tasks are
    cut in two runs, the second sent to the worker."""
    sent: list[int] = []
    real = parallel._Worker.send

    def counted(self, message):
        sent.append(len(message[-1]))  # the tasks it is given
        real(self, message)

    monkeypatch.setattr(parallel._Worker, "send", counted)
    expert_game(registry, 3, 2, sets=["base"])
    assert sent and all(n > 0 for n in sent)


def test_tasks_are_cut_in_order_into_runs_as_even_as_they_can_be():
    assert parallel.split(list(range(7)), 3) == [[0, 1], [2, 3], [4, 5, 6]]
    assert parallel.split([1], 2) == [[], [1]]
    assert [t for run in parallel.split(list(range(100)), 4) for t in run] == list(range(100))


# -- what the workers get ----------------------------------------------------------------------
def moments(registry, seeds):
    """Games of random bots with every set, stopped between rounds 1 and 6."""
    sets, hooks = registry.card_sets(ALL_SETS), registry.game_hooks(ALL_SETS)
    for seed in seeds:
        seats = [Seat(f"P{i}", registry.agent("random", i, seed)) for i in range(4)]
        game = Game(sets, seats, seed, hooks=hooks)
        for _ in range(1 + seed % 6):
            if not game.over:
                game.play_round()
        if not game.over:
            yield game


def test_a_worker_is_sent_nothing_its_seat_does_not_know(registry):
    """Two games alike in all seat 0 knows, different in all it does not (other hands, the
    deck's order, the game's RNG and seed): the bytes its workers get are the same."""
    checked = 0
    for moment in moments(registry, range(10)):
        other = determinize(moment, 0, random.Random(99))  # another truth, same knowledge
        catalogue = Catalogue.of(moment)
        assert dumps(Searcher(moment, 0), catalogue) == dumps(Searcher(other, 0), catalogue)
        checked += 1
    assert checked >= 5


def test_a_search_window_read_back_plays_the_same_rollouts(registry):
    """In a process with the same plugins, the window sent plays each rollout as here."""
    sets, hooks = registry.card_sets(ALL_SETS), registry.game_hooks(ALL_SETS)
    elsewhere = Catalogue(sets, hooks)
    expert = ExpertAgent(1, 0)
    for moment in moments(registry, range(6)):
        search = Searcher(moment, 0)
        copy = loads(dumps(search, Catalogue.of(moment)), elsewhere)
        view = moment.view(0)
        candidate = ExpertAgent(1, 0)._random.select(view)
        for world_seed in range(4):
            assert expert._select_rollout(copy, candidate, world_seed) == (
                expert._select_rollout(search, candidate, world_seed)
            )


# -- processes ---------------------------------------------------------------------------------
@needs_two_cores
def test_the_workers_start_at_the_first_search_and_end_with_the_game(registry):
    expert = registry.agent("expert", 0, 1, {"think": THINK, "jobs": "2"})
    assert expert._pool is None  # made (or checked, by `spoiler play`): nothing started
    seats = [Seat(f"P{i}", registry.agent("greedy", i, 1)) for i in range(4)]
    seats[0] = Seat("P0", expert)
    game = Game(registry.card_sets(["base"]), seats, 1, hooks=registry.game_hooks(["base"]))
    while expert._pool is None or not expert._pool._workers:
        game.play_round()
    [worker] = expert._pool._workers
    assert worker.process.poll() is None  # alive, kept for the rounds to come
    for _ in range(3):
        if not game.over:
            game.play_round()
    assert expert._pool._workers == [worker]  # the same one: started once
    close_agents(game)
    assert worker.process.poll() is not None


@needs_two_cores
def test_an_expert_resumed_from_a_record_ends_its_workers_with_the_game(registry):
    """A replayed or resumed game's bots sit behind RecordedAgent: closing the game closes
    them too, so their workers end."""
    from spoiler.session.records import RecordedAgent

    expert = registry.agent("expert", 0, 1, {"think": THINK, "jobs": "2"})
    seats = [Seat("P0", RecordedAgent("P0", [], 0, live=expert))]
    seats += [Seat(f"P{i}", registry.agent("greedy", i, 1)) for i in range(1, 4)]
    game = Game(registry.card_sets(["base"]), seats, 1, hooks=registry.game_hooks(["base"]))
    while expert._pool is None or not expert._pool._workers:
        game.play_round()
    [worker] = expert._pool._workers
    close_agents(game)
    assert worker.process.poll() is not None


def test_a_record_made_with_more_jobs_than_this_machine_has_cores_resumes_the_same(
    tmp_path, monkeypatch, experts_cut_after_round_2
):
    """jobs changes only how soon the expert decides: a record made on a bigger machine
    resumes here with as many processes as there are cores, says so, and ends as the game
    played straight through."""
    from spoiler import records
    from spoiler.agents import options

    runner = CliRunner()
    straight, record = experts_cut_after_round_2
    saved = tmp_path / "saved.toml"
    record.bot_options["jobs"] = "8"  # made on an 8-core machine
    record.save(saved)

    monkeypatch.setattr(options, "cores", lambda: 1)
    resumed = runner.invoke(app, ["resume", str(saved)])
    assert resumed.exit_code == 0, resumed.output
    assert (
        "The record's bots searched in 8 processes (jobs=8); this machine has 1 core, so "
        "they search in 1: the same play, slower." in " ".join(resumed.output.split())
    )
    finished, played_straight = records.load(saved), records.load(straight)
    assert finished.bot_options == {"think": "3", "jobs": "8"}  # the record keeps what it had
    assert finished.rounds == played_straight.rounds
    assert finished.result == played_straight.result


@needs_two_cores
def test_a_worker_lost_mid_game_costs_one_line_and_the_game_goes_on_the_same(registry):
    straight = expert_game(registry, 5, 1, sets=["base"])
    expert = registry.agent("expert", 0, 5, {"think": THINK, "jobs": "2"})
    other = registry.agent("expert", 1, 5, {"think": THINK})
    seats = [Seat("P0", expert), Seat("P1", other)]
    seats += [Seat(f"P{i}", registry.agent("greedy", i, 5)) for i in (2, 3)]
    game = Game(
        registry.card_sets(["base"]), seats, 5, max_rounds=15, hooks=registry.game_hooks(["base"])
    )
    while expert._pool is None or not expert._pool._workers:
        game.play_round()
    expert._pool._workers[0].process.kill()  # killed, out of memory, ...
    try:
        game.play()
    finally:
        close_agents(game)
    assert game.decisions == straight.decisions
    [fault] = expert.faults
    assert fault.text.startswith("expert: searching in one process: a worker process was lost")


@needs_two_cores
@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads /proc")
def test_ctrl_c_ends_the_game_and_its_workers(tmp_path):
    """A real `spoiler play` of experts with jobs=2, sent SIGINT while they think: it stops
    (exit code 130, no traceback) and no worker process is left."""
    mark = uuid.uuid4().hex
    spoiler = Path(sys.executable).parent / "spoiler"
    process = subprocess.Popen(
        [spoiler, "play", "--bots", "3", "--bot", "expert", "--bot-option", "jobs=2",
         "--think", "3000", "--seed", "4", "--sets", "base"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "SPOILER_TEST_MARK": mark},
        cwd=tmp_path,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not worker_processes(mark) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert worker_processes(mark), "no worker started"
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    assert b"Traceback" not in out + err
    deadline = time.monotonic() + 10
    while worker_processes(mark) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert worker_processes(mark) == []


# -- the option --------------------------------------------------------------------------------
def cli(*args: str):
    return CliRunner().invoke(app, list(args))


def one_line(result) -> str:
    assert result.exit_code == 2, result.output
    assert result.output.startswith("Error: ") and result.output.count("\n") == 1, result.output
    return result.output


@pytest.mark.parametrize("value", ["0", "x", "-1", "1.5", ""])
def test_a_jobs_value_that_is_not_a_number_of_processes_is_one_line(value):
    line = one_line(cli("play", "--bots", "2", "--bot", "expert", "--bot-option", f"jobs={value}"))
    assert f"jobs={value} is not a number of processes (a whole number, 1 to" in line


def test_more_jobs_than_the_machine_has_cores_is_one_line():
    many = (os.cpu_count() or 1) + 1
    line = one_line(cli("play", "--bots", "2", "--bot", "expert", "--bot-option", f"jobs={many}"))
    assert f"jobs={many} is more than this machine's {many - 1} cores" in line


@pytest.mark.parametrize(
    "args, given",
    [
        (["simulate", "--bots", "expert", "--bot-option", "jobs=2"], "--bot-option jobs=2"),
        (["simulate", "--bots", "expert@jobs=2,greedy"], "--bots expert@jobs=2"),
        (["ladder", "--bots", "expert,greedy", "--bot-option", "jobs=2"], "--bot-option jobs=2"),
    ],
)
def test_simulate_and_the_ladder_keep_one_process_per_game(args, given):
    line = one_line(cli(*args, "--games", "2"))
    assert f"{given}: simulate and ladder play each game in one process" in line
