"""The expert on every core (``--bot-option jobs=N``): its rollouts shared among this process
and ``N - 1`` worker processes.

A worker is a fresh Python (``python -m spoiler_game.bots.parallel``) that loads the same plugins
and is given, for each decision, the expert's search window (``view.search``, a
determinization holding only what its seat may know: ``spoiler.search.transfer``), never the
game. Each rollout depends only on its task (which candidate, which deal: the world seed,
drawn from the expert's own seeded stream), so a halving round's tasks are cut into ``N``
runs in order, the first played here and the others by the workers, and the values put
back in order: the expert adds them up as it would have alone, so it plays exactly the same
game with any number of jobs.

The workers start at the expert's first search and live for its game: ``close()`` (the
agent's) ends them. They sit in a session of their own, so the terminal's Ctrl-C reaches
only this process, which ends them; they also end when this process does (their input
closes). A worker that fails, or cannot take the game (other plugins, a set whose lasting
effects cannot be sent), is not used again: its share is played here, and the game goes on,
the same.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import struct
import subprocess
import sys
import weakref
from typing import IO, Any

from spoiler.search.transfer import Catalogue, TransferError, dumps, loads

#: The length of a message, before it.
_HEADER = struct.Struct(">Q")


class WorkerLost(Exception):
    """A worker that died, or answered what was not asked."""


def split(tasks: list, parts: int) -> list[list]:
    """``tasks`` cut into ``parts`` runs, in order, as even as they can be."""
    n = len(tasks)
    return [tasks[k * n // parts : (k + 1) * n // parts] for k in range(parts)]


class Pool:
    """``jobs - 1`` worker processes, started when first needed."""

    def __init__(self, jobs: int):
        self.jobs = jobs
        #: Why the workers are not used any more (one line), or None.
        self.broken: str | None = None
        self._workers: list[_Worker] = []
        self._finalizer: weakref.finalize | None = None
        self._catalogue: Catalogue | None = None
        self._catalogue_of: int | None = None  # id of the cards list it was made for
        self._search: Any = None  # the window sent last, and its bytes
        self._search_data: bytes = b""
        self._search_key = 0

    # -- running -----------------------------------------------------------------------------
    def map(self, local, search, job: tuple, settings: tuple, tasks: list) -> list:
        """The values of ``tasks``: the first run by ``local(run)`` here, the others by the
        workers, in the order of ``tasks``."""
        if self.broken is not None or len(tasks) < 2:
            return local(tasks)
        runs = split(tasks, self.jobs)
        try:
            self._start()
            messages = self._messages(search, job, settings, runs[1:])
        except (OSError, TransferError) as exc:
            self._give_up(_line(exc))
            return local(tasks)
        shares = [
            (worker, message, run)
            for worker, message, run in zip(self._workers, messages, runs[1:], strict=True)
            if run
        ]
        try:
            for worker, message, _ in shares:
                try:
                    worker.send(message)
                except OSError as exc:
                    self._give_up(f"a worker process was lost ({_line(exc)})")
                    break
            values = list(local(runs[0]))
            for worker, _, run in shares:
                # (once a worker failed, the others are ended: their shares are played here)
                values.extend(local(run) if self.broken else self._values(worker, run, local))
        except BaseException:
            # An error in a rollout here (it would have stopped the game with one process
            # too), or Ctrl-C: the workers' answers are not waited for.
            self._stop()
            raise
        return values

    def _values(self, worker: _Worker, run: list, local) -> list:
        try:
            reply = worker.receive()
        except (OSError, EOFError, WorkerLost) as exc:
            self._give_up(f"a worker process was lost ({_line(exc)})")
            return local(run)
        if reply[0] == "values" and len(reply[1]) == len(run):
            return reply[1]
        # It failed where this process may not (another plugin set): played here, it fails
        # or not as it would have with one process.
        self._give_up(f"a worker process failed: {reply[1] if reply[0] == 'error' else reply!r}")
        return local(run)

    def _messages(self, search, job: tuple, settings: tuple, runs: list[list]) -> list[tuple]:
        root = search._root
        if self._catalogue is None or self._catalogue_of != id(root.cards):
            self._catalogue = Catalogue.of(root)
            self._catalogue_of = id(root.cards)
        catalogue = self._catalogue
        if search is not self._search:
            self._search_data = dumps(search, catalogue)
            self._search, self._search_key = search, self._search_key + 1
        job_data = dumps(job, catalogue)
        game = ([s.name for s in catalogue.sets], catalogue.signature())
        out = []
        for worker, run in zip(self._workers, runs, strict=True):
            fresh_game = worker.game != game
            fresh_search = fresh_game or worker.search_key != self._search_key
            out.append(
                (
                    "run",
                    game if fresh_game else None,
                    self._search_key,
                    self._search_data if fresh_search else None,
                    settings,
                    job_data,
                    run,
                )
            )
            if run:
                worker.game, worker.search_key = game, self._search_key
        return out

    # -- starting and stopping ---------------------------------------------------------------
    def _start(self) -> None:
        if self._workers:
            return
        workers: list[_Worker] = []
        try:
            for _ in range(self.jobs - 1):
                workers.append(_Worker())
        except OSError:
            _end(workers)
            raise
        self._workers = workers
        # Ended even if close() is never called (the agent collected, or the program ending).
        self._finalizer = weakref.finalize(self, _end, list(workers))

    def _give_up(self, why: str) -> None:
        self.broken = why
        self._stop()

    def _stop(self) -> None:
        if self._finalizer is not None:
            self._finalizer()  # (ends the workers, once)
            self._finalizer = None
        self._workers = []
        self._search = None

    def close(self) -> None:
        """End the workers (the game is over or stopped)."""
        self._stop()


class _Worker:
    """One worker process, and what it holds: the game (sets and their signature) and the
    search window (by key) it was last sent."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            # -P: nothing from the current folder shadows a module.
            [sys.executable, "-P", "-m", "spoiler_game.bots.parallel"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # the terminal's Ctrl-C is for this process alone
            env={**os.environ, "SPOILER_WORKER_PATH": os.pathsep.join(sys.path)},
        )
        self.game: tuple | None = None
        self.search_key = 0

    def send(self, message: tuple) -> None:
        assert self.process.stdin is not None
        _write(self.process.stdin, message)

    def receive(self) -> tuple:
        assert self.process.stdout is not None
        reply = _read(self.process.stdout)
        if not isinstance(reply, tuple) or not reply:
            raise WorkerLost(f"it answered {reply!r}")
        return reply


