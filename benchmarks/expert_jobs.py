"""The expert on every core: its decision time (wall clock) with ``--bot-option jobs=N``
against one process, on the same seeded games, and a check that they are the same games.

    python benchmarks/expert_jobs.py [--games 6] [--jobs 1,2] [--think 200] [--sets base]

Seat 0 is the expert, the others greedy bots. Times are wall-clock per expert decision
(most of the work is in the workers when N > 1), so they mean something only on a machine
whose cores are free: the load average is printed beside them. The first decision of a game
with N > 1 also starts the workers (about a quarter of a second each, once a game), and is
counted. The CPU time of every process (this one and its workers) per decision tells what
sharing costs: sending the search window, workers starting, waiting at each halving round.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import time

from spoiler import Game, Seat, plugins
from spoiler.agents import close_agents


class Timed:
    """Passes the expert's decisions through, timing each (wall clock, ms)."""

    def __init__(self, agent):
        self.agent, self.times = agent, []
        self.searches, self.builtin = agent.searches, agent.builtin

    def select(self, view):
        start = time.perf_counter()
        try:
            return self.agent.select(view)
        finally:
            self.times.append(1000 * (time.perf_counter() - start))

    def answer(self, view, question):
        start = time.perf_counter()
        try:
            return self.agent.answer(view, question)
        finally:
            self.times.append(1000 * (time.perf_counter() - start))


def play(registry, sets: list[str], seed: int, jobs: int, think: str):
    options = {"think": think, "jobs": str(jobs)}
    expert = Timed(registry.agent("expert", 0, seed, options))
    seats = [Seat("P0", expert)] + [
        Seat(f"P{i}", registry.agent("greedy", i, seed)) for i in range(1, 4)
    ]
    game = Game(registry.card_sets(sets), seats, seed, hooks=registry.game_hooks(sets))
    try:
        game.play()
    finally:
        close_agents(game)
    return game.decisions, expert.times, expert.agent.faults


def _cpu() -> float:
    """CPU time of this process and of its ended children (the workers), in seconds."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--jobs", default="1,2", help="comma-separated job counts")
    parser.add_argument("--think", default="200")
    parser.add_argument("--sets", default="base")
    args = parser.parse_args()
    registry = plugins.load()
    sets = args.sets.split(",")
    counts = [int(n) for n in args.jobs.split(",")]
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} before")
    played: dict[int, list] = {}
    for jobs in counts:
        times: list[float] = []
        games = []
        cpu = _cpu()
        for seed in range(args.games):
            decisions, spent, faults = play(registry, sets, seed, jobs, args.think)
            assert not faults, faults
            games.append(decisions)
            times += spent
        cpu = _cpu() - cpu
        played[jobs] = games
        times.sort()
        print(
            f"jobs={jobs}: {len(times)} decisions, median {statistics.median(times):.0f} ms, "
            f"p95 {times[int(0.95 * (len(times) - 1))]:.0f} ms (wall clock); CPU time of "
            f"every process {1000 * cpu / len(times):.0f} ms a decision; "
            f"load average {os.getloadavg()[0]:.2f}"
        )
    same = all(played[n] == played[counts[0]] for n in counts)
    print("the same games with every job count" if same else "THE GAMES DIFFER")


if __name__ == "__main__":
    main()
