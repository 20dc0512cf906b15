"""Legality: what a player may select, and who must select.

The legal targets of a seat depend on public facts only (target kinds decide on seats and
statuses), so the table of them is worked out once per line-up of statuses and shared by
every game; a kind that reads other facts (``Target(..., changing=True)``: counters, hand
sizes) is worked out every time, and one whose ``allows`` raises allows no one (its cards are
unplayable that round, and a ``target_failed`` event says so). ``_choosers`` is the one place that decides who selects in a round: the round
asks them, and front ends read ``selecting()``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType

from spoiler.model.cards import Card, Target, targets_possible
from spoiler.model.errors import CardError, IllegalChoice
from spoiler.model.interrupts import PLUGIN_FAILURES, Stop
from spoiler.model.state import GameState, Status
from spoiler.model.verbs import Play
from spoiler.model.views import PlayerInfo, Selection
from spoiler.rules.guard import Guard
from spoiler.rules.native import mypyc_attr
from spoiler.rules.questions import Questions, find

LOST = Status.LOST

#: {target kind: the seats a player may choose} (read-only).
Legal = Mapping[Target, tuple[int, ...]]


@mypyc_attr(allow_interpreted_subclasses=True)  # (Game's part: see game.py)
class Legality(Questions):
    """The part of the engine that knows what may be selected, and by whom."""

    def _init_legality(self) -> None:
        self._target_kinds = frozenset(kind for card in self.cards for kind in card.targets)

    def _copy_into(self, new: Guard) -> None:
        super()._copy_into(new)
        assert isinstance(new, Legality)
        new._target_kinds = self._target_kinds

    def legal_targets(self, seat: int) -> Legal:
        """For each kind of target the game's cards use, the seats (a tuple) this player may
        choose.

        A target kind sees only public facts, and (unless it says ``changing=True``) decides
        on seats and statuses, so the table is worked out once per line-up of statuses and
        shared: it is read-only."""
        return self._legal_table()[seat]

    def _legal_table(self) -> tuple[Legal, ...]:
        players = self.state.players
        kinds = self._target_kinds
        statuses = []
        for p in players:  # (a loop, not a comprehension: every round's path)
            statuses.append(p.status)
        key = (kinds, tuple(statuses))
        table = _LEGAL_TABLES.get(key)
        if table is None:
            table, failed = _work_out(kinds, public_players(self.state, self._rank))
            if failed:
                self._targets_failed(failed)
            elif not _changing(kinds):  # facts beyond statuses: worked out every time
                _LEGAL_TABLES[key] = table
        return table

    def _targets_failed(self, failed: dict[Target, str]) -> None:
        """Target kinds whose ``allows`` raised: their cards are unplayable for the round;
        an event names them (once a round), and a strict game stops."""
        st = self.state
        for kind, error in failed.items():
            cards = [c for c in self.cards if kind in c.targets]
            named = ", ".join(f"{c.name} ({c.set_name})" for c in cards) or "no card"
            if self.strict:
                raise CardError(
                    f"{named}: the target kind {kind.description!r} failed in allows: {error}"
                )
            told = False
            for event in reversed(st.log):
                if event.round != st.round:
                    break
                if event.kind == "target_failed" and event.data.get("target") == kind.description:
                    told = True
                    break
            if not told:
                self._emit(
                    "target_failed",
                    None,
                    cards[0].id if cards else None,
                    {
                        "target": kind.description,
                        "cards": tuple([c.id for c in cards]),
                        "sets": tuple(sorted({c.set_name for c in cards})),
                        "error": error,
                    },
                )

    def playable(self, seat: int) -> list[Card]:
        """The cards in a player's hand they could legally select now."""
        return playable_cards(self.state.players[seat].hand, self.legal_targets(seat))

    def _choosers(self, legal_table: Sequence[Legal]) -> list[tuple[int, list[Card]]]:
        """The one place that decides who selects this round: (seat, the cards it may play)
        for every player who has not lost and holds a card, in priority order; an empty list
        for one who holds no card with a legal target (they cannot select)."""
        players = self.state.players
        choosers = []
        for seat in self.state.priority:  # (a loop, not a comprehension: every round's path)
            player = players[seat]
            if player.status is not LOST and player.hand:
                choosers.append((seat, playable_cards(player.hand, legal_table[seat])))
        return choosers

    def selecting(self) -> tuple[int, ...]:
        """The seats that must select a card now, in priority order (rulings 2 and 8)."""
        return tuple([seat for seat, cards in self._choosers(self._legal_table()) if cards])

    def check_selection(self, seat: int, selection: Selection, legal: Legal | None = None) -> Play:
        """Check a selection against the rules; return the play or raise IllegalChoice.
        ``legal``: this seat's legal targets now, when the caller has them already."""
        st = self.state
        if not isinstance(selection, Selection):
            raise IllegalChoice(f"expected a Selection, got {selection!r}")
        hand = st.players[seat].hand
        card = selection.card
        # Usually the very Card object from the hand (cards compare by identity): no search
        # by id or name needed.
        if card.__class__ is not Card or card not in hand:
            card = find(hand, card)
            if card is None:
                raise IllegalChoice(f"{selection.card!r} is not in your hand")
        assert isinstance(card, Card)
        targets = selection.targets
        if targets.__class__ is not tuple:  # a single seat, or a list
            targets = (targets,) if isinstance(targets, int) else tuple(targets)
        if len(targets) != len(card.targets):
            want = ", ".join(t.description for t in card.targets) or "no target"
            raise IllegalChoice(f"{card.name} needs {want}")
        if len(targets) > 1 and len(set(targets)) != len(targets):
            raise IllegalChoice(f"{card.name} needs different players as its targets")
        if legal is None:
            legal = self.legal_targets(seat)
        for target, kind in zip(targets, card.targets, strict=True):
            if not (isinstance(target, int) and 0 <= target < len(st.players)):
                raise IllegalChoice(f"{target!r} is not a player")
            if target not in legal[kind]:
                raise IllegalChoice(
                    f"{card.name} needs {kind.description}; {st.players[target].name} is not"
                )
        info = None
        if card.ask is not None:
            try:
                info = card.ask.check(selection.info, self.card_names)
            except ValueError as exc:
                raise IllegalChoice(f"{card.name}: {exc}") from None
        elif selection.info is not None:
            raise IllegalChoice(f"{card.name} asks for no information")
        return Play(self, seat, card, targets, info)


