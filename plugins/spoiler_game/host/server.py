"""The SSH server of ``spoiler host``: one game, played by whoever joins with the code.

The server runs on an asyncio loop (asyncssh) in the host's main thread; the game runs in a
thread of its own, its remote seats asking their players through ``spoiler_game.host.table``.
The server offers nothing but the game: a session's shell is the game's screen, and exec
requests, subsystems (sftp), port and agent forwarding and X11 are all refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import random
import signal
import socket
import threading
from dataclasses import dataclass, field
from typing import Any

import asyncssh
from rich.text import Text

from spoiler_game.host.safety import (
    MAX_LINE,
    BadName,
    clean_name,
    code_matches,
    name_key,
    seat_key,
)
from spoiler_game.host.table import HostedSeat, Table
from spoiler_game.host.terminal import Terminal

#: Seconds a wrong code waits before it is refused (on the loop, so the game never waits).
BAD_CODE_DELAY = 1.0
#: Connections held at once (joined or not); more are closed at once.
MAX_CONNECTIONS = 100
#: Connections not logged in yet, as OpenSSH's ``MaxStartups 10:30:60``: past 10 a new one
#: is dropped at random, with a chance of 30 % rising to 100 % at 60 (players at the table
#: are spared: see ``Host.admit``).
STARTUPS = (10, 0.30, 60)
#: Connections not logged in yet from one address (``PerSourceMaxStartups``); past it the
#: oldest of them that has said nothing (then: still in its handshake) is closed to make
#: room, or else the new one.
PER_SOURCE = 8
#: Seconds after which a connection that has not sent its version string (a client sends it
#: at once) makes room for a newcomer the limits would drop.
SILENT = 1.0
#: Seconds a connection has to finish its key exchange and send its name (a client does it
#: in milliseconds; a socket that says nothing is closed then: the login grace time).
HANDSHAKE_GRACE = 5.0
#: Seconds to log in (key exchange and code) before the connection is closed.
LOGIN_TIMEOUT = 30
#: The ssh keys of one client noted to bind its seat to (clients offer one key per try).
MAX_OFFERED_KEYS = 8
#: Tries at a seat key before the connection is closed (each wrong one waits BAD_CODE_DELAY).
SEAT_KEY_TRIES = 3
#: A silent client is asked every few seconds if it is still there; a dead connection is
#: noticed after about three of these.
KEEPALIVE = 5
#: How long the last words to every player may take to reach them before the host closes.
GOODBYE = 2.0
WILDCARDS = ("", "0.0.0.0", "::")
#: Signals that end a hosted game as the host's Ctrl-C does (the terminal may be gone).
ENDING = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


@dataclass
class HostOptions:
    seats: int
    bots: int
    bot_kind: str
    set_names: list[str] | None
    seed: int
    max_rounds: int
    record: Any  # the record file, held (spoiler.recordfile.RecordFile), or None
    port: int
    bind: str
    wait: float
    code: str
    key: Any  # an asyncssh private key
    turn_time: float = 0  # seconds a seat has for each decision (0: no limit)
    fresh_record: bool = False  # the record file was made for this game (removed if unused)
    bot_options: dict[str, str] = field(default_factory=dict)  # --bot-option, --think
    bot_time_limit: float | None = None  # --bot-time-limit


class _Connection(asyncssh.SSHServer):
    """One client connection: its login, and at most one session (the game's screen)."""

    def __init__(self, host: Host):
        self.host = host
        self.conn: Any = None
        self.username = ""
        self.source = ""  # the address it comes from
        self.session: _Session | None = None
        self.by_code = False  # logged in with the join code
        self.offered: list[bytes] = []  # the ssh public keys the client offered
        self.accepted: bytes | None = None  # the key of a seat it logged in with
        self.opened = 0.0  # when it connected (the loop's time)
        self._grace: asyncio.TimerHandle | None = None

    def connection_made(self, conn) -> None:
        self.conn = conn
        host = self.host
        peer = conn.get_extra_info("peername")
        self.source = str(peer[0]) if peer else ""
        host.connections.add(self)
        if len(host.connections) > MAX_CONNECTIONS or not host.admit(self):
            conn.abort()
            return
        host.logging_in[self] = None
        self.opened = host.loop.time()
        self._grace = host.loop.call_later(HANDSHAKE_GRACE, self._too_slow)

    @property
    def proven_key(self) -> bytes | None:
        """The seat's ssh key this client logged in with: accepted, and (since the login did
        not go on to the code) signed with. A key only offered, which anyone who knows the
        public key can do, proves nothing."""
        return None if self.by_code else self.accepted

    @property
    def said_hello(self) -> bool:
        """Has the client sent its SSH version string (the first thing a client says)?"""
        return bool(self.conn.get_extra_info("client_version"))

    def _too_slow(self) -> None:
        if not self.username:  # no key exchange, no name: an idle socket
            self.conn.abort()

    def connection_lost(self, exc) -> None:
        self.host.connections.discard(self)
        self.host.logging_in.pop(self, None)
        if self._grace is not None:
            self._grace.cancel()

    def auth_completed(self) -> None:
        self.host.logging_in.pop(self, None)

    def begin_auth(self, username: str) -> bool:
        self.username = username or " "  # its handshake is done, whatever name it sent
        if self._grace is not None:
            self._grace.cancel()
        return True  # the join code is always asked for

    def password_auth_supported(self) -> bool:
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key) -> bool:
        """A client's ssh key lets it in only to take back a seat bound to that key (asyncssh
        then checks the client holds it); any other key is noted, to bind the seat it takes
        with the code, and refused, so the client goes on to the code."""
        data = key.public_data
        seat = self.host.seat_for_key(username, data)
        if seat is not None:
            self.accepted = data
            return True
        if data not in self.offered and len(self.offered) < MAX_OFFERED_KEYS:
            self.offered.append(data)
        return False

    async def validate_password(self, username: str, password: str) -> bool:
        if code_matches(password, self.host.options.code):
            self.by_code = True
            return True
        await asyncio.sleep(BAD_CODE_DELAY)  # a pause for the guesser, not for the game
        return False

    def session_requested(self):
        if self.session is not None:
            return False  # one screen per connection
        self.session = _Session(self.host, self.username, self.source, self)
        return self.session

    # Port forwarding, unix sockets, tun/tap: asyncssh refuses them unless allowed here.


