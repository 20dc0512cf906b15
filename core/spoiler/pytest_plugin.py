"""pytest fixtures for card authors, installed with ``spoiler-game`` (a ``pytest11`` entry
point: nothing to import or configure). In any project's tests::

    def test_steal_takes_loot(spoiler_table, spoiler_round):
        game = spoiler_table(["heist"], hands=[["Steal"], ["Steal"]])
        spoiler_round(game, {0: ("Steal", 1), 1: ("Steal", 0)})
        ...

    def test_random_games(random_games):
        random_games(["base", "heist"], games=20)

Sets are named as installed (``spoiler sets list``), the base set included; a ``CardSet``
object works too. Tables and random games run the sets' own rules, as a real game does.
Nothing here is imported until a test asks for a fixture, so pytest runs in projects that do
not use Spoiler pay nothing for it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from spoiler.model.cards import CardSet
    from spoiler.plugins import Registry
    from spoiler.rules.game import Game

    #: ``card_sets(*names)``: names (or CardSet objects) to CardSets.
    CardSets = Callable[..., list[CardSet]]


@pytest.fixture(scope="session")
def spoiler_registry() -> Registry:
    """The installed plugins, as ``spoiler play`` loads them (``registry.sets``,
    ``registry.set_infos`` with each set's status and error)."""
    from spoiler import testing

    return testing.installed()


@pytest.fixture(scope="session")
def card_sets(spoiler_registry: Registry) -> CardSets:
    """``card_sets("base", "heist")``: the installed sets of those names, as a list. A name
    that is not installed (or whose plugin is broken) fails the test, saying why."""
    from spoiler.model.cards import CardSet
    from spoiler.plugins import UnknownName

    def load(*names: str | CardSet) -> list[CardSet]:
        if any(isinstance(n, CardSet) for n in names):
            return [n if isinstance(n, CardSet) else load(n)[0] for n in names]
        try:
            return spoiler_registry.card_sets([str(n) for n in names])  # all names here
        except UnknownName as exc:
            pytest.fail(str(exc), pytrace=False)

    return load


@pytest.fixture
def spoiler_table(card_sets: CardSets) -> Callable[..., Game]:
    """``spoiler_table(sets, hands, *, deck, discard, priority, statuses, names, seed,
    max_rounds, hooks, strict=True)``: a started game with exactly these hands, running the
    sets' rules (see ``spoiler.testing.table``). ``sets``: names or CardSets."""
    from spoiler import testing

    def build(sets: list[str | CardSet], hands: list[list[str]], **options: Any) -> Game:
        return testing.table(card_sets(*sets), hands, **options)

    return build


@pytest.fixture
def spoiler_round() -> Callable[..., list]:
    """``spoiler_round(game, {seat: (card, target or targets, info)}, {seat: [answers]},
    *, strict=True)``: script one round, play it, and get its events
    (``spoiler.testing.play_round``). A scripted selection or answer that the engine refuses,
    or that the round never uses, fails the test in one line naming the seat, the script and
    why; seats not scripted play at random. ``strict=False``: a refused script is replaced by
    a random legal choice."""
    from spoiler import testing

    def play(game: Game, *args: Any, **options: Any) -> list:
        from spoiler.model.errors import RoundTooLong

        try:
            return testing.play_round(game, *args, **options)
        except testing.ScriptError as exc:
            pytest.fail(f"spoiler_round: {exc}", pytrace=False)
        except RoundTooLong as exc:  # an effect or a rule that never ends
            pytest.fail(f"spoiler_round: {exc}", pytrace=False)

    return play


@pytest.fixture
def random_games(card_sets: CardSets) -> Callable[..., list]:
    """``random_games(sets, games=20, *, seed=0, players=None, max_rounds=100)``: seeded
    games of random bots with the sets' rules, invariants checked after every round, no
    effect allowed to fail. Returns the results; a failure names the seed that replays it."""
    from spoiler import testing

    def play(sets: list[str | CardSet], games: int = 20, **options: Any) -> list:
        try:
            return testing.random_games(card_sets(*sets), games, **options)
        except testing.RandomGameFailed as exc:
            pytest.fail(str(exc), pytrace=False)

    return play
