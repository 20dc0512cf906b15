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
from spoiler_game.host.terminal import HostedScreen, Terminal


def wants_table(terminal: Terminal, plain: bool = False) -> bool:
    """A seat's terminal gets the table: a pseudo-terminal that is not ``TERM=dumb``, unless
    the host said ``--plain``."""
    return not plain and terminal.pty and terminal.term_type not in ("", "dumb")


class HostedTableScreen(TableScreen, HostedScreen):
    """A seat's screen on its player's terminal, drawn full screen."""

    watches_signals = False  # (SIGWINCH is the host's own terminal, not the player's)

    def __init__(self, terminal: Terminal, seat: int, game):
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

    def _read_line(self, rendered: str) -> str:
        self.terminal.discard_typeahead()
        return super()._read_line(rendered)

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
