"""Helpers for testing cards and rules, for the core's tests and for plugin authors.

Build a game from a hand-built state, script what each player selects, play a round, and
assert what the players would see::

    from spoiler.testing import table, play_round

    game = table([my_set], hands=[["Guard"], ["Crown", "Crown"]], deck=["Peek"] * 6)
    play_round(game, {0: ("Guard", 1, "Crown")})   # seat 1, not scripted, plays at random
    assert game.status(1) is Status.LOST

Scripts are strict: a scripted selection or answer the engine refuses (a card not in hand,
a missing or illegal target, a misspelt answer) raises ``ScriptError`` naming the seat, the
script and the refusal, and so does a scripted selection or answer the round never used.
A seat whose selection is not scripted plays a uniformly random legal card; a seat whose
answers are not scripted answers at random. ``play_round(..., strict=False)`` goes back to
the old way: a refused script is replaced by a random legal choice, leftovers are dropped.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from spoiler.agents import RandomAgent
from spoiler.model.cards import Card, CardSet
from spoiler.model.errors import GameError
from spoiler.model.events import Event
from spoiler.model.state import Status
from spoiler.model.views import PlayerView, Question, Selection
from spoiler.plugins import Registry
from spoiler.plugins import load as _load_plugins  # (not a test's stand-in for it)
from spoiler.rules.game import Game, Seat
from spoiler.rules.invariants import InvariantBroken as InvariantBroken  # re-exported
from spoiler.rules.invariants import check_invariants


class ScriptError(GameError, AssertionError):
    """A scripted selection or answer that the engine refused, or that the round never used:
    the test's script is wrong, whatever the card does. (A GameError, so that no effect or
    hook wrapper takes it for the card's own failure; an AssertionError, so that pytest
    reports it as a failed test.)"""

    __test__ = False


class TestAgent:
    """An agent tests drive: queued selections and answers first, then random choices.

    ``strict`` (the default): a queued selection or answer that the engine refuses raises
    ScriptError instead of giving way to a random choice."""

    __test__ = False  # not a pytest test class

    def __init__(self, seed: int = 0, seat: int = 0, *, strict: bool = True, name: str = ""):
        self.seat = seat
        self.name = name
        self.strict = strict
        self.selections: list[Selection] = []
        self.answers: list[str] = []
        self.fallback = RandomAgent(seed, seat)
        self.views: list[PlayerView] = []
        self.questions: list[Question] = []
        #: The scripted selection or answer given last, until the engine asks for the next
        #: decision (a view with an error then means the engine refused it).
        self._scripted: str | None = None

    def _who(self) -> str:
        return f"seat {self.seat} ({self.name})" if self.name else f"seat {self.seat}"

    def _refused(self, view: PlayerView) -> None:
        scripted, self._scripted = self._scripted, None
        if scripted is not None and view.error and self.strict:
            raise ScriptError(f"{self._who()}: the scripted {scripted} was refused: {view.error}")

    def select(self, view: PlayerView) -> Selection:
        self.views.append(view)
        self._refused(view)
        if self.selections:
            selection = self.selections.pop(0)
            self._scripted = f"selection {_show(selection)}"
            return selection
        return self.fallback.select(view)

    def answer(self, view: PlayerView, question: Question) -> str:
        self.views.append(view)
        self.questions.append(question)
        self._refused(view)
        if self.answers:
            answer = self.answers.pop(0)
            self._scripted = f"answer {answer!r} (to {question.prompt!r})"
            return answer
        return self.fallback.answer(view, question)

    def unused(self) -> list[str]:
        """The scripted selections and answers still queued (the round never asked for them),
        described; the queues are emptied."""
        left = [f"selection {_show(s)}" for s in self.selections]
        left += [f"answer {a!r}" for a in self.answers]
        self.selections, self.answers, self._scripted = [], [], None
        return left


def _show(selection: Selection) -> str:
    """A selection as a test scripts it: (card, targets, info)."""
    card = (
        selection.card if isinstance(selection.card, str) else getattr(selection.card, "name", "?")
    )
    parts: list[object] = [card]
    if selection.targets or selection.info is not None:
        targets = selection.targets
        parts.append(targets[0] if isinstance(targets, tuple) and len(targets) == 1 else targets)
    if selection.info is not None:
        parts.append(selection.info)
    return repr(tuple(parts)) if len(parts) > 1 else repr(card)


def _card(cards: list[Card], name: str) -> Card:
    """The card of that id or name: of the first set given that has one (``cards`` are in
    the order of the sets as the test gave them: an author's card before a base card of the
    same name, when the author's set comes first)."""
    wanted = name.lower()
    for card in cards:
        if card.id == wanted:
            return card
    for card in cards:
        if card.name.lower() == wanted:
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
    is what the table holds, so the conservation invariant holds.

    The sets' own rules take part, as in a real game: ``hooks`` defaults to the rules of the
    installed plugins that registered these very sets (``hooks={}`` plays without them)."""
    names = names or [chr(ord("A") + i) for i in range(len(hands))]
    seats = [Seat(n, TestAgent(seed, i, name=n)) for i, n in enumerate(names)]
    if hooks is None:
        hooks = rules_of(sets)
    game = Game(sets, seats, seed, max_rounds=max_rounds, hooks=hooks, strict=strict)
    game.start()
    st = game.state
    cards = [card for card_set in sets for card in card_set.cards]  # as the test ordered them
    for seat, hand in enumerate(hands):
        st.players[seat].hand = [_card(cards, n) for n in hand]
    st.deck = [_card(cards, n) for n in reversed(deck or [])]
    st.discard = [_card(cards, n) for n in (discard or [])]
    if priority is not None:
        st.priority = list(priority)
    for seat, status in (statuses or {}).items():
        st.players[seat].status = status
    st.built = [c for p in st.players for c in p.hand] + st.deck + st.discard
    return game


@functools.cache
def installed() -> Registry:
    """The installed plugins, loaded once (as ``spoiler play`` would load them)."""
    return _load_plugins()


def rules_of(sets: list[CardSet]) -> dict:
    """The hooks a real game of these sets would run: those of the installed plugins that
    registered them (the very objects), and of plugins with no set. {} if none is installed."""
    registry = installed()
    names = [s.name for s in sets if registry.sets.get(s.name) is s]
    return registry.game_hooks(names) if names else {}


def agent(game: Game, seat: int) -> TestAgent:
    return game.seats[seat].agent


def play_round(
    game: Game,
    selections: dict[int, tuple] | None = None,
    answers: dict[int, list[str]] | None = None,
    *,
    strict: bool = True,
) -> list:
    """Script this round's selections ({seat: (card name, target or targets, info)}) and
    answers ({seat: [answer, ...]}), play the round, and return its events.

    Strict (the default): a scripted selection or answer that the engine refuses raises
    ScriptError (seat, script, refusal), and so does one the round left unused (a seat that
    had lost, held no playable card, or was asked fewer questions). Seats not scripted play
    at random. ``strict=False``: a refused script is replaced by a random legal choice, and
    what the round did not use is dropped."""
    scripted: list[TestAgent] = []
    for seat, choice in (selections or {}).items():
        name, *rest = choice if isinstance(choice, tuple) else (choice,)
        targets = rest[0] if rest else ()
        targets = (targets,) if isinstance(targets, int) else tuple(targets or ())
        info = rest[1] if len(rest) > 1 else None
        agent(game, seat).selections.append(Selection(name, targets, info))
        scripted.append(agent(game, seat))
    for seat, queued in (answers or {}).items():
        agent(game, seat).answers.extend(queued)
        scripted.append(agent(game, seat))
    for table_seat in game.seats:
        if isinstance(table_seat.agent, TestAgent):
            table_seat.agent.strict = strict
    asked = {id(a): len(a.questions) for a in scripted}
    start = len(game.state.log)
    game.play_round()
    left = [(a, a.unused()) for a in dict.fromkeys(scripted)]
    problems = []
    for scripted_agent, unused in left:
        if not unused or not strict:
            continue
        if unused[0].startswith("selection"):
            why = _cannot_select(game, scripted_agent.seat)
        else:
            questions = len(scripted_agent.questions) - asked[id(scripted_agent)]
            why = f"it was asked {questions} question{'s' * (questions != 1)}"
        problems.append(
            f"{scripted_agent._who()}: the scripted {', '.join(unused)} "
            f"{'was' if len(unused) == 1 else 'were'} never used in round {game.round} ({why})"
        )
    if problems:
        raise ScriptError("; ".join(problems))
    return game.state.log[start:]


def _cannot_select(game: Game, seat: int) -> str:
    """Why a seat's scripted selection was not used this round, as the table says."""
    for event in reversed(game.state.log):
        if event.round != game.round:
            break
        if event.seat == seat and event.kind == "selected":
            return "a seat selects one card a round"
        if event.seat == seat and event.kind == "cannot_select":
            return "it was not asked to select: none of its cards had a legal target"
    if game.state.players[seat].status is Status.LOST:
        return "it was not asked to select: it has lost"
    return "it was not asked to select: it held no card"


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events]


