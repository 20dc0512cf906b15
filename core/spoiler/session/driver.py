"""A game driven from outside: its decisions come out as ``Pending`` objects and go back in
as answers, so that a front end that waits on something else (an SSH channel, a web request,
a learning loop, a bot in another process) drives a whole game without a thread of its own.

The engine asks its agents push-style: a card's effect calls ``play.ask(...)`` and gets the
answer back, deep inside a round. The driver keeps that: the game runs in a greenlet (a
coroutine of its own stack, on the caller's thread), and a seat the driver stands in for
switches back to the caller whenever that seat must decide. Nothing else differs from a game
played straight through: the same rules, the same events, the same decisions record, so a
driven game's record replays (and ``--verify``\\ s) like any other.

    driver = Driver(game, seats={0})       # seat 0 decides from outside; the others' agents
    while not driver.over:                 # decide inside the game, as ever
        for pending in driver.pending():   # everyone who must decide now, at once
            driver.answer(pending, choose(pending.view, pending.question))

Selections are simultaneous (ruling 2): when a round's selection begins, every driven seat
that must select is pending at once, whatever the order the engine later reads them in.
Questions come one at a time, as cards ask them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from operator import attrgetter

from greenlet import getcurrent, greenlet

from spoiler.model.views import PlayerView, Question, Selection

_NOTHING = object()
_BY_SEAT = attrgetter("seat")


@dataclass(eq=False)
class Pending:
    """A decision a seat must make now: a selection (``question`` None) or the answer to
    a card's question. ``view`` is what that seat may see at this moment; ``error`` (on the
    view) says why its previous answer was refused, when it is asked again."""

    seat: int
    view: PlayerView
    question: Question | None = None
    _answer: object = field(default=_NOTHING, repr=False)

    @property
    def kind(self) -> str:
        """ "select" or "answer"."""
        return "select" if self.question is None else "answer"

    @property
    def answered(self) -> bool:
        return self._answer is not _NOTHING


class DriverError(RuntimeError):
    """The driver was used out of turn: an answer to a decision that is not pending, or
    twice, or a game driven after it ended."""


class Driver:
    """Runs ``game`` with the decisions of ``seats`` (default: every seat) pulled out as
    ``Pending`` objects. ``after_round(game)`` is called after each whole round, inside the
    game (a recorder's place)."""

    def __init__(
        self,
        game,
        seats: set[int] | None = None,
        *,
        after_round: Callable[..., object] | None = None,
    ):
        self.game = game
        self.driven = set(range(len(game.seats))) if seats is None else set(seats)
        self.after_round = after_round
        self._pending: dict[int, Pending] = {}
        self._early: dict[int, Pending] = {}  # answered before the game asked for them
        self._waiting: Pending | None = None  # what the game is stopped on
        self._selection_round = -1  # the round whose selections were last put out at once
        #: The driven seats' own agents, given back when the game ends (``_play``).
        self._agents = {seat: game.seats[seat].agent for seat in self.driven}
        for seat in self.driven:
            game.seats[seat].agent = _Driven(self, seat)
        self._game = greenlet(self._play)
        self._advance()

    # -- what a front end calls ------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self._game.dead

    def pending(self) -> list[Pending]:
        """Every decision waiting now, in seat order (empty once the game is over)."""
        return sorted(self._pending.values(), key=_BY_SEAT)

    def answer(self, pending: Pending, value) -> None:
        """Give a pending decision its answer: a ``Selection`` for a selection, one of the
        question's options for a question. An answer the rules refuse comes back as a new
        pending decision for that seat, its view saying why. The game goes on as far as it
        can before this returns."""
        if self._pending.get(pending.seat) is not pending or pending._answer is not _NOTHING:
            raise DriverError(f"seat {pending.seat} has no such decision pending")
        if pending.question is None and not isinstance(value, Selection):
            raise DriverError(f"a selection is a Selection, not {value!r}")
        pending._answer = value
        del self._pending[pending.seat]
        if self._waiting is pending:
            self._advance()
        else:  # the game reads it when it comes to this seat
            self._early[pending.seat] = pending

    # -- the game's side ---------------------------------------------------------------------
    def _play(self) -> None:
        game = self.game
        try:
            while not game.over:
                game.play_round()
                if self.after_round is not None:
                    self.after_round(game)
        finally:
            # The seats get their own agents back: the stand-ins point at the driver, which
            # holds the game, so a game left with them is freed only by the garbage collector.
            for seat, agent in self._agents.items():
                game.seats[seat].agent = agent

    def _advance(self) -> None:
        """Run the game until it waits on a decision not answered yet, or ends. What the
        game raises (a runaway round, a misbehaving agent) is raised here."""
        self._waiting = None
        # Where the game comes back to when it waits, ends or raises: whoever drove it on.
        self._caller = self._game.parent = getcurrent()
        self._game.switch()

    def _decide(self, seat: int, view: PlayerView, question: Question | None):
        """Called by a driven seat's agent, inside the game: the answer, once there is one."""
        if question is None and view.error is None and self._selection_round != view.round:
            self._selection_round = view.round
            self._put_out_selections(seat, view)
        pending = self._early.pop(seat, None) or self._pending.get(seat)
        if pending is None or question is not None or view.error is not None:
            pending = self._pending[seat] = Pending(seat, view, question)
        while pending._answer is _NOTHING:
            self._waiting = pending
            self._caller.switch()
        return pending._answer

    def _put_out_selections(self, asking: int, view: PlayerView) -> None:
        """The round's selection begins: every driven seat that must select is pending now.
        Nothing changes while players choose, so the others' views share the public parts
        of the asking seat's (the rows, the discard pile, the ongoing effects), as the
        engine's own views of this moment do."""
        others = self.driven - {asking}
        table = (view.discard, view.ongoing)
        self._pending[asking] = Pending(asking, view)
        for seat, seen in self.game.selection_views(others, view.players, table).items():
            self._pending[seat] = Pending(seat, seen)


class _Driven:
    """The agent of a seat whose decisions come from outside the game."""

    def __init__(self, driver: Driver, seat: int):
        self.driver, self.seat = driver, seat

    def select(self, view: PlayerView) -> Selection:
        return self.driver._decide(self.seat, view, None)

    def answer(self, view: PlayerView, question: Question) -> str:
        return self.driver._decide(self.seat, view, question)
