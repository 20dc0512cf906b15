"""Projections: what one seat may see (``view``), and the table as everyone sees it
(``table``). A view holds copies and this seat's own event list, never the game itself."""

from __future__ import annotations

from collections.abc import Collection

from spoiler.model.state import Seat
from spoiler.model.views import PlayerInfo, PlayerView, TableView
from spoiler.rules.legality import Legal, Legality, playable_cards, public_players
from spoiler.rules.native import mypyc_attr


@mypyc_attr(allow_interpreted_subclasses=True)  # (Game's part: see game.py)
class Projections(Legality):
    """The part of the engine that makes views."""

    #: Held by the game itself (``spoiler.rules.game.Game``).
    seats: list[Seat]

    def _public_players(self) -> tuple[PlayerInfo, ...]:
        return public_players(self.state, self._rank)

    def _common_view(self) -> tuple:
        """The parts of a view every seat shares while players select."""
        return self._public_players(), self._table()

    def _table(self) -> tuple[tuple, tuple]:
        """The face-up table every view shows: the discard pile and the ongoing effects."""
        st = self.state
        return tuple(st.discard), tuple([(o.name, o.owner, o.rounds) for o in st.ongoing])

    def view(
        self,
        seat: int,
        error: str | None = None,
        public: tuple[PlayerInfo, ...] | None = None,
        legal: Legal | None = None,
        table: tuple | None = None,
        playable: tuple | None = None,
    ) -> PlayerView:
        """What ``seat`` may see now (``public``, ``legal``, ``table`` and ``playable``: parts
        already worked out for this moment, passed in so views of several seats share them).
        The view holds copies and this seat's own event list, never the game itself."""
        st = self.state
        player = st.players[seat]
        discard, ongoing = table or self._table()
        legal = self.legal_targets(seat) if legal is None else legal
        if playable is None:
            playable = tuple(playable_cards(player.hand, legal))
        return PlayerView(
            seat,
            st.round,
            tuple(player.hand),
            public or self._public_players(),
            len(st.deck),
            discard,
            ongoing,
            dict(player.known),
            self.card_names,
            playable,
            error,
            self._public_log,
            self._secrets[seat],
            len(self._public_log),
            legal,
        )

    def selection_views(
        self,
        seats: Collection[int],
        public: tuple[PlayerInfo, ...] | None = None,
        table: tuple | None = None,
    ) -> dict[int, PlayerView]:
        """The view of each of ``seats`` that must select now (``selecting()``), as the
        round asks it, by seat: who selects, their legal targets and the cards they may play
        are worked out once for all of them (``public`` and ``table``: the parts every seat
        shares, when the caller has them already)."""
        legal = self._legal_table()
        public = public or self._public_players()
        table = table or self._table()
        return {
            seat: self.view(seat, None, public, legal[seat], table, tuple(playable))
            for seat, playable in self._choosers(legal)
            if playable and seat in seats
        }

    def table(self, *, hands: bool = False) -> TableView:
        """The table as everyone sees it (``hands``: with every hand, for a game that no
        player watches, such as one of bots)."""
        st = self.state
        discard, ongoing = self._table()
        return TableView(
            st.round,
            self._public_players(),
            tuple([seat.kind for seat in self.seats]),
            len(st.deck),
            discard,
            tuple(st.in_play),
            ongoing,
            st.result,
            tuple([tuple(p.hand) for p in st.players]) if hands else None,
        )