def playable_cards(hand: Iterable[Card], legal: Legal) -> list[Card]:
    """The cards in this hand that have legal targets (``legal``: {target kind: seats})."""
    playable = []
    for card in hand:  # (a loop, not a comprehension: each card's targets read once)
        kinds = card.targets
        if not kinds or (
            legal[kinds[0]] if len(kinds) == 1 else targets_possible([legal[k] for k in kinds])
        ):
            playable.append(card)
    return playable


def public_players(state: GameState, rank: Mapping[int, int]) -> tuple[PlayerInfo, ...]:
    """The public facts about every player (what target kinds and every view see)."""
    rank = rank or {s: i for i, s in enumerate(state.priority)}
    # Built for every view: tuple.__new__ skips the NamedTuple's Python-level __new__.
    new = tuple.__new__
    public = []
    for p in state.players:  # (a loop, not a comprehension: every round's path)
        counters = MappingProxyType(dict(p.counters)) if p.counters else _NO_COUNTERS
        public.append(
            new(PlayerInfo, (p.seat, p.name, p.status, len(p.hand), rank[p.seat] + 1, counters))
        )
    return tuple(public)


def _work_out(kinds: frozenset[Target], public: tuple[PlayerInfo, ...]) -> tuple:
    """The legal-target table (per seat, {kind: seats}) and the kinds whose ``allows``
    raised ({kind: the error}; such a kind allows no one)."""
    failed: dict[Target, str] = {}
    rows = []
    for me in range(len(public)):
        row = {}
        for kind in kinds:
            try:
                row[kind] = tuple(kind.candidates(me, public))
            except Stop:
                raise
            except PLUGIN_FAILURES as exc:
                row[kind] = ()
                failed.setdefault(kind, f"{type(exc).__name__}: {exc}")
        rows.append(MappingProxyType(row))
    return tuple(rows), failed


@functools.cache
def _changing(kinds: frozenset[Target]) -> bool:
    """Does any of these kinds read changing facts (``Target.changing``)?"""
    return any(kind.changing for kind in kinds)


#: Legal-target tables ({target kind: seats} per seat) by (target kinds, statuses), shared by
#: every game: a target kind decides on seats and statuses, so those two settle the table, and
#: games keep meeting the same few line-ups (every game starts with all players in play).
#: Read-only all the way down (mapping proxies of tuples): views hand them out.
_LEGAL_TABLES: dict[tuple, tuple[Legal, ...]] = {}

#: The counters of a player who has none (read-only, so one can be shared).
_NO_COUNTERS: Mapping[str, int] = MappingProxyType({})