class _Session(asyncssh.SSHServerSession):
    """A client's session: the player's screen once they asked for a shell."""

    def __init__(self, host: Host, username: str, source: str = "", login=None):
        self.host = host
        self.username = username
        self.source = source
        self.login: _Connection | None = login
        self.seat_key = ""  # handed out at first join
        self.key_tries = 0
        self.name = username
        self.seat: HostedSeat | None = None
        self.chan: Any = None
        self.terminal: Terminal | None = None

    def connection_made(self, chan) -> None:
        self.chan = chan

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        return False

    def session_started(self) -> None:
        chan = self.chan
        self.terminal = Terminal(
            self.host.loop,
            chan,
            width=chan.get_terminal_size()[0],
            term_type=chan.get_terminal_type(),
            env=dict(chan.get_environment()),
            throttle=True,
        )
        self.host.arrive(self)

    def data_received(self, data: str, datatype) -> None:
        if self.terminal is not None:
            self.terminal.received(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int):
        if self.terminal is not None:
            self.terminal.resize(width)

    def break_received(self, msec: int) -> bool:  # Ctrl-C at a pseudo-terminal
        self.leave()
        return True

    def signal_received(self, signal: str) -> None:
        if signal in ("INT", "TERM", "HUP", "QUIT"):
            self.leave()

    def eof_received(self) -> bool:
        self.leave()
        return False

    def connection_lost(self, exc) -> None:
        if self.terminal is not None:
            self.host.depart(self)

    @property
    def term(self) -> Terminal:
        """The session's terminal (there is one once the shell started)."""
        assert self.terminal is not None
        return self.terminal

    def leave(self) -> None:
        """The player left (Ctrl-C, end of input): close their connection; their seat waits."""
        self.end(self.host.leaving_words(self.name), 0)

    def end(self, message: str | None, status: int) -> None:
        """Close the session after ``message`` (on the loop, after everything sent before)."""

        def finish() -> None:
            try:
                if message:
                    self.chan.write(message + "\n")
                self.chan.exit(status)
            except (OSError, asyncssh.Error, BrokenPipeError):
                pass

        self.host.loop.call_soon(finish)


