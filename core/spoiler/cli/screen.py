"""The terminal a game is played on: it narrates the game's events as its reader may see
them, draws the table of players, and reads answers line by line.

Who reads the shared screen decides what it tells:

* ``EVERYTHING`` (a game of bots, watched): every event in full, every hand in the table;
* one seat (one human against bots): that player's view, private events included;
* ``None`` (several humans at one keyboard): public events only. Each human sees their own
  private events when the keyboard is theirs (see ``spoiler.cli.human``).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from rich.console import Console
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from spoiler.narrate import MINOR, narrate, ordinal
from spoiler.state import Status
from spoiler.views import PlayerInfo

if TYPE_CHECKING:
    from spoiler.engine import Game

#: The reader of a watched game of bots: sees every event and every hand.
EVERYTHING = "everything"

STATUS_STYLE = {Status.LOST: "red", Status.IN_PLAY: "", Status.WON: "bold green"}
EVENT_STYLE = {
    "lost": "red",
    "won": "bold green",
    "game_over": "bold",
    "cancelled": "yellow",
    "redirected": "yellow",
    "fizzled": "magenta",
    "rule_failed": "magenta",
    "loss_prevented": "cyan",
    "win_prevented": "cyan",
}


class Screen:
    """One terminal, following one game."""

    game: Game  # the game it follows, from follow() on

    def __init__(self, console: Console, reader=EVERYTHING, stdin=None):
        self.console = console
        self.reader = reader
        self._stdin = stdin
        self.told = 0  # how many of the game's events have been narrated

    @property
    def stdin(self):
        return self._stdin or sys.stdin

    def follow(self, game: Game) -> None:
        self.game = game
        self.told = 0

    # -- narration -------------------------------------------------------------------------
    def seen(self, event, reader):
        return event if reader == EVERYTHING else event.seen_by(reader)

    def say(self, event, reader, *, indent: int = 2) -> None:
        """Print one event as ``reader`` saw it, styled by its kind."""
        game = self.game
        you = reader if isinstance(reader, int) else None
        names = [p.name for p in game.state.players]
        sentence = narrate(self.seen(event, reader), names, game.cards_by_id, you)
        style = "dim" if event.kind in MINOR else EVENT_STYLE.get(event.kind, "")
        if event.kind == "round_started":
            self.console.print()
            self.console.rule(Text(f"Round {event.round}", style="bold"))
        # Padding keeps wrapped lines indented under the sentence's first line.
        self.console.print(Padding(Text(sentence, style=style), (0, 0, 0, indent), expand=False))

    def catch_up(self) -> None:
        """Narrate the events since the last call, as this screen's reader sees them."""
        log = self.game.state.log
        while self.told < len(log):
            event = log[self.told]
            self.told += 1
            self.say(event, self.reader)

    # -- the table -------------------------------------------------------------------------
    def public_players(self) -> list[PlayerInfo]:
        game = self.game
        return [
            PlayerInfo(
                p.seat, p.name, p.status, len(p.hand), game.priority_of(p.seat), dict(p.counters)
            )
            for p in game.state.players
        ]

    def players_table(
        self,
        players,
        *,
        you: int | None = None,
        kinds=None,
        hands: dict | None = None,
        title: str | None = None,
    ) -> Table:
        """Players in priority order, numbered by seat (the numbers target prompts use)."""
        table = Table(title=title, title_justify="left", show_edge=False, pad_edge=False)
        table.add_column("#", justify="right")
        table.add_column("Player")
        table.add_column("Priority")
        table.add_column("Status")
        table.add_column("Hand", justify="right")
        table.add_column("Counters")
        if hands is not None:
            table.add_column("Cards")
        for p in sorted(players, key=lambda p: p.priority):
            name = Text(p.name, style="bold" if p.seat == you else "")
            if p.seat == you:
                if p.name.lower() != "you":
                    name.append(" (you)")
            elif kinds and kinds[p.seat] != "human":
                name.append(f" ({kinds[p.seat]} bot)", style="dim")
            counters = ", ".join(
                f"{k.rpartition(':')[2]} {v}" for k, v in sorted(p.counters.items()) if v
            )
            row: list[str | Text] = [
                str(p.seat + 1),
                name,
                ordinal(p.priority),
                Text(str(p.status), style=STATUS_STYLE[p.status]),
                str(p.hand_size),
                counters,
            ]
            if hands is not None:
                row.append(", ".join(c.name for c in hands[p.seat]))
            table.add_row(*row)
        return table

    def standings(self, title: str) -> None:
        """The public table (with every hand, for spectators)."""
        game = self.game
        hands = {p.seat: p.hand for p in game.state.players} if self.reader == EVERYTHING else None
        you = self.reader if isinstance(self.reader, int) else None
        self.console.print()
        self.console.print(
            self.players_table(
                self.public_players(),
                you=you,
                hands=hands,
                kinds=[s.kind for s in game.seats],
                title=title,
            )
        )

    # -- input -----------------------------------------------------------------------------
    def read(self, prompt: str) -> str:
        """Ask and read one line. End of input raises EOFError (the game ends cleanly).
        When stdin is not a terminal the answer is echoed, so the transcript reads well."""
        self.console.print(Text(prompt + " ", style="bold"), end="")
        self.console.file.flush()
        line = self.stdin.readline()
        if not line:
            self.console.print()
            raise EOFError
        answer = line.rstrip("\r\n")
        if not self.stdin.isatty():
            self.console.print(answer, markup=False, highlight=False)
        return answer.strip()

    def clear(self) -> None:
        """Hide what was on the screen (another player is about to sit down)."""
        if self.console.is_terminal:
            self.console.clear()
        else:
            self.console.print("\n" * 3 + "~" * 20 + " (screen cleared) " + "~" * 20 + "\n")
