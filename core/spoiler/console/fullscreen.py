"""The full-screen table: the game drawn as one fixed frame, for a player at a terminal.

A ``TableScreen`` is a ``Screen`` (it narrates the same events as its reader may see them,
with what they leave unsaid) that keeps what it tells instead of printing it, and draws,
for each decision, a frame that fits the terminal (80x24 and up; it grows with the window):

* the table: the players in priority order with seat, status, hand size and counters, the
  deck and the discard pile, the ongoing effects, the hands this player was shown;
* the outcome: the last round told line by line, "Nothing happens: ..." and the knockouts
  with whose card did it included, and the current round so far;
* the player's hand, each card with its text;
* notices: lines from outside the game (someone dropped out, a bot took a seat, chat);
* the prompt, with what it printed (options, a refused answer, help) just above it.

A frame never scrolls: when what the player has not read yet of the outcome is longer than
its place, it is shown a page at a time ("more: Enter") before the decision's own frame, whose
outcome is the newest lines (the rest of the round). What the screen keeps are the renderables
themselves, not text, so a frame is drawn again at any size (a resize redraws the frame).

It draws in the terminal's alternate screen (what was there before comes back at the end) and
leaves it when the game ends, printing the end of the game (the final table, who won, the
seed) in the terminal's own screen, where it stays. The transcript (``Screen``) is what pipes,
``TERM=dumb``, screen readers and ``spoiler play --plain`` get.
"""

from __future__ import annotations

import io
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.text import Text

from spoiler.console.regions import (
    ANSI,
    HandLines,
    Kept,
    Notices,
    Outcome,
    Renderer,
    lay_out,
    log_pages,
    strip,
    table_facts,
    table_lines,
)
from spoiler.console.screen import EVERYTHING, Screen

#: The smallest terminal a frame is drawn for (a smaller one gets this, cropped).
MIN_WIDTH, MIN_HEIGHT = 40, 12
#: Events a transcript tells that the frame's table shows anyway (hand sizes, priorities) or
#: that tell nothing a player can use ("Ada selected a card."): left out of the outcome,
#: unless they tell the reader a secret of their own ("You drew Jewel.").
FOLDED = frozenset({"selected", "drew", "dealt", "cleared", "priorities", "priorities_shifted"})
TELLS_OWN = frozenset({"drew", "dealt"})
#: Start and end of a frame: synchronised output (terminals that lack it ignore it), and the
#: cursor hidden while the frame is drawn.
BEGIN, END = "\x1b[?2026h\x1b[?25l", "\x1b[?25h\x1b[?2026l"
ALTERNATE_ON, ALTERNATE_OFF = "\x1b[?1049h\x1b[H\x1b[2J", "\x1b[?1049l"


def wants_table(console: Console, stdin=None, *, plain: bool = False) -> bool:
    """Should a game at this console be drawn full screen? Only at a terminal, both ways
    (output and the keyboard), that is not ``TERM=dumb``, and not with ``--plain``."""
    typing = typed_at_a_terminal(sys.stdin if stdin is None else stdin)
    return not plain and console.is_terminal and not console.is_dumb_terminal and typing


def typed_at_a_terminal(stdin) -> bool:
    """Is ``stdin`` a terminal (someone there to press Enter)?"""
    try:
        return bool(stdin.isatty())
    except (AttributeError, ValueError):
        return False


def painted(
    frame: Sequence[str], rows: int, prompt_row: int, prompt: str = "", *, editor: bool = False
) -> str:
    """What draws ``frame`` over the whole screen, row by row (each row cleared to its end),
    the cursor left on ``prompt_row`` after ``prompt`` (rendered). With ``editor`` (an ssh
    line editor echoes what is typed, and knows its column only from the text written, not
    from cursor addressing) the prompt row is reached by a newline from the row above, so
    that the editor counts the prompt's columns from 0 and puts a half-typed line after it."""
    out = [BEGIN]
    for row in range(rows):
        line = frame[row] if row < len(frame) else ""
        out.append(f"\x1b[{row + 1};1H{line}\x1b[0m\x1b[K")
    if editor and prompt_row > 1:
        out.append(f"\x1b[{prompt_row - 1};1H\n{prompt}{END}")
    else:
        out.append(f"\x1b[{prompt_row};1H{prompt}{END}")
    return "".join(out)


