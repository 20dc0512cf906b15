"""The expert's speed: rollouts per millisecond, and how long a decision takes, per set.

    python benchmarks/rollouts.py [--games 4] [--decisions 40] [--think 200]
                                  [--sets base chrono mirror all]

For each set (``all``: every installed set together; a set that cannot end a game alone
with the sets it is played with, ``CardSet.requires``, as the commands deal it) it plays the same seeded 4-player games
(at most ``--games``, stopping at the end of the round in which ``--decisions`` were made),
a seeded expert in seat 0 (``--think`` ms, counted in rollouts as ``spoiler play`` does)
against three greedy bots, and reports the expert's rollouts per millisecond of its thinking
and the median and 95th percentile of its decision times (a selection or an answer, the
search window the engine hands it included). Times are CPU time of this process, so other
work on a busy machine does not count against them.

``digest`` is a hash of every game's decisions: two checkouts that print the same digest
played the very same games, so a faster expert that chooses exactly as before shows the
same digest beside better figures. The script needs only the public API and the expert's
``_rollout`` (counted), so it runs against older checkouts too, for figures side by side.

Side by side (``--compare PYTHON ...``): each set is played by this Python and by each
given one (another checkout's, with its plugins installed), in turn, ``--repeat`` times,
the order reversed every other time so that all of them see the same load on a busy
machine; it prints each one's median figures and its ratio to the first given. Issue 24's
baseline is the commit the issue was filed at, 1bbcf73 (75f14b7 also runs it)::

    git archive 1bbcf73 | tar -x -C /tmp/at-issue
    cd /tmp/at-issue && python3.11 -m venv .venv && .venv/bin/pip install -e . \
        && .venv/bin/pip install --no-deps ./expansions/*
    python benchmarks/rollouts.py --compare /tmp/at-issue/.venv/bin/python
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import time

from side_by_side import interleaved  # (beside this script)

import spoiler.search  # noqa: F401  (registers the search window, wrapped below)
from spoiler import plugins
from spoiler.rules import selection
from spoiler.rules.game import Game, Seat


class Timed:
    """Wraps the expert: the CPU time of each decision, the search window's included."""

    def __init__(self, agent, clock):
        self.agent, self.clock = agent, clock
        self.times: list[float] = []
        self.rollouts = 0
        rollout = agent._rollout

        def counted(*args, **kwargs):
            self.rollouts += 1
            return rollout(*args, **kwargs)

        agent._rollout = counted

    def __getattr__(self, name):
        return getattr(self.agent, name)

    def _timed(self, call, *args):
        start = time.process_time()
        try:
            return call(*args)
        finally:
            self.times.append(time.process_time() - start + self.clock.pop())

    def select(self, view):
        return self._timed(self.agent.select, view)

    def answer(self, view, question):
        return self._timed(self.agent.answer, view, question)


class WindowClock:
    """The CPU time the engine spends making search windows, added to the next decision."""

    def __init__(self):
        self.pending = 0.0
        self.factory = factory = selection._window_factory

        def timed(game, seat):
            start = time.process_time()
            try:
                return factory(game, seat)
            finally:
                self.pending += time.process_time() - start

        selection._window_factory = timed

    def pop(self) -> float:
        pending, self.pending = self.pending, 0.0
        return pending


def run(set_names: list[str], games: int, think: float, seed: int = 0, decisions: int = 40) -> dict:
    registry = plugins.load()
    card_sets = registry.card_sets(set_names)
    # With the sets it is played with, as every command deals it: the walk of
    # Registry.sets_played, written out because older checkouts (1bbcf73) lack that method.
    for card_set in card_sets:
        for name in getattr(card_set, "requires", ()):
            if all(s.name != name for s in card_sets):
                card_sets += registry.card_sets([name])
    hooks = registry.game_hooks([s.name for s in card_sets])
    expert = registry.agents["expert"].factory
    greedy = registry.agents["greedy"].factory
    clock = WindowClock()
    times: list[float] = []
    rollouts = 0
    digest = hashlib.sha256()
    try:
        for n in range(games):
            game_seed = seed + n
            timed = Timed(expert(0, game_seed, {"think": str(think)}), clock)
            seats = [Seat("P0", timed, "expert")]
            seats += [Seat(f"P{i}", greedy(i, game_seed), "greedy") for i in range(1, 4)]
            game = Game(card_sets, seats, game_seed, hooks=hooks)
            while not game.over and len(times) + len(timed.times) < decisions:
                game.play_round()
            times += timed.times
            rollouts += timed.rollouts
            digest.update(json.dumps(game.decisions, sort_keys=True, default=str).encode())
            if len(times) >= decisions:
                break
    finally:
        selection._window_factory = clock.factory
    ms = sorted(t * 1000 for t in times)
    return {
        "sets": set_names,
        "games": games,
        "decisions": len(ms),
        "rollouts": rollouts,
        "rollouts_per_ms": round(rollouts / sum(ms), 3),
        "median_ms": round(statistics.median(ms), 1),
        "p95_ms": round(ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))], 1),
        "digest": digest.hexdigest()[:12],
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--think", type=float, default=200.0)
    parser.add_argument("--decisions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sets", nargs="+", default=["base", "chrono", "mirror", "all"])
    parser.add_argument("--json", action="store_true", help="one line of JSON per set")
    parser.add_argument("--compare", nargs="+", metavar="PYTHON", help="side by side with these")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each, with --compare")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.compare:
        return compare(args)
    every = sorted(plugins.load().sets)
    for name in args.sets:
        set_names = every if name == "all" else [name]
        try:
            figures = run(set_names, args.games, args.think, args.seed, args.decisions)
        except LookupError as exc:
            print(f"rollouts benchmark: {exc}", file=sys.stderr)
            return 2
        if args.json:
            print(json.dumps({"set": name, **figures}))
        else:
            print(
                f"{name:7} {figures['rollouts_per_ms']:6.3f} rollouts/ms, decision median "
                f"{figures['median_ms']:6.1f} ms, p95 {figures['p95_ms']:6.1f} ms "
                f"({figures['decisions']} decisions, {args.games} games, "
                f"digest {figures['digest']})"
            )
    return 0


def compare(args) -> int:
    """The figures of each Python (the given ones, then this one), run in turn."""
    pythons = [*args.compare, sys.executable]
    common = ["--json", "--games", str(args.games), "--think", str(args.think)]
    common += ["--decisions", str(args.decisions), "--seed", str(args.seed)]
    for name in args.sets:
        try:
            runs = interleaved(__file__, pythons, [*common, "--sets", name], args.repeat)
        except RuntimeError as exc:
            print(f"rollouts benchmark: {exc}", file=sys.stderr)
            return 2
        first = statistics.median(f["rollouts_per_ms"] for f in runs[pythons[0]])
        for python in pythons:
            figures = runs[python]
            rate = statistics.median(f["rollouts_per_ms"] for f in figures)
            median = statistics.median(f["median_ms"] for f in figures)
            p95 = statistics.median(f["p95_ms"] for f in figures)
            print(
                f"{name:7} {rate:6.3f} rollouts/ms ({rate / first:.2f}x), decision median "
                f"{median:6.1f} ms, p95 {p95:6.1f} ms, digest {figures[0]['digest']}: {python}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