def _end(workers: list[_Worker]) -> None:
    for worker in workers:
        process = worker.process
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        if process.poll() is None:
            with contextlib.suppress(OSError):
                process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=5)


def _line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _write(stream: IO[bytes], message: Any) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_HEADER.pack(len(data)) + data)
    stream.flush()


def _read(stream: IO[bytes]) -> Any:
    header = stream.read(_HEADER.size)
    if len(header) < _HEADER.size:
        raise EOFError("its output ended")
    (size,) = _HEADER.unpack(header)
    data = stream.read(size)
    if len(data) < size:
        raise EOFError("its output ended mid-answer")
    return pickle.loads(data)


# ==============================================================================================
# The worker
# ==============================================================================================
def main() -> None:
    """A worker's life: read a task list, play its rollouts, answer their values; until its
    input ends."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the expert's process is the one stopped
    # The messages travel on the original stdin and stdout; what plugin code prints, or
    # reads, meets the null device instead.
    channel_in = os.fdopen(os.dup(0), "rb")
    channel_out = os.fdopen(os.dup(1), "wb")
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    path = os.environ.get("SPOILER_WORKER_PATH")
    if path:  # the expert's process's module path, so that it finds the same plugins
        sys.path[:] = path.split(os.pathsep)
    worker = _Rollouts()
    while True:
        try:
            message = _read(channel_in)
        except (EOFError, OSError):
            return
        try:
            reply: tuple = ("values", worker.run(*message[1:]))
        except Exception as exc:  # told in one line; the expert plays that share itself
            reply = ("error", _line(exc))
        try:
            _write(channel_out, reply)
        except OSError:
            return


class _Rollouts:
    def __init__(self) -> None:
        self.registry: Any = None
        self.catalogue: Catalogue | None = None
        self.search: Any = None
        self.search_key: int | None = None

    def run(self, game, search_key: int, search_data, settings: tuple, job_data, tasks):
        from spoiler_game.bots.expert import ExpertAgent, rollout_values

        if game is not None:
            self.catalogue = self._catalogue(*game)
            self.search = self.search_key = None
        if self.catalogue is None:
            raise WorkerLost("no game was given")
        if search_data is not None:
            self.search, self.search_key = loads(search_data, self.catalogue), search_key
        if self.search_key != search_key:
            raise WorkerLost("not the search window it was given")
        job = loads(job_data, self.catalogue)
        return rollout_values(ExpertAgent.for_rollouts(settings), self.search, job, tasks)

    def _catalogue(self, set_names: list[str], signature: tuple) -> Catalogue:
        if self.registry is None:
            from spoiler import plugins

            self.registry = plugins.load()
        sets = self.registry.card_sets(set_names)
        hooks = self.registry.game_hooks(set_names)
        catalogue = Catalogue(sets, {k: v for k, v in hooks.items() if v is not None})
        if catalogue.signature() != signature:
            raise TransferError("its plugins are not those of the expert's process")
        return catalogue


if __name__ == "__main__":
    main()
