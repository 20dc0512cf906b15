"""The verbs' effects on plays, priorities and lasting effects: cancel, redirect, replace
and copy a play, change a player's priority, put an ongoing effect into play and end it."""

from __future__ import annotations

from collections.abc import Iterable

from spoiler.model.cards import Card
from spoiler.model.verbs import Cause, Ongoing, Play
from spoiler.rules.effects import Effects
from spoiler.rules.log import seat_of
from spoiler.rules.native import mypyc_attr
from spoiler.rules.resolution import overridden


@mypyc_attr(allow_interpreted_subclasses=True)  # (Game's part: see game.py)
class PlayEffects(Effects):
    """The part of the engine that carries out the verbs on plays and lasting effects."""

    def cancel(self, play: Play, cause: Cause = None) -> bool:
        """Cancel a play that has not resolved: it does nothing at all, later parts included."""
        if play.resolved or play.cancelled:
            return False
        play.cancelled = True
        if self.logging:
            self._emit("cancelled", play.player, cause, {"card": play.card.id})
        return True

    def redirect(self, play: Play, targets: int | Iterable[int], cause: Cause = None) -> bool:
        """Give an unresolved play new targets."""
        if play.resolved or play.cancelled:
            return False
        play.targets = (targets,) if isinstance(targets, int) else tuple(targets)
        if self.logging:
            self._emit(
                "redirected",
                play.player,
                cause,
                {"card": play.card.id, "targets": tuple(play.targets)},
            )
        return True

    def replace(self, play: Play, card: Card | str, cause: Cause = None) -> bool:
        """An unresolved play resolves as another card's main effect (``card``: a Card, or
        the name or id of a card in this game; targets and information stay as selected)."""
        if not isinstance(card, Card):
            card = self.find_card(card)
        if play.resolved or play.cancelled:
            return False
        play.acting_as = card
        if self.logging:
            self._emit("replaced", play.player, cause, {"card": play.card.id, "instead": card.id})
        return True

    def copy(self, play: Play, cause: Cause) -> bool:
        """Resolve ``play``'s main effect again (as the card it acts as) on behalf of
        ``cause``'s player (or of the play's own player, for an effect no player owns). A
        cancelled play did nothing, so there is nothing to copy: False."""
        if play.cancelled:
            return False
        card = play.acting_as
        player = seat_of(cause)
        if player is None:  # a rule's effect copies on behalf of the play's own player
            player = play.player
        if self.logging:
            self._emit("copied", player, cause, {"card": card.id, "targets": tuple(play.targets)})
        if card.main is not None:
            twin = Play(self, player, card, play.targets, play.info)
            twin.resolved = True
            self._run(twin, card.main, twin)
        return True

    def change_priority(
        self, seat: int, position: int, *, this_round: bool = False, cause: Cause = None
    ) -> None:
        """Move a player to a priority position (1 = first): for the rest of this round only,
        or from now on (the shift at the end of the round then moves it as usual)."""
        index = max(1, min(position, len(self.state.players))) - 1
        orders = [self._order] if this_round else [self._order, self.state.priority]
        for order in orders:
            order.remove(seat)
            order.insert(index, seat)
        self._reorder()
        if self.logging:
            self._emit(
                "priority_changed", seat, cause, {"position": index + 1, "this_round": this_round}
            )

    def add_ongoing(self, effect: Ongoing, cause: Cause = None) -> None:
        effect.game = self
        if isinstance(cause, Play):
            effect.owner, effect.card = cause.player, cause.card
            cause.kept = cause.kept or effect.keeps_card
        elif isinstance(cause, Ongoing):
            effect.owner, effect.card = cause.owner, cause.card
        self.state.ongoing.append(effect)
        # (The ignores: mypy checks a class object against Hashable as if it were an instance.)
        for handler in overridden(type(effect)):  # type: ignore[arg-type]  # handler lists follow state.ongoing's order
            self._handlers[handler].append(effect)
        if self.logging:
            # On whom: the targets of the play that made it (what "Ada's Hex on Cog" names).
            targets = tuple(cause.targets) if isinstance(cause, Play) else ()
            self._emit(
                "ongoing_added",
                seat_of(effect),
                cause,
                {
                    "name": effect.name,
                    "text": effect.text,
                    "rounds": effect.rounds,
                    "targets": targets,
                },
            )

    def end_ongoing(self, effect: Ongoing) -> None:
        self._remove_ongoing(effect, {"name": effect.name})

    def _remove_ongoing(self, effect: Ongoing, data: dict) -> None:
        st = self.state
        if effect not in st.ongoing:
            return
        st.ongoing.remove(effect)
        for handler in overridden(type(effect)):  # type: ignore[arg-type]
            self._handlers[handler].remove(effect)
        if effect.keeps_card and effect.card is not None and effect.card in st.in_play:
            st.in_play.remove(effect.card)
            st.discard.append(effect.card)
        if self.logging:
            self._emit("ongoing_ended", seat_of(effect), effect, data)
