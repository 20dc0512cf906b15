"""The runaway guard: a round may take so many engine steps and so many seconds of card
code without a decision from a player; past either it stops with ``RoundTooLong``.

Two checks, both in any thread (a hosted game runs the engine in a thread of its own, where no
signal can reach it):

* steps, inside the engine: a step is an event, an effect run, or a read of a hand or a
  counter; every ``_STEP_CHUNK`` steps the guard adds them up and looks at the clock. This
  stops a loop that keeps calling the engine, at its step budget.
* the clock, from a watchdog thread: while a round runs (and no player is deciding), the
  game is watched; past ``max_round_seconds`` (less the time its thread spent off the CPU,
  as the watchdog sees it at each look, up to five times the limit: a game waiting for a
  core on a busy machine is not running away) the watchdog raises ``Runaway`` in the game's
  thread (``PyThreadState_SetAsyncExc``), which stops code that never calls the engine (a
  ``while True: pass`` in a card, a hook or a target kind), and again every ``_AGAIN``
  seconds while the round goes on (code that swallows it meets it again). Python delivers it
  between two bytecodes: a C call that never returns (``time.sleep(10**9)``, a blocking read)
  is out of its reach.
"""

from __future__ import annotations

import ctypes
import math
import os
import sys
import threading
import time
from collections.abc import Callable
from time import monotonic
from types import FrameType

from spoiler.model.errors import RoundTooLong, Runaway, Running
from spoiler.model.state import GameState
from spoiler.rules.native import mypyc_attr

#: A round may take this many engine steps (a usual round takes under a hundred) and this
#: many seconds of card code without a decision from a player (``Game`` reads both when it
#: is made: ``spoiler.rules.game.MAX_ROUND_STEPS`` is the one to change).
MAX_ROUND_STEPS = 100_000
MAX_ROUND_SECONDS = 10.0
_STEP_CHUNK = 1000  # steps between two looks at the clock
#: ``_decided_at`` while a player decides: their thinking is no effect running away.
DECIDING = float("inf")
#: The watchdog looks again at least this often (s), and raises again this long after it
#: raised in a round that goes on.
_LOOK = 1.0
_AGAIN = 0.25
#: The watchdog lets the engine's own look at the clock (every thousand steps) go first, so
#: that code which calls the engine is stopped by the engine, at a step, not mid-bytecode.
_GRACE = 0.05
#: A game whose thread waits off the CPU is let off that time, up to this many times its
#: limit: code that mostly sleeps (``while True: time.sleep(0.01)``) is still stopped.
_LET_OFF = 5


