"""The seats of a hosted game and how their players decide.

Each player who joined over SSH sits at a ``HostedSeat``; the engine asks its ``RemoteAgent``,
which puts the question to the player's own screen (the same ``HumanAgent`` prompts as local
play) in a thread of its own. At the start of a round every remote player is asked at once,
so everyone chooses at the same time, as the rules say; the engine then collects the
answers in priority order.

A player whose connection drops keeps their seat for ``wait`` seconds: a question waiting
for them waits too, and if they come back (same name and code, and their seat key) it is
asked again on their new screen. After that a bot takes the seat for the rest of the game and everyone is told.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from rich.text import Text

from spoiler.console.human import COMMANDS, HumanAgent
from spoiler.console.screen import QuitGame
from spoiler_game.host import tablescreen
from spoiler_game.host.safety import name_key
from spoiler_game.host.terminal import (
    Dropped,
    HostedScreen,
    Stopped,
    Terminal,
    TurnClock,
    TurnOver,
)

#: While a dropped seat waits for its player: the most often (in seconds) the others are told
#: how long it still waits, and the fewest times (a quarter of ``--wait``, at least this).
WAITING_EVERY = 2.0
#: Failed prompts in a row after which a bot takes the seat (a prompt that fails is that
#: seat's problem: it is asked again, and the rest of the table never notices).
MAX_FAILURES = 3


class HostedHuman(HumanAgent):
    """The prompts of local play, where ``q`` leaves the game rather than stopping it."""

    commands = tuple(
        (command, "leave the game (join again with the same name to come back)")
        if command == "q"
        else (command, meaning)
        for command, meaning in COMMANDS
    )
    hint = "Type ? for help, ? NAME for a card, q to leave."


class HostedSeat:
    """A seat taken by a player over SSH: their current terminal, or the bot that replaced
    them."""

    def __init__(self, index: int, name: str):
        self.index = index
        self.name = name
        self.terminal: Terminal | None = None
        self.screen: HostedScreen | None = None
        self.human: HostedHuman | None = None
        self.bot = None
        self.drops = 0  # counts drops, so a late timer for an old drop does nothing
        self.failures = 0  # prompts that failed in a row
        self.stand_in = None  # the bot that decides when their time runs out
        self.key = ""  # the seat key its player was given: taking the seat back needs it
        self.public_keys: frozenset[bytes] = frozenset()  # or one of their ssh keys
        self.busy = threading.Lock()  # one question at a time on this seat

    @property
    def connected(self) -> bool:
        return self.terminal is not None and not self.terminal.closed


class RemoteAgent:
    """The engine's agent for a hosted seat."""

    def __init__(self, table: Table, seat: HostedSeat):
        self.table = table
        self.seat = seat

    def select(self, view):
        return self.table.selection(self.seat, view)

    def answer(self, view, question):
        return self.table.decide(
            self.seat,
            lambda human: human.answer(view, question),
            lambda bot: bot.answer(view, question),
        ).result()


