"""The vocabulary card authors write effects with, and what speaks it.

``Play`` (a card being resolved), ``Ongoing`` (a lasting effect) and ``Rule`` (a set's
rule, as a hook receives it) all mix ``Verbs`` in, so a card's code reads like its printed
text::

    def main(play):
        if play.holds(play.target, play.info):
            play.lose(play.target)

Every verb goes through the engine, which applies the rules (hooks, ongoing effects,
the win/lose ladder) and records an event naming ``self`` as the cause (a rule: its id).
The model imports nothing of the engine: ``game`` is typed loosely.
"""

from __future__ import annotations

import difflib
import inspect
from collections.abc import Iterable
from types import EllipsisType
from typing import Any, TypeAlias

from spoiler.model.cards import Card, _takes
from spoiler.model.state import Status


class Verbs:
    """Verbs and read-only questions, acting on ``self.game`` on behalf of ``self``."""

    __slots__ = ()

    # A misspelt verb (``play.loose``) is named with the closest one where card code fails
    # (``name_the_closest``), not by a ``__getattr__``: a class with one has every attribute
    # read go the slow, unspecialized way, and the engine reads its plays at every step.

    #: The game this play or effect belongs to (set by the engine): a
    #: ``spoiler.rules.game.Game``, typed loosely since the model knows no engine.
    game: Any

    @property
    def _cause(self) -> Verbs | str:
        """What this object's verbs name as their cause: itself (a ``Rule``: its id)."""
        return self

    # -- changing the game ---------------------------------------------------------------
    def lose(self, seat: int) -> bool:
        """Make a player lose (one step down: won -> in play -> lost). False if prevented."""
        return self.game.lose(seat, cause=self._cause)

    def win(self, seat: int) -> bool:
        """Make a player win (one step up: lost -> in play -> won). False if prevented."""
        return self.game.win(seat, cause=self._cause)

    def draw(self, seat: int, n: int = 1) -> list[Card]:
        """A player draws n cards (refilling the deck from the discard pile if needed)."""
        return self.game.draw(seat, n, cause=self._cause)

    def discard(self, seat: int, card: Card | str) -> bool:
        """A player discards a card (a Card or its name) from hand. False if not held."""
        return self.game.discard(seat, card, cause=self._cause)

    def take_from_discard(self, seat: int, card: Card | str) -> bool:
        """A player takes a card (a Card or its name) from the discard pile into their hand:
        the copy nearest the top, in sight of everyone. False if the pile has none."""
        return self.game.take_from_discard(seat, card, cause=self._cause)

    def give(self, giver: int, receiver: int, card: Card | str) -> bool:
        """Move a card (a Card or its name) from one hand to another. False if not held."""
        return self.game.give(giver, receiver, card, cause=self._cause)

    def swap_hands(self, a: int, b: int) -> None:
        """Two players exchange their whole hands."""
        self.game.swap_hands(a, b, cause=self._cause)

    def cancel(self, play: Play) -> bool:
        """Cancel a play that has not resolved yet: it does nothing at all. False if too late."""
        return self.game.cancel(play, cause=self._cause)

    def redirect(self, play: Play, targets: int | Iterable[int]) -> bool:
        """Give an unresolved play new targets (a seat or a tuple of seats)."""
        return self.game.redirect(play, targets, cause=self._cause)

    def copy(self, play: Play) -> bool:
        """Resolve another play's main effect again, as if this card's player had played it.
        False (nothing happens) if that play was cancelled."""
        return self.game.copy(play, cause=self._cause)

    def replace(self, play: Play, card: Card | str) -> bool:
        """An unresolved play resolves as another card's main effect (a Card, or the name or
        id of a card in this game), keeping its targets and information. False if too late."""
        return self.game.replace(play, card, cause=self._cause)

    def find_card(self, name: str) -> Card:
        """The card of this game's deck with that name or id (case-insensitive); raises
        LookupError naming the closest card names when there is none."""
        return self.game.find_card(name)

    def change_priority(self, seat: int, position: int, *, this_round: bool = False) -> None:
        """Move a player to a priority position (1 = first), for this round only or from now on."""
        self.game.change_priority(seat, position, this_round=this_round, cause=self._cause)

    def reveal(self, hand_of: int, to: int) -> tuple[Card, ...]:
        """Show one player's hand to another player (only they see it). Returns the cards."""
        return self.game.reveal(hand_of, to, cause=self._cause)

    def add_ongoing(self, effect: Ongoing) -> None:
        """Put an ``Ongoing`` effect into play, owned by this card's player."""
        self.game.add_ongoing(effect, cause=self._cause)

    def ask(self, seat: int, prompt: str, options: Iterable[object]) -> str | None:
        """Ask a player (lost players too) to choose one of ``options``; returns the choice
        (the only option without asking; None if there is no option)."""
        return self.game.ask(seat, prompt, options, cause=self._cause)

    def add_counter(self, seat: int, name: str, delta: int = 1) -> int:
        """Add to a player's named counter (tokens kept across rounds); returns the new value."""
        return self.game.add_counter(seat, name, delta, cause=self._cause)

    def note(self, message: str) -> None:
        """Say something in the game log (for effects that change nothing visible)."""
        self.game.note(message, cause=self._cause)

    # -- reading the game ----------------------------------------------------------------
    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards in a player's hand."""
        return self.game.hand(seat)

    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile (public): the bottom card first, the top card last."""
        return self.game.discard_pile()

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


def name_the_closest(exc: BaseException) -> None:
    """A misspelt verb or attribute of a play, an ongoing effect or a rule fails naming the
    closest one (``Play has no attribute 'loose'; did you mean 'lose'?``), in the message
    that `fizzled` events and `sets validate` show. The engine calls this where card and
    plugin code fails; it rewrites only Python's own message for such an attribute."""
    if not isinstance(exc, AttributeError):
        return
    obj, name = getattr(exc, "obj", None), getattr(exc, "name", None)
    if not isinstance(obj, Verbs) or not isinstance(name, str) or name.startswith("__"):
        return
    kind = type(obj).__name__
    if exc.args != (f"'{kind}' object has no attribute '{name}'",):
        return
    known = [n for n in dir(type(obj)) if not n.startswith("_")]
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.7)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    exc.args = (f"{kind} has no attribute {name!r}{hint}",)