class Host:
    """One hosted game, from the lobby to the last words."""

    def __init__(self, options: HostOptions, registry, console, *, keyboard: bool = True):
        self.options = options
        self.registry = registry
        self.console = console
        self.keyboard = keyboard
        self.loop: asyncio.AbstractEventLoop  # set when serving starts
        self.connections: set[_Connection] = set()
        self.logging_in: dict[_Connection, None] = {}  # not logged in yet, oldest first
        self.player_sources: set[str] = set()  # addresses players came from: spared
        self._random = random.Random()
        self.lobby: list[tuple[str, _Session]] = []
        self.table: Table | None = None
        self.game: Any = None
        self.recorder: Any = None
        self.screen: Any = None  # the host's own screen: public events only
        self.result = None
        self.error: BaseException | None = None
        self.interrupted = False
        self.signal: int = signal.SIGINT  # what stopped the game (Ctrl-C, SIGTERM, SIGHUP)
        self.port = options.port
        self._start = asyncio.Event()  # the game begins
        self._stop = asyncio.Event()  # the host pressed Ctrl-C
        self._done = asyncio.Event()  # the game's thread finished
        self._keyboard_fd: int | None = None
        self._thread: threading.Thread | None = None

    @property
    def seated(self) -> Table:
        """The table, once the game has begun."""
        assert self.table is not None
        return self.table

    # -- what the host sees --------------------------------------------------------------------
    def say(self, message: str, style: str = "") -> None:
        self.console.print(Text(message, style=style), soft_wrap=True)

    def join_host(self) -> str:
        bind = self.options.bind
        return socket.gethostname() if bind in WILDCARDS else bind

    def join_command(self, name: str = "NAME") -> str:
        return f"ssh -p {self.port} {name}@{self.join_host()}"

    def leaving_words(self, name: str) -> str:
        if self.table is None or self.table.finished:
            return "You left."
        return (
            f"You left the game. To come back within {self.options.wait:g} s: "
            f"{self.join_command(name)} (same code, and your seat key)."
        )

    # -- the server ----------------------------------------------------------------------------
    async def serve(self) -> int:
        """Run the lobby and the game; returns the exit code (0, or 130 when the host
        stopped it). Raises OSError when the address cannot be listened on."""
        self.loop = asyncio.get_running_loop()
        opts = self.options
        server = await asyncssh.create_server(
            lambda: _Connection(self),
            opts.bind,
            opts.port,
            server_host_keys=[opts.key],
            public_key_auth=True,  # only to take back a seat bound to the key
            password_auth=True,
            kbdint_auth=True,  # served by the password check: some clients ask this way
            agent_forwarding=False,
            x11_forwarding=False,
            allow_scp=False,
            line_editor=True,
            max_line_length=MAX_LINE,
            encoding="utf-8",
            errors="replace",
            login_timeout=LOGIN_TIMEOUT,
            window=1 << 18,  # what a client may send ahead unread (its reading may be paused)
            keepalive_interval=KEEPALIVE,
            keepalive_count_max=3,
            config=[],
        )
        self.port = server.sockets[0].getsockname()[1]
        signals = self._catch_ctrl_c()
        try:
            self._introduce()
            if self.keyboard:
                self._watch_keyboard()
            await self._first(self._start, self._stop)
            while not self.lobby and not self._stop.is_set():  # the last one left meanwhile
                self._start.clear()
                await self._first(self._start, self._stop)
            self._unwatch_keyboard()
            if self._stop.is_set():
                self._close_lobby()
                await self._wait_for_goodbyes()
                return 128 + self.signal
            self._begin()
            await self._first(self._done, self._stop)
            if self._stop.is_set() and not self._done.is_set():
                self.interrupted = True
                self.seated.tell("The host ended the game.", style="bold red")
                self.seated.stop()
                await self._first(self._done, timeout=5)
            status = 128 + self.signal if self.interrupted else 0
            await self._goodbye(status)
            return status
        finally:
            for sig in signals:
                self.loop.remove_signal_handler(sig)
            server.close()
            for conn in list(self.connections):
                conn.conn.abort()
            await server.wait_closed()

    async def _first(self, *events: asyncio.Event, timeout: float | None = None) -> None:
        tasks = [asyncio.ensure_future(e.wait()) for e in events]
        await asyncio.wait(tasks, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        for task in tasks:
            task.cancel()

    def _catch_ctrl_c(self) -> list:
        if threading.current_thread() is not threading.main_thread():
            return []
        caught = [signal.SIGINT, *ENDING]
        for sig in caught:
            self.loop.add_signal_handler(sig, self._signalled, sig)
        return caught

    def _signalled(self, sig: int) -> None:
        """Ctrl-C (SIGINT), or SIGTERM or SIGHUP: stop as the host's Ctrl-C does."""
        if not self._stop.is_set():
            self.signal = sig
        self._stop.set()

    def stop(self) -> None:
        """Stop as Ctrl-C on the host does (from any thread)."""
        self.loop.call_soon_threadsafe(self._stop.set)

    def start_now(self) -> None:
        """Start as Enter on the host does (from any thread)."""
        self.loop.call_soon_threadsafe(self._start_if_anyone)

    # -- letting in ---------------------------------------------------------------------------
    def admit(self, conn: _Connection) -> bool:
        """May a new connection start logging in? As OpenSSH does it: a few per address (the
        oldest still in its handshake makes room), then random early drop past ``STARTUPS``.
        A connection that has not sent even its version for ``SILENT`` seconds makes room
        for one that would be dropped. An address a player at this table came from is never
        dropped at random: a player coming back gets in however many strangers wait."""
        same = [c for c in self.logging_in if c.source == conn.source]
        if len(same) >= PER_SOURCE:
            # Oldest first, those that have not even sent their version (a client sends it at
            # once), then those that have not finished their handshake.
            idle = next((c for c in same if not c.said_hello), None) or next(
                (c for c in same if not c.username), None
            )
            if idle is None:
                return False
            idle.conn.abort()
            self.logging_in.pop(idle, None)
        if conn.source in self.player_sources:
            return True
        start, rate, full = STARTUPS
        waiting = len(self.logging_in)
        if waiting < start:
            return True
        drop = rate + (1 - rate) * (waiting - start) / (full - start)
        if waiting < full and self._random.random() >= drop:
            return True
        # Dropped, unless one that has said nothing for a while makes room.
        now = self.loop.time()
        silent = next(
            (c for c in self.logging_in if not c.said_hello and now - c.opened > SILENT),
            None,
        )
        if silent is None:
            return False
        silent.conn.abort()
        self.logging_in.pop(silent, None)
        return True

    # -- the lobby -----------------------------------------------------------------------------
    def _introduce(self) -> None:
        opts = self.options
        key = opts.key
        if opts.bind not in ("127.0.0.1", "localhost", "::1"):
            self.say(
                f"Warning: listening on {opts.bind or 'every address'}: anyone who can reach "
                f"this machine and has the code can join.",
                "yellow",
            )
        self.say(f"Join with:  {self.join_command()}", "bold")
        self.say("            (NAME is the name you play under)")
        self.say(f"Join code:  {opts.code}   (the password ssh asks for)", "bold")
        kind = key.get_algorithm().removeprefix("ssh-")
        self.say(f"Host key:   {key.get_fingerprint()} ({kind})")
        bots = "; bots take the seats left" if opts.seats > 1 or opts.bots else ""
        self.say(
            f"Waiting for {opts.seats} player(s). Press Enter to start sooner{bots}; "
            f"Ctrl-C to stop."
        )

    def _watch_keyboard(self) -> None:
        import os
        import sys

        try:
            fd = sys.stdin.fileno()
            self.loop.add_reader(fd, self._keyboard, fd)
        except (OSError, ValueError, PermissionError):
            return  # no keyboard (stdin closed or a file): only a full table starts the game
        self._keyboard_fd = fd
        self._os_read = os.read

    def _unwatch_keyboard(self) -> None:
        fd = getattr(self, "_keyboard_fd", None)
        if fd is not None:
            self.loop.remove_reader(fd)
            self._keyboard_fd = None

    def _keyboard(self, fd: int) -> None:
        try:
            data = self._os_read(fd, 1024)
        except OSError:
            data = b""
        if not data:
            self._unwatch_keyboard()
        elif b"\n" in data or b"\r" in data:
            self._start_if_anyone()

    def _start_if_anyone(self) -> None:
        if self.lobby:
            self._start.set()
        else:
            self.say("Nobody has joined yet.")

    def names_in(self) -> str:
        return ", ".join(name for name, _ in self.lobby)

    def arrive(self, session: _Session) -> None:
        """A client's session started: seat them in the lobby, or back at their seat."""
        try:
            name = clean_name(session.username)
        except BadName as exc:
            session.end(f"Sorry: {exc}.", 1)
            return
        if self.table is not None:
            self._rejoin(session, name)
            return
        if self._start.is_set() or self._stop.is_set():
            session.end("Sorry: the game is starting without new players.", 1)
            return
        taken = next((other for other, _ in self.lobby if name_key(other) == name_key(name)), None)
        if taken is not None:
            alike = "" if taken == name else f" (it reads as {taken!r}, who is here)"
            session.end(
                f"Sorry: the name {name!r} is taken at this table{alike}. Join with another "
                f"name: {self.join_command()}",
                1,
            )
            return
        if len(self.lobby) >= self.options.seats:
            session.end("Sorry: every seat at this table is taken.", 1)
            return
        session.name = name
        session.seat_key = seat_key()
        self.lobby.append((name, session))
        self.player_sources.add(session.source)
        free = self.options.seats - len(self.lobby)
        waiting = f"Waiting for {free} more, or for the host to start." if free else "Starting."
        session.term.console.print(Text(f"Welcome to Spoiler, {name}. {waiting}", style="bold"))
        by_key = (
            " (or join again from this ssh key: your seat knows it)"
            if session.login is not None and session.login.offered
            else ""
        )
        session.term.console.print(
            Text(
                f"Your seat key: {session.seat_key}. Keep it: it is shown only now, and taking "
                f"your seat back if you drop out needs it{by_key}.",
            )
        )
        self._tell_lobby(f"In the lobby: {self.names_in()}.")
        if not free:
            self._start.set()

    def _tell_lobby(self, message: str) -> None:
        for _, session in self.lobby:
            session.term.console.print(Text(message))
        self.say(message)

    def _rejoin(self, session: _Session, name: str, *, proven: bool = False) -> None:
        table = self.seated
        seat = table.seat_named(name)
        if table.finished:
            session.end("Sorry: this game is over.", 1)
        elif seat is None:
            session.end(
                f"Sorry: the game has started and {name!r} has no seat in it. "
                f"Ask the host for the next game.",
                1,
            )
        elif seat.bot is not None:
            session.end(
                f"Sorry: {seat.name} did not come back within {self.options.wait:g} s and a bot "
                f"plays for them now.",
                1,
            )
        elif proven:
            self._take_back(session, seat)
        elif session.login is not None and session.login.proven_key in seat.public_keys:
            self._take_back(session, seat)  # the ssh key the seat is bound to, proven
        else:
            self._ask_seat_key(session, seat)

    def seat_for_key(self, username: str, key: bytes) -> HostedSeat | None:
        """The seat a client may take back with this ssh key (under this name), or None."""
        table = self.table
        if table is None or table.finished:
            return None
        try:
            seat = table.seat_named(clean_name(username))
        except BadName:
            return None
        return seat if seat is not None and seat.bot is None and key in seat.public_keys else None

    def _ask_seat_key(self, session: _Session, seat: HostedSeat) -> None:
        """Ask for the seat key handed out at first join (read on the loop, not echoed)."""
        term = session.term
        with contextlib.suppress(Exception):  # no line editor without a pseudo-terminal
            session.chan.set_echo(False)
        if not session.key_tries:
            term.console.print(
                Text(
                    f"{seat.name}'s seat is kept for the player who took it: type the seat key "
                    f"{seat.name} was given on joining.",
                    style="bold",
                )
            )
        term.send("Seat key: ")

        def typed(line: str) -> None:
            term.intercept = None
            term.send("\n")
            if code_matches(line, seat.key):
                with contextlib.suppress(Exception):
                    session.chan.set_echo(True)
                self._rejoin(session, seat.name, proven=True)
                return
            session.key_tries += 1
            if session.key_tries >= SEAT_KEY_TRIES:
                self.say(f"Someone failed {SEAT_KEY_TRIES} times to take {seat.name}'s seat.")
                session.end(f"Sorry: that is not {seat.name}'s seat key.", 1)
                return
            term.send(f"That is not {seat.name}'s seat key.\n")
            self.loop.call_later(BAD_CODE_DELAY, self._ask_seat_key, session, seat)

        term.intercept = typed

    def _take_back(self, session: _Session, seat: HostedSeat) -> None:
        """The seat's own player is back (by seat key or ssh key): on a new connection, the
        old one (a frozen window, say) is closed."""
        old = seat.terminal
        if old is not None and not old.closed:
            old.hang_up("Your seat was taken back from another connection, with its key.")
        session.name = seat.name
        session.seat = seat
        self.player_sources.add(session.source)
        self.seated.connect(seat, session.term)

    def depart(self, session: _Session) -> None:
        """A client's session ended (they left, or their connection dropped)."""
        if self.table is None:
            before = len(self.lobby)
            self.lobby = [(n, s) for n, s in self.lobby if s is not session]
            if len(self.lobby) != before:
                self._tell_lobby(
                    f"{session.name} left. In the lobby: {self.names_in() or 'nobody'}."
                )
            return
        seat = getattr(session, "seat", None)
        if seat is not None:
            self.seated.disconnect(seat, session.term)

    def _close_lobby(self) -> None:
        for _, session in self.lobby:
            session.end("The host stopped before the game began.", 130)
        self.say("Stopped before the game began.")

    # -- the game ------------------------------------------------------------------------------
    def _begin(self) -> None:
        """Seat the lobby and the bots, and start the game in its own thread."""
        from spoiler.console.screen import Screen
        from spoiler.rules.game import Seat
        from spoiler.session import records
        from spoiler.session.seating import bot_names, new_game

        opts = self.options
        humans = [name for name, _ in self.lobby]
        n_bots = opts.bots + opts.seats - len(humans)
        table = Table(
            humans,
            wait=opts.wait,
            call_later=self.loop.call_later,
            make_bot=self.make_bot,
            bot_kind=opts.bot_kind,
            tell_host=lambda text: self.say(text),
            leaving_words=self.leaving_words,
            turn_time=opts.turn_time,
        )
        seats = [
            Seat(name, agent, "human") for name, agent in zip(humans, table.agents(), strict=True)
        ]
        for name in bot_names(humans, n_bots):
            seats.append(Seat(name, self.make_bot(len(seats)), opts.bot_kind))
        game = new_game(self.registry, seats, opts.set_names, opts.seed, opts.max_rounds)
        table.game = game
        self.table, self.game = table, game
        record = records.Record.of(game, self.registry, opts.bot_options, opts.bot_time_limit)
        self.recorder = records.Recorder(record)
        for (_, session), seat in zip(self.lobby, table.seats, strict=True):
            session.seat = seat
            seat.key = session.seat_key
            if session.login is not None:
                seat.public_keys = frozenset(session.login.offered)
            table.connect(seat, session.term, first=True)
        # The host's screen tells public events. Its input is not the host's keyboard: the
        # game never waits for the host (nor asks them to watch when every player is out).
        self.screen = Screen(self.console, None, io.StringIO())
        bots = f" and {n_bots} {opts.bot_kind} bot(s)" if n_bots else ""
        table.tell(
            f"The game begins: {', '.join(humans)}{bots}, "
            f"with {', '.join(s.name for s in game.sets)}."
        )
        table.tell_rules()  # as a local game starts: the rules its sets add
        self._thread = threading.Thread(target=self._play, name="spoiler-game", daemon=True)
        self._thread.start()

    def drop_record(self) -> None:
        """No game was played: let go of the record file, and remove it if made for this."""
        held = self.options.record
        if held is not None:
            held.close()
            if self.options.fresh_record and held.path.exists() and not held.path.stat().st_size:
                held.path.unlink()

    def make_bot(self, seat: int):
        opts = self.options
        return self.registry.agent(
            opts.bot_kind, seat, opts.seed, opts.bot_options or None, time_limit=opts.bot_time_limit
        )

    def _play(self) -> None:
        """The game's thread: the whole game, each round recorded and told to everyone."""
        from spoiler.console.game import run_game
        from spoiler.session import recording

        def after_round(game) -> None:
            recording.record_round(self.recorder, game)
            self.seated.round_played()

        try:
            held = self.options.record
            if held is not None:  # the empty record first, as spoiler play writes it
                self.recorder.record.save(held)
                self.recorder.path = held
            self.result = run_game(self.game, self.screen, after_round)
            if self.result is not None:
                self.seated.game_over()
        except BaseException as exc:  # handed to the main thread, which reports it
            self.error = exc
            self.seated.stop()
        finally:
            self.loop.call_soon_threadsafe(self._done.set)

    async def _goodbye(self, status: int) -> None:
        """Close every player's session after their last lines, and wait a moment for it."""
        for seat in self.seated.seats:
            terminal = seat.terminal
            if terminal is not None and not terminal.closed:
                terminal.close()
                session = self._session_of(terminal)
                if session is not None:
                    session.end(None, status)
        await self._wait_for_goodbyes()

    async def _wait_for_goodbyes(self) -> None:
        for _ in range(int(GOODBYE / 0.05)):
            if not self.connections:
                break
            await asyncio.sleep(0.05)

    def _session_of(self, terminal: Terminal):
        for conn in self.connections:
            if conn.session is not None and conn.session.terminal is terminal:
                return conn.session
        return None
