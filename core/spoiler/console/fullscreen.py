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
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any

from rich.console import Console
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from spoiler.console.human import in_effect
from spoiler.console.screen import EVERYTHING, Screen
from spoiler.model.state import Status
from spoiler.narration.narrate import card_label

#: An escape sequence in a rendered line (to measure it, or to give a frame as plain text).
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
#: The smallest terminal a frame is drawn for (a smaller one gets this, cropped).
MIN_WIDTH, MIN_HEIGHT = 40, 12
#: Outcome lines a frame keeps whatever else it holds (prompt lines give way first).
MIN_OUTCOME = 3
#: Outcome lines below which the hand is drawn shorter.
ROOMY = 8
#: Notices a frame shows (the newest).
NOTICES = 3
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
    stdin = sys.stdin if stdin is None else stdin
    try:
        typing = stdin.isatty()
    except (AttributeError, ValueError):
        typing = False
    return not plain and console.is_terminal and not console.is_dumb_terminal and typing


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
        self._renderers: dict[int, Console] = {}
        self._previous_winch: Any = None
        self._drawing = self._again = False
        self._reset()

    def _reset(self) -> None:
        self._told: list[tuple] = []  # what was told: (objects, print's keywords)
        self._rendered: dict[int, tuple[int, list[str]]] = {}  # index -> (width, lines)
        self._seen = 0  # outcome records the player has had in front of them
        self._prompt_records: list[tuple] = []  # what the current decision printed
        self._notices: list[Text] = []
        self._section = "outcome"
        self._view: Any = None  # the view of the decision being made
        self._shared: frozenset[str] = frozenset()
        self._status = ""  # a line where the prompt goes, while nothing is asked
        self._last: tuple = ("", None)  # the last frame's prompt and page (to redraw it)
        self._reading: str | None = None  # the prompt of the line being read, as rendered
        self._final = False
        self._changes = 0  # counts what changes a frame besides the events told
        self._laid_out: tuple | None = None

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
        self._watch_resizes()

    def stop(self) -> None:
        if not self.active:
            return
        self.active = False
        self.console = self.out
        self._unwatch_resizes()
        self._write(ALTERNATE_OFF)

    def _watch_resizes(self) -> None:
        """A resize of this process's terminal (SIGWINCH) draws the frame again."""
        winch = getattr(signal, "SIGWINCH", None)
        main = threading.current_thread() is threading.main_thread()
        if winch is None or not main or not self.watches_signals:
            return
        self._previous_winch = signal.signal(winch, lambda signum, frame: self.redraw())

    def _unwatch_resizes(self) -> None:
        winch = getattr(signal, "SIGWINCH", None)
        if winch is not None and self._previous_winch is not None:
            signal.signal(winch, self._previous_winch)
            self._previous_winch = None

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
                self._told.append((objects, kwargs))

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
            self.draw()
        time.sleep(seconds)

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
            self._notices = [*self._notices, line][-NOTICES:]
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
            self.draw()
            return
        selecting = self.game.selecting()
        if any(seat in selecting for seat in self._mine()) or not self._can_ask():
            self.draw()
            return
        self._page_through()
        self._enter(f"Round {self.game.round} is over. Press Enter to go on.")

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
            self._enter("Game over. Press Enter to leave the table.")
        else:
            self.draw()
        self.stop()
        super().end()

    def _can_ask(self) -> bool:
        try:
            return bool(self.stdin.isatty())
        except (AttributeError, ValueError):
            return False

    def _enter(self, prompt: str) -> None:
        self._ask(prompt, ())

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
            unread = self._outcome_lines(columns, self._seen)
            if len(unread) <= height:
                return
            left = -(-(len(unread) - height) // height)
            self._ask(f"More of the round ({left} more): press Enter.", (), page=self._seen)
            # The records this page showed whole are read (at least one, to move on).
            shown, count = 0, 0
            for index in range(self._seen, len(self._told)):
                shown += len(self._lines_of(index, columns))
                if shown > height:
                    break
                count += 1
            self._seen += max(1, count)

    def _ask(self, prompt: str, answers: Sequence[str], *, page: int | None = None) -> str:
        self.draw(prompt, page=page)
        if page is None:
            self._seen = len(self._told)
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
        rendered: list[str] = []
        for line in lines:
            rendered += self._render((line,), {}, columns)
        height = rows - 3
        pages = [rendered[i : i + height] for i in range(0, len(rendered), height)] or [[]]
        for number, chunk in enumerate(pages, 1):
            head = self._render(
                (Text(f"{title} (page {number} of {len(pages)})", "bold"),), {}, columns
            )
            frame = [*head, "", *chunk]
            answer = self._show_rows(
                frame,
                rows,
                "Enter: next page, q: back to the game."
                if number < len(pages)
                else "Enter: back to the game.",
            )
            if answer.lower() in ("q", "quit", "back"):
                break

    def _show_rows(self, frame: list[str], rows: int, prompt: str) -> str:
        body = (frame + [""] * rows)[: rows - 2]
        self._paint(body, prompt, rows - 1, write_prompt=False)
        return self._input(prompt, ())

    # -- drawing -------------------------------------------------------------------------------
    def redraw(self) -> None:
        """The last frame again (the terminal was resized, a notice came in)."""
        if not self.active:
            return
        prompt, page = self._last
        with self._lock:
            self.draw(prompt, page=page)
            if self._reading is not None:  # the line being typed, after its prompt again
                self._write(self._reading + self._typed())

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
            self._outcome_lines(columns, page)[:height]
            if page is not None
            else self._tail(columns, height)
        )
        frame = body["table"] + outcome + [""] * (height - len(outcome))
        frame += body["hand"] + body["notices"] + body["prompt"]
        self._paint(
            frame, prompt or self._status, prompt_row, write_prompt=self._writes_prompt(prompt)
        )

    def _writes_prompt(self, prompt: str) -> bool:
        """Is the prompt drawn with the frame? Not when it is about to be read at this
        process's terminal (the line editor writes it, to know where the line begins)."""
        return not prompt

    def _paint(
        self, frame: list[str], prompt: str, prompt_row: int, *, write_prompt: bool = True
    ) -> None:
        rows = self.size()[1]
        out = [BEGIN]
        for row in range(rows):
            line = frame[row] if row < len(frame) else ""
            out.append(f"\x1b[{row + 1};1H{line}\x1b[0m\x1b[K")
        out.append(f"\x1b[{prompt_row};1H")
        if write_prompt and prompt:
            out.append(self._rendered_prompt(prompt))
        out.append(END)
        self._write("".join(out))
        self.frames += 1
        if self.on_frame is not None:
            text = [ANSI.sub("", line).rstrip() for line in frame[: prompt_row - 1]]
            self.on_frame("\n".join([*text, prompt]).rstrip() + "\n")

    def _layout(self, columns: int, rows: int) -> tuple[dict, int, int]:
        """``_lay_out``, kept while nothing it draws changed (paging asks for it, then the
        frame it draws)."""
        key = (columns, rows, self._changes, self.told, len(self._told))
        if self._laid_out is None or self._laid_out[0] != key:
            self._laid_out = (key, self._lay_out(columns, rows))
        return self._laid_out[1]

    def _lay_out(self, columns: int, rows: int) -> tuple[dict, int, int]:
        """The frame's parts as lines, the outcome's height, and the prompt's row (1-based):
        the row after everything, with one more below it, so that Enter never scrolls. The
        hand is drawn shorter while the outcome would have fewer than ``ROOMY`` lines."""
        table = self._strip(self._render_all(self._table_part(), columns))
        notices: list[str] = []
        if self._notices:
            for notice in self._notices:
                notices += self._render((notice,), {}, columns)
            notices = (
                self._render((Rule("Notices", style="dim"),), {}, columns)
                + notices[-max(NOTICES, rows // 4) :]
            )
        prompt_lines = self._strip(self._render_all(self._prompt_records, columns))
        for level in range(3):
            hand = self._strip(self._render_all(self._hand_part(level, columns), columns))
            fixed = len(table) + len(hand) + len(notices) + 2
            if rows - fixed - len(prompt_lines) >= ROOMY:
                break
        room = rows - fixed - len(prompt_lines)
        if room < MIN_OUTCOME:  # what the prompt printed gives way, its newest lines kept
            keep = max(0, rows - fixed - MIN_OUTCOME)
            prompt_lines = prompt_lines[len(prompt_lines) - keep :] if keep else []
            room = rows - fixed - len(prompt_lines)
        if room < 1:  # a tiny terminal: the hand gives way too
            hand = hand[: max(0, len(hand) + room - 1)]
            room = rows - len(table) - len(hand) - len(notices) - len(prompt_lines) - 2
        height = max(0, room)
        prompt_row = len(table) + height + len(hand) + len(notices) + len(prompt_lines) + 1
        return (
            {"table": table, "hand": hand, "notices": notices, "prompt": prompt_lines},
            height,
            min(prompt_row, rows - 1),
        )

    @staticmethod
    def _strip(lines: list[str]) -> list[str]:
        """Without the blank lines a transcript puts before and after a part."""
        while lines and not ANSI.sub("", lines[0]).strip():
            lines = lines[1:]
        while lines and not ANSI.sub("", lines[-1]).strip():
            lines = lines[:-1]
        return lines

    def _tail(self, columns: int, height: int) -> list[str]:
        """The newest lines of the outcome that fit in ``height``, whole sentences only (the
        end of the newest one, when it alone is longer)."""
        lines: list[str] = []
        index = len(self._told)
        while index > 0:
            told = self._lines_of(index - 1, columns)
            if len(lines) + len(told) > height:
                if not lines:
                    lines = told[len(told) - height :] if height else []
                break
            lines = told + lines
            index -= 1
        return lines

    def _outcome_lines(self, columns: int, start: int) -> list[str]:
        lines: list[str] = []
        for index in range(start, len(self._told)):
            lines += self._lines_of(index, columns)
        return lines

    def _lines_of(self, index: int, columns: int) -> list[str]:
        cached = self._rendered.get(index)
        if cached is not None and cached[0] == columns:
            return cached[1]
        objects, kwargs = self._told[index]
        lines = self._render(objects, kwargs, columns)
        self._rendered[index] = (columns, lines)
        return lines

    def _render_all(self, records: list[tuple], columns: int) -> list[str]:
        lines: list[str] = []
        for objects, kwargs in records:
            lines += self._render(objects, kwargs, columns)
        return lines

    def _render(self, objects: tuple, kwargs: dict, columns: int) -> list[str]:
        """A print as lines of the frame: wrapped at its width, escape codes and all."""
        renderer = self._renderers.get(columns)
        if renderer is None:
            renderer = Console(
                file=io.StringIO(),
                width=columns,
                force_terminal=True,
                color_system=self.out.color_system,  # type: ignore[arg-type]
                no_color=self.out.no_color,
                highlight=False,
                emoji=False,
                legacy_windows=False,
            )
            self._renderers = {columns: renderer}  # one width at a time
        keywords = {k: v for k, v in kwargs.items() if k != "end"}
        keywords["soft_wrap"] = False  # a frame has no line longer than it is wide
        with renderer.capture() as captured:
            renderer.print(*objects, **keywords)
        text = captured.get()
        return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")

    # -- the parts -----------------------------------------------------------------------------
    def _seat_view(self):
        """The view the frame is drawn from: the decision's, or (one player's screen) that
        player's own; None for a screen several players share, or a watcher's."""
        if self._view is not None:
            return self._view
        if isinstance(self.reader, int):
            return self.game.view(self.reader)
        return None

    def _table_part(self) -> list[tuple]:
        """The table: a heading line (the round, who chooses, the deck and the discard pile),
        the players, the ongoing effects and the hands this player was shown."""
        table = self.table()
        view = self._seat_view()
        you = view.seat if view is not None else None
        players = view.players if view is not None else table.players
        if self._final:
            heading = Text(f"Final table, round {table.round}", style="bold")
        elif self._view is not None:
            heading = Text(f"Round {view.round}: {view.me.name} to choose", style="bold")
        else:
            heading = Text(f"Round {table.round}" if table.round else "Spoiler", style="bold")
        discard = view.discard if view is not None else table.discard
        deck = view.deck_size if view is not None else table.deck_size
        top = f", top: {discard[-1].name}" if discard else ""
        heading.append(f"   Deck {deck} · Discard {len(discard)}{top}", style="")
        players_table = self.players_table(
            players,
            you=you,
            kinds=table.kinds,
            hands=None if table.hands is None else dict(enumerate(table.hands)),
            outcome=self._outcome(table) if self._final else None,
        )
        players_table.box = None  # a line of its own for the column names only
        players_table.header_style = "dim"
        parts: list[tuple] = [((heading,), {}), ((players_table,), {})]
        seen = view
        if seen is None:  # in_effect reads a view's players and events: the public ones
            seen = SimpleNamespace(
                seat=None,
                players=table.players,
                events=self.events(),
                name_of=lambda seat: table.players[seat].name,
            )
        for name, owner, rounds in table.ongoing:
            parts.append(((in_effect(seen, name, owner, rounds),), {"markup": False}))
        if view is not None:
            for seat, (seen_in, cards) in sorted(view.known.items()):
                shown = ", ".join(c.name for c in cards) or "no cards"
                told = f"You saw {view.name_of(seat)}'s hand in round {seen_in}: {shown}."
                parts.append(((told,), {"markup": False}))
        return parts

    def _hand_part(self, level: int = 0, columns: int = 80) -> list[tuple]:
        """The player's hand, a card a line (and more, as its text needs): its number, its
        name, what it does and what it asks for, and whether it can be played now. Where
        room is short (``level`` 1) what it asks for is left to the prompts; shorter still
        (2), each card's text is cut to one line (``? NAME`` shows it whole)."""
        view = self._seat_view()
        if view is None or self._final:
            return []
        rule = Rule(Text("Your hand", style="bold"), style="dim", align="left")
        if not view.hand:
            out = view.me.status is Status.LOST
            empty = "You are out of this game." if out else "Your hand is empty."
            return [((rule,), {}), ((Text(empty, style="dim"),), {})]
        labels = [card_label(card, self._shared) for card in view.hand]
        grid = Table.grid(padding=(0, 1))
        grid.add_column(justify="right", no_wrap=True, min_width=len(str(len(labels))))
        grid.add_column(style="bold", no_wrap=True, min_width=max(map(len, labels)))
        grid.add_column(ratio=1)
        room = columns - len(str(len(labels))) - max(map(len, labels)) - 2
        for number, card in enumerate(view.hand, 1):
            text = Text(card.text)
            needs = [t.description for t in card.targets]
            if card.ask is not None:
                needs.append(card.ask.prompt.lower())
            if needs and level == 0:
                text.append(f" You choose: {'; '.join(needs)}.", style="dim")
            if card not in view.playable:
                text.append(" Cannot be played now: no legal target.", style="red")
            if level >= 2:
                text.truncate(max(1, room), overflow="ellipsis")
            grid.add_row(str(number), labels[number - 1], text)
        return [((rule,), {}), ((grid,), {})]