@mypyc_attr(allow_interpreted_subclasses=True)  # (Game's part: see game.py)
class Guard:
    """The lowest part of the engine: its count of this round's steps and its clock.
    Every part above it counts a step with ``self._steps -= 1`` and calls ``_guard()``
    when the count reaches zero (inline: it runs on every event)."""

    #: Held by the game itself (``spoiler.rules.game.Game``), read by every part.
    state: GameState
    seed: int | None  # (None in a determinization: spoiler.search)

    def _init_guard(self, max_round_steps: int, max_round_seconds: float) -> None:
        #: The limits (see MAX_ROUND_STEPS), and the count of this round.
        self.max_round_steps = max_round_steps
        self.max_round_seconds = max_round_seconds
        self._guard_reset()

    def _copy_into(self, new: Guard) -> None:
        """Copy what this part holds into ``new``, a clone being made. Every part above
        extends this (``super()._copy_into(new)``, then its own): a clone copies what each
        part declares, so nothing is shared by accident."""
        new.max_round_steps = self.max_round_steps
        new.max_round_seconds = self.max_round_seconds
        new._steps = self._steps
        new._steps_done = self._steps_done
        new._decided_at = self._decided_at
        new._runaway = self._runaway

    def _guard_reset(self) -> None:
        """A new round (or the game's start): its steps counted, its clock started."""
        self._steps = _STEP_CHUNK
        self._steps_done = 0
        self._decided_at = monotonic()
        #: Set once the round ran away: the error every later step raises again.
        self._runaway: RoundTooLong | None = None

    def _guard(self) -> None:
        """Every _STEP_CHUNK steps: stop a round past its limits with RoundTooLong. Once
        tripped it stays tripped, so code that swallows the error meets it again at once."""
        self._steps_done += _STEP_CHUNK - self._steps
        self._steps = _STEP_CHUNK
        if self._runaway is None:
            now = monotonic()
            busy = now - self._decided_at
            if busy > self.max_round_seconds:  # (seldom: then what the CPU clock says)
                with _lock:
                    busy = _busy(
                        id(self),
                        self._decided_at,
                        threading.get_ident(),
                        now,
                        self.max_round_seconds,
                    )
            if self._steps_done > self.max_round_steps:
                why = f"over {self.max_round_steps:,} steps"
            elif busy > self.max_round_seconds:
                why = f"{_seconds(busy)} of card code with no player deciding anything"
            else:
                return
            self._runaway = self._ran_away(why, sys._getframe(1))
            self._restart_clock()  # the watchdog looks again only if the round goes on
        self._steps = 1  # tripped: the next step raises again
        raise self._again()

    def _restart_clock(self) -> None:
        """Tripped: the clock set to run out again in _AGAIN s, for the watchdog to raise
        again if the round is still running then (code that swallowed the error)."""
        self._decided_at = monotonic() - self.max_round_seconds + _AGAIN

    def _again(self) -> RoundTooLong:
        assert self._runaway is not None
        runaway = self._runaway
        return RoundTooLong(str(runaway), runaway.running, runaway.why)

    def _ran_away(self, why: str, frame: FrameType | None) -> RoundTooLong:
        """The error of a round past its limit (``why``), naming the code running in
        ``frame`` (see ``_running``), the cards played in the round and the seed."""
        st = self.state
        names = [p.name for p in st.players]
        played = ", ".join(f"{names[p.player]}'s {p.card.name}" for p in st.plays)
        when = f"round {st.round}" if st.round else "the game's start"
        running = self._running(frame)
        where = f" in {running}" if str(running) else ""
        return RoundTooLong(
            f"{when} ran past its limit ({why}){where}: an effect that never ends? "
            f"Cards played that round: {played or 'none'}. Seed {self.seed}.",
            running,
            why,
        )

    def _running(self, frame: FrameType | None) -> Running:
        """Whose code runs in ``frame`` and its callers (a card, a hook, an effect), as far
        as this part knows (the hooks part knows)."""
        return Running()

    def _watched(self, step: Callable[..., None], *args: object) -> None:
        """Run ``step(*args)`` (a round, or the game's start) watched by the watchdog; a
        Runaway it raised becomes this round's RoundTooLong. (``_watch`` and ``_unwatch``
        inlined: this runs every round.)"""
        key = id(self)
        with _lock:
            _games[key] = (threading.get_ident(), self)
            if _thread is None or _idle or self.max_round_seconds < _LOOK:
                _wake_watchdog()
        try:
            try:
                step(*args)
            finally:
                with _lock:
                    entry = _games.pop(key, None)
                    _clocks.pop(key, None)
                    if entry is not None and self._runaway is not None:
                        _raise_in(entry[0], None)  # raised, not yet delivered: not past us
        except Runaway:
            if self._runaway is None:  # (cannot happen: it is set before raising)
                self._runaway = self._ran_away("stopped", None)
            raise self._again() from None


def _seconds(busy: float) -> str:
    return f"{busy:.1f} s"


