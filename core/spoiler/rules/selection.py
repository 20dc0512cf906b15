"""Selection: every seat that must select is asked, hidden from the others, and only once
all have chosen do the selected cards leave the hands (ruling 2). A refused selection is
asked again (ruling 3).

The search window seam: an agent that searches (``searches = True``) finds in
``view.search`` a window on the moment it was asked (``spoiler.search.Searcher``). The rules
never import the search layer, which is built on them: ``spoiler.search`` registers its
window here when it is imported (``register_search_window``), and ``spoiler.agents``, where
every bot comes from, imports it, so the window is there whenever a bot could be.
"""

from __future__ import annotations

from collections.abc import Callable
from time import monotonic
from typing import Any

from spoiler.model.cards import Card
from spoiler.model.errors import GameError, IllegalChoice
from spoiler.model.verbs import Play
from spoiler.rules.guard import DECIDING
from spoiler.rules.legality import Legal
from spoiler.rules.native import mypyc_attr
from spoiler.rules.projections import Projections

#: How often an agent may answer illegally before the game gives up on it.
MAX_ATTEMPTS = 50

#: The search window's factory, ``factory(game, seat)``: set by ``spoiler.search``.
_window_factory: Callable[[Any, int], object] | None = None


def register_search_window(factory: Callable[[Any, int], object]) -> None:
    """Give agents that search their window: ``factory(game, seat)`` makes it."""
    global _window_factory
    _window_factory = factory


@mypyc_attr(allow_interpreted_subclasses=True)  # (Game's part: see game.py)
class Selecting(Projections):
    """The part of the engine that asks for this round's selections."""

    decisions: list[dict]

    def _select(self) -> None:
        st = self.state
        # What every seat sees alike, taken once: nothing changes while players choose.
        public, table = self._common_view()
        legal_table = self._legal_table()
        plays: list[Play] = []
        for seat, playable in self._choosers(legal_table):
            if not playable:
                self._emit("cannot_select", seat)
                continue
            plays.append(self._ask_agent(seat, public, legal_table[seat], table, tuple(playable)))
        # Everyone has chosen: only now do the selected cards leave the hands.
        # (A determinization is never recorded: Game.decisions.)
        record = self.decisions[-1]["selections"] if self.seed is not None else None
        players = st.players
        logging = self.logging
        for play in plays:
            seat, card_id, targets, info = play.player, play.card.id, play.targets, play.info
            players[seat].hand.remove(play.card)
            if record is not None:
                record[seat] = {"card": card_id, "targets": list(targets), "info": info}
            if logging:  # (a fast game that keeps no log builds no event: see Log.logging)
                # The event gets its own copy: the player's view must not reach the record.
                self._emit(
                    "selected",
                    seat,
                    None,
                    None,
                    {"card": card_id, "targets": targets, "info": info},
                    self._only[seat],
                )
        st.plays = plays

    def _ask_agent(
        self,
        seat: int,
        public: Any,  # the players' public rows (a fast game's: its own shared parts)
        legal: Legal,
        table: tuple | None,
        playable: tuple[Card, ...],
    ) -> Play:
        agent = self.seats[seat].agent
        searches = getattr(agent, "searches", False)
        error = None
        for _ in range(MAX_ATTEMPTS):
            view = self.view(seat, error, public, legal, table, playable)
            if searches:  # an agent that searches gets a window on this moment
                view.search = self._search_window(seat)
            self._decided_at = DECIDING  # a player's thinking is no effect running away
            selection = agent.select(view)
            self._decided_at = monotonic()
            try:
                return self.check_selection(seat, selection, legal)
            except IllegalChoice as exc:
                error = str(exc)
        raise GameError(
            f"{self.seats[seat].name}'s agent made {MAX_ATTEMPTS} illegal selections; last: {error}"
        )

    def _search_window(self, seat: int) -> object:
        """The window on this moment an agent that searches gets (see the module's doc)."""
        if _window_factory is None:
            raise GameError(
                f"{self.seats[seat].name}'s agent searches, but no search window is "
                "registered: import spoiler.search"
            )
        return _window_factory(self, seat)