#: What made something happen: a play, an ongoing effect, a rule's id, or nothing.
Cause: TypeAlias = "Play | Ongoing | str | None"


class Play(Verbs):
    """A card selected for this round, with its locked targets and information.

    Card effects receive the play and act through its verbs (``play.lose(play.target)``).
    """

    __slots__ = (
        "game",
        "player",
        "card",
        "targets",
        "info",
        "cancelled",
        "resolved",
        "acting_as",
        "kept",
    )

    def __init__(
        self, game: Any, player: int, card: Card, targets: tuple[int, ...] = (), info: Any = None
    ):
        self.game = game
        self.player = player
        self.card = card
        self.targets = targets
        self.info = info
        self.cancelled = False
        self.resolved = False
        #: The card whose main effect this play resolves as (see ``Game.replace``).
        self.acting_as = card
        #: An ongoing effect keeps the card on the table after this round.
        self.kept = False

    @property
    def target(self) -> int:
        """The first (usually only) target; None for a card that targets no one."""
        # Typed int: a card's own effect reads it only when the card targets someone, and
        # code that sees any play (hooks, Ongoing handlers) checks it against None.
        return self.targets[0] if self.targets else None  # type: ignore[return-value]

    def __repr__(self) -> str:
        return f"<Play {self.card.id} by {self.player} -> {self.targets} info={self.info!r}>"


class Rule(Verbs):
    """A set's rule, as its phase and effect hooks receive it (their ``rule`` argument):
    the verbs, with the rule's id as their cause (``rule.lose(seat)`` is
    ``game.lose(seat, cause=rule.id)``). The id is ``"<plugin>:rule"``."""

    __slots__ = ("game", "id")

    def __init__(self, game: Any, rule_id: str):
        self.game = game
        self.id = rule_id

    @property
    def _cause(self) -> str:
        return self.id

    def __repr__(self) -> str:
        return f"<Rule {self.id}>"