def _busy(key: int, decided_at: float, thread_id: int, now: float, limit: float) -> float:
    """(Holding _lock:) the seconds of card code in the watched game ``key`` since its last
    decision (at ``decided_at``): the wall clock's, less what its thread spent off the CPU
    between two looks (``_clocks``), up to ``_LET_OFF`` times the ``limit``. A look that
    spans the decision counts all the CPU time it saw as after it, so a game is never let
    off more than it waited."""
    cpu = _cpu_clock(thread_id)
    last = _clocks.get(key)
    credit = 0.0
    if last is not None:
        seen_decided_at, seen_credit, seen_at, seen_cpu = last
        if seen_decided_at == decided_at:
            credit = seen_credit
        credit += max(0.0, (now - max(seen_at, decided_at)) - (cpu - seen_cpu))
    credit = min(credit, _LET_OFF * limit)
    _clocks[key] = (decided_at, credit, now, cpu)
    return now - decided_at - credit


def _cpu_clock(thread_id: int) -> float:
    """The CPU time of the thread (``threading.get_ident()``), where the system tells it;
    else the wall clock, and NaN if the system refuses (either way no time is let off)."""
    if not hasattr(time, "pthread_getcpuclockid"):
        return monotonic()
    try:
        return time.clock_gettime(time.pthread_getcpuclockid(thread_id))
    except OSError:
        return math.nan


# -- the watchdog ----------------------------------------------------------------------------
#: The games whose rounds are running, by id: (the thread running it, the game).
_games: dict[int, tuple[int, Guard]] = {}
#: What the last look at each watched game saw, by id: the decision it counted from, the
#: seconds let off so far (its thread off the CPU), when it looked, and the thread's CPU time.
_clocks: dict[int, tuple[float, float, float, float]] = {}
_lock = threading.Lock()
_wake = threading.Condition(_lock)
_thread: threading.Thread | None = None
_idle = False  # the watchdog sleeps with nothing to watch (until notified)


def _wake_watchdog() -> None:
    """(Holding _lock, a game just watched:) start the watchdog, or wake it. It is woken
    only when it sleeps with nothing to watch, or for a limit shorter than its look (the
    caller checks): waking it every round would cost a thread switch a round."""
    global _thread
    if _thread is None:
        _thread = threading.Thread(target=_watchdog, name="spoiler-watchdog", daemon=True)
        _thread.start()
    else:
        _wake.notify()


def _raise_in(thread_id: int, kind: type[BaseException] | None) -> None:
    """Raise ``kind`` in the thread (None: take back one not yet delivered)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(thread_id), ctypes.py_object(kind) if kind is not None else None
    )


def _watchdog() -> None:
    """The watchdog thread: sleeps while no round runs; else, at each game's deadline (and
    at least every _LOOK s), stops the games past their limit."""
    global _idle
    with _lock:
        while True:
            if not _games:
                _idle = True
                _wake.wait()
                _idle = False
                continue
            now = monotonic()
            wait = _LOOK
            frames = None
            for key, (thread_id, game) in list(_games.items()):
                decided_at = game._decided_at
                if decided_at == DECIDING:  # a player decides: no clock runs
                    continue
                limit = game.max_round_seconds
                busy = _busy(key, decided_at, thread_id, now, limit)
                if busy <= limit + _GRACE:
                    wait = min(wait, limit + _GRACE - busy + 0.001)
                    continue
                if game._runaway is None:
                    frames = frames or sys._current_frames()
                    why = f"{_seconds(busy)} of card code with no player deciding anything"
                    game._runaway = game._ran_away(why, frames.get(thread_id))
                game._steps = 1  # the engine's next step raises too
                game._restart_clock()
                _raise_in(thread_id, Runaway)
                wait = min(wait, _AGAIN)
            _wake.wait(wait)


def _after_fork() -> None:
    """A forked child (a process pool's worker) has no watchdog thread: it starts its own."""
    global _thread, _lock, _wake, _idle
    _games.clear()
    _clocks.clear()
    _idle = False
    _lock = threading.Lock()
    _wake = threading.Condition(_lock)
    _thread = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)
