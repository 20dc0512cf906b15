"""The regions of the full-screen table (``spoiler.console.fullscreen``), each drawn on its own.

* ``Renderer``: a print (the renderables and print's keywords) as lines of a frame at a width;
* ``table_facts``, ``table_lines``: the table of players, the ongoing effects, the hands the
  player was shown, as plain values and then as lines;
* ``Kept``: a part's lines, drawn again only when what it shows changed;
* ``Outcome``: the round told, its newest lines that fit, and the pages not read yet;
* ``hand_part``, ``HandLines``: the player's hand, a card a line with its text;
* ``Notices``: the newest lines from outside the game;
* ``lay_out``: the regions placed in a frame of so many rows;
* ``log_pages``: ``log`` at a prompt, as frames of their own.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import Any, NamedTuple

from rich.console import Console
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from spoiler.console.human import in_effect
from spoiler.console.rendered import shared
from spoiler.model.state import Status
from spoiler.narration.narrate import card_label

#: An escape sequence in a rendered line (to measure it, or to give a frame as plain text).
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
#: Outcome lines a frame keeps whatever else it holds (prompt lines give way first).
MIN_OUTCOME = 3
#: Outcome lines below which the hand is drawn shorter.
ROOMY = 8
#: Notices a frame shows (the newest).
NOTICES = 3

#: What was printed: the renderables and print's keywords.
Record = tuple[tuple, dict]


class Renderer:
    """Prints as lines of a frame, in the colours of the terminal ``out``."""

    def __init__(self, out: Console):
        self.out = out
        self._consoles: dict[int, Console] = {}

    def render(self, objects: tuple, kwargs: dict, columns: int) -> list[str]:
        """A print as lines of the frame: wrapped at its width, escape codes and all. A print
        of text that any screen of this process rendered at this width and in these colours
        is not rendered again (``spoiler.console.rendered``)."""
        out = self.out
        rendered = shared(
            objects,
            kwargs,
            ("frame", columns, out.color_system, out.no_color),
            lambda: "\n".join(self._render(objects, kwargs, columns)),
        )
        return rendered.split("\n")

    def _render(self, objects: tuple, kwargs: dict, columns: int) -> list[str]:
        renderer = self._consoles.get(columns)
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
            self._consoles = {columns: renderer}  # one width at a time
        keywords = {k: v for k, v in kwargs.items() if k != "end"}
        keywords["soft_wrap"] = False  # a frame has no line longer than it is wide
        with renderer.capture() as captured:
            renderer.print(*objects, **keywords)
        text = captured.get()
        return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")

    def render_all(self, records: Sequence[Record], columns: int) -> list[str]:
        lines: list[str] = []
        for objects, kwargs in records:
            lines += self.render(objects, kwargs, columns)
        return lines


def strip(lines: list[str]) -> list[str]:
    """Without the blank lines a transcript puts before and after a part."""
    while lines and not ANSI.sub("", lines[0]).strip():
        lines = lines[1:]
    while lines and not ANSI.sub("", lines[-1]).strip():
        lines = lines[:-1]
    return lines


# -- the table of players ----------------------------------------------------------------------
class TableFacts(NamedTuple):
    """Everything the table of players shows, as plain values: it is drawn again only when
    these change (a hosted table draws each of its seats' frames after every event)."""

    heading: str
    deck: str
    players: tuple
    you: int | None
    kinds: tuple[str, ...]
    hands: tuple | None
    outcome: dict | None
    replaced: dict[int, int]
    lines: tuple[str, ...]  # the ongoing effects, and the hands this player was shown

    def players_shown(self) -> tuple:
        """What the table of players is drawn from (the heading and lines are not)."""
        return (self.players, self.you, self.kinds, self.hands, self.outcome, self.replaced)


def table_facts(screen, view, *, final: bool, deciding: bool) -> TableFacts:
    """What the table shows: a heading line (the round, who chooses, the deck and the discard
    pile), the players, the ongoing effects and the hands this player was shown. ``view`` is
    the seat's view the table is drawn from (None: the public table); ``deciding``, that seat
    chooses now."""
    table = screen.table()
    you = view.seat if view is not None else None
    if final:
        heading = f"Final table, round {table.round}"
    elif deciding:
        heading = f"Round {view.round}: {view.me.name} to choose"
    else:
        heading = f"Round {table.round}" if table.round else "Spoiler"
    discard = view.discard if view is not None else table.discard
    deck = view.deck_size if view is not None else table.deck_size
    top = f", top: {discard[-1].name}" if discard else ""
    seen = view
    if seen is None:  # in_effect reads a view's players and events: the public ones
        seen = SimpleNamespace(
            seat=None,
            players=table.players,
            events=screen.events(),
            name_of=lambda seat: table.players[seat].name,
        )
    lines = [in_effect(seen, name, owner, rounds) for name, owner, rounds in table.ongoing]
    if view is not None:
        for seat, (seen_in, cards) in sorted(view.known.items()):
            shown = ", ".join(c.name for c in cards) or "no cards"
            lines.append(f"You saw {view.name_of(seat)}'s hand in round {seen_in}: {shown}.")
    return TableFacts(
        heading=heading,
        deck=f"   Deck {deck} · Discard {len(discard)}{top}",
        players=view.players if view is not None else table.players,
        you=you,
        kinds=table.kinds,
        hands=table.hands,
        outcome=screen._outcome(table) if final else None,
        replaced=dict(getattr(screen, "replaced", {})),
        lines=tuple(lines),
    )


def table_lines(screen, facts: TableFacts, players: Kept, columns: int) -> list[str]:
    """The table of ``facts`` as lines: the heading, the players (drawn again only when
    they changed: ``players`` keeps them), a line for each of the rest."""
    renderer = screen.renderer
    heading = Text(facts.heading, style="bold")
    heading.append(facts.deck, style="")
    lines = renderer.render((heading,), {}, columns)
    lines += players.lines(
        (columns, facts.players_shown()),
        lambda: renderer.render((players_part(screen, facts),), {}, columns),
    )
    for line in facts.lines:
        lines += renderer.render((line,), {"markup": False}, columns)
    return strip(lines)


def players_part(screen, facts: TableFacts) -> Table:
    table = screen.players_table(
        facts.players,
        you=facts.you,
        kinds=facts.kinds,
        hands=None if facts.hands is None else dict(enumerate(facts.hands)),
        outcome=facts.outcome,
    )
    table.box = None  # a line of its own for the column names only
    table.header_style = "dim"
    return table


class Kept:
    """A part's lines, kept while what it is drawn from stays equal (``key``)."""

    def __init__(self) -> None:
        self._key: Any = None
        self._lines: list[str] | None = None

    def lines(self, key: Any, draw: Callable[[], list[str]]) -> list[str]:
        if self._lines is None or self._key != key:
            self._key, self._lines = key, draw()
        return self._lines

    def forget(self) -> None:
        self._lines = None


# -- the round -----------------------------------------------------------------------------------
class Outcome:
    """What the round told, kept as prints (drawn again at any width), and how much of it the
    player has had in front of them (``seen``, in records)."""

    def __init__(self, renderer: Renderer):
        self.renderer = renderer
        self.told: list[Record] = []
        self.rendered: dict[int, tuple[int, list[str]]] = {}  # index -> (width, lines)
        self.seen = 0
        self.on_page = 0  # records a watcher's last frame showed whole, from ``seen``

    def __len__(self) -> int:
        return len(self.told)

    def keep(self, objects: tuple, kwargs: dict) -> None:
        self.told.append((objects, kwargs))

    def lines_of(self, index: int, columns: int) -> list[str]:
        cached = self.rendered.get(index)
        if cached is not None and cached[0] == columns:
            return cached[1]
        objects, kwargs = self.told[index]
        lines = self.renderer.render(objects, kwargs, columns)
        self.rendered[index] = (columns, lines)
        return lines

    def lines(self, columns: int, start: int) -> list[str]:
        """The outcome from record ``start`` on."""
        lines: list[str] = []
        for index in range(start, len(self.told)):
            lines += self.lines_of(index, columns)
        return lines

    def tail(self, columns: int, height: int) -> list[str]:
        """The newest lines that fit in ``height``, whole sentences only (the end of the
        newest one, when it alone is longer)."""
        lines: list[str] = []
        index = len(self.told)
        while index > 0:
            told = self.lines_of(index - 1, columns)
            if len(lines) + len(told) > height:
                if not lines:
                    lines = told[len(told) - height :] if height else []
                break
            lines = told + lines
            index -= 1
        return lines

    def pages_left(self, columns: int, height: int) -> int:
        """Pages of ``height`` lines the player has not read beyond the one a frame holds
        (0: the frame holds all that is unread)."""
        unread = len(self.lines(columns, self.seen))
        if unread <= height:
            return 0
        return -(-(unread - height) // height)

    def turn_page(self, columns: int, height: int) -> None:
        """The records a page from ``seen`` showed whole are read (at least one, to move on)."""
        shown, count = 0, 0
        for index in range(self.seen, len(self.told)):
            shown += len(self.lines_of(index, columns))
            if shown > height:
                break
            count += 1
        self.seen += max(1, count)

    def watched(self, columns: int, height: int) -> int:
        """Where a watcher's region starts (no one presses Enter to turn a page): it fills
        from the top of a page, each line keeping its row; once the unread lines no longer
        fit, the next page begins after the records the last one showed whole. (A record
        longer than the region shows its beginning, and is turned past at the next page.)"""
        if self.pages_left(columns, height) and self.on_page:
            self.seen += self.on_page
        shown, self.on_page = 0, 0
        for index in range(self.seen, len(self.told)):
            shown += len(self.lines_of(index, columns))
            if shown > height:
                break
            self.on_page += 1
        if not self.on_page and self.seen < len(self.told):
            self.on_page = 1  # (too long on its own: shown cut, once)
        return self.seen

    def read(self) -> None:
        """Everything told so far has been in front of the player."""
        self.seen, self.on_page = len(self.told), 0


# -- the hand ------------------------------------------------------------------------------------
def hand_part(view, shared: frozenset[str], level: int = 0, columns: int = 80) -> list[Record]:
    """The player's hand, a card a line (and more, as its text needs): its number, its name,
    what it does and what it asks for, and whether it can be played now. Where room is short
    (``level`` 1) what it asks for is left to the prompts; shorter still (2), each card's text
    is cut to one line (``? NAME`` shows it whole). No view: no hand."""
    if view is None:
        return []
    rule = Rule(Text("Your hand", style="bold"), style="dim", align="left")
    if not view.hand:
        out = view.me.status is Status.LOST
        empty = "You are out of this game." if out else "Your hand is empty."
        return [((rule,), {}), ((Text(empty, style="dim"),), {})]
    labels = [card_label(card, shared) for card in view.hand]
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


class HandLines:
    """The hand's lines at each level of shortness (``hand_part``), drawn again only when the
    hand changed."""

    def __init__(self, renderer: Renderer):
        self.renderer = renderer
        self._kept = [Kept() for _ in range(3)]

    def at(self, view, shared: frozenset[str], columns: int) -> Callable[[int], list[str]]:
        """The lines of ``view``'s hand by level (none without a view)."""
        if view is None:
            return lambda level: []
        key = (columns, view.hand, view.playable, view.me.status, shared)

        def lines(level: int) -> list[str]:
            def draw() -> list[str]:
                parts = hand_part(view, shared, level, columns)
                return strip(self.renderer.render_all(parts, columns))

            return self._kept[level].lines(key, draw)

        return lines

    def forget(self) -> None:
        for kept in self._kept:
            kept.forget()


# -- notices -------------------------------------------------------------------------------------
class Notices:
    """Lines from outside the game (someone left, a chat line), the newest ``NOTICES``."""

    def __init__(self) -> None:
        self.lines: list[Text] = []

    def __bool__(self) -> bool:
        return bool(self.lines)

    def add(self, line: Text) -> None:
        self.lines = [*self.lines, line][-NOTICES:]

    def render(self, renderer: Renderer, columns: int, rows: int) -> list[str]:
        """The notices under a rule of their own; none, no lines."""
        if not self.lines:
            return []
        lines: list[str] = []
        for notice in self.lines:
            lines += renderer.render((notice,), {}, columns)
        heading = renderer.render((Rule("Notices", style="dim"),), {}, columns)
        return heading + lines[-max(NOTICES, rows // 4) :]


# -- the frame -----------------------------------------------------------------------------------
def lay_out(
    table_lines: list[str],
    hand: Callable[[int], list[str]],
    notices: list[str],
    prompt_lines: list[str],
    rows: int,
) -> tuple[dict[str, list[str]], int, int]:
    """The frame's parts as lines, the outcome's height, and the prompt's row (1-based): the
    row after everything, with one more below it, so that Enter never scrolls. ``hand(level)``
    is the hand's lines at a level of shortness; it is drawn shorter while the outcome would
    have fewer than ``ROOMY`` lines."""
    for level in range(3):
        hand_lines = hand(level)
        fixed = len(table_lines) + len(hand_lines) + len(notices) + 2
        if rows - fixed - len(prompt_lines) >= ROOMY:
            break
    room = rows - fixed - len(prompt_lines)
    if room < MIN_OUTCOME:  # what the prompt printed gives way, its newest lines kept
        keep = max(0, rows - fixed - MIN_OUTCOME)
        prompt_lines = prompt_lines[len(prompt_lines) - keep :] if keep else []
        room = rows - fixed - len(prompt_lines)
    if room < 1:  # a tiny terminal: the hand gives way too
        hand_lines = hand_lines[: max(0, len(hand_lines) + room - 1)]
        room = rows - len(table_lines) - len(hand_lines) - len(notices) - len(prompt_lines) - 2
    height = max(0, room)
    prompt_row = len(table_lines) + height + len(hand_lines) + len(notices) + len(prompt_lines) + 1
    parts = {"table": table_lines, "hand": hand_lines, "notices": notices, "prompt": prompt_lines}
    return parts, height, min(prompt_row, rows - 1)


# -- the log -------------------------------------------------------------------------------------
def log_pages(
    renderer: Renderer, lines: Sequence[Any], title: str, columns: int, rows: int
) -> list[tuple[list[str], str]]:
    """``log`` at a prompt as frames of their own: each a page of the lines under a heading,
    and the prompt that goes with it."""
    rendered: list[str] = []
    for line in lines:
        rendered += renderer.render((line,), {}, columns)
    height = rows - 3
    pages = [rendered[i : i + height] for i in range(0, len(rendered), height)] or [[]]
    frames = []
    for number, chunk in enumerate(pages, 1):
        heading = Text(f"{title} (page {number} of {len(pages)})", "bold")
        head = renderer.render((heading,), {}, columns)
        prompt = (
            "Enter: next page, q: back to the game."
            if number < len(pages)
            else "Enter: back to the game."
        )
        frames.append(([*head, "", *chunk], prompt))
    return frames
