"""One player's SSH session as the game sees it: a rich console that writes to the channel and
the lines the player typed, handed across from the server's event loop to the game's threads.

The event loop owns the channel: a ``Terminal`` written to from any thread passes the text
to the loop (an outbox the loop is woken to take, ``call_soon_threadsafe``), which writes it
in order, what was sent meanwhile as one write. Lines typed arrive on the
loop and wait in a small queue until a prompt reads them.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable, Sequence
from typing import IO, Any, Literal, cast

from rich.console import Console
from rich.text import Text

from spoiler.console.screen import Screen
from spoiler.narration.story import Story
from spoiler_game.host.safety import MAX_LINE, clean_line

#: Output a client has not read yet beyond which it is dropped (a client that never reads
#: must not make the host hold the game's text for it forever).
MAX_PENDING_OUTPUT = 1 << 20
#: Lines typed ahead of the prompts that are kept; more are ignored.
MAX_QUEUED_LINES = 20
#: What a player may type: lines a second on average, and at once (a paste); text a second.
#: Past either, their connection is read more slowly (the SSH window holds the rest on their
#: side), lines past the burst are ignored, and they are told, so that one player's flood
#: costs the host little and the other seats' prompts keep their pace.
LINES_PER_SECOND, LINE_BURST = 8.0, 24.0
CHARS_PER_SECOND, CHAR_BURST = float(1 << 16), float(1 << 21)
#: Seconds between two notices to a player who types too fast.
THROTTLE_NOTICE = 5.0


class Throttle:
    """A token bucket: ``rate`` a second on average, up to ``burst`` at once."""

    def __init__(self, rate: float, burst: float, clock=time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.last = burst, clock()

    def _refill(self) -> None:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now

    def take(self, amount: float = 1.0) -> bool:
        """Take ``amount`` if there is that much; False (and nothing taken) if not."""
        self._refill()
        if self.tokens < amount:
            return False
        self.tokens -= amount
        return True

    def available(self) -> int:
        """Whole tokens there are now."""
        self._refill()
        return max(0, int(self.tokens))

    def spend(self, amount: float) -> None:
        """Take ``amount`` whatever is left (the bucket may go below empty)."""
        self._refill()
        self.tokens -= amount

    def wait(self) -> float:
        """Seconds until there is one token again (0: there is)."""
        self._refill()
        return max(0.0, (1.0 - self.tokens) / self.rate)


def _rows(height: int) -> int:
    return max(12, min(height or 24, 300))


class Dropped(Exception):
    """The player's connection closed (or a newer one took the seat) while they were asked."""


class TurnOver(Exception):
    """The seat's time to decide ran out (``--turn-time``): a bot decides this time."""


class TurnClock:
    """The time one seat has for one decision: a warning ``warn`` seconds before the end
    (``on_warn()``), then ``TurnOver`` at the prompt that waits for an answer."""

    def __init__(self, seconds: float, on_warn, clock=time.monotonic):
        self.seconds = seconds
        self.clock = clock
        self.started = clock()
        self.deadline = self.started + seconds
        self.warn_at = self.deadline - min(30.0, seconds / 4)
        self.on_warn = on_warn
        self.warned = False

    def left(self) -> float:
        """Seconds until the next thing the clock does (warn, or end the turn)."""
        return max(0.0, (self.deadline if self.warned else self.warn_at) - self.clock())

    def expired(self) -> bool:
        return self.clock() >= self.deadline

    def ring(self) -> None:
        """The time came: warn the first time, end the turn the second."""
        if not self.warned:
            self.warned = True
            self.on_warn(self)
            return
        raise TurnOver


class Stopped(EOFError):
    """The game is ending for everyone (the host stopped it). An ``EOFError``, so the game's
    loop ends the way it does when local input ends."""


_DROPPED, _STOPPED = object(), object()


ColourSystem = Literal["standard", "256", "truecolor"]


def colour_system(term_type: str | None, env: dict) -> ColourSystem | None:
    """The colours a client's terminal supports, from the type its ssh client sent."""
    if not term_type or term_type == "dumb" or "NO_COLOR" in env:
        return None
    if "truecolor" in env.get("COLORTERM", "") or "direct" in term_type:
        return "truecolor"
    if "256" in term_type:
        return "256"
    return "standard"