class RandomGameFailed(AssertionError):
    """A random game broke a rule of the engine; the message names the seed to replay."""


def random_games(
    sets: list[CardSet],
    games: int = 20,
    *,
    seed: int = 0,
    players: int | None = None,
    hooks: dict | None = None,
    max_rounds: int = 100,
) -> list:
    """Play ``games`` seeded games of random bots with these sets, checking the engine's
    invariants after every round and that no effect or rule fails (the games are strict).
    Game ``i`` uses seed ``seed + i`` and ``players`` players (default ``2 + seed % 4``, as
    ``spoiler sets validate``). Returns the results; a failure raises RandomGameFailed naming
    the seed, so ``random_games(sets, 1, seed=S)`` plays that game again."""
    from spoiler.rules.game import CardError, GameError

    if hooks is None:
        hooks = rules_of(sets)
    results = []
    for game_seed in range(seed, seed + games):
        count = players or 2 + game_seed % 4
        seats = [Seat(f"Bot {i + 1}", RandomAgent(game_seed, i)) for i in range(count)]
        game = Game(sets, seats, game_seed, max_rounds=max_rounds, hooks=hooks, strict=True)
        where = f"random game with seed {game_seed} ({count} players)"
        try:
            while not game.over:
                game.play_round()
                check_invariants(game)
        except (CardError, GameError, AssertionError) as exc:
            played = ", ".join(
                game.cards_by_id[c["card"]].name
                for c in (game.decisions[-1]["selections"].values() if game.decisions else ())
            )
            raise RandomGameFailed(
                f"{where}, round {game.round} (cards played: {played or 'none'}): "
                f"{type(exc).__name__}: {exc}; replay it with seed={game_seed}, games=1"
            ) from exc
        results.append(game.result)
    return results