# -- ongoing effects -------------------------------------------------------------------------
#: What an Ongoing subclass sets to say what it is and how long it lasts.
_ONGOING_FIELDS = ("name", "text", "rounds", "keeps_card")


class Ongoing(Verbs):
    """An effect that lasts beyond its card's round. Subclass it and override the handlers
    you need; the engine calls only the ones you override.

    ``rounds``: how many round ends it lasts (1 = until the end of this round; None = until
    removed). ``keeps_card``: the card that made it stays on the table until it ends.
    Handlers act through the verbs (``self.lose(...)``) and may keep state on ``self``.
    """

    name = "Ongoing effect"
    text = ""
    rounds: int | None = 1
    keeps_card = False

    #: Handlers an ongoing effect may override; each mirrors a card-effect hook.
    HANDLERS = (
        "at_beginning",
        "at_end",
        "before_play",
        "after_play",
        "would_lose",
        "would_win",
        "card_drawn",
        "card_discarded",
        "card_given",
    )

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A handler's name and parameters are checked when the class is declared: a
        misspelt handler would otherwise never be called, and say nothing."""
        super().__init_subclass__(**kwargs)
        for attr, value in vars(cls).items():
            if not attr.startswith("_") and not callable(value) and not hasattr(Ongoing, attr):
                # an attribute: `round = 2` would last one round all the same
                close = difflib.get_close_matches(attr, _ONGOING_FIELDS, n=1, cutoff=0.8)
                if close:
                    raise TypeError(
                        f"{cls.__name__}.{attr} is not an Ongoing attribute, so it changes "
                        f"nothing: did you mean {close[0]!r}?"
                    )
            if attr.startswith("_") or not inspect.isfunction(value):
                continue
            if attr in Ongoing.HANDLERS:
                wanted = [p for p in inspect.signature(getattr(Ongoing, attr)).parameters]
                if not _takes(value, len(wanted)):
                    raise TypeError(
                        f"{cls.__name__}.{attr} must take ({', '.join(wanted)}), like the "
                        f"Ongoing handler it overrides"
                    )
                continue
            if hasattr(Ongoing, attr):
                continue
            close = difflib.get_close_matches(attr, Ongoing.HANDLERS, n=1, cutoff=0.8)
            if close:
                raise TypeError(
                    f"{cls.__name__}.{attr} is not an Ongoing handler, so it would never be "
                    f"called: did you mean {close[0]!r}? (handlers: {', '.join(Ongoing.HANDLERS)})"
                )

    def __init__(self, rounds: int | EllipsisType | None = ..., **state: Any):
        if rounds is not ...:
            self.rounds = rounds
        self.__dict__.update(state)
        # Set by the engine when the effect is added (and ``game``, declared by Verbs):
        self.owner: int = -1
        self.card: Card | None = None

    def end(self) -> None:
        """Remove this effect now."""
        self.game.end_ongoing(self)

    # Handlers (default: do nothing). Overriding one is what makes the engine call it.
    def at_beginning(self) -> None:
        """Resolves with the "At Beginning of Round" parts."""

    def at_end(self) -> None:
        """Resolves with the "At End of Round" parts."""

    def before_play(self, play: Play) -> None:
        """Before a play resolves; may cancel or redirect it."""

    def after_play(self, play: Play) -> None:
        """After a play resolved."""

    def would_lose(self, seat: int, cause: Cause) -> bool:
        """Return True to prevent the loss."""
        return False

    def would_win(self, seat: int, cause: Cause) -> bool:
        """Return True to prevent the win."""
        return False

    def card_drawn(self, seat: int, card: Card) -> None:
        """A player drew a card."""

    def card_discarded(self, seat: int, card: Card, cause: Cause) -> None:
        """A card was discarded."""

    def card_given(self, giver: int, receiver: int, card: Card, cause: Cause) -> None:
        """A card changed hands."""

    def __repr__(self) -> str:
        return f"<Ongoing {self.name} of seat {self.owner}, rounds={self.rounds}>"
