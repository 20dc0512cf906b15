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

from spoiler_game.host.room import (
    LOBBY_HELP,
    MAX_SPECTATORS,
    WATCH_HELP,
    Chat,
    WatchScreen,
    chat_line,
    help_word,
    show_card,
    show_help,
    show_rules,
    spectator_refusal,
)
from spoiler_game.host.safety import (
    MAX_LINE,
    BadName,
    clean_name,
    code_matches,
    name_key,
    seat_key,
)
from spoiler_game.host.table import HostedSeat, Table
from spoiler_game.host.tablescreen import WatchTableScreen, watch_screen
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
    bot_key: str | None = None  # --bot-key: what the bots' seeds are keyed by
    watch_code: str = ""  # the password spectators join with ("": none may)
    plain: bool = False  # every seat a transcript (--plain), not the full-screen table
    #: The kinds the bots at the table take in turn (--bot); empty: bot_kind alone. A player
    #: who leaves is played by bot_kind, the first.
    bot_kinds: list[str] = field(default_factory=list)

    def kind_of_bot(self, i: int) -> str:
        """The kind of the table's ``i``-th bot (from 0), as ``spoiler play`` seats them."""
        kinds = self.bot_kinds or [self.bot_kind]
        return kinds[i % len(kinds)]


class _Connection(asyncssh.SSHServer):
    """One client connection: its login, and at most one session (the game's screen)."""

    def __init__(self, host: Host):
        self.host = host
        self.conn: Any = None
        self.username = ""
        self.source = ""  # the address it comes from
        self.session: _Session | None = None
        self.by_code = False  # logged in with the join code (or the watch code)
        self.watching = False  # logged in with the watch code: a spectator
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
        watch = self.host.options.watch_code
        if watch and code_matches(password, watch):
            self.by_code = self.watching = True
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
        self.ready = False  # said ready in the lobby
        self.chat = Chat()
        self.screen: WatchScreen | WatchTableScreen | None = None  # a spectator's, in a game

    @property
    def watching(self) -> bool:
        return self.login is not None and self.login.watching

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
            height=chan.get_terminal_size()[1],
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
            self.terminal.resize(width, height)

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
        if self.watching:
            self.end("You stopped watching.", 0)
            return
        self.end(self.host.leaving_words(self.name), 0)

    def end(self, message: str | None, status: int) -> None:
        """Close the session after ``message`` (on the loop, after everything sent before)."""

        def finish() -> None:
            try:
                restore = self.terminal.restore if self.terminal is not None else ""
                if restore:  # the player's terminal is back to its own screen
                    self.chan.write(restore)
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
        self.spectators: list[_Session] = []
        self._rematching = False  # the lobby is asking who plays again
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
            while True:
                self._begin()
                await self._first(self._done, self._stop)
                if self._stop.is_set() and not self._done.is_set():
                    self.interrupted = True
                    self.seated.tell("The host ended the game.", style="bold red")
                    self.seated.stop()
                    await self._first(self._done, timeout=5)
                if self.interrupted or self.error is not None or self.result is None:
                    break
                self._saved()
                if not await self._rematch():
                    break
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
        if opts.watch_code:
            self.say(
                f"Watch code: {opts.watch_code}   (to watch: every player's view, never a hand)"
            )
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
        session.term.command = lambda line: self._slash(session, line)
        if session.watching:
            self._watch(session, name)
            return
        if self.table is not None:
            session.term.command = None  # not before the seat is theirs
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
        if self._taken_by_spectator(name):
            session.end(
                f"Sorry: {name!r} is watching this table under that name. Join with another "
                f"name: {self.join_command()}",
                1,
            )
            return
        session.name = name
        session.seat_key = seat_key()
        self.lobby.append((name, session))
        self.player_sources.add(session.source)
        session.term.intercept = lambda line: self._lobby_line(session, line)
        free = self.options.seats - len(self.lobby)
        waiting = f"Waiting for {free} more, or for the host to start." if free else "Starting."
        session.term.console.print(Text(f"Welcome to Spoiler, {name}. {waiting}", style="bold"))
        if free:
            session.term.console.print(
                Text(
                    "Type ready when you are (the game begins when every seat is taken, when "
                    "everyone here is ready, or when the host starts it); /say TEXT talks to "
                    "the table; ? for help.",
                    style="dim",
                )
            )
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
        self._tell_lobby(self.lobby_line())
        if not free:
            self._start.set()

    def lobby_line(self) -> str:
        """Who is in the lobby, and who of them is ready."""
        line = f"In the lobby: {self.names_in() or 'nobody'}."
        ready = [name for name, session in self.lobby if session.ready]
        if ready:
            line += f" Ready: {', '.join(ready)}."
        return line

    def _tell_lobby(self, message: str, style: str = "") -> None:
        for _, session in self.lobby:
            session.term.notice(message, style)
        for session in self.spectators:
            session.term.notice(message, style)
        self.say(message)

    def _lobby_line(self, session: _Session, line: str) -> None:
        """A line a player typed in the lobby (on the loop)."""
        term = session.term
        word = line.strip().lower()
        asks, card = help_word(line)
        if word in ("ready", "r", "y", "yes"):
            if not session.ready:
                session.ready = True
                self._tell_lobby(self.lobby_line())
                self._start_if_all_ready()
        elif word in ("wait", "n", "no", "not ready"):
            if session.ready:
                session.ready = False
                self._tell_lobby(self.lobby_line())
        elif asks and card:
            show_card(term, self._cards(), card)
        elif asks:
            show_help(term, "In the lobby you can type:", LOBBY_HELP)
        elif word == "rules":
            show_rules(term, self._card_sets())
        elif word in ("q", "quit"):
            session.end("You left the lobby.", 0)
        elif word:
            term.notice(
                "The game has not begun: type ready when you are, /say TEXT to talk, ? for help.",
                "yellow",
                own=True,
            )

    def _card_sets(self) -> list:
        if self.game is not None:
            return list(self.game.sets)
        return self.registry.sets_played(self.options.set_names)

    def _cards(self) -> list:
        return [card for card_set in self._card_sets() for card in card_set.cards]

    # -- the room: chat and spectators ------------------------------------------------------------
    def room(self) -> list[tuple[Terminal, Any]]:
        """Everyone at the table now, each (terminal, screen or None): the players (in the
        lobby or seated) and the spectators."""
        people: list[tuple[Any, Any]] = []
        if self.table is None:
            people += [(s.term, None) for _, s in self.lobby]
        else:
            people += [(seat.terminal, seat.screen) for seat in self.table.seats if seat.connected]
        people += [(s.term, s.screen) for s in self.spectators]
        return [(t, screen) for t, screen in people if t is not None and not t.closed]

    def announce(self, message: str, style: str = "bold", own: Terminal | None = None) -> None:
        """A line for everyone at the table and the host, each in a line of its own."""
        for terminal, screen in self.room():
            if terminal is own:
                terminal.notice(message, style, own=True)
            else:
                (screen or terminal).notice(message, style)
        self.say(message, style)

    def _slash(self, session: _Session, line: str) -> None:
        """``/say TEXT`` (at any prompt, in the lobby, watching): everyone sees it after the
        sender's name; a line refused is told to its sender alone, in one line."""
        text, refused = session.chat.message(line)
        if refused is not None:
            session.term.notice(refused, "yellow", own=True)
            return
        assert text is not None
        self.announce(
            chat_line(session.name, text, watching=session.watching), "cyan", own=session.term
        )
        table, recorder = self.table, self.recorder
        if table is not None and recorder is not None and not table.finished:
            by = chat_line(session.name, "", watching=session.watching).removesuffix(": ")
            recorder.chat(by, text)  # (kept with the round being played, shown by replay)

    def _taken_by_spectator(self, name: str) -> bool:
        return any(name_key(s.name) == name_key(name) for s in self.spectators)

    def _watch(self, session: _Session, name: str) -> None:
        """A spectator came in: they see what every player may see, and can only talk."""
        players = [n for n, _ in self.lobby]
        if self.table is not None:
            players += [seat.name for seat in self.table.seats]
        taken = next((p for p in players if name_key(p) == name_key(name)), None)
        if taken is not None or self._taken_by_spectator(name):
            whose = "a player's" if taken is not None else "another spectator's"
            session.end(
                f"Sorry: the name {name!r} is {whose} at this table: watch under another name.", 1
            )
            return
        if len(self.spectators) >= MAX_SPECTATORS:
            session.end(f"Sorry: this table has {MAX_SPECTATORS} spectators already.", 1)
            return
        session.name = name
        term = session.term
        term.intercept = lambda line: self._spectator_line(session, line)
        self.spectators.append(session)
        term.console.print(
            Text(
                f"Welcome, {name}: you are watching. You see what every player may see, never "
                f"a hand. /say TEXT talks to the table; ? for help; q to stop watching.",
                style="bold",
            )
        )
        if self.table is not None and self.game is not None and not self.table.finished:
            session.screen = watch_screen(term, self.game, self.options.plain)
            session.screen.joined_late()
        else:
            term.console.print(Text(self.lobby_line()))
        self.announce(f"{name} is watching.", "dim", own=term)

    def _spectator_line(self, session: _Session, line: str) -> None:
        term = session.term
        word = line.strip().lower()
        asks, card = help_word(line)
        screen = session.screen
        if screen is not None and screen.typed(line):
            return  # (it turned the page of the log)
        if word == "log":
            if screen is None:
                term.notice("The game has not begun: there is no log yet.", "yellow", own=True)
            else:
                screen.show_public_log()
        elif asks and card:
            show_card(term, self._cards(), card)
        elif asks:
            show_help(term, "Watching, you can type:", WATCH_HELP)
        elif word == "rules":
            show_rules(term, self._card_sets())
        elif word in ("q", "quit"):
            session.end("You stopped watching.", 0)
        elif word:
            term.notice(spectator_refusal(), "yellow", own=True)

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
        session.term.command = lambda line: self._slash(session, line)
        self.seated.connect(seat, session.term)

    def depart(self, session: _Session) -> None:
        """A client's session ended (they left, or their connection dropped)."""
        if session in self.spectators:
            self.spectators.remove(session)
            self.announce(f"{session.name} stopped watching.", "dim")
            return
        if self.table is None:
            before = len(self.lobby)
            self.lobby = [(n, s) for n, s in self.lobby if s is not session]
            if len(self.lobby) != before:
                now = self.again_line() if self._rematching else self.lobby_line()
                self._tell_lobby(f"{session.name} left. {now}")
                self._start_if_all_ready()
                if self._rematching and not self.lobby:
                    self._start.set()  # nobody plays again
            return
        seat = getattr(session, "seat", None)
        if seat is not None:
            self.seated.disconnect(seat, session.term)

    def _start_if_all_ready(self) -> None:
        if self.lobby and all(s.ready for _, s in self.lobby) and not self._start.is_set():
            self._tell_lobby("Everyone here is ready: the game begins.", "bold")
            self._start.set()

    def _close_lobby(self) -> None:
        for _, session in self.lobby:
            session.end("The host stopped before the game began.", 130)
        for session in self.spectators:
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
        self._done.clear()
        self.result = self.error = None
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
            watchers=lambda: [s.screen for s in self.spectators if s.screen is not None],
            host_screen_replace=self._replaced,
            plain=opts.plain,
        )
        seats = [
            Seat(name, agent, "human") for name, agent in zip(humans, table.agents(), strict=True)
        ]
        for i, name in enumerate(bot_names(humans, n_bots)):
            kind = opts.kind_of_bot(i)
            seats.append(Seat(name, self.make_bot(len(seats), kind), kind))
        game = new_game(self.registry, seats, opts.set_names, opts.seed, opts.max_rounds)
        table.game = game
        self.table, self.game = table, game
        record = records.Record.of(
            game, self.registry, opts.bot_options, opts.bot_time_limit, opts.bot_key
        )
        self.recorder = records.Recorder(record)
        for (_, session), seat in zip(self.lobby, table.seats, strict=True):
            session.term.intercept = None  # what they type now answers the game's prompts
            session.seat = seat
            seat.key = session.seat_key
            if session.login is not None:
                seat.public_keys = frozenset(session.login.offered)
            table.connect(seat, session.term, first=True)
        # The host's screen tells public events. Its input is not the host's keyboard: the
        # game never waits for the host (nor asks them to watch when every player is out).
        self.screen = Screen(self.console, None, io.StringIO())
        for session in self.spectators:
            session.screen = watch_screen(session.term, game, self.options.plain)
        kinds = "/".join(dict.fromkeys(opts.kind_of_bot(i) for i in range(n_bots)))
        bots = f" and {n_bots} {kinds} bot(s)" if n_bots else ""
        table.tell(
            f"The game begins: {', '.join(humans)}{bots}, "
            f"with {', '.join(s.name for s in game.sets)}."
        )
        table.tell_rules()  # as a local game starts: the rules its sets add
        self._thread = threading.Thread(target=self._play, name="spoiler-game", daemon=True)
        self._thread.start()

    def _replaced(self, seat: int) -> None:
        """A bot plays ``seat`` from now on: the host's screen and the record say so."""
        self.screen.replace(seat)
        if self.recorder is not None:
            self.recorder.replaced(seat, self.screen.replaced[seat], self.options.bot_kind)

    def drop_record(self) -> None:
        """No game was played: let go of the record file, and remove it if made for this."""
        held = self.options.record
        if held is not None:
            held.close()
            if self.options.fresh_record and held.path.exists() and not held.path.stat().st_size:
                held.path.unlink()

    def make_bot(self, seat: int, kind: str | None = None):
        """A bot for ``seat``: of ``kind``, or the first kind (for a player who leaves)."""
        opts = self.options
        return self.registry.agent(
            kind or opts.bot_kind,
            seat,
            opts.seed,
            opts.bot_options or None,
            time_limit=opts.bot_time_limit,
            key=opts.bot_key,
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

    # -- a rematch -------------------------------------------------------------------------------
    def _saved(self) -> None:
        """A game that ended: its record file is let go of (and the host told where it is)."""
        from spoiler.session import recording

        if self.recorder is not None and self.recorder.path is not None:
            self.say(f"Saved to {self.recorder.path.given}.")
            recording.stop_recording(self.recorder)
            self.recorder.path = None

    async def _rematch(self) -> bool:
        """The game is over: each player still at the table is asked to play again. Those who
        say yes play a new game (a new seed) in the same lobby, bots in the seats left;
        False when nobody does (or the host stopped)."""
        table = self.seated
        players = []
        for seat in table.seats:
            terminal = seat.terminal
            session = (
                self._session_of(terminal) if terminal is not None and seat.connected else None
            )
            if session is not None and seat.bot is None:
                session.seat_key = session.seat_key or seat.key
                session.seat, session.ready = None, False
                players.append((seat.name, session))
        if not players:
            return False
        self.table, self.lobby = None, players
        self._start.clear()
        self._rematching = True
        wait = self.options.turn_time or None
        limit = f" ({wait:g} s to answer)" if wait else ""
        self._again_prompt = f"Play again at this table, a new game{limit}? [y/n] "
        for _, session in players:
            session.term.intercept = lambda line, session=session: self._again(session, line)
            session.term.ask(self._again_prompt)
        self.say("The game is over: asking the players whether they play again.")
        if self.keyboard:
            self._watch_keyboard()
        await self._first(self._start, self._stop, timeout=wait)
        self._unwatch_keyboard()
        self._rematching = False
        ready = [(name, s) for name, s in self.lobby if s.ready]
        for _, session in self.lobby:
            if not session.ready:
                session.end("The table plays on without you. Thanks for playing.", 0)
        if self._stop.is_set() or not ready:
            self.lobby = []
            return False
        from spoiler.model.seeds import new_seed

        self.lobby = ready
        self.options.seed = new_seed()
        self._next_record()
        return True

    def _again(self, session: _Session, line: str) -> None:
        """An answer to "Play again?" (on the loop)."""
        word = line.strip().lower()
        if word in ("y", "yes", "ready"):
            if not session.ready:
                session.ready = True
                session.term.notice("Waiting for the others to answer.", "dim", own=False)
                self._tell_lobby(self.again_line())
                self._start_if_all_ready()
        elif word in ("n", "no", "q", "quit"):
            session.end("Thanks for playing.", 0)  # depart() takes them out of the lobby
        else:
            session.term.notice("Please answer y (play again) or n (leave).", "yellow")
            session.term.ask(self._again_prompt)

    def again_line(self) -> str:
        ready = [name for name, s in self.lobby if s.ready]
        deciding = [name for name, s in self.lobby if not s.ready]
        line = f"Playing again: {', '.join(ready) or 'nobody yet'}."
        return line + (f" Deciding: {', '.join(deciding)}." if deciding else "")

    def _next_record(self) -> None:
        """With --record, the next game is saved beside the first: FILE-2.toml, ..."""
        from spoiler.session import recordfile
        from spoiler.session.recording import free_name

        held = self.options.record
        if held is None:
            return
        given = held.given
        path = free_name(str(given.with_suffix("")), given.suffix)
        try:
            self.options.record = recordfile.RecordFile.create(path)
            self.options.fresh_record = True
        except recordfile.FileProblem as exc:
            self.options.record = None
            self.say(f"The next game is not recorded: {path}: {exc}", "yellow")

    async def _goodbye(self, status: int) -> None:
        """Close every player's session after their last lines, and wait a moment for it."""
        for session in self.spectators:
            session.end("The table is closed. Thanks for watching.", status)
        if self.table is None:  # between two games
            for _, session in self.lobby:
                session.end(None, status)
            await self._wait_for_goodbyes()
            return
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
