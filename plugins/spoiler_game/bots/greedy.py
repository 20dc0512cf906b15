"""The greedy bot: a one-round-ahead heuristic player for the base set.

For every legal selection it scores what the card would do this round, from what its
player can see, and plays the best one (ties broken by its own seeded RNG):

1. a win it can take now (a Jewel pair, a third treasure token, a Crown with the biggest
   hand, a Prophecy naming a card it knows the target must play);
2. a Shield (or Mirror) when it is threatened: it is about to win, its hand was looked at,
   or an opponent is first in priority with cards in hand;
3. attacks aimed at the player closest to winning (treasure tokens, a win already on the
   table, a big hand for Crown), naming cards it has seen in their hand when it can;
4. Spoiler only on a player after it in this round's priority order (before that, the card
   has already resolved), Echo only on a player before it.

Cards it does not know (from other sets) score as a plain middling play. It never sees more
than its ``PlayerView``.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Set

from spoiler.agents import bot_rng
from spoiler.model.state import Status
from spoiler.model.views import PlayerInfo, PlayerView, Question, Selection

#: The sets whose cards the bot knows by name. A card of another set named like one of
#: them (a plugin's own "Accuse") is another card: it scores as a card the bot does not know.
KNOWN_SETS = ("base", "chrono", "mirror")
TREASURE = "base:treasure"
#: (Read as names of this module: an enum's members are slow to read from their class.)
LOST, WON = Status.LOST, Status.WON
TREASURE_TO_WIN = 3

#: How much a card is worth keeping in hand (what it gives away or discards first).
KEEP_VALUE = {
    "Treasure": 9,
    "Jewel": 8,
    "Shield": 7,
    "Spoiler": 6,
    "Assassin": 6,
    "Crown": 5,
    "Accuse": 5,
    "Mirror": 5,
    "Prophecy": 4,
    "Standoff": 4,
    "Hex": 4,
    "Tribute": 4,
    "Spyglass": 3,
    "Haste": 3,
    "Supply": 3,
    "Ambush": 3,
    "Echo": 2,
    "Swap": 2,
    "Delay": 2,
    "Purge": 2,
    "Revive": 0,
}


@functools.cache
def _copies() -> dict[str, int]:
    """Copies of each base card: printed on the cards, so public knowledge. (Worked out
    once: the expert's rollouts make many greedy players; nobody changes the dict.)"""
    try:
        from spoiler_game.base.cards import base
    except ImportError:  # the base set is not installed: every name counts alike
        return {}
    return {card.name: card.copies for card in base.cards}


class GreedyAgent:
    builtin = True  # shipped with Spoiler: its selections are legal by construction

    def __init__(self, seed: int = 0, seat: int = 0):
        self.rng = bot_rng(seed, seat)
        self.copies = _copies()

    # -- selecting ---------------------------------------------------------------------------
    def select(self, view: PlayerView) -> Selection:
        reading = _Reading(view, self.copies)
        names = reading.names
        rng = self.rng
        best, best_score = None, None  # (best: card, targets, info; one Selection at the end)
        random = rng.random
        for card in view.playable:
            name = _KNOWN.get(card)
            if name is None:
                name = _known(card)
            # (A second copy of a card scores as the first: worked out once for both.)
            scorer = _score_again if names[name] > 1 else _SCORE.get(name, _unknown)
            slots = view.legal_targets(card)
            if len(slots) == 1:
                choices: tuple[tuple[int, ...], ...] = _each_alone(slots[0])
            elif slots:
                choices = (self._distinct(slots),)
            else:
                choices = ((),)
            ask = card.ask
            for targets in choices:
                score, info = scorer(reading, name, targets)
                if ask is None:
                    info = None  # whatever its name suggested, this card asks nothing
                elif info is None:
                    options = ask.choices(view.card_names)
                    info = options[rng.randrange(len(options))]
                score += random() * 0.5  # break ties, differently each game
                if best_score is None or score > best_score:
                    best, best_score = (card, targets, info), score
        assert best is not None  # an agent is asked to select only when it has a playable card
        try:
            return _selection(*best)
        except TypeError:  # information that cannot be a key (a set's own kind of answer)
            return Selection(*best)

    def _distinct(self, slots) -> tuple[int, ...]:
        for _ in range(20):
            chosen = tuple(self.rng.choice(s) for s in slots)
            if len(set(chosen)) == len(chosen):
                return chosen
        return tuple(self.rng.choice(s) for s in slots)

    # -- answering ---------------------------------------------------------------------------
    def answer(self, view: PlayerView, question: Question) -> str:
        options = question.options
        if all(o in KEEP_VALUE for o in options):  # giving away or discarding a card
            cheapest = min(KEEP_VALUE[o] for o in options)
            options = tuple(o for o in options if KEEP_VALUE[o] == cheapest)
        return options[self.rng.randrange(len(options))]


class _Reading:
    """What one view tells the greedy bot this round (worked out once per decision, for
    every selection it weighs: the expert's rollouts make many decisions)."""

    def __init__(self, view: PlayerView, copies: dict[str, int]):
        self.view = view
        me = view.me
        self.me = me
        names: dict[str, int] = {}  # the names in my hand, by how many of each
        for card in view.hand:
            name = _KNOWN.get(card)
            if name is None:
                name = _known(card)
            names[name] = names.get(name, 0) + 1
        self.names = names
        self.tokens = me.counters.get(TREASURE, 0)
        events = view.events
        if events:
            recent = [e for e in events if e.round >= view.round - 2]
            self.hexed: Set[int] = {
                t
                for e in recent
                if e.kind == "played" and e.cause == "base:hex"
                for t in e.data.get("targets", ())
            }
            self.watched = any(
                e.kind == "shown" and e.seat == me.seat and e.data.get("to") != me.seat
                for e in recent
            )
        else:  # (a rollout keeps no events)
            self.hexed, self.watched = _NO_SEATS, False
        self.copies = copies
        #: The players still in the game but me, how close each looks to winning, and how
        #: much hitting it matters (0.5 to ~1.5: the leader matters most).
        rivals: list[PlayerInfo] = []
        threat: dict[int, float] = {}
        self.rivals, self.threat = rivals, threat
        seat, mine, known = me.seat, me.hand_size, view.known
        for p in view.players:
            status = p.status
            if status is LOST or p.seat == seat:
                continue
            rivals.append(p)
            tokens = p.counters.get(TREASURE, 0)
            value = 3.0 * tokens + (10 if status is WON else 0)
            if p.hand_size > mine:  # a Crown needs the biggest hand
                value += p.hand_size - mine
            if known:  # (usually nothing: no hand to look at)
                value += self._seen_threat(p.seat, tokens)
            threat[p.seat] = value
        leader = max(threat.values()) if threat else 0  # (max's keyword is slow to parse)
        aims: dict[int, float] = {}
        self.aims = aims
        for rival, value in threat.items():  # (a loop: a comprehension is a call on 3.11)
            aims[rival] = 0.5 + value / (1 + leader)
        self._threatened: bool | None = None
        self._likeliest: tuple[str | None, int, int] | None = None
        self._worth: int | None = None
        #: (name, targets) -> (score, information), for a name held twice or more.
        self._scored: dict = {}

    def unseen(self) -> dict[str, int]:
        """Cards not in my hand nor face up in the discard pile, by name: what others may
        hold (a name with none left counts none or less)."""
        unseen = dict(self.copies)
        for name, count in self.names.items():
            unseen[name] = unseen.get(name, 0) - count
        for card in self.view.discard:
            name = card.name
            unseen[name] = unseen.get(name, 0) - 1
        return unseen

    def likeliest(self) -> tuple[str | None, int, int]:
        """The unseen name there are most of (the last in alphabetical order among equals),
        how many of it and how many unseen cards in all (only guesses need it: worked out
        when first asked, once a decision)."""
        if self._likeliest is None:
            best, most, total = "", 0, 0
            for name, count in self.unseen().items():  # (one pass: this is on a hot path)
                if count > 0:
                    total += count
                    if count > most or (count == most and name > best):
                        best, most = name, count
            self._likeliest = (best, most, total) if total else (None, 0, 0)
        return self._likeliest

    # -- reading the table --------------------------------------------------------------------
    def known_hand(self, seat: int) -> list[str]:
        """Cards I saw in that hand, if I saw it this round or last (it may have changed)."""
        seen = self.view.known.get(seat)
        if seen is None or seen[0] < self.view.round - 1:
            return []
        return [card.name for card in seen[1]]

    def _seen_threat(self, seat: int, tokens: int) -> int:
        """What a rival's hand, if I saw it, adds to how close it looks to winning."""
        seen = self.known_hand(seat)
        if seen:
            known = Counter(seen)
            if known["Jewel"] >= 2 or (known["Treasure"] and tokens == TREASURE_TO_WIN - 1):
                return 6
        return 0

    def aim(self, seat: int) -> float:
        """How much hitting this seat matters, 0 to ~1.5: the leader matters most."""
        return self.aims.get(seat, 0.0)

    def threatened(self) -> bool:
        if self._threatened is None:
            self._threatened = (
                self.tokens >= TREASURE_TO_WIN - 1
                or self.names.get("Jewel", 0) >= 2
                or self.watched
                or (
                    any(p.priority == 1 and p.hand_size > 0 for p in self.rivals)
                    and len(self.rivals) <= 2
                )
            )
        return self._threatened

    def guess_name(self, seat: int) -> tuple[str | None, float]:
        """The card most likely in that player's hand, and how sure I am (0 to 1)."""
        seen = self.known_hand(seat) if self.view.known else None  # (usually no hand seen)
        if seen:
            known = [n for n in seen if n != "Accuse"]
            if known:
                return Counter(known).most_common(1)[0][0], 0.8
        guess, count, total = self.likeliest()
        if guess is None:
            return None, 0.0
        hand = max(1, self.view.players[seat].hand_size - 1)
        return guess, min(1.0, hand * count / total)

    # -- scoring a selection ------------------------------------------------------------------
    def worth(self) -> int:
        """What my hand is worth keeping (``KEEP_VALUE``; worked out when first asked)."""
        if self._worth is None:
            worth = 0
            for name, count in self.names.items():
                worth += KEEP_VALUE.get(name, 3) * count
            self._worth = worth
        return self._worth

    def rest(self, other: str, name: str) -> int:
        """That many ``other`` left in hand once ``name`` leaves it."""
        return self.names.get(other, 0) - (other == name)


# -- how each card the bot knows scores: (score, information) -------------------------------
def _jewel(r: _Reading, name: str, targets) -> tuple[float, object]:
    return (100.0 if r.rest("Jewel", name) and r.me.seat not in r.hexed else 0.0), None


def _treasure(r: _Reading, name: str, targets) -> tuple[float, object]:
    if r.tokens + 1 >= TREASURE_TO_WIN and r.me.seat not in r.hexed:
        return 100.0, None
    return 40.0, None


def _crown(r: _Reading, name: str, targets) -> tuple[float, object]:
    mine = r.me.hand_size - 1
    others = [p.hand_size - (1 if p.hand_size else 0) for p in r.rivals]
    can_win = r.me.seat not in r.hexed
    return (90.0 if can_win and all(mine > n for n in others) else 1.0), None


def _prophecy(r: _Reading, name: str, targets) -> tuple[float, object]:
    target = targets[0]
    known = r.known_hand(target)
    if len(known) == 1 and r.view.players[target].hand_size == 1 and r.me.seat not in r.hexed:
        return 80.0, known[0]
    guess, sure = r.guess_name(target)
    return 10.0 + 20 * sure, guess


def _shield(r: _Reading, name: str, targets) -> tuple[float, object]:
    return (70.0 if r.threatened() else 12.0), None


def _mirror(r: _Reading, name: str, targets) -> tuple[float, object]:
    return (55.0 if r.threatened() else 10.0), None


def _accuse(r: _Reading, name: str, targets) -> tuple[float, object]:
    target = targets[0]
    guess, sure = r.guess_name(target)
    if guess is None or guess == "Accuse":
        return 5.0, None
    return 10.0 + 60 * sure * r.aim(target), guess


def _standoff(r: _Reading, name: str, targets) -> tuple[float, object]:
    return 30.0 * _aim_first(r, targets), None


def _assassin(r: _Reading, name: str, targets) -> tuple[float, object]:
    return (85.0 * _aim_first(r, targets) if r.me.priority == 1 else 2.0), None


def _ambush(r: _Reading, name: str, targets) -> tuple[float, object]:
    return 12.0 * _aim_first(r, targets), None


def _spoiler(r: _Reading, name: str, targets) -> tuple[float, object]:
    target = targets[0]
    ahead = r.me.priority < r.view.players[target].priority
    return (45.0 * r.aim(target) if ahead else 0.5), None


def _echo(r: _Reading, name: str, targets) -> tuple[float, object]:
    behind = r.me.priority > r.view.players[targets[0]].priority
    return (15.0 if behind else 0.5), None


def _hex(r: _Reading, name: str, targets) -> tuple[float, object]:
    aim = _aim_first(r, targets)
    return 50.0 * aim if targets and r.threat.get(targets[0], 0) >= 6 else 8.0 * aim, None


def _revive(r: _Reading, name: str, targets) -> tuple[float, object]:
    return -10.0, None  # bringing back a rival rarely helps me


def _tribute(r: _Reading, name: str, targets) -> tuple[float, object]:
    return 20.0 + 5 * _aim_first(r, targets) + (10 if r.rest("Crown", name) else 0), None


def _supply(r: _Reading, name: str, targets) -> tuple[float, object]:
    return 18.0 + (15 if r.rest("Crown", name) else 0), None


def _spyglass(r: _Reading, name: str, targets) -> tuple[float, object]:
    return 15.0 + 10 * _aim_first(r, targets), None


def _purge(r: _Reading, name: str, targets) -> tuple[float, object]:
    return 12.0 + 8 * _aim_first(r, targets), None


def _swap(r: _Reading, name: str, targets) -> tuple[float, object]:
    # What the rest of my hand is worth once this card leaves it.
    mine = r.worth() - KEEP_VALUE.get(name, 3)
    return 8.0 + (10 if mine < 6 else 0), None


def _haste(r: _Reading, name: str, targets) -> tuple[float, object]:
    return 6.0, None


def _delay(r: _Reading, name: str, targets) -> tuple[float, object]:
    return 8.0 * _aim_first(r, targets), None


def _unknown(r: _Reading, name: str, targets) -> tuple[float, object]:
    return 15.0, None


def _aim_first(r: _Reading, targets) -> float:
    """The aim of the first target, 0 for a card with none."""
    return r.aims.get(targets[0], 0.0) if targets else 0.0  # (r.aim, one call less)


def _score_again(r: _Reading, name: str, targets) -> tuple[float, object]:
    """The score of a card whose name I hold twice or more: worked out once for all."""
    key = (name, targets)
    scored = r._scored.get(key)
    if scored is None:
        scored = r._scored[key] = _SCORE.get(name, _unknown)(r, name, targets)
    return scored


_SCORE = {
    "Jewel": _jewel,
    "Treasure": _treasure,
    "Crown": _crown,
    "Prophecy": _prophecy,
    "Shield": _shield,
    "Mirror": _mirror,
    "Accuse": _accuse,
    "Standoff": _standoff,
    "Assassin": _assassin,
    "Ambush": _ambush,
    "Spoiler": _spoiler,
    "Echo": _echo,
    "Hex": _hex,
    "Revive": _revive,
    "Tribute": _tribute,
    "Supply": _supply,
    "Spyglass": _spyglass,
    "Purge": _purge,
    "Swap": _swap,
    "Haste": _haste,
    "Delay": _delay,
}


def _known(card) -> str:
    """The name the bot knows a card by ("" for a card of a set it does not know)."""
    name = _KNOWN.get(card)
    if name is None:
        name = _KNOWN[card] = card.name if card.id.partition(":")[0] in KNOWN_SETS else ""
    return name


#: No seats: no one hexed (a set shared by every reading that has no events).
_NO_SEATS: frozenset[int] = frozenset()


@functools.cache
def _selection(card, targets: tuple[int, ...], info) -> Selection:
    """A selection, made once for each card, targets and information it is met with: it is
    immutable (a frozen dataclass, which costs more to make than to look up), and the
    expert's rollouts make the same few again and again."""
    return Selection(card, targets, info)


@functools.cache
def _each_alone(seats: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The targets of a card with one target slot: each seat alone. (Worked out once: the
    legal targets are the engine's shared tuples, met again and again.)"""
    return tuple([(seat,) for seat in seats])


#: Card -> the name the bot knows it by (read for every card of every hand it weighs;
#: cards compare by identity and never change).
_KNOWN: dict = {}