class FakeEntryPoint:
    """An entry point of group ``spoiler`` without installing anything, for testing how a
    plugin loads: ``spoiler.plugins.load(environ={}, entry_points=[FakeEntryPoint("mine",
    my_plugin)])``. ``error`` makes loading it raise (as a plugin failing to import would).
    ``dist`` is the distribution's name (default ``spoiler-<name>``; "spoiler-game" makes it
    built in).

    Of group ``spoiler.commands`` too, ``plugin`` being a click command or a Typer app:
    ``spoiler.commands.discovery.find({}, [FakeEntryPoint("tournament", app)])``, and
    ``summary`` the distribution's (what ``spoiler --help`` shows for the command)."""

    __test__ = False

    def __init__(
        self,
        name: str,
        plugin: object = None,
        *,
        dist: str | None = None,
        version: str = "1.0",
        error: BaseException | None = None,
        summary: str = "",
    ):
        self.name = name
        self.plugin = plugin
        self.error = error
        self.dist = _Distribution(dist or f"spoiler-{name}", version)
        self.summary = summary
        self.value = f"{name}:fake"

    @property
    def distribution(self) -> str:
        return self.dist.name

    @property
    def version(self) -> str:
        return self.dist.version

    def load(self) -> Any:
        if self.error is not None:
            raise self.error
        return self.plugin


class _Distribution:
    def __init__(self, name: str, version: str):
        self.name, self.version = name, version
