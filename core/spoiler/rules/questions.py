"""The read-only questions card code may ask of a game (``play.hand(seat)`` …). Reading a
hand or a counter counts as a step of the runaway guard: a loop reading the game forever is
a runaway too."""

from __future__ import annotations

from collections.abc import Iterable

from spoiler.model.cards import Card, CardSet
from spoiler.model.state import Status
from spoiler.model.verbs import Play
from spoiler.rules.native import mypyc_attr
from spoiler.rules.resolution import Resolution


@mypyc_attr(allow_interpreted_subclasses=True)  # (Game's part: see game.py)
class Questions(Resolution):
    """The part of the engine that answers questions about the game."""

    #: Held by the game itself (``spoiler.rules.game.Game``).
    sets: list[CardSet]
    cards: list[Card]
    card_names: tuple[str, ...]

    def hand(self, seat: int) -> tuple[Card, ...]:
        self._steps -= 1
        if self._steps <= 0:
            self._guard()
        return tuple(self.state.players[seat].hand)

    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile, face up for everyone: the bottom card first, the top card last."""
        self._steps -= 1
        if self._steps <= 0:
            self._guard()
        return tuple(self.state.discard)

    def find_card(self, name: str) -> Card:
        """The card of this game's deck with that name or id (case-insensitive)."""
        found = find(self.cards, name)
        if found is None:
            import difflib

            close = difflib.get_close_matches(str(name), self.card_names, n=3, cutoff=0.6)
            hint = f" (did you mean {' or '.join(map(repr, close))}?)" if close else ""
            raise LookupError(f"no card {name!r} in this game{hint}")
        return found

    def holds(self, seat: int, name: str) -> bool:
        self._steps -= 1
        if self._steps <= 0:
            self._guard()
        return find(self.state.players[seat].hand, name) is not None

    def status(self, seat: int) -> Status:
        return self.state.players[seat].status

    def priority_of(self, seat: int) -> int:
        """Position in this round's priority order (1 = first)."""
        rank = self._rank or {s: i for i, s in enumerate(self.state.priority)}
        return rank[seat] + 1

    def play_of(self, seat: int) -> Play | None:
        return next((p for p in self.state.plays if p.player == seat), None)

    def counter(self, seat: int, name: str) -> int:
        self._steps -= 1
        if self._steps <= 0:
            self._guard()
        return self.state.players[seat].counters.get(name, 0)

    def name_of(self, seat: int) -> str:
        return self.state.players[seat].name

    @property
    def plays(self) -> list[Play]:
        """This round's plays in priority order."""
        return sorted(self.state.plays, key=lambda p: self.priority_of(p.player))


def find(hand: Iterable[Card], card: object) -> Card | None:
    """The card in hand that ``card`` (a Card, an id or a name) designates."""
    if isinstance(card, Card):
        for c in hand:
            if c is card:
                return c
        card = card.id
    wanted = str(card).lower()
    for c in hand:
        if c.id == wanted or c.name.lower() == wanted:
            return c
    return None