class Resizes:
    """A resize of this process's own terminal (SIGWINCH) calls ``redraw`` while watched
    (only from the main thread, where signals are handled)."""

    def __init__(self, redraw: Callable[[], None]):
        self.redraw = redraw
        self._previous: Any = None

    def watch(self) -> None:
        winch = getattr(signal, "SIGWINCH", None)
        if winch is None or threading.current_thread() is not threading.main_thread():
            return
        self._previous = signal.signal(winch, lambda signum, frame: self.redraw())

    def unwatch(self) -> None:
        winch = getattr(signal, "SIGWINCH", None)
        if winch is not None and self._previous is not None:
            signal.signal(winch, self._previous)
            self._previous = None


class _Sink(Console):
    """The console the narration and the prompts print to while the table is drawn: each
    print is kept by the screen (as the renderables printed), to be drawn in its place."""

    def __init__(self, screen: TableScreen, width: int):
        super().__init__(
            file=io.StringIO(),
            width=width,
            force_terminal=True,
            color_system=None,
            highlight=False,
            emoji=False,
            legacy_windows=False,
        )
        self._screen = screen

    def print(self, *objects: Any, **kwargs: Any) -> None:
        self._screen._keep(objects, kwargs)

    def clear(self, home: bool = True) -> None:
        pass  # every frame is drawn whole

    def control(self, *controls: Any) -> None:
        pass


