"""Resolution in priority order: the round's order, the parts and plays resolving in it,
running one effect (which may fizzle), and the ongoing effects' handler lists.

The engine keeps this round's order beside the lasting ``state.priority``: a change "for
this round" moves a player in this round's order only, and the parts still to resolve
follow it at once (ruling 4). Ongoing effects take part without pluggy: for each handler
name, the effects whose class overrides it, called directly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import cache
from typing import Any

from spoiler.model.cards import SECRET_UNTIL, Card
from spoiler.model.errors import CardError, GameError
from spoiler.model.interrupts import PLUGIN_FAILURES, Stop
from spoiler.model.verbs import Cause, Ongoing, Play, name_the_closest
from spoiler.rules.guard import Guard
from spoiler.rules.hooks import Hooks
from spoiler.rules.log import cause_id, seat_of
from spoiler.rules.native import mypyc_attr


@mypyc_attr(allow_interpreted_subclasses=True)  # (Game's part: see game.py)
class Resolution(Hooks):
    """The part of the engine that resolves plays and parts in priority order."""

    def _init_resolution(self) -> None:
        self._order: list[int] = []  # this round's priority order (may differ from state.priority)
        self._rank: dict[int, int] = {}
        self._order_version = 0
        #: For each handler, the ongoing effects overriding it, in ``state.ongoing``'s order.
        self._handlers: dict[str, list[Ongoing]] = {h: [] for h in Ongoing.HANDLERS}

    def _copy_into(self, new: Guard) -> None:
        """(``new.state`` is already the copied state: the handler lists hold its effects.)"""
        super()._copy_into(new)
        assert isinstance(new, Resolution)
        new._order = list(self._order)
        new._rank = dict(self._rank)
        new._order_version = self._order_version
        # (Loops, not comprehensions: a clone is made for every rollout, and on Python 3.11
        # each comprehension is a call of its own.)
        twin_of = {}
        for effect, twin in zip(self.state.ongoing, new.state.ongoing, strict=True):
            twin_of[id(effect)] = twin
        handlers: dict[str, list[Ongoing]] = {}
        for handler, effects in self._handlers.items():
            twins = handlers[handler] = []
            for effect in effects:
                if id(effect) in twin_of:
                    twins.append(twin_of[id(effect)])
        new._handlers = handlers

    def _reorder(self) -> None:
        order = self._order
        self._rank = dict(zip(order, range(len(order)), strict=True))
        self._order_version += 1

    def _in_priority(self, items: list[tuple]) -> Iterator[tuple]:
        """Yield (seat, tiebreak, thing) items in this round's priority order, following
        priority changes made while they resolve."""
        remaining = list(items)
        while remaining:
            version = self._order_version
            rank = self._rank
            # An effect with no owner (added by a rule) has no priority: it goes first.
            remaining.sort(key=lambda it: rank.get(it[0], -1) * 2 + it[1])
            while remaining and version == self._order_version:
                yield remaining.pop(0)

    def _resolve_parts(self, part: str) -> None:
        """Resolve every "At Beginning/End of Round" part, cards and ongoing effects,
        in priority order (an older ongoing effect before a new card of the same player)."""
        items = []
        for play in self.state.plays:  # (loops, not comprehensions, on every round's path)
            if getattr(play.card, part):
                items.append((play.player, 1, play))
        effects = self._handlers[part]
        if effects:
            items = [(o.owner, 0, o) for o in effects] + items
        elif not items:
            return
        for _, _, item in self._in_priority(items):
            if isinstance(item, Play):
                if not item.cancelled:
                    if self.logging:
                        self._emit(part, item.player, item.card.id, {"card": item.card.id})
                    self._run(item, getattr(item.card, part), item)
            elif item in self.state.ongoing:
                self._run(item, getattr(item, part))

    def _resolve_beginning(self) -> None:
        self._resolve_parts("at_beginning")

    def _resolve_plays(self) -> None:
        """Mid round: each play's main effect, in priority order."""
        items = []
        for play in self.state.plays:
            items.append((play.player, 1, play))
        for _, _, play in self._in_priority(items):
            self._resolve(play)

    def _resolve_end(self) -> None:
        self._resolve_parts("at_end")

    def _resolve(self, play: Play) -> None:
        if play.cancelled:
            return
        if "spoiler_before_play" in self.hooks:
            self._hook("spoiler_before_play", game=self, play=play)
        handlers = self._handlers
        if handlers["before_play"]:  # (checked here: most plays meet no such effect)
            for effect in self._live("before_play"):
                self._run(effect, effect.before_play, play)
        if play.cancelled:
            return
        play.resolved = True
        ask = play.card.ask
        if not self.logging:
            pass
        elif ask is not None and ask.secret:  # told only once the main effect is over
            self._emit(
                "played",
                play.player,
                play.card.id,
                {"card": play.card.id, "targets": tuple(play.targets)},
                {"info": play.info},
                self._only[play.player],
            )
        else:
            card_id = play.card.id
            self._emit(
                "played",
                play.player,
                card_id,
                {"card": card_id, "targets": tuple(play.targets), "info": play.info},
            )
        acting_as = play.acting_as
        if acting_as.main is not None:  # blamed on the card whose code runs, if replaced
            self._run(play, acting_as.main, play, card=acting_as)
        if ask is not None and ask.secret:
            until = kept_until(play.card)
            if until is None:
                if self.logging:
                    self._emit(
                        "revealed",
                        play.player,
                        play.card.id,
                        {"card": play.card.id, "info": play.info},
                    )
            else:
                self.state.kept_secrets.append((until, play.player, play.card.id, play.info))
        if "spoiler_after_play" in self.hooks:
            self._hook("spoiler_after_play", game=self, play=play)
        if handlers["after_play"]:
            for effect in self._live("after_play"):
                self._run(effect, effect.after_play, play)

    def _reveal_kept(self, phase: str) -> None:
        """Tell the secrets kept until ``phase``, now over, in the order they were kept."""
        kept = self.state.kept_secrets
        told = [k for k in kept if k[0] == phase]
        if told:
            self.state.kept_secrets = [k for k in kept if k[0] != phase]
            for _, seat, card_id, info in told:
                if self.logging:
                    self._emit("revealed", seat, card_id, {"card": card_id, "info": info})

    def _run(
        self, source: object, fn: Callable[..., object], *args: Any, card: Card | None = None
    ) -> None:
        """Run one effect of ``source`` (a play or an ongoing effect). If it raises, it
        fizzles, the log says why, and the game goes on, unless the game is strict. ``card``:
        the card whose code this is, when not ``source.card`` (a replaced play)."""
        self._steps -= 1
        if self._steps <= 0:
            self._guard()
        try:
            fn(*args)
        except (EOFError, GameError, Stop):
            raise
        except PLUGIN_FAILURES as exc:  # sys.exit() or KeyboardInterrupt in a card is its bug
            name_the_closest(exc)
            card = card or getattr(source, "card", None)
            if self.strict:
                blamed = card.id if card is not None else cause_id(source)
                raise CardError(f"{blamed}: {type(exc).__name__}: {exc}") from exc
            self._emit(
                "fizzled",
                seat_of(source),
                card.id if card is not None else source,
                {
                    "card": card.id if card else None,
                    "set": card.set_name if card else None,
                    "error": f"{type(exc).__name__}: {exc}",
                },
            )

    def _live(self, handler: str) -> Iterable[Ongoing]:
        """The effects with this handler, walked over a copy because handlers may add or end
        effects: one ended by an earlier handler is skipped, one added joins from the next
        event on."""
        effects = self._handlers[handler]
        if not effects:
            return ()
        return self._still_on(list(effects))

    def _still_on(self, effects: list[Ongoing]) -> Iterator[Ongoing]:
        """Each of ``effects`` still on when the walk reaches it. (A generator function: a
        compiled engine makes a generator expression a list, whose test would run at once.)"""
        for effect in effects:
            if effect in self.state.ongoing:
                yield effect

    def _prevents(
        self, effect: Ongoing, handler: Callable[[int, Cause], object], seat: int, cause: Cause
    ) -> bool:
        """Does an ongoing effect prevent a loss or a win? One that raises fizzles like any
        effect, and prevents nothing."""
        answers = []
        self._run(effect, lambda: answers.append(handler(seat, cause)))
        return bool(answers and answers[0])


@cache
def kept_until(card: Card) -> str | None:
    """The phase a card's secret information is kept until (None: told as soon as its main
    effect has resolved): what its question says (``Ask.until``), else the At End of Round
    phase for a card with such a part, whose information the part still needs."""
    until = card.ask.until if card.ask is not None else None
    if until is not None:
        return SECRET_UNTIL[until.lower()]
    return "at end of round" if card.at_end is not None else None


@cache
def overridden(kind: type) -> frozenset[str]:
    """The handlers an Ongoing subclass overrides (only those are ever called)."""
    return frozenset(h for h in Ongoing.HANDLERS if getattr(kind, h) is not getattr(Ongoing, h))
