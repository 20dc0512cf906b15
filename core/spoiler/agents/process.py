"""Bots that are programs: the ``spoiler-bot/1`` protocol, JSON lines over stdin and stdout.

``--bot exec:COMMAND`` starts COMMAND (split as a shell would, but no shell runs it) once per
seat per game. The game writes one JSON object per line; the bot answers each with one line:

* ``{"type": "hello", "protocol": 1, "seat": N, "players": N, "options": {...}}`` ->
  ``{"name": "..."}`` (any object will do);
* ``{"type": "select", "view": {...}, "legal": [selection, ...]}`` -> one selection (each
  entry of ``legal`` is a valid reply as it stands);
* ``{"type": "answer", "view": {...}, "question": {"prompt", "options", "cause"}}`` ->
  ``{"answer": one of the options}``;
* ``{"type": "game_over", "result": {...}}``, then its standard input closes.

A bot cannot hang or crash a game: bad JSON, an illegal reply, a crash or no reply within the
time limit costs it that decision (a random legal choice is played, from a generator seeded
with its bot seed) and, at the third fault, its seat: the program is ended and random legal
choices play for it to the end. Each fault is a ``spoiler.agents.Fault`` in ``faults``: one
line, which the screen shows and the record keeps (``spoiler.agents.new_faults``); what the
program sent, which may name its cards, goes only to its log. The program's own standard
error goes to that log file (``ProcessBot.log_path``; docs/bots.md). The program and any
children it started are ended when the game ends or stops (``close``), or at exit.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
import weakref
from pathlib import Path
from typing import Any

from spoiler.agents import Fault, RandomAgent
from spoiler.agents.wire import (
    WIRE_VERSION,
    WireError,
    answer_from_wire,
    legal_selections,
    question_to_wire,
    result_to_wire,
    selection_from_wire,
    view_to_wire,
)
from spoiler.model.views import PlayerView, Question, Selection
from spoiler.rules.game import GameError

#: Seconds a bot may take over one decision (``--bot-time-limit``), and over its hello.
TIME_LIMIT = 10.0
#: Faults after which the program loses its seat for the rest of the game.
MAX_FAULTS = 3
#: The longest reply line read (a bot that floods its output is cut off there).
MAX_LINE = 1 << 20
#: Waiting on the program's pipe with a deadline (``select()``) and ending it with its children
#: (a process group) are POSIX only; elsewhere an ``exec:`` bot is refused in one line.
POSIX = os.name == "posix"
NOT_POSIX = "a bot that is a program needs a POSIX system (select() on a pipe, process groups)"


class BotFault(Exception):
    """What went wrong with one exchange (the fault's line says it)."""


def log_dir() -> Path:
    """Where bots' standard error goes: $SPOILER_BOT_LOGS, else spoiler-bots/ in the
    system's temporary directory."""
    return Path(os.environ.get("SPOILER_BOT_LOGS") or Path(tempfile.gettempdir()) / "spoiler-bots")


def command_problem(command: str) -> str | None:
    """What stops ``command`` from being run as a bot here, in a few words (a quote left
    open, no command, no such program, no POSIX), or None: checked before a game starts."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        return str(exc)
    if not argv:
        return "needs a command to run (exec:COMMAND)"
    if not POSIX:
        return NOT_POSIX
    if shutil.which(argv[0]) is None:
        return f"no program {argv[0]!r} found"
    return None


class Program:
    """A bot kind whose bots are a program speaking ``spoiler-bot/1``, for a plugin to
    register: ``register("mine", Program("mine-bot --level 3"), "...")`` seats what
    ``--bot "exec:mine-bot --level 3"`` would, under the name ``mine``: the same protocol,
    faults, ``--bot-time-limit``, options (in the hello) and logs (docs/bots.md). The program
    is looked for on the PATH before the game starts, as an ``exec:`` one is; a command that
    cannot be split (a quote left open, nothing at all) is refused here, when the plugin
    registers it."""

    def __init__(self, command: str):
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise ValueError(f"Program({command!r}): {exc}") from None
        if not argv:
            raise ValueError(f"Program({command!r}): needs a command to run")
        self.command = command

    def __call__(
        self,
        seat: int,
        seed: int,
        options: dict | None = None,
        *,
        time_limit: float = TIME_LIMIT,
        label: str | None = None,
    ) -> ProcessBot:
        return ProcessBot(
            self.command, seat, seed, options=options, time_limit=time_limit, label=label
        )

    def __repr__(self) -> str:
        return f"Program({self.command!r})"


class ProcessBot:
    """An agent whose decisions come from a program speaking ``spoiler-bot/1``. ``label``
    names it in its faults and errors: ``exec:COMMAND`` unless a plugin's kind runs it."""

    def __init__(
        self,
        command: str,
        seat: int,
        seed: int,
        *,
        players: int | None = None,
        options: dict | None = None,
        time_limit: float = TIME_LIMIT,
        label: str | None = None,
    ):
        self.command, self.seat = command, seat
        self.label = label = f"exec:{command}" if label is None else label
        self.time_limit = time_limit
        #: What went wrong so far, one ``Fault`` each (at most MAX_FAULTS).
        self.faults: list[Fault] = []
        self._round = 0  # the round of the decision being made (0: the hello)
        self.name: str | None = None
        #: Plays the decisions the program loses: seeded, so games replay.
        self.stand_in = RandomAgent(seed, seat)
        self._buffer = b""
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise GameError(f"{label}: {exc}") from None
        if not argv:
            raise GameError("exec: needs a command to run (exec:COMMAND)")
        if not POSIX:
            raise GameError(f"{label}: {NOT_POSIX}")
        directory = log_dir()
        directory.mkdir(parents=True, exist_ok=True)
        self.log_path = directory / f"seat-{seat + 1}-{os.getpid()}-{id(self):x}.log"
        with open(self.log_path, "ab") as log:
            try:
                self.process: subprocess.Popen | None = subprocess.Popen(
                    argv,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=log,
                    start_new_session=True,  # its own process group: its children end with it
                )
            except OSError as exc:
                raise GameError(f"{label}: cannot start it: {exc.strerror or exc}") from None
        self._finalizer = weakref.finalize(self, _end, self.process)
        hello = {
            "type": "hello",
            "protocol": WIRE_VERSION,
            "seat": seat,
            "players": players,
            "options": dict(options or {}),
        }
        reply = self._exchange(hello, "hello")
        if isinstance(reply, dict) and isinstance(reply.get("name"), str):
            self.name = reply["name"][:40]

    # -- the Agent protocol ------------------------------------------------------------------
    def select(self, view: PlayerView) -> Selection:
        self._round = view.round
        if self.process is not None:
            legal = legal_selections(view)
            reply = self._exchange(
                {"type": "select", "view": view_to_wire(view), "legal": legal}, "select"
            )
            if reply is not None:
                try:
                    return selection_from_wire(reply, legal)
                except WireError as exc:
                    self._fault("select: its reply is not one of the legal selections", exc)
        return self.stand_in.select(view)

    def answer(self, view: PlayerView, question: Question) -> str:
        self._round = view.round
        if self.process is not None:
            message = {
                "type": "answer",
                "view": view_to_wire(view),
                "question": question_to_wire(question),
            }
            reply = self._exchange(message, "answer")
            if reply is not None:
                try:
                    return answer_from_wire(reply, question)
                except WireError as exc:
                    self._fault("answer: its reply is not one of the options", exc)
        return self.stand_in.answer(view, question)

    def close(self, result: Any = None) -> None:
        """The game is over (``result``) or stopped (None): tell the program, then end it."""
        process, self.process = self.process, None
        if process is None:
            return
        with contextlib.suppress(OSError, ValueError):
            assert process.stdin is not None
            process.stdin.write(_line({"type": "game_over", "result": result_to_wire(result)}))
            process.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=1.0)
        self._finalizer()

    # -- one exchange ------------------------------------------------------------------------
    def _exchange(self, message: dict, what: str) -> object | None:
        """Send a message and read the reply line; None after a fault."""
        process = self.process
        assert process is not None and process.stdin is not None
        try:
            self._drop_late_replies()
            process.stdin.write(_line(message))
            process.stdin.flush()
            return json.loads(self._read_line())
        except BotFault as exc:
            self._fault(f"{what}: {exc}")
        except (BrokenPipeError, OSError):
            self._fault(f"{what}: it is not running (exit code {process.poll()})")
        except (ValueError, UnicodeDecodeError) as exc:
            self._fault(f"{what}: its reply is not JSON", exc)
        return None

    def _drop_late_replies(self) -> None:
        """What the program wrote after its last reply was due (a reply past the time limit)
        answers nothing any more: it is dropped, so the next reply is read for the next
        message."""
        process = self.process
        assert process is not None and process.stdout is not None
        fd = process.stdout.fileno()
        while select.select([fd], [], [], 0)[0]:
            if not os.read(fd, 65536):
                break  # it ended: the next read says so
        self._buffer = b""

    def _read_line(self) -> bytes:
        process = self.process
        assert process is not None and process.stdout is not None
        fd = process.stdout.fileno()
        deadline = time.monotonic() + self.time_limit
        while b"\n" not in self._buffer:
            if len(self._buffer) > MAX_LINE:
                raise BotFault(f"it wrote a line of more than {MAX_LINE:,} bytes")
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise BotFault(f"no reply within {self.time_limit:g} s")
            chunk = os.read(fd, 65536)
            if not chunk:
                raise BotFault(f"it ended (exit code {process.wait()})")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def _fault(self, what: str, detail: object = None) -> None:
        """One fault: ``what`` for everyone (the screen, the record), ``detail`` (what it sent,
        which may name a card of its hand) for its log only."""
        number = len(self.faults) + 1
        if number >= MAX_FAULTS:
            tail = f"fault {number} of {MAX_FAULTS}: random legal choices play its seat now"
            self._finalizer()
            self.process = None
        else:
            tail = f"a random legal choice is played (fault {number} of {MAX_FAULTS})"
        text = f"{self.label}: {what}; {tail}. Its log: {self.log_path}"
        self.faults.append(Fault(self._round, self.seat, text))
        with contextlib.suppress(OSError), open(self.log_path, "a", encoding="utf-8") as log:
            more = f" ({detail})" if detail is not None else ""
            log.write(f"spoiler: round {self._round}: {what}{more}; {tail}\n")


def _line(message: dict) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


def _end(process: subprocess.Popen) -> None:
    """End the program and everything in its process group."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    else:  # it is gone; children it left in its group go too
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
    for stream in (process.stdin, process.stdout):
        with contextlib.suppress(OSError):
            if stream is not None:
                stream.close()
