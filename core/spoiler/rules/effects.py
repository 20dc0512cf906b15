"""The verbs' effects on the players and their cards: the win/lose ladder, drawing,
discarding, giving, swapping and showing hands, questions to a player, counters and notes.

Each applies the rules (ongoing effects and hooks that may prevent or replace, the refill of
an empty deck) and records an event naming its ``cause``: a play, an ongoing effect, a
rule's id (``"myset:rule"``) or None.
"""

from __future__ import annotations

from collections.abc import Iterable
from time import monotonic

from spoiler.model.cards import Card
from spoiler.model.errors import GameError
from spoiler.model.state import Status
from spoiler.model.verbs import Cause
from spoiler.model.views import Question
from spoiler.rules.guard import DECIDING
from spoiler.rules.log import cause_id, seat_of
from spoiler.rules.native import mypyc_attr
from spoiler.rules.questions import find
from spoiler.rules.selection import MAX_ATTEMPTS, Selecting

LOST, IN_PLAY, WON = Status.LOST, Status.IN_PLAY, Status.WON
#: The ladder, one step down and one step up, and how events name each status.
_DOWN = {WON: IN_PLAY, IN_PLAY: LOST, LOST: LOST}
_UP = {LOST: IN_PLAY, IN_PLAY: WON, WON: WON}
_NAME = {status: status.name.lower() for status in Status}


