"""The vocabulary card authors write effects with.

``Play`` (a card being resolved) and ``Ongoing`` (a lasting effect) both mix this in, so a
card's code reads like its printed text::

    def main(play):
        if play.holds(play.target, play.info):
            play.lose(play.target)

Every verb goes through the engine, which applies the rules (hooks, ongoing effects,
the win/lose ladder) and records an event naming ``self`` as the cause.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spoiler.model.cards import Card, Ongoing
    from spoiler.model.state import Status
    from spoiler.rules.game import Game, Play


class Verbs:
    """Verbs and read-only questions, acting on ``self.game`` on behalf of ``self``."""

    __slots__ = ()

    if not TYPE_CHECKING:  # (a type checker names a misspelt verb already)

        def __getattr__(self, name: str):
            """A misspelt verb or attribute (``play.loose``) fails naming the closest one, in
            the message that `fizzled` events and `sets validate` show."""
            if name.startswith("__"):
                raise AttributeError(name)
            import difflib

            known = [n for n in dir(type(self)) if not n.startswith("_")]
            close = difflib.get_close_matches(name, known, n=1, cutoff=0.7)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise AttributeError(f"{type(self).__name__} has no attribute {name!r}{hint}")

    #: The game this play or effect belongs to (set by the engine).
    game: Game

    # -- changing the game ---------------------------------------------------------------
    def lose(self, seat: int) -> bool:
        """Make a player lose (one step down: won -> in play -> lost). False if prevented."""
        return self.game.lose(seat, cause=self)

    def win(self, seat: int) -> bool:
        """Make a player win (one step up: lost -> in play -> won). False if prevented."""
        return self.game.win(seat, cause=self)

    def draw(self, seat: int, n: int = 1) -> list[Card]:
        """A player draws n cards (refilling the deck from the discard pile if needed)."""
        return self.game.draw(seat, n, cause=self)

    def discard(self, seat: int, card: Card | str) -> bool:
        """A player discards a card (a Card or its name) from hand. False if not held."""
        return self.game.discard(seat, card, cause=self)

    def give(self, giver: int, receiver: int, card: Card | str) -> bool:
        """Move a card (a Card or its name) from one hand to another. False if not held."""
        return self.game.give(giver, receiver, card, cause=self)

    def swap_hands(self, a: int, b: int) -> None:
        """Two players exchange their whole hands."""
        self.game.swap_hands(a, b, cause=self)

    def cancel(self, play: Play) -> bool:
        """Cancel a play that has not resolved yet: it does nothing at all. False if too late."""
        return self.game.cancel(play, cause=self)

    def redirect(self, play: Play, targets: int | Iterable[int]) -> bool:
        """Give an unresolved play new targets (a seat or a tuple of seats)."""
        return self.game.redirect(play, targets, cause=self)

    def copy(self, play: Play) -> bool:
        """Resolve another play's main effect again, as if this card's player had played it.
        False (nothing happens) if that play was cancelled."""
        return self.game.copy(play, cause=self)

    def replace(self, play: Play, card: Card | str) -> bool:
        """An unresolved play resolves as another card's main effect (a Card, or the name or
        id of a card in this game), keeping its targets and information. False if too late."""
        return self.game.replace(play, card, cause=self)

    def find_card(self, name: str) -> Card:
        """The card of this game's deck with that name or id (case-insensitive); raises
        LookupError naming the closest card names when there is none."""
        return self.game.find_card(name)

    def change_priority(self, seat: int, position: int, *, this_round: bool = False) -> None:
        """Move a player to a priority position (1 = first), for this round only or from now on."""
        self.game.change_priority(seat, position, this_round=this_round, cause=self)

    def reveal(self, hand_of: int, to: int) -> tuple[Card, ...]:
        """Show one player's hand to another player (only they see it). Returns the cards."""
        return self.game.reveal(hand_of, to, cause=self)

    def add_ongoing(self, effect: Ongoing) -> None:
        """Put an ``Ongoing`` effect into play, owned by this card's player."""
        self.game.add_ongoing(effect, cause=self)

    def ask(self, seat: int, prompt: str, options: Iterable[object]) -> str | None:
        """Ask a player (lost players too) to choose one of ``options``; returns the choice
        (the only option without asking; None if there is no option)."""
        return self.game.ask(seat, prompt, options, cause=self)

    def add_counter(self, seat: int, name: str, delta: int = 1) -> int:
        """Add to a player's named counter (tokens kept across rounds); returns the new value."""
        return self.game.add_counter(seat, name, delta, cause=self)

    def note(self, message: str) -> None:
        """Say something in the game log (for effects that change nothing visible)."""
        self.game.note(message, cause=self)

    # -- reading the game ----------------------------------------------------------------
    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards in a player's hand."""
        return self.game.hand(seat)

    def holds(self, seat: int, name: str) -> bool:
        """Does this player hold a card of that name (case-insensitive)?"""
        return self.game.holds(seat, name)

    def status(self, seat: int) -> Status:
        """A player's status: lost, in play or won."""
        return self.game.status(seat)

    def priority_of(self, seat: int) -> int:
        """A player's priority position this round (1 = first)."""
        return self.game.priority_of(seat)

    def play_of(self, seat: int) -> Play | None:
        """The play this player selected this round, or None."""
        return self.game.play_of(seat)

    def counter(self, seat: int, name: str) -> int:
        """A player's named counter (0 if never added to)."""
        return self.game.counter(seat, name)

    def name_of(self, seat: int) -> str:
        """A player's name."""
        return self.game.name_of(seat)

    @property
    def seats(self) -> range:
        """Every seat at the table, lost players included."""
        return range(len(self.game.state.players))
