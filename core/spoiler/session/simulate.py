"""Simulations: many seeded games between bots, and the figures a set author balances by.

``run(plan, executor)`` plays ``plan.games`` games in batches on any
``concurrent.futures.Executor`` (a process pool, or a Dask cluster's executor) and
``report(plan, games)`` turns their summaries into figures. Each game has its own seed,
derived from the plan's seed and the game's number, and summaries are put back in game
order, so every figure is the same whatever runs the batches and however many there are.
Games are played in fast mode (``spoiler.fast``).

Every bot gets the plan's options (``--bot-option``, ``spoiler.agents.options``); a seat's
kind may carry options of its own, written ``KIND@KEY=VALUE`` (``expert@think=800``: see
``variant``), which win over the plan's. A plan may seat other kinds in every game
(``Plan.seating``, which ``spoiler ladder`` uses for its schedule).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import math
import re
import shlex
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Executor, as_completed
from dataclasses import asdict, dataclass
from typing import Any, Protocol

#: The balance targets the warnings check.
MAX_START_SHARE = 0.35
MEDIAN_ROUNDS = (4, 15)
MAX_ROUND_LIMIT_SHARE = 0.01
#: Random-bot games that check each set can end a game on its own.
ALONE_GAMES = 40
#: The most games one simulation (or ladder) plays. (``simulate`` keeps a tally of its
#: games, in memory that does not grow with them; the ladder keeps each game's summary.)
MAX_GAMES = 100_000
#: How long a cluster may have no worker able to play before the run stops (seconds).
NO_WORKER_GRACE = 10.0
#: How often one batch may be refused, or its workers lost, before the run stops.
MAX_TRIES = 8


class PlanError(ValueError):
    """Options that do not make a simulation (one line, for the user)."""


@dataclass(frozen=True)
class Plan:
    """What to simulate. ``bots``: one kind per seat; ``sets``: set names (all usable when
    None); ``bot_options``: (key, value) pairs every bot is given (``--bot-option``; a
    kind's own ``@KEY=VALUE`` wins); ``bot_time_limit``: seconds a program bot may take
    over a decision (None: the default); ``bot_key``: the secret bot seeds are keyed by
    (``spoiler.seeds.bot_seed``; None: by the game's seed alone). ``seating``, when given,
    seats other kinds game by game: game *n* seats ``seating[n % len(seating)]`` (one kind
    per seat) instead of ``bots``."""

    games: int
    bots: tuple[str, ...]
    sets: tuple[str, ...] | None = None
    seed: int = 0
    max_rounds: int = 100
    bot_options: tuple[tuple[str, str], ...] = ()
    seating: tuple[tuple[str, ...], ...] = ()
    bot_time_limit: float | None = None
    bot_key: str | None = None

    @property
    def players(self) -> int:
        return len(self.seating[0]) if self.seating else len(self.bots)

    def seats(self, number: int) -> tuple[str, ...]:
        """The kinds game ``number`` seats, one per seat."""
        return self.seating[number % len(self.seating)] if self.seating else self.bots

    def kinds(self) -> list[str]:
        """Every kind the plan seats, in order of first appearance."""
        return list(dict.fromkeys([*self.bots, *(k for row in self.seating for k in row)]))


#: ``KIND@KEY=VALUE@KEY=VALUE``: a kind with options of its own (values hold no ``@``, space
#: or comma, so an ``exec:`` command may still hold an ``@`` of its own).
_VARIANT = re.compile(r"(?P<kind>.+?)(?P<options>(?:@[A-Za-z_][A-Za-z0-9_]*=[^@\s,]+)+)")


def variant(label: str) -> tuple[str, dict[str, str]]:
    """A seat's kind as written, split into the bot kind and its own options:
    ``expert@think=800`` is ``("expert", {"think": "800"})``: each ``KEY=VALUE`` reaches the
    bot's options as text, as ``--bot-option KEY=VALUE`` does (the bot reads the keys it
    knows). A kind without ``@KEY=VALUE`` has no options of its own. PlanError on a value
    that is too long."""
    from spoiler.agents.options import OptionError, check

    match = _VARIANT.fullmatch(label)
    if match is None:
        return label, {}
    options: dict[str, str] = {}
    for pair in match["options"][1:].split("@"):
        key, _, value = pair.partition("=")
        try:
            check(key, value, label)
        except OptionError as exc:
            raise PlanError(str(exc)) from None
        options[key] = value
    return match["kind"], options


def options_of(plan: Plan, label: str) -> dict[str, str]:
    """The options a seat of kind ``label`` is given: the plan's, then the kind's own."""
    return {**dict(plan.bot_options), **variant(label)[1]}


def game_seed(seed: int, number: int) -> int:
    """Game ``number``'s own seed (64 bits), from the simulation's seed."""
    digest = hashlib.sha256(f"spoiler-simulate:{seed}:{number}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


# ==============================================================================================
# Playing (in whatever process runs a batch)
# ==============================================================================================
_REGISTRY = None


def _registry():
    global _REGISTRY
    if _REGISTRY is None:
        from spoiler import plugins

        _REGISTRY = plugins.load()
    return _REGISTRY


def sets_played(names) -> list:
    """The sets a plan's games play: the named ones (all usable when None) and the sets they
    are played with (``Registry.sets_played``). UnknownName names what is missing."""
    return _registry().sets_played(list(names) if names is not None else None)


def installed() -> dict:
    """This process's Spoiler version, usable sets with their versions, bot kinds, and its
    whole plugin set: every plugin with its distribution, version, status and the hooks it
    implements (a rules-only plugin changes games too). What a cluster's workers must share
    with the machine that runs the simulation."""
    from spoiler import __version__

    registry = _registry()
    return {
        "spoiler": __version__,
        "sets": {name: s.version for name, s in sorted(registry.sets.items())},
        "bots": sorted(registry.agents),
        "plugins": {
            key: {
                "distribution": info.distribution,
                "version": info.version,
                "status": info.status,
                "hooks": sorted(info.hooks),
            }
            for key, info in sorted(registry.plugins.items())
        },
    }


class Refused(Exception):
    """A worker refused to play a batch: its plugin set is not this machine's (``problem``,
    one line). The batch is played elsewhere; none of its games counts."""

    def __init__(self, worker: str, problem: str):
        super().__init__(worker, problem)
        self.worker, self.problem = worker, problem

    def __str__(self) -> str:
        return f"worker {self.worker} {self.problem}"


def plugin_difference(mine: dict, theirs: dict) -> str | None:
    """The first difference between two ``installed()`` plugin sets, worded about
    ``theirs`` ("has plugin 'skew' (spoiler-skew 0.1.0), which this machine has not"); None
    when they are the same."""
    if theirs.get("spoiler") != mine.get("spoiler"):
        return f"has Spoiler {theirs.get('spoiler')}, this machine {mine.get('spoiler')}"
    here, there = mine.get("plugins", {}), theirs.get("plugins", {})

    def named(key: str, info: dict) -> str:
        return f"{key!r} ({info['distribution']} {info['version']})"

    for key in sorted(set(here) | set(there)):
        a, b = here.get(key), there.get(key)
        if b is None:
            return f"does not have plugin {named(key, a)}"
        if a is None:
            return f"has plugin {named(key, b)}, which this machine has not"
        if (a["distribution"], a["version"]) != (b["distribution"], b["version"]):
            return f"has plugin {named(key, b)}, this machine {named(key, a)}"
        if a["status"] != b["status"]:
            return f"has plugin {key!r} {b['status']}, this machine {a['status']}"
        if a["hooks"] != b["hooks"]:
            return (
                f"has plugin {key!r} implementing {', '.join(b['hooks']) or 'no hook'}, "
                f"this machine {', '.join(a['hooks']) or 'no hook'}"
            )
    return None


def play_checked(
    plan: Plan, numbers: range, expected: dict, worker: str, tally: bool = False
) -> list[dict] | Tally:
    """``play_batch`` on a worker (``tally_batch`` with ``tally``), after checking that its
    plugin set is ``expected`` (the machine's that runs the simulation): Refused, before any
    game is played, if not. Every batch checks, so a worker that joined late, or changed,
    cannot skew the figures."""
    problem = plugin_difference(expected, installed())
    if problem is not None:
        raise Refused(worker, problem)
    return tally_batch(plan, numbers) if tally else play_batch(plan, numbers)


#: For each game being played (by ``id``): the cause of each seat's latest win that made it
#: a winner, and of the latest loss that knocked a player out. (Kept here, not on the game:
#: a game's attributes stay few, see tests/test_engine_parts.py.)
_DECIDING: dict[int, dict] = {}


@functools.cache
def _tally_game() -> type:
    """``FastGame`` noting each game's deciding events (``_DECIDING``) as its verbs make them:
    only ``win`` and ``lose`` are watched, so the cost is a few calls a game."""
    from spoiler.model.state import Status
    from spoiler.model.verbs import Play
    from spoiler.rules.log import cause_id
    from spoiler.search.fast import FastGame

    def credited(cause) -> str | None:
        # A play that was replaced is credited to the card whose code made the change.
        return cause.acting_as.id if isinstance(cause, Play) else cause_id(cause)

    class TallyGame(FastGame):
        def win(self, seat, cause=None):
            done = super().win(seat, cause)
            if done and self.state.players[seat].status is Status.WON:
                _DECIDING[id(self)]["won"][seat] = credited(cause)
            return done

        def lose(self, seat, cause=None):
            done = super().lose(seat, cause)
            if done and self.state.players[seat].status is Status.LOST:
                _DECIDING[id(self)]["knockout"] = credited(cause)
            return done

    return TallyGame


def deciding_causes(kind: str, winners: list[int], deciding: dict) -> list[str | None]:
    """The cause of each winner's deciding event: the ``won`` event that made them a winner;
    for a win by default, the loss that left them the only player in the game."""
    if kind == "win":
        return [deciding["won"].get(seat) for seat in winners]
    if kind == "default":
        return [deciding["knockout"]]
    return []


def play_batch(plan: Plan, numbers: range, out=None):
    """Play games ``numbers`` of the plan; one summary each (plain data, small to send),
    appended to ``out`` (a new list by default, or a ``Tally``) as each game ends, so that
    a run stopped mid-batch keeps the games it finished; ``out`` is returned."""
    from spoiler.agents import close_agents, new_faults
    from spoiler.rules.game import Seat

    FastGame = _tally_game()

    registry = _registry()
    sets = sets_played(plan.sets)
    hooks = registry.game_hooks([s.name for s in sets])
    kinds = {label: (variant(label)[0], options_of(plan, label)) for label in plan.kinds()}
    out = [] if out is None else out
    for number in numbers:
        if _stopping:  # asked to stop (stop_between_games): the games so far count
            break
        seed = game_seed(plan.seed, number)
        labels = plan.seats(number)
        agents = []
        for i, label in enumerate(labels):
            kind, options = kinds[label]
            agents.append(
                registry.agent(
                    kind,
                    i,
                    seed,
                    options or None,
                    time_limit=plan.bot_time_limit,
                    key=plan.bot_key,
                )
            )
        timed = [Timed(a) if getattr(a, "searches", False) else a for a in agents]
        seats = [
            Seat(f"P{i + 1}", a, k) for i, (a, k) in enumerate(zip(timed, labels, strict=True))
        ]
        game = FastGame(sets, seats, seed, max_rounds=plan.max_rounds, hooks=hooks)
        deciding = _DECIDING[id(game)] = {"won": {}, "knockout": None}
        try:
            game.start()
            start = list(game.state.priority)
            try:
                result = game.play()
            finally:
                close_agents(game)
        finally:
            del _DECIDING[id(game)]
            for fault in new_faults(game, {}):  # no screen here: one line each on stderr
                sys.stderr.write(f"spoiler: game {number}, seat {fault.seat + 1}: {fault.text}\n")
        thinking: dict[str, list[float]] = {}
        for label, agent in zip(labels, timed, strict=True):
            if isinstance(agent, Timed):
                thinking.setdefault(label, []).extend(agent.times)
        plays = [
            (seat, selection["card"])
            for record in game.decisions
            for seat, selection in record["selections"].items()
        ]
        out.append(
            {
                "number": number,
                "bots": list(labels),
                "start": start,
                "kind": result.kind,
                "winners": list(result.winners),
                "rounds": result.round,
                "plays": plays,
                # What made each winner win: a card's id or a rule's (see deciding_causes).
                "causes": deciding_causes(result.kind, list(result.winners), deciding),
                # Thinking time of the bots that search, by kind: a measure of the machine,
                # kept apart from the figures (which depend on the options alone).
                "thinking": thinking,
            }
        )
    return out


class Timed:
    """Passes a searching bot's decisions through, timing each in CPU time (ms)."""

    def __init__(self, agent):
        self.agent = agent
        self.times: list[float] = []
        for name in ("builtin", "searches", "reads_events"):
            if hasattr(agent, name):
                setattr(self, name, getattr(agent, name))

    def select(self, view):
        start = time.process_time()
        try:
            return self.agent.select(view)
        finally:
            self.times.append(1000 * (time.process_time() - start))

    def answer(self, view, question):
        start = time.process_time()
        try:
            return self.agent.answer(view, question)
        finally:
            self.times.append(1000 * (time.process_time() - start))


class Tally:
    """The figures of many games, added up game by game: what ``report`` and ``thinking``
    read, in memory that does not grow with the number of games. A batch of games played
    in another process sends its tally (a few counters), not a summary per game; tallies add
    up (``merge``) in any order to the same figures.

    ``append(summary)`` takes one game's summary (as ``play_batch`` makes it), so a tally
    stands wherever a list of summaries is filled. Like ``Played``, a run's tally says how
    the run ended (``partial``, ``stopped``, ``planned``, ``refused``)."""

    partial = False
    stopped: str | None = None
    planned = 0

    def __init__(self) -> None:
        self.games = 0
        self.wins_by_seat: Counter = Counter()  # seat -> games it won
        self.wins_by_start: Counter = Counter()  # starting priority (1st = 1) -> wins
        self.results: Counter = Counter()  # result kind -> games
        self.lengths: Counter = Counter()  # rounds -> games
        self.played: Counter = Counter()  # card id -> plays
        self.played_by_winners: Counter = Counter()  # card id -> plays by the game's winners
        self.causes: Counter = Counter()  # what decided each win (see deciding_causes)
        #: Bot kind -> decision times (CPU ms, to THINKING_STEP) -> how many.
        self.thinking: dict[str, Counter] = {}
        self.refused: dict[str, str] = {}

    def __len__(self) -> int:
        return self.games

    def append(self, game: dict) -> None:
        """Count one game's summary."""
        self.games += 1
        winners = set(game["winners"])
        self.results[game["kind"]] += 1
        self.lengths[game["rounds"]] += 1
        start = game["start"]
        for seat in winners:
            self.wins_by_seat[seat] += 1
            self.wins_by_start[start.index(seat) + 1] += 1
        for seat, card in game["plays"]:
            self.played[card] += 1
            if seat in winners:
                self.played_by_winners[card] += 1
        self.causes.update(game.get("causes", ()))
        for kind, spent in game.get("thinking", {}).items():
            times = self.thinking.setdefault(kind, Counter())
            times.update(round(ms / THINKING_STEP) for ms in spent)

    def merge(self, other: Tally) -> None:
        """Add another tally's games (another batch's) to this one's."""
        self.games += other.games
        for name in _TALLIED:
            getattr(self, name).update(getattr(other, name))
        for kind, times in other.thinking.items():
            self.thinking.setdefault(kind, Counter()).update(times)

    @classmethod
    def of(cls, games) -> Tally:
        """The tally of a list of summaries (a tally is its own)."""
        if isinstance(games, Tally):
            return games
        tally = cls()
        for game in games:
            tally.append(game)
        return tally


#: The counters a tally adds up.
_TALLIED = (
    "wins_by_seat",
    "wins_by_start",
    "results",
    "lengths",
    "played",
    "played_by_winners",
    "causes",
)
#: Decision times are tallied to a hundredth of a millisecond (a measure of the machine,
#: reported to a tenth).
THINKING_STEP = 0.01


def _nth(counts: Counter, index: int):
    """The ``index``-th value (from 0) of the sorted values a counter counts."""
    for value in sorted(counts):
        index -= counts[value]
        if index < 0:
            return value
    raise IndexError(index)


def _median(counts: Counter, n: int):
    """``statistics.median`` of the ``n`` values a counter counts (the same number)."""
    if n % 2:
        return _nth(counts, n // 2)
    return (_nth(counts, n // 2 - 1) + _nth(counts, n // 2)) / 2


# ==============================================================================================
# Running (in the process the user started)
# ==============================================================================================
def check(plan: Plan) -> dict:
    """Refuse a plan this installation cannot play (PlanError); return ``installed()``."""
    from spoiler.agents.options import JOBS, OptionError, one_process, time_limit
    from spoiler.plugins import UnknownName
    from spoiler.rules.game import HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS
    from spoiler.session.records import MAX_ROUNDS

    if not 1 <= plan.games <= MAX_GAMES:
        raise PlanError(
            f"--games must be at least 1 and at most {MAX_GAMES}, not {plan.games} "
            "(for more, run more simulations, with other seeds)"
        )
    if not MIN_PLAYERS <= plan.players <= MAX_PLAYERS:
        raise PlanError(
            f"Spoiler is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {plan.players}"
        )
    if not 1 <= plan.max_rounds <= MAX_ROUNDS:
        raise PlanError(
            f"--max-rounds must be at least 1 and at most {MAX_ROUNDS}, not {plan.max_rounds}"
        )
    try:
        time_limit(plan.bot_time_limit)
    except OptionError as exc:
        raise PlanError(str(exc)) from None
    if any(len(row) != plan.players for row in plan.seating):
        raise PlanError("every game of a seating must seat as many players as the first")
    registry = _registry()
    try:
        sets = sets_played(plan.sets)
        for label in plan.kinds():
            registry.check_kind(variant(label)[0], options_of(plan, label) or None)
            own = variant(label)[1]
            one_process(options_of(plan, label), f"--bots {label}" if JOBS in own else None)
    except (UnknownName, OptionError) as exc:
        raise PlanError(str(exc)) from None
    if not sets:
        raise PlanError("no card set is installed (see `spoiler plugins`)")
    deck = sum(c.copies for s in sets for c in s.cards)
    if deck < HAND_SIZE * plan.players:
        raise PlanError(f"a deck of {deck} cards is too small for {plan.players} players")
    return installed()


def check_workers(local: dict, workers: dict[str, dict], set_names) -> None:
    """Refuse (PlanError) workers whose Spoiler, sets, bots or plugins (with their versions
    and hooks) differ from this machine's. Each batch checks again (``play_checked``)."""
    for address, theirs in sorted(workers.items()):
        if theirs["spoiler"] != local["spoiler"]:
            raise PlanError(
                f"worker {address} has Spoiler {theirs['spoiler']}, this machine "
                f"{local['spoiler']}: install the same version on every machine"
            )
        for name in set_names:
            mine, their = local["sets"].get(name), theirs["sets"].get(name)
            if their is None:
                raise PlanError(f"worker {address} does not have set {name!r} ({mine} here)")
            if their != mine:
                raise PlanError(
                    f"worker {address} has set {name!r} {their}, this machine {mine}: "
                    "install the same version on every machine"
                )
        missing = sorted(set(local["bots"]) - set(theirs["bots"]))
        if missing:
            raise PlanError(f"worker {address} does not have bot kind(s) {', '.join(missing)}")
        problem = plugin_difference(local, theirs)
        if problem is not None:
            raise PlanError(f"worker {address} {problem}: install the same plugins everywhere")


def batches(games: int, workers: int) -> list[range]:
    """Games split into batches: a few per worker, so all stay busy to the end."""
    size = max(1, min(200, math.ceil(games / (workers * 8))))
    return [range(start, min(games, start + size)) for start in range(0, games, size)]


class Played(list):
    """Game summaries in game order (a list), and how the run ended: ``partial`` when it
    stopped before every game was played, ``stopped`` saying why in one line
    (``INTERRUPTED`` for Ctrl-C), ``planned`` the games it was to play, ``refused`` the
    workers whose plugin set was not this machine's, with the difference."""

    partial = False
    stopped: str | None = None
    planned = 0
    refused: dict[str, str]


#: ``Played.stopped`` when the user stopped the run (Ctrl-C).
INTERRUPTED = "stopped by Ctrl-C"


class Cluster(Protocol):
    """Where ``run`` plays on a cluster: submit a batch (to workers not in ``avoid``; the
    batch checks the worker's plugin set, ``play_checked``; ``tally``: it returns its
    ``Tally``, not its summaries), the workers there now, their threads, and waiting for
    some of the batches."""

    def submit(self, plan: Plan, numbers: range, avoid: set[str], tally: bool = False) -> Any: ...

    def workers(self) -> set[str]: ...

    def threads(self) -> int: ...

    def wait(self, futures: list, timeout: float) -> set: ...

    def cancel(self, futures: list) -> None: ...

    def allowed(self, future: Any) -> set[str] | None: ...


def run(
    plan: Plan,
    executor: Executor | None = None,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    *,
    cluster: Cluster | None = None,
    grace: float = NO_WORKER_GRACE,
    stop: Callable[[], None] | None = None,
    tally: bool = False,
) -> Played | Tally:
    """Every game's summary, in game order (``Played``); with ``tally``, their ``Tally``
    instead: each batch is tallied where it is played and only tallies travel and stay, so
    memory does not grow with the number of games (``spoiler simulate``). Without an
    executor or a cluster, games play in this process. ``progress(n)`` is called as each
    batch of n games finishes.

    Nothing finished is lost: Ctrl-C, a process pool that breaks, or a cluster with no worker
    left for ``grace`` seconds stops the run with the games finished so far (``partial``).
    On a cluster a batch a worker refuses (another plugin set) or loses is played again
    elsewhere. ``stop()``, on Ctrl-C, asks the executor's processes to stop after their
    current game."""
    chunks = batches(plan.games, workers)
    done = _Done(tally)
    refused: dict[str, str] = {}
    stopped = None
    try:
        if cluster is not None:
            stopped = _on_cluster(plan, chunks, cluster, done, refused, progress, grace)
        elif executor is not None:
            stopped = _on_executor(plan, chunks, executor, workers, done, progress, stop)
        else:
            for chunk in chunks:
                play_batch(plan, chunk, done.out(chunk.start))
                if progress:
                    progress(len(chunk))
    except KeyboardInterrupt:
        stopped = INTERRUPTED
    games = done.games()
    games.planned, games.refused, games.stopped = plan.games, refused, stopped
    games.partial = len(games) < plan.games
    return games


class _Done:
    """The batches finished so far: their summaries by first game, to be put in game order;
    or, for a tally, one tally of them all. A batch is counted once, however often it is
    handed in."""

    def __init__(self, tally: bool):
        self.tally = Tally() if tally else None
        self.lists: dict[int, list[dict]] = {}
        self.counted: set[int] = set()

    def put(self, start: int, result) -> None:
        if start in self.counted:
            return
        self.counted.add(start)
        if self.tally is not None:
            self.tally.merge(Tally.of(result))
        else:
            self.lists[start] = result

    def out(self, start: int):
        """Where a batch played in this process adds its games as each ends (so that a
        batch stopped midway keeps the games it finished)."""
        self.counted.add(start)
        return self.tally if self.tally is not None else self.lists.setdefault(start, [])

    def games(self) -> Played | Tally:
        if self.tally is not None:
            return self.tally
        return Played(summary for start in sorted(self.lists) for summary in self.lists[start])


def tally_batch(plan: Plan, numbers: range) -> Tally:
    """``play_batch``'s games, tallied where they are played (what travels back is small)."""
    out = play_batch(plan, numbers, Tally())
    assert isinstance(out, Tally)
    return out


def _on_executor(plan, chunks, executor, workers, done, progress, stop) -> str | None:
    from concurrent.futures import FIRST_COMPLETED, wait
    from concurrent.futures.process import BrokenProcessPool

    play = tally_batch if done.tally is not None else play_batch
    todo = list(reversed(chunks))  # popped from the end: game order
    running: dict[Any, range] = {}
    try:
        while todo or running:
            # A few batches in flight per process, not all: each one's result is let go as
            # soon as it is counted.
            while todo and len(running) < 2 * max(1, workers):
                chunk = todo.pop()
                running[executor.submit(play, plan, chunk)] = chunk
            finished, _ = wait(list(running), return_when=FIRST_COMPLETED)
            for future in sorted(finished, key=lambda f: running[f].start):
                chunk = running.pop(future)
                try:
                    done.put(chunk.start, future.result())
                except BrokenProcessPool:  # every batch not done fails so: stop with those done
                    return "a process playing the games died (killed, or out of memory)"
                if progress:
                    progress(len(chunk))
    except KeyboardInterrupt:
        # Batches not started are dropped; those playing end after their current game
        # (``stop``: SIGINT to the pool's processes, see ``stop_between_games``) and
        # return the games they finished, which count.
        playing = [f for f in running if not f.cancel()]  # playing or done: keep theirs
        if stop is not None:
            stop()
        with contextlib.suppress(KeyboardInterrupt, TimeoutError):
            for future in as_completed(playing, timeout=STOP_WAIT):
                with contextlib.suppress(Exception):
                    done.put(running[future].start, future.result())
        raise
    return None


#: In a pool's process: set once the process was asked to stop (SIGINT).
_stopping = False
#: How long a stopped run waits for the batches playing to end their current game (s).
STOP_WAIT = 60.0


def stop_between_games() -> None:
    """For the processes of a pool (their initializer): SIGINT ends the batch playing
    after its current game, and the batch returns the games it finished, rather than a
    traceback in each process. The process that runs the simulation is the one Ctrl-C
    stops; it sends SIGINT on to these."""
    signal.signal(signal.SIGINT, _stop_asked)


def _stop_asked(signum: int, frame: object) -> None:
    global _stopping
    _stopping = True


def _on_cluster(plan, chunks, cluster, done, refused, progress, grace) -> str | None:
    todo = list(reversed(chunks))  # popped from the end: game order
    pending: dict[Any, range] = {}
    tries: Counter = Counter()
    idle_since = None
    try:
        while todo or pending:
            able = cluster.workers() - set(refused)
            # A few batches in flight per thread, not all: a worker that joins late gets the
            # next ones, and a run of many games keeps the scheduler small.
            while todo and len(pending) < 2 * max(1, cluster.threads()):
                chunk = todo.pop()
                if done.tally is not None:
                    future = cluster.submit(plan, chunk, set(refused), tally=True)
                else:
                    future = cluster.submit(plan, chunk, set(refused))
                pending[future] = chunk
            for future in cluster.wait(list(pending), 1.0):
                chunk = pending.pop(future)
                try:
                    done.put(chunk.start, future.result())
                except Refused as exc:
                    refused[exc.worker] = exc.problem
                    tries[chunk.start] += 1
                    if tries[chunk.start] > MAX_TRIES or not cluster.workers() - set(refused):
                        return f"no worker left that has this machine's plugins ({exc})"
                    todo.append(chunk)
                    continue
                except Exception as exc:  # the cluster gave up on it (it killed its workers)
                    name = type(exc).__name__
                    return f"games {chunk.start + 1} to {chunk.stop} failed: {name}: {exc}"
                if progress:
                    progress(len(chunk))
            if able:
                idle_since = None
                for future, chunk in list(pending.items()):
                    allowed = cluster.allowed(future)
                    if allowed is not None and not allowed & able:  # its workers are gone
                        cluster.cancel([future])
                        del pending[future]
                        todo.append(chunk)
            elif idle_since is None:
                idle_since = time.monotonic()
            elif time.monotonic() - idle_since > grace:
                return "no worker is left to play the games"
    finally:
        cluster.cancel(list(pending))
    return None


# ==============================================================================================
# Figures
# ==============================================================================================
def interval(part: float, whole: int, z: float = 1.96) -> list[float]:
    """The 95% Wilson interval of a share ``part / whole``."""
    if whole == 0:
        return [0.0, 1.0]
    p = part / whole
    centre = (p + z * z / (2 * whole)) / (1 + z * z / whole)
    half = z * math.sqrt(p * (1 - p) / whole + z * z / (4 * whole * whole)) / (1 + z * z / whole)
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


def sign_test(ahead: int, behind: int) -> float:
    """The exact two-sided p-value of a split of ``ahead`` against ``behind`` (ties left
    out) were both sides equally strong: the chance of a split at least this uneven (the
    sign test; McNemar's exact test, when the two are wins of the same games). Worked out
    in logarithms, so that a split of many games costs no big integers."""
    n, k = ahead + behind, min(ahead, behind)
    whole = math.lgamma(n + 1) - n * math.log(2)
    tail = 0.0
    for i in range(k, -1, -1):  # the terms fall fast away from k: stop when they no longer count
        term = math.exp(whole - math.lgamma(i + 1) - math.lgamma(n - i + 1))
        tail += term
        if term < tail * 1e-17:
            break
    return min(1.0, 2 * tail)


def _share(part: float, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def report(plan: Plan, games, set_names: list[str], alone: dict | None = None) -> dict:
    """The figures of a simulation (see docs/simulate.md for each key), from its games'
    summaries or their ``Tally``. ``alone``: for each set, whether random bots could end a
    game with that set alone (see ``sets_alone``)."""
    tally = Tally.of(games)
    n = len(tally)
    registry = _registry()
    seats_of = Counter(plan.bots)
    wins_of: Counter = Counter()
    for seat, wins in tally.wins_by_seat.items():
        wins_of[plan.bots[seat]] += wins
    wins_at, results, causes = tally.wins_by_start, tally.results, tally.causes
    played, played_by_winners, lengths = tally.played, tally.played_by_winners, tally.lengths
    cards = [c for name in set_names for c in registry.sets[name].cards]
    figures = {
        "games": n,
        "players": plan.players,
        "sets": list(set_names),
        "seed": plan.seed,
        "bot_key": plan.bot_key,
        "bots": list(plan.bots),
        "max_rounds": plan.max_rounds,
        "bot_options": dict(plan.bot_options),
        "bot_time_limit": plan.bot_time_limit,
        "win_rate_by_kind": {k: _share(wins_of[k], n * seats_of[k]) for k in sorted(seats_of)},
        "win_rate_by_kind_95": {k: interval(wins_of[k], n * seats_of[k]) for k in sorted(seats_of)},
        "win_rate_by_start": {str(p): _share(wins_at[p], n) for p in range(1, plan.players + 1)},
        "win_rate_by_start_95": {
            str(p): interval(wins_at[p], n) for p in range(1, plan.players + 1)
        },
        "length": {
            "median": _median(lengths, n),
            "p95": _nth(lengths, min(n - 1, int(0.95 * n))),
            "longest": max(lengths),
            "histogram": {str(r): c for r, c in sorted(lengths.items())},
        },
        "results": {k: results[k] for k in ("win", "default", "all_lost", "draw")},
        "round_limit_share": _share(results["draw"], n),
        "all_lost_share": _share(results["all_lost"], n),
        "cards": {
            c.id: {
                "name": c.name,
                "copies": c.copies,
                "played": played[c.id],
                "per_game": round(played[c.id] / n, 3),
                "win_share": _share(played_by_winners[c.id], played[c.id]),
                "win_share_95": interval(played_by_winners[c.id], played[c.id]),
            }
            for c in cards
        },
    }
    figures["wins_by_cause"] = wins_by_cause(causes, cards, set_names)
    figures["warnings"] = warnings(figures, alone or {})
    return figures


#: How ``wins_by_cause`` names a win whose deciding event had no cause (a hook's
#: ``game.win(seat)`` without ``cause=``).
NO_CAUSE = "unknown"


def wins_by_cause(causes: Counter, cards: list, set_names: list[str]) -> dict:
    """For every card of the sets, and every other cause (a set's rule, by the ``cause`` its
    verbs use) that decided a win: how many wins it decided and their share of all wins, with
    its 95% interval; the most wins first."""
    total = sum(causes.values())
    labels = {k: v for name in set_names for k, v in _registry().sets[name].labels.items()}
    names = {c.id: c.name for c in cards}
    keys = list(names) + [k for k in causes if k not in names]
    out = {}
    for key in sorted(keys, key=lambda k: (-causes[k], k is None, k or "")):
        wins = causes[key]
        out[NO_CAUSE if key is None else key] = {
            "name": names.get(key) or labels.get(key) or (key or "no cause given"),
            "kind": "card" if key in names else "rule",
            "wins": wins,
            "share": _share(wins, total),
            "share_95": interval(wins, total),
        }
    return out


def thinking(games) -> dict:
    """Median and 95th percentile CPU time per decision (ms) of the bots that search, by
    kind, from a run's summaries or its ``Tally``: measured on this run's machines, so not
    one of the figures that replay (tallied to ``THINKING_STEP``)."""
    out = {}
    for kind, times in sorted(Tally.of(games).thinking.items()):
        decisions = sum(times.values())
        if not decisions:
            continue
        out[kind] = {
            "decisions": decisions,
            "median_ms": round(_median(times, decisions) * THINKING_STEP, 1),
            "p95_ms": round(
                _nth(times, min(decisions - 1, int(0.95 * decisions))) * THINKING_STEP, 1
            ),
        }
    return out


def warnings(figures: dict, alone: dict) -> list[str]:
    """The balance targets this simulation misses, one line each."""
    out = []
    for start, share in figures["win_rate_by_start"].items():
        if share > MAX_START_SHARE:
            out.append(
                f"starting priority {start} wins {share:.1%} of games "
                f"(target: at most {MAX_START_SHARE:.0%})"
            )
    median = figures["length"]["median"]
    low, high = MEDIAN_ROUNDS
    if not low <= median <= high:
        out.append(f"median game length {median:g} rounds (target: {low} to {high})")
    if figures["round_limit_share"] > MAX_ROUND_LIMIT_SHARE:
        out.append(
            f"{figures['round_limit_share']:.1%} of games reach the round limit "
            f"(target: at most {MAX_ROUND_LIMIT_SHARE:.0%})"
        )
    for card_id, card in figures["cards"].items():
        if not card["played"]:
            out.append(f"{card['name']} ({card_id}) was never played")
    for name, problem in sorted(alone.items()):
        if problem:
            out.append(f"set {name!r} {problem}")
    return out


def sets_alone(set_names: list[str], seed: int, max_rounds: int, players: int) -> dict:
    """For each set when several are simulated: None if random bots end games with that set
    alone, else what is wrong (it cannot deal a table, or every game reached the limit)."""
    if len(set_names) < 2:
        return {}
    out: dict[str, str | None] = {}
    for name in set_names:
        card_set = _registry().sets.get(name)
        if card_set is not None and card_set.requires:
            continue  # declared as played with other sets (CardSet.requires): never alone
        plan = Plan(ALONE_GAMES, ("random",) * players, (name,), seed, max_rounds)
        try:
            check(plan)
        except PlanError as exc:
            out[name] = f"cannot be played on its own: {exc}"
            continue
        games = run(plan, tally=True)
        ended = len(games) - games.results["draw"] if isinstance(games, Tally) else 0
        out[name] = None if ended else "cannot end a game on its own (every game hit the limit)"
    return out


def plan_dict(plan: Plan) -> dict:
    return asdict(plan)


def command(plan: Plan) -> str:
    """The `spoiler simulate` command line that plays this plan."""
    kinds = set(plan.bots)
    bots = plan.bots[0] if len(kinds) == 1 else ",".join(plan.bots)
    parts = ["spoiler simulate", f"--games {plan.games}", f"--bots {bots}"]
    if len(kinds) == 1:
        parts.append(f"--players {plan.players}")
    if plan.sets is not None:
        parts.append(f"--sets {','.join(plan.sets)}")
    parts.append(f"--seed {plan.seed}")
    if plan.bot_key is not None:
        parts.append(f"--bot-key {plan.bot_key}")
    if plan.max_rounds != 100:
        parts.append(f"--max-rounds {plan.max_rounds}")
    parts += [f"--bot-option {shlex.quote(f'{key}={value}')}" for key, value in plan.bot_options]
    if plan.bot_time_limit is not None:
        parts.append(f"--bot-time-limit {plan.bot_time_limit:g}")
    return " ".join(parts)


def _pct(share: float) -> str:
    return f"{100 * share:.1f}%"


def _span(lo_hi) -> str:
    return f"{100 * lo_hi[0]:.1f} to {100 * lo_hi[1]:.1f}%"


def markdown(title: str, plan: Plan, f: dict, cards: bool = True) -> str:
    """A simulation's figures as a Markdown section (docs/balance.md is made of these)."""
    lines = [f"### {title}", "", f"`{command(plan)}`", ""]
    lines += ["| Bot kind | Seats | Win rate per seat | 95% interval |", "|---|---:|---:|---:|"]
    for kind, share in f["win_rate_by_kind"].items():
        seats = f["bots"].count(kind)
        lines.append(
            f"| {kind} | {seats} | {_pct(share)} | {_span(f['win_rate_by_kind_95'][kind])} |"
        )
    lines += ["", "| Starting priority | Win rate | 95% interval |", "|---|---:|---:|"]
    for start, share in f["win_rate_by_start"].items():
        lines.append(f"| {start} | {_pct(share)} | {_span(f['win_rate_by_start_95'][start])} |")
    length = f["length"]
    lines += [
        "",
        f"Game length: median {length['median']:g} rounds, 95th percentile {length['p95']}, "
        f"longest {length['longest']}. At the round limit: {_pct(f['round_limit_share'])}; "
        f"everyone lost: {_pct(f['all_lost_share'])}.",
    ]
    if cards:
        lines += [
            "",
            "| Card | Copies | Played per game | Winners' share | 95% interval |",
            "|---|---:|---:|---:|---:|",
        ]
        for card_id, card in sorted(f["cards"].items(), key=lambda kv: -kv[1]["win_share"]):
            share = _pct(card["win_share"]) if card["played"] else "-"
            span = _span(card["win_share_95"]) if card["played"] else "-"
            lines.append(
                f"| {card['name']} ({card_id.partition(':')[0]}) | {card['copies']} | "
                f"{card['per_game']:.2f} | {share} | {span} |"
            )
    lines += ["", "Warnings: " + ("; ".join(f["warnings"]) if f["warnings"] else "none.") + ""]
    return "\n".join(lines) + "\n"
