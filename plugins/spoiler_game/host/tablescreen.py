"""A hosted seat's full-screen table: the table local play draws (``spoiler.console.fullscreen``)
on the player's own ssh terminal, each seat its own.

It is the seat's ``HostedScreen`` (the events this seat saw, no pager on the host's machine)
drawn as a ``TableScreen``: a frame for each of the seat's decisions and after each round, again
when the player's terminal is resized (the ssh session says so), with the notices (someone
dropped out, a bot took a seat) in their own place. It never waits for the player between
decisions (the game's thread tells every seat in turn): a round longer than its place is
paged, with Enter, at the player's next decision. The prompt is read through the server's
line editor, which echoes what is typed after it; what was typed before it appeared is
dropped.
"""

from __future__ import annotations

from spoiler.console.fullscreen import ALTERNATE_OFF, TableScreen
from spoiler.console.regions import log_pages
from spoiler_game.host.room import LOG_TITLE, WatchScreen
from spoiler_game.host.terminal import HostedScreen, Terminal

#: A spectator's prompt row: what they may type (they are never asked anything).
WATCHING = "Watching. /say TEXT to talk, log, ? NAME for a card, rules, q to stop watching:"


def wants_table(terminal: Terminal, plain: bool = False) -> bool:
    """A seat's terminal gets the table: a pseudo-terminal that is not ``TERM=dumb``, unless
    the host said ``--plain``."""
    return not plain and terminal.pty and terminal.term_type not in ("", "dumb")


class HostedTableScreen(TableScreen, HostedScreen):
    """A seat's screen on its player's terminal, drawn full screen."""

    watches_signals = False  # (SIGWINCH is the host's own terminal, not the player's)
    remote_editor = True  # the server's line editor echoes the line, after the frame's prompt

    def __init__(self, terminal: Terminal, seat: int | None, game):
        TableScreen.__init__(self, terminal.console, seat, terminal, delay=0.0)
        self.terminal = terminal
        self.follow(game)
        terminal.restore = ALTERNATE_OFF  # written before the session's last words
        terminal.on_resize = self.redraw
        terminal.table = self
        self.start()

    def size(self) -> tuple[int, int]:
        return self.terminal.width, self.terminal.height

    def catch_up(self) -> None:
        told = len(self.outcome)
        super().catch_up()
        if self.active and self._view is None and len(self.outcome) != told:
            self.draw()  # the round, while the player waits for the next decision

    def _can_ask(self) -> bool:
        return False  # the game's thread never waits for one player's Enter

    def _writes_prompt(self, prompt: str) -> bool:
        """The prompt goes with its frame, in one write: the server's line editor then puts
        what was typed back after it, each time the frame is drawn again (a resize)."""
        return True

    def _ask(self, prompt: str, answers, *, page: int | None = None) -> str:
        self.terminal.discard_typeahead()  # (before the frame shows its prompt: an answer
        return super()._ask(prompt, answers, page=page)  # typed to it is never dropped)

    def _show_rows(self, frame: list[str], rows: int, prompt: str) -> str:
        self.terminal.discard_typeahead()
        return super()._show_rows(frame, rows, prompt)

    def _read_line(self, rendered: str) -> str:
        """The line typed at the frame's prompt (written with the frame)."""
        line = self.terminal.readline()
        if not line:
            raise EOFError
        return line.strip()

    def start_of_round(self) -> None:
        """A player who came back: the round so far, told again on a frame of its own."""
        with self._lock:
            self._reset()
            super().start_of_round()
            self.catch_up()

    def stop(self) -> None:
        super().stop()
        self.terminal.restore = ""  # the terminal has its own screen back already
        self.terminal.table = None  # notices are lines of their own again


def watch_screen(terminal: Terminal, game, plain: bool = False) -> WatchScreen | WatchTableScreen:
    """A spectator's screen: the full-screen table on a terminal that can draw it."""
    if wants_table(terminal, plain):
        return WatchTableScreen(terminal, game)
    return WatchScreen(terminal, game)


class WatchTableScreen(HostedTableScreen):
    """A spectator's screen drawn full screen: the public table (never a hand), the public
    events of the round, the notices; its prompt row says what a spectator may type.

    It never asks: what the spectator types is read on the server's loop (``typed``), so
    ``log`` is shown a page at a time, each line typed turning the page, while the game's
    frames wait until the spectator is back at the table."""

    def __init__(self, terminal: Terminal, game):
        self._log: list | None = None  # the log's lines while it is shown, and its page
        self._log_page = 0
        super().__init__(terminal, None, game)

    def _reset(self) -> None:
        super()._reset()
        self._status = WATCHING

    def table(self):
        return self.game.table(hands=False)

    def joined_late(self) -> None:
        """A spectator who came in mid-game: the current round from its start, with the
        table."""
        self.start_of_round()
        self.draw()

    def after_round(self) -> None:
        self.catch_up()

    def draw(self, prompt: str = "", *, page: int | None = None) -> None:
        with self._lock:
            if self._log is not None:
                self._show_log()  # (a resize: the log's page again, at the new size)
                return
            super().draw(prompt, page=page)

    def show_public_log(self) -> None:
        """``log``: the game so far as a spectator saw it, a page at a time."""
        if not self.active:
            HostedScreen.page(self, self.log_lines(self.events(), None), LOG_TITLE)
            return
        with self._lock:
            self._log, self._log_page = self.log_lines(self.events(), None), 0
            self._show_log()

    def typed(self, line: str) -> bool:
        """A line the spectator typed while the log is shown turns its page (``q``: back to
        the table). False when no log is shown: the line is the server's to read."""
        with self._lock:
            if self._log is None:
                return False
            self._log_page += 1
            pages = len(log_pages(self.renderer, self._log, LOG_TITLE, *self.size()))
            if line.strip().lower() in ("q", "quit", "back") or self._log_page >= pages:
                self._log = None
                self.draw()
            else:
                self._show_log()
            return True

    def _show_log(self) -> None:
        assert self._log is not None
        columns, rows = self.size()
        pages = log_pages(self.renderer, self._log, LOG_TITLE, columns, rows)
        frame, prompt = pages[min(self._log_page, len(pages) - 1)]
        self._paint((frame + [""] * rows)[: rows - 2], prompt, rows - 1)