class _ChannelFile:
    """The file a console writes to: each write goes to the channel, through the loop."""

    def __init__(self, terminal: Terminal):
        self.terminal = terminal

    def write(self, text: str) -> int:
        self.terminal.send(text)
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return self.terminal.pty


class Terminal:
    """A player's connection: ``console`` for output, ``readline`` for input (it blocks
    until the player types a line, and raises ``Dropped`` once the connection is gone)."""

    def __init__(
        self,
        loop,
        channel,
        *,
        width: int = 80,
        term_type: str | None = None,
        env=None,
        throttle: bool = False,
        height: int = 24,
    ):
        self.loop = loop
        self.channel = channel
        self.pty = bool(term_type)
        self.term_type = term_type or ""
        self.height = _rows(height)
        #: Called (on the loop) when the player's terminal was resized.
        self.on_resize: Callable[[], None] | None = None
        #: Written before the session's last words (a full-screen table: leave it).
        self.restore = ""
        #: The seat's full-screen table, which draws this terminal's notices (None: none).
        self.table: Any = None
        self.closed = False
        self._outbox: list[tuple[Callable[..., None], tuple]] = []  # for the loop, in order
        self._outbox_lock = threading.Lock()
        self._lines: queue.Queue = queue.Queue()
        self._partial = ""  # input without a line end yet (no pseudo-terminal)
        self._too_long = False
        # Reading fairly (the server's terminals): each player's input at a bounded pace.
        self._line_rate = Throttle(LINES_PER_SECOND, LINE_BURST) if throttle else None
        self._char_rate = Throttle(CHARS_PER_SECOND, CHAR_BURST) if throttle else None
        self._paused = False
        self.clock: TurnClock | None = None  # the seat's turn clock while it is asked
        self.intercept: Callable[[str], None] | None = (
            None  # a line reader on the loop (the seat key), before the game's
        )
        #: What the player's slash commands do (``/say TEXT``), on the loop: the host's.
        self.command: Callable[[str], None] | None = None
        self._ignored = 0  # lines ignored since the last notice
        self._noticed = -THROTTLE_NOTICE
        # The prompt waiting for this player's answer, as sent (on the loop): a notice is
        # drawn above it, never into it.
        self._prompt: str | None = None
        self._mid_line = False  # the prompt is the last thing on the player's screen
        self.console = Console(
            file=cast(IO[str], _ChannelFile(self)),
            width=max(20, min(width or 80, 500)),
            # The player's terminal's size, whole: without a height rich would ask the host's
            # own terminal for one, at every measure (6 µs a time, some 37 times a decision).
            height=self.height,
            force_terminal=self.pty,
            color_system=colour_system(term_type, env or {}),
            highlight=False,
            emoji=False,
            legacy_windows=False,
            force_jupyter=False,
            soft_wrap=False,
        )

    # -- output (any thread) ---------------------------------------------------------------
    def send(self, text: str) -> None:
        if not self.closed:
            self._post(self._write, text)

    def _post(self, work: Callable[..., None], *args: Any) -> None:
        """Do ``work(*args)`` on the loop, after everything posted before it. What is sent
        meanwhile goes out as one write (one ssh packet for a round told, not one a line)."""
        with self._outbox_lock:
            self._outbox.append((work, args))
            if len(self._outbox) > 1:
                return  # the loop is already due to take the outbox
        self.loop.call_soon_threadsafe(self._take_outbox)

    def _take_outbox(self) -> None:  # on the loop
        with self._outbox_lock:
            outbox, self._outbox = self._outbox, []
        text: list[str] = []
        for work, args in outbox:
            if work == self._write:
                text.append(args[0])
                continue
            if text:
                self._write("".join(text))
                text = []
            work(*args)
        if text:
            self._write("".join(text))

    def _write(self, text: str) -> None:  # on the loop
        # Text sent before the terminal closed still goes out (last words), if it can.
        if self.channel.get_write_buffer_size() > MAX_PENDING_OUTPUT:
            self.close()  # the client stopped reading: treat it as gone
            self.channel.close()
            return
        with contextlib.suppress(OSError):  # the channel is gone: nobody to tell
            self.channel.write(text)  # the line editor turns \n into \r\n on a pty

    def ask(self, prompt: str) -> None:
        """Send ``prompt`` (rendered) and keep it open until the player answers it."""
        if not self.closed:
            self._post(self._ask, prompt)

    def _ask(self, prompt: str) -> None:  # on the loop
        self._prompt, self._mid_line = prompt, True
        self._write(prompt)

    def render(self, text: str, style: str = "") -> str:
        """``text`` as this player's console draws it (a line of its own, wrapped)."""
        with self.console.capture() as captured:
            self.console.print(Text(text, style=style))
        return captured.get()

    def notice(self, text: str, style: str = "bold", *, own: bool = False) -> None:
        """A line from outside the player's prompt (someone joined or left, a chat line),
        drawn in a line of its own above the open prompt, if there is one, never into it.
        ``own``: the answer to something this player typed (their prompt is asked again)."""
        if self.table is not None:  # the seat's full-screen table draws it in its place
            self.table.notice(text, style, own=own)
            return
        self.notice_rendered(self.render(text, style), own=own)

    def notice_rendered(self, rendered: str, *, own: bool = False) -> None:
        """``notice`` for text already drawn by this terminal's console (a card's panel)."""
        if self.table is not None:
            self.table.notice(Text.from_ansi(rendered.rstrip("\n")), own=own)
            return
        if not self.closed:
            self._post(self._notice, rendered, own)

    def _notice(self, rendered: str, own: bool) -> None:  # on the loop
        prompt = self._prompt
        if prompt is None:
            self._write(rendered)
        elif self.pty:
            # The line editor takes what the player has typed off the line before this and
            # puts it back after: the prompt line is cleared, the notice written, the prompt
            # drawn again below it.
            self._write("\r\x1b[2K" + rendered + prompt)
        else:
            # Without a line editor: the notice on a line of its own (the player may be
            # typing after the prompt); the prompt again only if their line was used up.
            self._write(("\n" if self._mid_line else "") + rendered + (prompt if own else ""))
            self._mid_line = own

    @property
    def width(self) -> int:
        return self.console.width

    def resize(self, width: int, height: int | None = None) -> None:
        self.console.width = max(20, min(width or 80, 500))
        if height is not None:
            self.height = self.console.height = _rows(height)
        if self.on_resize is not None:
            self.on_resize()

    # -- input -----------------------------------------------------------------------------
    def received(self, data: str) -> None:
        """Text the client sent (on the loop): split into lines, each cleaned and bounded."""
        if self.closed:
            return
        if self._char_rate is not None:
            self._char_rate.spend(len(data))
        data = (self._partial + data).replace("\r\n", "\n").replace("\r", "\n")
        if self._line_rate is not None:
            allowed, ends = self._line_rate.available(), data.count("\n")
            if ends > allowed:  # a flood: only the lines it may type now are even split off
                self._ignored += ends - allowed
                *lines, _ = data.split("\n", allowed)
                self._partial = ""
                self._line_rate.spend(allowed)
                for line in lines:
                    self._line(line)
                self._slow_down()
                return
            self._line_rate.spend(ends)
        *lines, self._partial = data.split("\n")
        for line in lines:
            self._line(line)
        if len(self._partial) > MAX_LINE:
            self._too_long, self._partial = True, ""
        self._slow_down()

    def _slow_down(self) -> None:
        """Past the pace a player may type: stop reading them for a moment, and say so."""
        if self._line_rate is None or self._char_rate is None or self._paused:
            return
        wait = max(self._line_rate.wait(), self._char_rate.wait())
        if not wait:
            return
        now = time.monotonic()
        if now - self._noticed >= THROTTLE_NOTICE:
            self._noticed = now
            ignored = f" {self._ignored} line(s) were ignored." if self._ignored else ""
            self._ignored = 0
            self.send(
                f"\nYou are typing faster than the game reads: your input is read more "
                f"slowly for a moment.{ignored}\n"
            )
        self._paused = True
        self.channel.pause_reading()
        self.loop.call_later(wait, self._resume)

    def _resume(self) -> None:  # on the loop
        self._paused = False
        if not self.closed:
            with contextlib.suppress(Exception):  # the channel closed meanwhile
                self.channel.resume_reading()

    def _line(self, raw: str) -> None:
        line = None if self._too_long else clean_line(raw)
        self._too_long = False
        if line is not None and line.startswith("/") and self.command is not None:
            self.command(line)  # a chat line, at any prompt: the prompt stays open
            return
        if self.intercept is not None:
            if line is None:
                self.notice(f"That line was over {MAX_LINE} characters: it was ignored.", own=True)
                return
            self._prompt = None  # (the line answers it, if a prompt was open)
            self.intercept(line)
            return
        if line is None:
            self.send(f"\nThat line was over {MAX_LINE} characters: it was ignored.\n")
            line = ""  # the prompt asks again
        self._prompt = None  # answered (or typed ahead of the next prompt)
        if self._lines.qsize() < MAX_QUEUED_LINES:
            self._lines.put(line)

    def readline(self) -> str:
        """The next line the player typed (blocks the calling thread). With a turn clock,
        raises ``TurnOver`` when the seat's time is up."""
        while True:
            clock = self.clock
            try:
                item = self._lines.get(timeout=None if clock is None else clock.left())
                break
            except queue.Empty:
                assert clock is not None
                clock.ring()
        if item is _DROPPED:
            self._lines.put(item)  # every later read fails too
            raise Dropped
        if item is _STOPPED:
            self._lines.put(item)
            raise Stopped
        return item + "\n"

    def isatty(self) -> bool:
        # With a pseudo-terminal the server's line editor echoes what is typed.
        return self.pty

    # -- the end ---------------------------------------------------------------------------
    def close(self) -> None:
        """The connection is gone (or replaced): a waiting prompt gives up."""
        if not self.closed:
            self.closed = True
            self._lines.put(_DROPPED)

    def hang_up(self, message: str) -> None:
        """Say ``message`` and close the player's session (from any thread)."""
        self.send(self.restore + message + "\n")
        self._post(self._hang_up)

    def _hang_up(self) -> None:  # on the loop, after everything sent before
        self.close()
        with contextlib.suppress(Exception):  # a channel closed meanwhile: nothing to hang up
            self.channel.exit(0)

    def discard_typeahead(self) -> None:
        """Forget the lines typed before a prompt appeared (the table's prompts: a key pressed
        while others chose never answers a question the player has not seen)."""
        kept = []
        while True:
            try:
                item = self._lines.get_nowait()
            except queue.Empty:
                break
            if item is _DROPPED or item is _STOPPED:
                kept.append(item)
        for item in kept:
            self._lines.put(item)

    def stop(self) -> None:
        """The game ends for everyone: a waiting prompt ends the game like end of input."""
        self._lines.put(_STOPPED)