class TableScreen(Screen):
    """A full-screen table on a terminal (see the module docstring). ``on_frame(text)`` is
    called with each frame as plain text (for tests and the benchmark); ``frames`` counts
    them."""

    draws_table = True
    #: Does a resize of this process's own terminal (SIGWINCH) concern this screen?
    watches_signals = True
    #: Is the prompt read by a line editor at the other end (ssh), which writes no prompt?
    remote_editor = False

    def __init__(
        self,
        console: Console,
        reader=EVERYTHING,
        stdin=None,
        *,
        delay: float | None = None,
        card_text: str = "first",
    ):
        # (Screen's own: a hosted seat's table is a HostedScreen too, which takes a terminal)
        Screen.__init__(self, console, reader, stdin, delay=delay, card_text=card_text)
        self.out = console  # the terminal; self.console is the sink while the table is shown
        self.sink = _Sink(self, console.width)
        self.active = False
        self.frames = 0
        self.on_frame: Callable[[str], None] | None = None
        self._lock = threading.RLock()
        self.renderer = Renderer(console)
        self._resizes = Resizes(self.redraw)
        self._drawing = self._again = False
        self._reset()

    def _reset(self) -> None:
        self.outcome = Outcome(self.renderer)  # what was told, and what of it was seen
        self._prompt_records: list[tuple] = []  # what the current decision printed
        self.notices = Notices()
        self._section = "outcome"
        self._view: Any = None  # the view of the decision being made
        self._shared: frozenset[str] = frozenset()
        self._status = ""  # a line where the prompt goes, while nothing is asked
        self._last: tuple = ("", None)  # the last frame's prompt and page (to redraw it)
        self._reading: str | None = None  # the prompt of the line being read, as rendered
        self._final = False
        self._changes = 0  # counts what changes a frame besides the events told
        self._laid_out: tuple | None = None
        self._players = Kept()  # the players' lines, drawn again when they changed
        self._hand = HandLines(self.renderer)

    def follow(self, game) -> None:
        super().follow(game)
        self._reset()

    # -- being shown -------------------------------------------------------------------------
    @contextmanager
    def shown(self) -> Iterator[None]:
        """The table on the terminal's alternate screen for a game; the terminal's own
        screen back afterwards, however the game ended."""
        self.start()
        try:
            yield
        finally:
            self.stop()

    def start(self) -> None:
        if self.active:
            return
        self.active = True
        self.console = self.sink
        self._write(ALTERNATE_ON)
        if self.watches_signals:
            self._resizes.watch()

    def stop(self) -> None:
        if not self.active:
            return
        self.active = False
        self.console = self.out
        self._resizes.unwatch()
        self._write(ALTERNATE_OFF)

    def _write(self, text: str) -> None:
        self.out.file.write(text)
        self.out.file.flush()

    def size(self) -> tuple[int, int]:
        """The terminal's columns and rows now."""
        try:
            columns, rows = os.get_terminal_size(self.out.file.fileno())
        except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
            columns, rows = self.out.width, self.out.height
        return max(MIN_WIDTH, columns), max(MIN_HEIGHT, rows)

    # -- what is told --------------------------------------------------------------------------
    def _keep(self, objects: tuple, kwargs: dict) -> None:
        with self._lock:
            self._changes += 1
            if self._section == "prompt":
                self._prompt_records.append((objects, kwargs))
            elif objects:  # (blank lines between a transcript's paragraphs: not here)
                self.outcome.keep(objects, kwargs)

    def say(self, event, reader, *, indent: int = 2) -> None:
        if self.active and event.kind in FOLDED:
            seen = self.seen(event, reader)
            if event.kind not in TELLS_OWN or seen.secret is None:
                return
        if self.active and event.kind == "round_started":  # the table tells the order
            self.console.rule(Text(f"Round {event.round}", style="bold"), style="dim")
            return
        super().say(event, reader, indent=indent)

    def wait(self, seconds: float) -> None:
        """Watching bots: the frame is drawn after each event worth reading, then the pause."""
        if self.active:
            self._draw_watched()
        time.sleep(seconds)

    def _draw_watched(self) -> None:
        """The frame for a watcher, its round paged, never scrolled (``Outcome.watched``)."""
        columns, rows = self.size()
        self.draw(page=self.outcome.watched(columns, self._layout(columns, rows)[1]))

    def standings(self, title: str) -> None:
        if not self.active:  # the frame shows the table always
            super().standings(title)

    def notice(self, text: str | Text, style: str = "bold", *, own: bool = False) -> None:
        """A line from outside the game (someone left, a chat line, the answer to a command
        typed: ``own``), in the frame's notices (the newest few)."""
        line = Text(text, style=style) if isinstance(text, str) else text
        if not self.active:
            self.console.print(line, soft_wrap=True)
            return
        with self._lock:
            self.notices.add(line)
            self._changes += 1
        self.redraw()

    def waiting(self, text: str) -> None:
        if not self.active:
            super().waiting(text)
            return
        self._status = text
        self.draw()

    # -- decisions ---------------------------------------------------------------------------
    def begin_decision(self, seat: int) -> None:
        with self._lock:
            self._section = "prompt"
            self._prompt_records = []
            self._status = ""
            self._changes += 1

    def deciding(self, view, shared: frozenset[str] = frozenset()) -> None:
        self._view, self._shared = view, shared
        self._changes += 1

    def decided(self) -> None:
        with self._lock:
            self._section = "outcome"
            self._prompt_records = []
            self._view = None
            self._changes += 1

    def clear(self) -> None:
        """Another player sits down at this keyboard: the frame is drawn again at once,
        without the hand or anything the last player's prompts printed."""
        if not self.active:
            super().clear()
            return
        with self._lock:
            self._view = None
            self._prompt_records = []
            self._changes += 1
        self.draw()

    @property
    def shown_to(self):
        """Whose eyes the frame is for: the deciding player's at a shared keyboard, else the
        screen's reader (``None``: everyone at the keyboard)."""
        view = self._view
        return view.seat if view is not None and self.reader is None else self.reader

    def _mine(self) -> list[int]:
        """The seats whose players read this screen."""
        if isinstance(self.reader, int):
            return [self.reader]
        return self.humans() if self.reader is None else []

    def round_over(self) -> None:
        """The round is told. The frame holds it until it has been read: the player's next
        decision shows it; when there is none next round, Enter goes on (watching bots, the
        frame is drawn and the game goes on after ``--delay``)."""
        if not self.active or self.quiet or self.game.over:
            return
        if not self.humans_in_play():
            self._draw_watched()
            return
        selecting = self.game.selecting()
        if any(seat in selecting for seat in self._mine()) or not self._can_ask():
            self.draw()
            return
        self._page_through()
        self._ask(f"Round {self.game.round} is over. Press Enter to go on.", ())

    def end(self) -> None:
        """The last frame (the final table, who knocked out whom, who won, the seed) until
        Enter; then the end of the game in the terminal's own screen, to keep."""
        if not self.active:
            super().end()
            return
        self.quiet = False
        self._final = True
        self._changes += 1
        with self._lock:
            self._section = "outcome"
        super().end()  # (its standings are the frame's table)
        if self._can_ask():
            self._page_through()
            self._ask("Game over. Press Enter to leave the table.", ())
        else:
            self.draw() if self.humans_in_play() else self._draw_watched()
        self.stop()
        super().end()

    def _can_ask(self) -> bool:
        return typed_at_a_terminal(self.stdin)

    # -- input -------------------------------------------------------------------------------
    def read(self, prompt: str, answers: Sequence[str] = ()) -> str:
        if not self.active:
            return super().read(prompt, answers)
        self._page_through()
        return self._ask(prompt, answers)

    def _page_through(self) -> None:
        """Whatever of the outcome the player has not read and the frame cannot hold, a page
        at a time, each until Enter."""
        while True:
            columns, rows = self.size()
            height = self._layout(columns, rows)[1]
            left = self.outcome.pages_left(columns, height)
            if not left:
                return
            page = self.outcome.seen
            self._ask(f"More of the round ({left} more): press Enter.", (), page=page)
            self.outcome.turn_page(columns, height)

    def _ask(self, prompt: str, answers: Sequence[str], *, page: int | None = None) -> str:
        self.draw(prompt, page=page)
        if page is None:
            self.outcome.read()
        try:
            return self._input(prompt, answers)
        finally:
            self._last = ("", None)

    def _rendered_prompt(self, prompt: str) -> str:
        with self.out.capture() as rendered:
            self.out.print(Text(prompt + " ", style="bold"), end="")
        return rendered.get()

    def _input(self, prompt: str, answers: Sequence[str]) -> str:
        """One line typed at the prompt (the frame is drawn, the cursor on its prompt row).
        What was typed before it appeared is dropped."""
        from spoiler.console import lineedit

        rendered = self._rendered_prompt(prompt)
        self._reading = rendered
        try:
            if self._stdin is None and lineedit.available(sys.stdin):
                lineedit.discard_typeahead(sys.stdin)
                cards = {c.name for c in self.game.cards_by_id.values()}
                return lineedit.read_line(rendered, answers, cards).strip()
            return self._read_line(rendered)
        finally:
            self._reading = None

    def _read_line(self, rendered: str) -> str:
        """A line read without this process's line editor (the prompt written first)."""
        self._write(rendered)
        line = self.stdin.readline()
        if not line:
            raise EOFError
        return line.strip()

    def _typed(self) -> str:
        """What has been typed of the line being read (written again after a redraw)."""
        from spoiler.console import lineedit

        return lineedit.typed() if self._stdin is None else ""

    # -- the log -----------------------------------------------------------------------------
    def page(self, lines, title: str) -> None:
        """``log`` at a prompt: the lines in frames of their own, a page at a time."""
        if not self.active:
            super().page(lines, title)
            return
        columns, rows = self.size()
        for frame, prompt in log_pages(self.renderer, lines, title, columns, rows):
            answer = self._show_rows(frame, rows, prompt)
            if answer.lower() in ("q", "quit", "back"):
                break

    def _show_rows(self, frame: list[str], rows: int, prompt: str) -> str:
        body = (frame + [""] * rows)[: rows - 2]
        self._paint(body, prompt, rows - 1, write_prompt=self._writes_prompt(prompt))
        return self._input(prompt, ())

    # -- drawing -------------------------------------------------------------------------------
    def redraw(self) -> None:
        """The last frame again (the terminal was resized, a notice came in)."""
        if not self.active:
            return
        prompt, page = self._last
        with self._lock:
            self.draw(prompt, page=page)
            if self._reading is not None and not self._writes_prompt(prompt):
                self._write(self._reading + self._typed())  # the line typed, after its prompt

    def draw(self, prompt: str = "", *, page: int | None = None) -> None:
        """Draw the frame: the table, the outcome (from record ``page`` on, else its newest
        lines), the hand, the notices and ``prompt`` (or the status line)."""
        if not self.active:
            return
        with self._lock:
            if self._drawing:  # a resize while drawing (a signal): once more, when done
                self._again = True
                return
            self._drawing = True
            try:
                self._draw(prompt, page)
                while self._again:
                    self._again = False
                    self._draw(prompt, page)
            finally:
                self._drawing = False

    def _draw(self, prompt: str, page: int | None) -> None:
        self._last = (prompt, page)
        columns, rows = self.size()
        self.sink.width = columns  # (what prompts print to the width of the frame)
        body, height, prompt_row = self._layout(columns, rows)
        outcome = (
            self.outcome.lines(columns, page)[:height]
            if page is not None
            else self.outcome.tail(columns, height)
        )
        self.outcome_drawn = outcome  # (the round's lines in this frame: for tests)
        frame = body["table"] + outcome + [""] * (height - len(outcome))
        frame += body["hand"] + body["notices"] + body["prompt"]
        self._paint(
            frame, prompt or self._status, prompt_row, write_prompt=self._writes_prompt(prompt)
        )

    def _writes_prompt(self, prompt: str) -> bool:
        """With the frame? Not when this process's line editor reads (and writes) it."""
        return not prompt

    def _paint(
        self, frame: list[str], prompt: str, prompt_row: int, *, write_prompt: bool = True
    ) -> None:
        shown = self._rendered_prompt(prompt) if write_prompt and prompt else ""
        self._write(painted(frame, self.size()[1], prompt_row, shown, editor=self.remote_editor))
        self.frames += 1
        if self.on_frame is not None:
            text = [ANSI.sub("", line).rstrip() for line in frame[: prompt_row - 1]]
            self.on_frame("\n".join([*text, prompt]).rstrip() + "\n")

    def _layout(self, columns: int, rows: int) -> tuple[dict, int, int]:
        """The frame's parts as lines, the outcome's height and the prompt's row
        (``regions.lay_out``), kept while nothing they draw changed (paging asks for them,
        then the frame it draws). The table and the hand are drawn again only when what they
        show changed, not for every line told."""
        key = (columns, rows, self._changes, self.told, len(self.outcome))
        if self._laid_out is None or self._laid_out[0] != key:
            view = self._seat_view()
            facts = table_facts(self, view, final=self._final, deciding=self._view is not None)
            table = table_lines(self, facts, self._players, columns)
            hand_view = None if self._final else view
            prompt = strip(self.renderer.render_all(self._prompt_records, columns))
            notices = self.notices.render(self.renderer, columns, rows)
            self._laid_out = (
                key,
                lay_out(
                    table, self._hand.at(hand_view, self._shared, columns), notices, prompt, rows
                ),
            )
        return self._laid_out[1]

    def _seat_view(self):
        """The view the frame is drawn from: the decision's, or (one player's screen) that
        player's own; None for a screen several players share, or a watcher's."""
        if self._view is not None:
            return self._view
        if isinstance(self.reader, int):
            return self.game.view(self.reader)
        return None
