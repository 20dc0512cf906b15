"""Fast mode, for simulations: the same game, less bookkeeping.

``FastGame`` plays exactly the rules ``Game`` plays (same seed, same decisions, same result),
and leaves out what nobody reads:

* no event log when no seat's agent reads events (an agent says it never does with
  ``reads_events = False``; the log then stays empty);
* views built only when read: the bots shipped with Spoiler (``builtin = True``) get a
  ``LazyView`` whose parts are worked out the first time the bot reads them;
* those bots' selections are not checked again: they choose among the view's playable cards
  and legal targets, so they are legal by construction.

``spoiler simulate`` and the expert bot's rollouts play fast games; ``spoiler play`` and
records play normal ones. ``tests/test_search.py`` checks that both give the same results.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from time import monotonic
from typing import Any

from spoiler.model.cards import CardSet
from spoiler.model.state import Seat
from spoiler.model.verbs import Play
from spoiler.model.views import PlayerView, seen_events
from spoiler.rules.game import Game
from spoiler.rules.guard import DECIDING, Guard
from spoiler.rules.legality import playable_cards
from spoiler.rules.native import mypyc_attr


@mypyc_attr(allow_interpreted_subclasses=True)  # (simulate's tally, when compiled)
class FastGame(Game):
    """A ``Game`` in fast mode. ``log``: keep the event log (default: only when some seat's
    agent reads events)."""

    def __init__(
        self,
        sets: list[CardSet],
        seats: list[Seat],
        seed: int,
        *,
        max_rounds: int = 100,
        hooks: dict[str, Callable[..., Any]] | None = None,
        strict: bool = False,
        log: bool | None = None,
    ):
        # (Game's arguments named one by one: a compiled class passes no *args on.)
        super().__init__(sets, seats, seed, max_rounds=max_rounds, hooks=hooks, strict=strict)
        self._fast_setup(log)

    def _copy_into(self, new: Guard) -> None:
        super()._copy_into(new)
        assert isinstance(new, FastGame)
        new._builtin = self._builtin  # (and logging, copied by the log's part)

    def _fast_setup(self, log: bool | None) -> None:
        reads_events, builtin = False, []
        for seat in self.seats:  # (a loop, not generator expressions: every rollout's)
            if getattr(seat.agent, "reads_events", True):
                reads_events = True
            builtin.append(getattr(seat.agent, "builtin", False))
        self.logging = reads_events if log is None else log
        self._builtin = tuple(builtin)

    def _emit(self, *args, **kwargs):
        """(The verbs check ``logging`` first; this drops any event left.)"""
        if self.logging:
            Game._emit(self, *args, **kwargs)

    def _common_view(self) -> tuple:
        if all(self._builtin):  # lazy views work out only the parts their bot reads, once
            return _Shared(), None  # (for all of this selection's views: nothing moves)
        return super()._common_view()

    def _ask_agent(self, seat, public, legal, table, playable) -> Play:
        if not self._builtin[seat]:
            return super()._ask_agent(seat, public, legal, table, playable)
        agent = self.seats[seat].agent
        view = LazyView(
            self, seat, legal, playable, public if public.__class__ is _Shared else None
        )
        if getattr(agent, "searches", False):
            view.search = self._search_window(seat)
        self._decided_at = DECIDING  # (see Selecting._ask_agent)
        selection = agent.select(view)
        self._decided_at = monotonic()
        targets = selection.targets
        if targets.__class__ is not tuple:
            targets = tuple(targets)
        return Play(self, seat, selection.card, targets, selection.info)

    def view(self, seat, error=None, public=None, legal=None, table=None, playable=None):
        if self._builtin[seat] and error is None and public is None:
            return LazyView(self, seat, legal, playable)
        return super().view(seat, error, public, legal, table, playable)


class _Shared:
    """The public parts of the views of one selection in a fast game, worked out when the
    first view needs them (every seat selects before anything moves)."""

    __slots__ = ("players", "table")

    def __init__(self) -> None:
        self.players: tuple | None = None
        self.table: tuple = ((), ())


# A plain Python class even when compiled: its parts are descriptors and instance dicts.
@mypyc_attr(native_class=False)
class _Later:
    """A part of a LazyView filled in when first read: reading it fills in all of them, in
    the view's own ``__dict__``, where every later read finds them (a class attribute that
    is not a data descriptor gives way to the instance's own)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, view: LazyView | None, owner: type) -> object:
        if view is None:
            return self
        view._fill()
        return view.__dict__[self.name]


@mypyc_attr(native_class=False)  # (as _Later)
class LazyView:
    """A ``PlayerView`` for the built-in bots of a fast game: what a bot reads every decision
    (its seat, playable cards, legal targets, card names) is at hand; the rest is filled in
    the first time any of it is read. A bot reads it at once, while nothing moves.

    (No ``__getattr__`` for the parts filled in later: a class with one has every attribute
    read of its instances go the slow, unspecialized way, the parts a bot reads every
    decision included.)"""

    __slots__ = (
        "__dict__",  # the parts filled in later
        "_game",
        "_legal",
        "_shared",
        "card_names",
        "error",
        "playable",
        "round",
        "search",
        "seat",
    )

    hand = _Later()
    players = _Later()
    me = _Later()
    events = _Later()
    deck_size = _Later()
    discard = _Later()
    ongoing = _Later()
    known = _Later()
    _public_log = _Later()
    _secrets = _Later()
    _upto = _Later()

    def __init__(
        self,
        game: Game,
        seat: int,
        legal: Mapping | None,
        playable: tuple | None,
        shared: _Shared | None = None,
    ):
        self._shared = shared
        self.seat = seat
        self.round = game.state.round
        self._legal = game.legal_targets(seat) if legal is None else legal
        if playable is None:
            playable = tuple(playable_cards(game.state.players[seat].hand, self._legal))
        self.playable = playable
        self.card_names = game.card_names
        self.error = None
        self.search: object = None
        self._game = game

    def _fill(self) -> None:
        """Fill in every part not filled in yet, as ``Game.view`` makes them (one by one
        here: making the whole view to copy its parts cost twice as much)."""
        game, seat = self._game, self.seat
        st = game.state
        player = st.players[seat]
        parts = self.__dict__
        parts["hand"] = tuple(player.hand)
        shared = self._shared
        if shared is None:
            parts["players"] = game._public_players()
            parts["discard"], parts["ongoing"] = game._table()
        else:  # this selection's views share the public parts (as a normal game's do)
            if shared.players is None:
                shared.players = game._public_players()
                shared.table = game._table()
            parts["players"] = shared.players
            parts["discard"], parts["ongoing"] = shared.table
        parts["deck_size"] = len(st.deck)
        parts["known"] = dict(player.known)
        parts["me"] = parts["players"][seat]
        log, secrets, upto = game._public_log, game._secrets[seat], len(game._public_log)
        parts["_public_log"], parts["_secrets"], parts["_upto"] = log, secrets, upto
        # (Parts, not PlayerView's properties: a bot reads both at every decision.)
        parts["events"] = seen_events(log, secrets, upto) if upto else ()

    def legal_targets(self, card) -> tuple[tuple[int, ...], ...]:
        kinds = card.targets
        if not kinds:
            return ()
        if len(kinds) == 1 and kinds[0] in self._legal:
            return (self._legal[kinds[0]],)
        return PlayerView.legal_targets(self, card)  # type: ignore[arg-type]

    others = PlayerView.others
    name_of = PlayerView.name_of