@mypyc_attr(allow_interpreted_subclasses=True)  # (Game's part: see game.py)
class Effects(Selecting):
    """The part of the engine that carries out the verbs on players and cards."""

    def lose(self, seat: int, cause: Cause = None) -> bool:
        """One step down the ladder (won -> in play -> lost). False if something prevented it."""
        for effect in self._live("would_lose"):
            if self._prevents(effect, effect.would_lose, seat, cause):
                if self.logging:
                    self._emit("loss_prevented", seat, effect, {"by": effect.name})
                return False
        if "spoiler_would_lose" in self.hooks and self._hook(
            "spoiler_would_lose", game=self, seat=seat, cause=cause
        ):
            if self.logging:
                self._emit("loss_prevented", seat, cause, {"by": "rule"})
            return False
        player = self.state.players[seat]
        before = player.status
        player.status = after = _DOWN[before]
        if self.logging:
            self._emit("lost", seat, cause, {"before": _NAME[before], "after": _NAME[after]})
        return True

    def win(self, seat: int, cause: Cause = None) -> bool:
        """One step up the ladder (lost -> in play -> won). False if something prevented it."""
        for effect in self._live("would_win"):
            if self._prevents(effect, effect.would_win, seat, cause):
                if self.logging:
                    self._emit("win_prevented", seat, effect, {"by": effect.name})
                return False
        if "spoiler_would_win" in self.hooks and self._hook(
            "spoiler_would_win", game=self, seat=seat, cause=cause
        ):
            if self.logging:
                self._emit("win_prevented", seat, cause, {"by": "rule"})
            return False
        player = self.state.players[seat]
        before = player.status
        player.status = after = _UP[before]
        if self.logging:
            self._emit("won", seat, cause, {"before": _NAME[before], "after": _NAME[after]})
        return True

    def draw(self, seat: int, n: int = 1, cause: Cause = None) -> list[Card]:
        """Draw n cards; an empty deck is refilled by shuffling the discard pile first."""
        st = self.state
        hand = st.players[seat].hand
        drawn = []
        for _ in range(n):
            if not st.deck:
                if not st.discard:
                    if self.logging:
                        self._emit("no_card", seat, cause)
                    break
                st.deck, st.discard = st.discard, []
                st.rng.shuffle(st.deck)
                if self.logging:
                    self._emit("reshuffled", None, cause, {"cards": len(st.deck)})
            card = st.deck.pop()
            hand.append(card)
            drawn.append(card)
            if self.logging:
                self._emit("drew", seat, cause, None, {"card": card.id}, self._only[seat])
            if "spoiler_card_drawn" in self.hooks:
                self._hook("spoiler_card_drawn", game=self, seat=seat, card=card)
            if self._handlers["card_drawn"]:  # (checked here: usually none)
                for effect in self._live("card_drawn"):
                    self._run(effect, effect.card_drawn, seat, card)
        return drawn

    def discard(self, seat: int, card: Card | str, cause: Cause = None) -> bool:
        """Discard a card (Card, id or name) from a hand, face up. False if not held."""
        hand = self.state.players[seat].hand
        found = find(hand, card)
        if found is None:
            return False
        hand.remove(found)
        self.state.discard.append(found)
        if self.logging:
            self._emit("discarded", seat, cause, {"card": found.id})
        if "spoiler_card_discarded" in self.hooks:
            self._hook("spoiler_card_discarded", game=self, seat=seat, card=found, cause=cause)
        for effect in self._live("card_discarded"):
            self._run(effect, effect.card_discarded, seat, found, cause)
        return True

    def take_from_discard(self, seat: int, card: Card | str, cause: Cause = None) -> bool:
        """Move a card (Card, id or name) from the discard pile to a hand: the copy nearest
        the top. Face up, like the pile: everyone sees which. False if it is not there."""
        pile = self.state.discard
        for index in range(len(pile) - 1, -1, -1):  # the top is the end of the list
            if find((pile[index],), card) is not None:
                found = pile.pop(index)
                break
        else:
            return False
        self.state.players[seat].hand.append(found)
        if self.logging:
            self._emit("took_from_discard", seat, cause, {"card": found.id})
        return True

    def give(self, giver: int, receiver: int, card: Card | str, cause: Cause = None) -> bool:
        """Move a card from one hand to another; only those two see which. False if not held."""
        players = self.state.players
        found = find(players[giver].hand, card)
        if found is None:
            return False
        players[giver].hand.remove(found)
        players[receiver].hand.append(found)
        if self.logging:
            self._emit(
                "gave",
                giver,
                cause,
                {"to": receiver},
                {"card": found.id},
                frozenset((giver, receiver)),
            )
        if "spoiler_card_given" in self.hooks:
            self._hook(
                "spoiler_card_given",
                game=self,
                giver=giver,
                receiver=receiver,
                card=found,
                cause=cause,
            )
        for effect in self._live("card_given"):
            self._run(effect, effect.card_given, giver, receiver, found, cause)
        return True

    def swap_hands(self, a: int, b: int, cause: Cause = None) -> None:
        players = self.state.players
        players[a].hand, players[b].hand = players[b].hand, players[a].hand
        if self.logging:
            # Each of the two knew their own hand, so each now knows both: they see what they
            # got.
            hands = {
                "cards": [c.id for c in players[a].hand],
                "other_cards": [c.id for c in players[b].hand],
            }
            self._emit("swapped_hands", a, cause, {"other": b}, hands, frozenset((a, b)))

    def reveal(self, hand_of: int, to: int, cause: Cause = None) -> tuple[Card, ...]:
        """Show one player's hand to another; only the viewer learns the cards."""
        st = self.state
        cards = tuple(st.players[hand_of].hand)
        st.players[to].known[hand_of] = (st.round, cards)
        if self.logging:
            self._emit(
                "shown",
                hand_of,
                cause,
                {"to": to},
                {"cards": tuple([c.id for c in cards])},
                self._only[to],
            )
        return cards

    def ask(
        self, seat: int, prompt: str, options: Iterable[object], cause: Cause = None
    ) -> str | None:
        """Ask a player (lost or not) to choose one of ``options``. A single option is
        chosen without asking; no option gives None. Questions belong to rounds (that is
        where records keep their answers), so none may be asked before round 1."""
        if self.state.round == 0:
            raise GameError(
                f"{cause_id(cause) or 'a plugin'} asked {prompt!r} before round 1; "
                "questions can only be asked during a round"
            )
        choices = tuple([str(o) for o in options])
        if not choices:
            return None
        if len(choices) == 1:
            answer = choices[0]
        else:
            question = Question(prompt, choices, cause_id(cause))
            agent = self.seats[seat].agent
            error = None
            for _ in range(MAX_ATTEMPTS):
                # legal={}: an answer needs no target table (the view works it out if asked).
                view = self.view(seat, error)
                self._decided_at = DECIDING  # a player's thinking is no effect running away
                raw = agent.answer(view, question)
                self._decided_at = monotonic()
                wanted = str(raw).strip().lower()
                found = next((o for o in choices if o.lower() == wanted), None)
                if found is not None:
                    answer = found
                    break
                error = f"{raw!r} is not one of: {', '.join(choices)}"
            else:
                raise GameError(
                    f"{self.seats[seat].name}'s agent gave {MAX_ATTEMPTS} "
                    f"illegal answers; last: {error}"
                )
            if self.seed is not None:  # (a determinization is never recorded)
                record = {"seat": seat, "prompt": prompt, "answer": answer}
                self.decisions[-1]["answers"].append(record)
        asker = seat_of(cause)
        asker = seat if asker is None else asker
        if self.logging:
            self._emit(
                "answered",
                seat,
                cause,
                {"prompt": prompt},
                {"answer": answer},
                frozenset((seat, asker)),
            )
        return answer

    def add_counter(self, seat: int, name: str, delta: int = 1, cause: Cause = None) -> int:
        counters = self.state.players[seat].counters
        counters[name] = value = counters.get(name, 0) + delta
        if self.logging:
            self._emit("counter", seat, cause, {"name": name, "delta": delta, "value": value})
        return value

    def note(self, message: str, cause: Cause = None) -> None:
        if self.logging:
            self._emit("note", None, cause, {"message": message})
