"""Helpers for testing cards and rules, for the core's tests and for plugin authors.

Build a game from a hand-built state, script what each player selects, play a round, and
assert what the players would see::

    from spoiler.testing import table, play_round

    game = table([my_set], hands=[["Guard"], ["Crown", "Crown"]], deck=["Peek"] * 6)
    play_round(game, {0: ("Guard", 1, "Crown")})   # seat 1 has no choice to script? it must:
    assert game.status(1) is Status.LOST

Seats whose selection is not scripted play a uniformly random legal card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from spoiler.agents import RandomAgent
from spoiler.cards import Card, CardSet
from spoiler.engine import Game, Seat
from spoiler.events import Event
from spoiler.state import Status
from spoiler.views import PlayerView, Question, Selection


class TestAgent:
    """An agent tests drive: queued selections and answers first, then random choices."""

    __test__ = False  # not a pytest test class

    def __init__(self, seed: int = 0, seat: int = 0):
        self.selections: list[Selection] = []
        self.answers: list[str] = []
        self.fallback = RandomAgent(seed, seat)
        self.views: list[PlayerView] = []
        self.questions: list[Question] = []

    def select(self, view: PlayerView) -> Selection:
        self.views.append(view)
        if self.selections:
            return self.selections.pop(0)
        return self.fallback.select(view)

    def answer(self, view: PlayerView, question: Question) -> str:
        self.views.append(view)
        self.questions.append(question)
        if self.answers:
            return self.answers.pop(0)
        return self.fallback.answer(view, question)


def _card(game: Game, name: str) -> Card:
    wanted = name.lower()
    for card in game.cards:
        if card.id == wanted or card.name.lower() == wanted:
            return card
    raise KeyError(f"no card {name!r} in this game")


def table(
    sets: list[CardSet],
    hands: list[list[str]],
    *,
    deck: list[str] | None = None,
    discard: list[str] | None = None,
    priority: list[int] | None = None,
    statuses: dict[int, Status] | None = None,
    names: list[str] | None = None,
    seed: int = 0,
    max_rounds: int = 100,
    hooks: dict | None = None,
    strict: bool = True,
) -> Game:
    """A started game with exactly these hands (card names), deck (top card first), discard
    pile, priority order (seats, 1st first) and statuses. The deck the game was "built" with
    is what the table holds, so the conservation invariant holds."""
    names = names or [chr(ord("A") + i) for i in range(len(hands))]
    seats = [Seat(n, TestAgent(seed, i)) for i, n in enumerate(names)]
    game = Game(sets, seats, seed, max_rounds=max_rounds, hooks=hooks, strict=strict)
    game.start()
    st = game.state
    for seat, hand in enumerate(hands):
        st.players[seat].hand = [_card(game, n) for n in hand]
    st.deck = [_card(game, n) for n in reversed(deck or [])]
    st.discard = [_card(game, n) for n in (discard or [])]
    if priority is not None:
        st.priority = list(priority)
    for seat, status in (statuses or {}).items():
        st.players[seat].status = status
    st.built = [c for p in st.players for c in p.hand] + st.deck + st.discard
    return game


def agent(game: Game, seat: int) -> TestAgent:
    return game.seats[seat].agent


def play_round(
    game: Game,
    selections: dict[int, tuple] | None = None,
    answers: dict[int, list[str]] | None = None,
) -> list:
    """Script this round's selections ({seat: (card name, target or targets, info)}) and
    answers ({seat: [answer, ...]}), play the round, and return its events."""
    for seat, choice in (selections or {}).items():
        name, *rest = choice if isinstance(choice, tuple) else (choice,)
        targets = rest[0] if rest else ()
        targets = (targets,) if isinstance(targets, int) else tuple(targets or ())
        info = rest[1] if len(rest) > 1 else None
        agent(game, seat).selections.append(Selection(name, targets, info))
    for seat, queued in (answers or {}).items():
        agent(game, seat).answers.extend(queued)
    start = len(game.state.log)
    game.play_round()
    return game.state.log[start:]


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events]


class InvariantBroken(AssertionError):
    """An engine invariant does not hold. Raised explicitly (not by ``assert``), so the
    checks hold under ``python -O`` too; an AssertionError, so pytest reports it as one."""


def check_invariants(game: Game) -> None:
    """The engine's invariants between rounds; raises InvariantBroken naming the broken one."""
    st = game.state
    table_now = Counter(c.id for c in st.deck + st.discard + st.in_play)
    for p in st.players:
        table_now.update(c.id for c in p.hand)
    table_now.update(play.card.id for play in st.plays)
    built = Counter(c.id for c in st.built)
    if table_now != built:
        raise InvariantBroken(
            f"cards not conserved: {dict(table_now - built)} extra, "
            f"{dict(built - table_now)} missing"
        )
    if sorted(st.priority) != list(range(len(st.players))):
        raise InvariantBroken(f"priority {st.priority} is not a permutation")
    for p in st.players:
        if not isinstance(p.status, Status):
            raise InvariantBroken(f"{p.name} has status {p.status!r}")
    if st.result is None and st.round >= game.max_rounds:
        raise InvariantBroken("the game went past its round limit")


class FakeEntryPoint:
    """An entry point of group ``spoiler`` without installing anything, for testing how a
    plugin loads: ``spoiler.plugins.load(environ={}, entry_points=[FakeEntryPoint("mine",
    my_plugin)])``. ``error`` makes loading it raise (as a plugin failing to import would).
    ``dist`` is the distribution's name (default ``spoiler-<name>``; "spoiler-game" makes it
    built in)."""

    __test__ = False

    def __init__(
        self,
        name: str,
        plugin: object = None,
        *,
        dist: str | None = None,
        version: str = "1.0",
        error: BaseException | None = None,
    ):
        self.name = name
        self.plugin = plugin
        self.error = error
        self.dist = _Distribution(dist or f"spoiler-{name}", version)

    def load(self) -> Any:
        if self.error is not None:
            raise self.error
        return self.plugin


class _Distribution:
    def __init__(self, name: str, version: str):
        self.name, self.version = name, version