class HostedScreen(Screen):
    """A seat's screen on its player's terminal. It tells exactly the events the engine says
    this seat saw (``events_seen_by(seat)``), never waits between them (the game's thread
    tells every screen in turn), and shows the log without a pager (a pager would run on the
    host's machine)."""

    def __init__(self, terminal: Terminal, seat: int, game):
        super().__init__(terminal.console, seat, terminal, delay=0.0)
        self.terminal = terminal
        self.follow(game)
        self._lock = threading.RLock()

    def events(self) -> Sequence:
        return self.game.events_seen_by(self.reader)

    def catch_up(self) -> None:
        with self._lock:  # the game's thread and the seat's question may both tell
            super().catch_up()

    def notice(self, text: str, style: str = "bold", *, own: bool = False) -> None:
        self.terminal.notice(text, style, own=own)

    def read(self, prompt: str, answers: Sequence[str] = ()) -> str:
        """Ask on the player's terminal, keeping the prompt open there (notices are drawn
        above it) until they answer."""
        with self.console.capture() as rendered:
            self.console.print(Text(prompt + " ", style="bold"), end="")
        self.terminal.ask(rendered.get())
        answer = self.terminal.readline().rstrip("\r\n")
        if not self.terminal.pty:  # no line editor echoed it: the transcript reads well
            self.console.print(answer, markup=False, highlight=False)
        return answer.strip()

    def page(self, lines, title: str) -> None:
        self.console.print(Text(title, style="bold"))
        for line in lines:
            self.console.print(line)

    def start_of_round(self) -> None:
        """Tell again from the start of the current round (a player who came back)."""
        with self._lock:
            events = self.events()
            starts = [i for i, e in enumerate(events) if e.kind == "round_started"]
            self.told = starts[-1] if starts else 0
            self.story = Story(self.game.cards_by_id)  # fed again from the round's start
            for event in events[: self.told]:
                self.story.feed(event)
            self._noticed = len(self.story.knockouts)
