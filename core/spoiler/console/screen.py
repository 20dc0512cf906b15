"""The terminal a game is played on: it narrates the game's events as its reader may see
them, draws the table of players, and reads answers line by line.

Who reads the shared screen decides what it tells:

* ``EVERYTHING`` (a game of bots, watched): every event in full, every hand in the table;
* one seat (one human against bots): that player's view, private events included;
* ``None`` (several humans at one keyboard): public events only. Each human sees their own
  private events when the keyboard is theirs (see ``spoiler.cli.human``).

Besides the events themselves it tells what they leave unsaid (``spoiler.story``): that a card
changed nothing, and why; each card's text the first time it is played; who knocked a human
out, and with what; and, at the end, who won how and who knocked out whom.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rich.console import Console
from rich.control import Control
from rich.padding import Padding
from rich.segment import ControlType, Segment
from rich.table import Table
from rich.text import Text

from spoiler.console.players import final_statuses, players_table
from spoiler.console.rendered import print_shared
from spoiler.model.state import Status
from spoiler.model.views import PlayerInfo
from spoiler.narration.narrate import MINOR, Teller, narrate
from spoiler.narration.story import PARTS, Story

if TYPE_CHECKING:
    from spoiler.rules.game import Game

#: The reader of a watched game of bots: sees every event and every hand.
EVERYTHING = "everything"
#: When a card's text is shown with the card as it is played (``--card-text``).
CARD_TEXT = ("first", "always", "never")
#: The pause after each event when bots are watched on a terminal and no --delay was given.
WATCHING_DELAY = 0.5


class QuitGame(EOFError):
    """A player typed ``q``: the game stops as at the end of input (an EOFError, so that it
    passes through the engine and card effects the same way), with the offer to save it."""


def _clear_scrollback() -> Control:
    """ED 3 ("erase saved lines"): xterm's code for clearing the scrollback, which rich lacks.
    Terminals that do not know it ignore it."""
    control = Control()
    control.segment = Segment("\x1b[3J", None, [(ControlType.CLEAR,)])
    return control


CLEAR_SCROLLBACK = _clear_scrollback()

EVENT_STYLE = {
    "lost": "red",
    "won": "bold green",
    "game_over": "bold",
    "cancelled": "yellow",
    "redirected": "yellow",
    "fizzled": "magenta",
    "rule_failed": "magenta",
    "target_failed": "magenta",
    "loss_prevented": "cyan",
    "win_prevented": "cyan",
}


class Screen:
    """One terminal, following one game. It reads what a front end may: the table view
    (``Game.table``), the events as its reader saw them, and the game's cards, labels and
    sets; never the game's state."""

    game: Game  # the game it follows, from follow() on
    story: Story  # what came of its plays so far, from follow() on

    def __init__(
        self,
        console: Console,
        reader=EVERYTHING,
        stdin=None,
        *,
        delay: float | None = None,
        card_text: str = "first",
    ):
        self.console = console
        self.reader = reader
        self._stdin = stdin
        self.told = 0  # how many of the game's events have been narrated
        #: Seconds to wait after each event worth reading (``--delay``; None: see ``pace``).
        self.delay = delay
        self.card_text = card_text
        #: True while the events are not shown (a knocked-out player skipping to the result).
        self.quiet = False
        self._texts_shown: set[str] = set()
        self._noticed = 0
        #: The command that plays this game again given its seed, told with the seed when the
        #: game ends (``spoiler.session.recording.play_command``; None: only the seed is told).
        self.again: Callable[[int], str | None] = lambda seed: None

    @property
    def stdin(self):
        return self._stdin or sys.stdin

    def follow(self, game: Game) -> None:
        self.game = game
        self.names = [p.name for p in game.table().players]  # (a replaced seat's: see replace)
        self.told = 0
        self.story = Story(game.cards_by_id)
        self._texts_shown = set()
        self._noticed = 0  # knockouts told so far
        self._faults: dict[int, int] = {}  # the bots' faults told so far, per seat
        self._pending_faults: list = []
        self.replaced: dict[int, int] = {}  # seats a bot took over: seat -> from which round

    def replace(self, seat: int, since: int | None = None) -> None:
        """A bot plays ``seat`` from now on (a hosted player who left; in a replay, from
        round ``since``): the seat is named "NAME (bot)" everywhere from here on, and the end
        screen says who was replaced."""
        if seat not in self.replaced:
            self.replaced[seat] = since or max(1, self.game.round)
            self.names[seat] = f"{self.names[seat]} (bot)"

    def notice(self, text: str, style: str = "bold") -> None:
        """One line from outside the game (someone joined or left, a bot took a seat, a chat
        line), in a line of its own: every notice goes through here, so a front end can give
        them their own area."""
        self.console.print(Text(text, style=style), soft_wrap=True)

    def table(self):
        """The table as this screen may show it: with every hand to a watcher of bots."""
        return self.game.table(hands=self.reader == EVERYTHING)

    def humans(self) -> list[int]:
        return [seat for seat, kind in enumerate(self.game.table().kinds) if kind == "human"]

    def humans_in_play(self) -> list[int]:
        players = self.game.table().players
        return [seat for seat in self.humans() if players[seat].status is not Status.LOST]

    def pace(self) -> float:
        """Seconds to wait after an event: ``--delay`` when given; else, on a terminal, half a
        second while no human is in play (bots watched), and none otherwise."""
        if self.delay is not None:
            return self.delay
        if self.console.is_terminal and not self.humans_in_play():
            return WATCHING_DELAY
        return 0.0

    def you(self, reader=None) -> int | None:
        reader = self.reader if reader is None else reader
        return reader if isinstance(reader, int) else None

    # -- narration -------------------------------------------------------------------------
    def seen(self, event, reader):
        return event if reader == EVERYTHING else event.seen_by(reader)

    def say(self, event, reader, *, indent: int = 2) -> None:
        """Print one event as ``reader`` saw it, styled by its kind."""
        game = self.game
        you = reader if isinstance(reader, int) else None
        sentence = narrate(self.seen(event, reader), self.names, game.cards_by_id, you, game.labels)
        style = "dim" if event.kind in MINOR else EVENT_STYLE.get(event.kind, "")
        if event.kind == "round_started":
            self.console.print()
            self.console.rule(Text(f"Round {event.round}", style="bold"))
        # Padding keeps wrapped lines indented under the sentence's first line.
        print_shared(
            self.console, Padding(Text(sentence, style=style), (0, 0, 0, indent), expand=False)
        )

    def events(self) -> Sequence:
        """The events this screen tells, as its reader saw them."""
        if self.reader == EVERYTHING:
            return self.game.every_event()
        return self.game.events_seen_by(self.reader)

    def catch_up(self) -> None:
        """Narrate the events since the last call, as this screen's reader sees them, with
        what they leave unsaid."""
        from spoiler.agents import new_faults

        log = self.events()
        self._pending_faults += new_faults(self.game, self._faults)
        while self.told < len(log):
            event = log[self.told]
            self.told += 1
            seen = self.seen(event, self.reader)
            idle = self.story.feed(seen)
            knockouts = self.story.knockouts[self._noticed :]
            self._noticed += len(knockouts)
            if self.quiet:
                continue
            if idle is not None:
                why = self.story.why(idle, self.names, self.you())
                print_shared(
                    self.console, Padding(Text(why, style="magenta"), (0, 0, 0, 2), expand=False)
                )
            if last_shift(log, self.told - 1):
                continue
            self.say(event, self.reader)
            if event.kind == "round_started":  # a fault comes in its round, as it is chosen
                self._tell_faults(event.round)
            if event.kind in PARTS:
                self._card_text(seen)
            for knockout in knockouts:
                if knockout.seat == self.you() or knockout.seat in self.humans():
                    self._knocked_out(knockout)
            if event.kind not in MINOR:
                pause = self.pace()
                if pause:
                    self.wait(pause)
        self._tell_faults(self.game.round)  # (a replay's recorded faults wait for their round)

    def _tell_faults(self, until: int) -> None:
        """One line for each fault of a bot (``spoiler.agents.Fault``) of a round up to
        ``until``."""
        due = [f for f in self._pending_faults if f.round <= until]
        self._pending_faults = [f for f in self._pending_faults if f not in due]
        if self.quiet:
            return
        for fault in due:  # one line, however narrow the screen (as errors are)
            line = Text(f"  {self.names[fault.seat]}: {fault.text}", style="yellow")
            self.console.print(line, soft_wrap=True)

    def _card_text(self, event) -> None:
        """A card's printed text under the first play of it (or every play, or never)."""
        # A replaced play's text is that of the card it resolves as, not the one selected.
        card = self.game.cards_by_id.get(self.story.resolving(event))
        if card is None or self.card_text == "never" or not card.text:
            return
        if self.card_text == "first" and card.id in self._texts_shown:
            return
        self._texts_shown.add(card.id)
        text = Text(f"{card.name}: {card.text}", style="dim italic")
        print_shared(self.console, Padding(text, (0, 0, 0, 4), expand=False))

    def _knocked_out(self, knockout) -> None:
        """The notice a human gets when they are out."""
        you = self.you()
        name = self.names[knockout.seat]
        if knockout.seat == you:
            who = "You are"
        else:  # (a player at one keyboard may be called You)
            who = f"{name} {'are' if name.lower() == 'you' else 'is'}"
        how = self.knockout_cause(knockout, you)
        self.console.print()
        self.console.print(
            Padding(Text(f"{who} out: {how}.", style="bold red"), (0, 0, 0, 2), expand=False)
        )

    def knockout_cause(self, knockout, you=None) -> str:
        """'knocked out by Bix's Accuse in round 1'."""
        return f"knocked out by {self.whose_card(knockout, you)} in round {knockout.round}"

    def whose_card(self, outcome, you=None) -> str:
        """The card behind an outcome, and whose it was: "Bix's Accuse", "your own Jewel"."""
        game = self.game
        teller = Teller(self.names, game.cards_by_id, you, game.labels)  # a rule by its label
        what = teller.card(outcome.card) if outcome.card else "the rules"
        if outcome.by is None:
            return what
        if outcome.by == outcome.seat:
            return f"{'your' if outcome.seat == you else 'their'} own {what}"
        return f"your {what}" if outcome.by == you else f"{self.names[outcome.by]}'s {what}"

    def show_log(self, view) -> None:
        """``log`` at a prompt: this game's events as the player saw them, paged."""
        lines = self.log_lines(view.events, view.seat)
        self.page(lines, f"The game so far, as {view.me.name} saw it")

    def log_lines(self, events: Sequence, you: int | None) -> list[Text]:
        """``events`` (as someone saw them: ``you``, or a spectator) told as the log tells
        them, a round's heading before its events."""
        lines = []
        for i, event in enumerate(events):
            if last_shift(events, i):
                continue
            if event.kind == "round_started":
                lines.append(Text(f"Round {event.round}", style="bold"))
            sentence = narrate(event, self.names, self.game.cards_by_id, you)
            lines.append(Text("  " + sentence, style="dim" if event.kind in MINOR else ""))
        return lines

    def page(self, lines, title: str) -> None:
        """Lines through a pager on a terminal (``$PAGER``, else less), printed otherwise."""
        console = self.console
        if console.is_terminal:
            from spoiler.console.paging import paged

            with paged(console):
                console.print(Text(title, style="bold"))
                for line in lines:
                    console.print(line)
        else:
            console.print(Text(title, style="bold"))
            for line in lines:
                console.print(line)

    def set_rules(self) -> None:
        """The rules the game's sets add to Spoiler's own (``CardSet(rules=...)``)."""
        for card_set in self.game.sets:
            if getattr(card_set, "rules", ""):
                self.console.print(
                    Text(f"{card_set.title} rules: ", style="bold").append(card_set.rules, style="")
                )

    def show_rules(self) -> None:
        """``rules`` at a prompt: the rules the game's sets add, or that they add none."""
        if any(getattr(card_set, "rules", "") for card_set in self.game.sets):
            self.set_rules()
        else:
            self.console.print(
                "The sets of this game add no rules of their own (Spoiler's own: spoiler rules).",
                markup=False,
            )

    # -- the table -------------------------------------------------------------------------
    def public_players(self) -> tuple[PlayerInfo, ...]:
        return self.game.table().players

    def players_table(self, players, **options) -> Table:
        """The table of players (``spoiler.console.players.players_table``) in this game's
        names for its counters, with the seats a bot took over marked."""
        labels = getattr(self.game, "labels", None)  # the sets' names for their counters
        replaced = getattr(self, "replaced", {})
        return players_table(players, labels=labels, replaced=replaced, **options)

    def standings(self, title: str) -> None:
        """The public table (with every hand, for spectators). Once the game is over, the
        status column says how each player ended: won (by default), lost, or a draw."""
        table = self.table()
        self.console.print()
        self.console.print(
            self.players_table(
                table.players,
                you=self.you(),
                hands=None if table.hands is None else dict(enumerate(table.hands)),
                kinds=table.kinds,
                title=title,
                outcome=self._outcome(table),
            )
        )

    def _outcome(self, table) -> dict | None:
        return final_statuses(table)

    def end(self) -> None:
        """The end of a game: the final table, who won and how, who knocked out whom."""
        game, console = self.game, self.console
        if self.quiet:  # skipped to the result: the last round is worth seeing
            self.quiet = False
        self.standings("Final table")
        names, you = self.names, self.you()
        if self.story.knockouts:
            console.print()
            console.print("Knocked out:", markup=False)
            for k in self.story.knockouts:
                who = "you" if k.seat == you else names[k.seat]
                console.print(
                    f"  Round {k.round}: {who}, by {self.whose_card(k, you)}.", markup=False
                )
        if self.replaced:
            console.print()
            for seat, since in sorted(self.replaced.items()):
                console.print(
                    f"Replaced by a bot: {names[seat].removesuffix(' (bot)')}, "
                    f"from round {since} on.",
                    markup=False,
                )
        console.print()
        result = game.table().result
        assert result is not None
        if result.kind == "win":  # who won, and with what
            for seat in result.winners:
                win = self.story.wins.get(seat)
                how = ""
                if win is not None:
                    card = self.game.cards_by_id.get(win.card or "")
                    mine = card.name if card is not None and win.by == seat else None
                    how = f", with {mine or self.whose_card(win, you)}"
                if win is not None and win.round != result.round:
                    how += f" (in round {win.round})"
                console.print(
                    f"{names[seat]} won in round {result.round}{how}.", style="bold", markup=False
                )
        else:
            console.print(result.describe(names), style="bold", markup=False)
        # The seed gave every hand away, so it is told only now that the game is over, by
        # the game's last word (the game_over event).
        over = next(e for e in reversed(self.events()) if e.kind == "game_over")
        seed = over.data["seed"]
        again = self.again(seed)
        if again is None:
            console.print(f"Seed: {seed} (replay with --seed {seed}).", markup=False)
        else:
            # One line however narrow the terminal, so that it can be copied as it is.
            console.print(f"Seed: {seed}. Play it again: {again}", markup=False, soft_wrap=True)

    def wait(self, seconds: float) -> None:
        """The pause after an event worth reading, while bots are watched."""
        self.console.file.flush()
        time.sleep(seconds)

    # -- input -----------------------------------------------------------------------------
    def read(self, prompt: str, answers: Sequence[str] = ()) -> str:
        """Ask and read one line. End of input raises EOFError (the game ends cleanly).
        When stdin is not a terminal the answer is echoed, so the transcript reads well. At
        this process's own terminal, what was typed before the prompt is dropped, and the line
        can be edited, Tab completing ``answers``, the commands and card names."""
        from spoiler.console import lineedit

        if self._stdin is None and lineedit.available(sys.stdin):
            lineedit.discard_typeahead(sys.stdin)
            with self.console.capture() as rendered:
                self.console.print(Text(prompt + " ", style="bold"), end="")
            game = getattr(self, "game", None)
            cards = {c.name for c in game.cards_by_id.values()} if game is not None else ()
            try:
                return lineedit.read_line(rendered.get(), answers, cards).strip()
            except EOFError:
                self.console.print()  # Ctrl-D ends no line of its own
                raise
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
        """Hide what was on the screen (another player is about to sit down): on a terminal,
        the screen and its scrollback too, so that no one can scroll back up to it."""
        if self.console.is_terminal:
            self.console.clear()
            # After the screen: some terminals move a cleared screen into the scrollback.
            self.console.control(CLEAR_SCROLLBACK)
        else:
            self.console.print("\n" * 3 + "~" * 20 + " (screen cleared) " + "~" * 20 + "\n")

    # -- what a full-screen table needs to know (nothing to do in a transcript) -------------
    #: Does this screen draw the table and the deciding player's hand itself, in every frame
    #: (``spoiler.console.fullscreen.TableScreen``)? A transcript prints them at each decision.
    draws_table = False

    def begin_decision(self, seat: int) -> None:
        """A decision of ``seat``'s begins: what its prompts print belongs to it."""

    def deciding(self, view, shared: frozenset[str] = frozenset()) -> None:
        """The view the player decides from (a full-screen table draws its hand)."""

    def decided(self) -> None:
        """The decision is made (or given up)."""

    def round_over(self) -> None:
        """A whole round was told (a full-screen table holds it until it has been read)."""

    def waiting(self, text: str) -> None:
        """A line while the game waits for others (a hosted seat that has chosen)."""
        self.console.print(Text(text, style="dim"))


def last_shift(log: Sequence, i: int) -> bool:
    """Is ``log[i]`` the priority shift of the game's last round? It announces a next round
    that never comes (the game is over), so it is not told."""
    return (
        log[i].kind == "priorities_shifted" and i + 1 < len(log) and log[i + 1].kind == "game_over"
    )