class Table:
    """The hosted seats of one game, and everything that happens to them from outside the
    game: joining again, dropping out, being replaced by a bot, the host stopping it all.

    ``call_later(delay, fn)`` schedules on the server's loop; ``make_bot(seat)`` makes the
    agent that takes over a seat; ``tell_host(text)`` prints on the host's own terminal.
    """

    def __init__(
        self,
        names: list[str],
        *,
        wait: float,
        call_later: Callable,
        make_bot: Callable,
        bot_kind: str,
        tell_host: Callable[[str], None],
        leaving_words: Callable[[str], str] = lambda name: "You left the game.",
        turn_time: float = 0,
        watchers: Callable[[], list] = list,
        host_screen_replace: Callable[[int], None] = lambda seat: None,
        plain: bool = False,
    ):
        self.plain = plain  # every seat a transcript, not the full-screen table
        self.seats = [HostedSeat(i, name) for i, name in enumerate(names)]
        #: The screens of those watching (spectators), told what every player is told.
        self.watchers = watchers
        self.host_screen_replace = host_screen_replace
        self.wait = wait
        self.turn_time = turn_time  # seconds a seat has for each decision (0: no limit)
        self.call_later = call_later
        self.make_bot = make_bot
        self.bot_kind = bot_kind
        self.tell_host = tell_host
        self.leaving_words = leaving_words
        self.game: Any = None  # the Game, set before it starts
        self.stopping = False
        self.finished = False
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)
        self._asked_round = 0
        self._pending: dict[int, Future] = {}

    def agents(self) -> list[RemoteAgent]:
        return [RemoteAgent(self, seat) for seat in self.seats]

    def seat_named(self, name: str) -> HostedSeat | None:
        key = name_key(name)
        return next((s for s in self.seats if name_key(s.name) == key), None)

    # -- telling everyone ------------------------------------------------------------------
    def tell(self, message: str, *, style: str = "bold", but: HostedSeat | None = None) -> None:
        """A line for every connected player (but one) and the host."""
        for seat in self.seats:
            terminal = seat.terminal
            if seat is not but and terminal is not None and not terminal.closed:
                (seat.screen or terminal).notice(message, style)
        for screen in self.watchers():
            screen.notice(message, style)
        self.tell_host(message)

    def replaced(self, seat: HostedSeat) -> None:
        """A bot plays ``seat`` from now on: every screen names it "NAME (bot)"."""
        for other in self.seats:
            if other.screen is not None:
                other.screen.replace(seat.index)
        for screen in self.watchers():
            screen.replace(seat.index)
        self.host_screen_replace(seat.index)

    def tell_rules(self) -> None:
        """Every connected player's screen shows the rules the game's sets add."""
        for seat in self.seats:
            if seat.connected and seat.screen is not None:
                seat.screen.set_rules()
        for screen in self.watchers():
            screen.set_rules()

    # -- connections (called on the server's loop) -----------------------------------------
    def connect(self, seat: HostedSeat, terminal: Terminal, *, first: bool = False) -> None:
        """A player takes (or takes back) their seat on this terminal."""
        with self.lock:
            old = seat.terminal
            seat.terminal = terminal
            seat.screen = self._screen(seat, terminal)
            seat.human = HostedHuman(seat.screen)
            seat.drops += 1
            if old is not None:
                old.close()
            self.changed.notify_all()
        if not first:
            seat.screen.start_of_round()
            welcome = f"Welcome back, {seat.name}. Here is this round so far."
            if seat.screen.draws_table:
                seat.screen.notice(welcome)
            else:
                terminal.console.print(Text(welcome, style="bold"))
            self.tell(f"{seat.name} is back.", but=seat)

    def _screen(self, seat: HostedSeat, terminal: Terminal) -> HostedScreen:
        """The seat's screen: the full-screen table on a terminal that can draw it."""
        if tablescreen.wants_table(terminal, self.plain):
            return tablescreen.HostedTableScreen(terminal, seat.index, self.game)
        return HostedScreen(terminal, seat.index, self.game)

    def disconnect(self, seat: HostedSeat, terminal: Terminal) -> None:
        """A player's connection closed: their seat waits ``wait`` seconds for them."""
        with self.lock:
            if seat.terminal is not terminal or seat.bot is not None:
                return  # an old connection, or the seat is a bot's already
            terminal.close()
            seat.terminal = None
            seat.drops += 1
            drop = seat.drops
            self.changed.notify_all()
            if self.finished or self.stopping:
                return
        self.call_later(self.wait, lambda: self._expire(seat, drop))
        self.tell(
            f"{seat.name} dropped out. Their seat waits {self.wait:g} s for them to join again.",
            style="yellow",
        )
        every, dropped = max(WAITING_EVERY, self.wait / 4), time.monotonic()
        self.call_later(every, lambda: self._still_waiting(seat, drop, dropped, every))

    def _still_waiting(self, seat: HostedSeat, drop: int, since: float, every: float) -> None:
        """The others are told how long the dropped seat still waits (every ``every`` s)."""
        with self.lock:
            if seat.drops != drop or seat.bot is not None or self.finished or self.stopping:
                return  # they came back, a bot took the seat, or the game is over
        left = self.wait - (time.monotonic() - since)
        if left < 0.5:
            return
        self.tell(
            f"Waiting for {seat.name} to come back: {left:.0f} s left, then a {self.bot_kind} "
            f"bot plays for them.",
            style="dim",
        )
        if left > every:
            self.call_later(every, lambda: self._still_waiting(seat, drop, since, every))

    def _expire(self, seat: HostedSeat, drop: int) -> None:
        with self.lock:
            if seat.drops != drop or seat.bot is not None or self.finished or self.stopping:
                return
            seat.bot = self.make_bot(seat.index)
            self.changed.notify_all()
        self.replaced(seat)
        self.tell(
            f"{seat.name} did not come back within {self.wait:g} s: "
            f"a {self.bot_kind} bot plays for them from now on.",
            style="yellow",
        )

    def stop(self) -> None:
        """The host stopped the game: every question waiting for a player gives up."""
        with self.lock:
            self.stopping = True
            self.changed.notify_all()
            for seat in self.seats:
                if seat.terminal is not None:
                    seat.terminal.stop()

    # -- deciding (called from the game's thread) ------------------------------------------
    def decide(self, seat: HostedSeat, human: Callable, bot: Callable) -> Future:
        """Put a question to the seat's player, or to the bot that replaced them, in a
        thread of its own; the future holds the answer."""
        future: Future = Future()

        def work() -> None:
            with seat.busy:
                try:
                    future.set_result(self._decide(seat, human, bot))
                except BaseException as exc:  # handed to whoever waits for the answer
                    future.set_exception(exc)

        threading.Thread(target=work, name=f"spoiler-seat-{seat.index}", daemon=True).start()
        return future

    def _decide(self, seat: HostedSeat, human: Callable, bot: Callable):
        clock = TurnClock(self.turn_time, lambda c: self._warn(seat, c)) if self.turn_time else None
        while True:
            with self.changed:
                while not self.stopping and seat.bot is None and not seat.connected:
                    if clock is not None and clock.expired():
                        break
                    self.changed.wait(
                        None if clock is None else max(0.01, clock.deadline - clock.clock())
                    )
                if self.stopping:
                    raise Stopped
                agent = seat.human if seat.bot is None else None
                terminal = seat.terminal
            if agent is None:
                return bot(seat.bot)
            if (clock is not None and clock.expired()) or terminal is None:
                return self._stand_in(seat, bot, clock)
            terminal.clock = clock
            try:
                decided = human(agent)
            except TurnOver:
                return self._stand_in(seat, bot, clock)
            except Dropped:
                continue  # wait for them to come back (or for the bot), and ask again
            except QuitGame:  # they typed q: they leave, as if they closed the window
                current = seat.terminal
                if current is not None:
                    current.hang_up(self.leaving_words(seat.name))
                    self.disconnect(seat, current)
                continue
            except Stopped:
                raise
            except Exception as exc:  # this seat's prompt broke: theirs to retry, not the table's
                self._failed(seat, exc)
                continue
            finally:
                terminal.clock = None
            seat.failures = 0
            return decided

    def _warn(self, seat: HostedSeat, clock: TurnClock) -> None:
        """The seat's time is nearly up: they are warned, and everyone sees whom the table
        waits for, and for how long."""
        waited = round(clock.clock() - clock.started)
        left = max(1, round(clock.deadline - clock.clock()))
        self._tell_seat_and_table(
            seat,
            f"{left} s left to decide; then a {self.bot_kind} bot decides for you.",
            f"Waiting for {seat.name} ({waited} s so far): a {self.bot_kind} bot decides for "
            f"them in {left} s.",
            style="dim",
        )

    def _stand_in(self, seat: HostedSeat, bot: Callable, clock):
        """The seat's time ran out: a bot makes this one decision for them (seeded as the
        game's bots are, so the record, which keeps every decision, replays)."""
        with self.lock:
            if seat.stand_in is None:
                seat.stand_in = self.make_bot(seat.index)
            stand_in = seat.stand_in
        seconds = f"{clock.seconds:g} s" if clock is not None else "their time"
        self._tell_seat_and_table(
            seat,
            f"Your {seconds} ran out: a {self.bot_kind} bot decided for you this time.",
            f"{seat.name} took longer than {seconds}: a {self.bot_kind} bot decided for them "
            f"this time.",
            style="yellow",
        )
        return bot(stand_in)

    def _tell_seat_and_table(self, seat: HostedSeat, yours: str, theirs: str, style: str) -> None:
        """The seat's turn clock: ``yours`` on the seat's own terminal (when connected, in
        bold yellow), ``theirs`` for everyone else and the host (in ``style``)."""
        terminal = seat.terminal
        if terminal is not None and not terminal.closed:
            terminal.notice(yours, "bold yellow")
        self.tell(theirs, style=style, but=seat)

    def _failed(self, seat: HostedSeat, exc: Exception) -> None:
        """A prompt failed: the seat is asked again, or after ``MAX_FAILURES`` in a row a bot
        takes it. Everyone is told who and why, in one line."""
        seat.failures += 1
        why = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        terminal = seat.terminal
        if seat.failures < MAX_FAILURES:
            if terminal is not None and not terminal.closed:
                terminal.notice(f"Sorry, that prompt failed ({why}). Asking again.", "yellow")
            self.tell_host(f"{seat.name}'s prompt failed ({why}); asking again.")
            return
        with self.lock:
            if seat.bot is None:
                seat.bot = self.make_bot(seat.index)
            self.changed.notify_all()
        self.replaced(seat)
        self.tell(
            f"{seat.name}'s prompt failed {seat.failures} times in a row ({why}): "
            f"a {self.bot_kind} bot plays for them from now on.",
            style="yellow",
        )

    def selection(self, seat: HostedSeat, view):
        """The seat's selection for this round. The first time the engine asks in a round,
        every remote player who will choose is asked at once."""
        if view.error is not None:  # the engine refused the last one: ask again, now
            return self.decide(seat, self._select(seat, view), lambda b: b.select(view)).result()
        with self.lock:
            if view.round != self._asked_round:
                self._asked_round = view.round
                self._ask_everyone()
            future = self._pending.pop(seat.index, None)
        if future is None:
            future = self.decide(seat, self._select(seat, view), lambda b: b.select(view))
        return future.result()

    def _ask_everyone(self) -> None:
        game = self.game
        self._pending.clear()
        selecting = game.selecting()
        for seat in self.seats:
            if seat.index not in selecting:
                continue  # the engine will not ask them this round
            view = game.view(seat.index)
            self._pending[seat.index] = self.decide(
                seat, self._select(seat, view), lambda b, view=view: b.select(view)
            )

    def _select(self, seat: HostedSeat, view) -> Callable:
        def ask(human: HumanAgent):
            selection = human.select(view)
            human.screen.waiting("Waiting for the others to choose…")
            return selection

        return ask

    # -- between rounds (the game's thread) -----------------------------------------------
    def round_played(self) -> None:
        """Every connected player sees the round's events."""
        for seat in self.seats:
            if seat.connected and seat.screen is not None:
                seat.screen.catch_up()
            if self.stopping:
                raise Stopped
        for screen in self.watchers():
            screen.after_round()

    def game_over(self) -> None:
        """The game ended: each player sees the last events, the final table, who won and how,
        and the seed."""
        with self.lock:
            self.finished = True
        for seat in self.seats:
            if seat.connected and seat.screen is not None:
                seat.screen.catch_up()
                seat.screen.end()
        for screen in self.watchers():
            screen.catch_up()
            screen.end()
