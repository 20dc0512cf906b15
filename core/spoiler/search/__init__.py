"""Search support: copies of a game, and determinizations from one seat's point of view.

* ``clone(game, agents)``: an independent copy (same state, RNG, ongoing effects and log;
  cards shared; agents replaced). Playing both on with the same decisions gives the same game.
* ``determinize(game, seat, rng)``: a copy in which everything ``seat`` cannot know is dealt
  again at random, consistent with what it has seen: its own hand, the face-up cards, the
  hand sizes, and the cards it knows to be in other hands (shown to it, given by it). The
  deck order and the game's RNG are new too, so a determinization tells the seat nothing
  about the real deal, the real deck or the game's seed. Other seats' secrets (what they
  were shown, their selections and answers) are left out of it.
* ``Searcher``: what an agent that searches (``searches = True``) finds in ``view.search``
  when it selects: determinizations of the game as it stood when that seat was asked.

A copy is taken between rounds or while players select (before anyone's card left their
hand); ``play_out_round(copy)`` plays the rest of that round. Plugins' hooks run in copies
as in the game, so a hook must act only on the game it is given. Ongoing effects are copied
with ``copy.copy`` (their own state is kept in plain attributes, as the shipped sets do).
``Game.clone`` makes the copies: each part of the engine copies what it holds.
"""

from __future__ import annotations

import random
from collections import Counter

from spoiler.model.state import Seat
from spoiler.model.views import EventLog, Secrets, seen_events
from spoiler.rules.game import Game
from spoiler.rules.selection import register_search_window
from spoiler.search.fast import FastGame


def clone(
    game: Game,
    agents: list | None = None,
    *,
    fast: bool = False,
    log=None,
    rng: random.Random | None = None,
) -> Game:
    """An independent copy of ``game`` (``Game.clone``) whose seats play with ``agents``
    (default: the same agent objects). ``fast``: the copy is a ``FastGame``; ``log``: a fast
    copy keeps (True) or drops (False) the event log (default: as the copy's agents need it);
    ``rng``: the copy's RNG (default: a copy of the game's)."""
    new = game.clone(agents, kind=FastGame if fast else type(game), rng=rng)
    if isinstance(new, FastGame):
        if log is None and isinstance(game, FastGame):
            log = game.logging  # (a game not in fast mode: as the copy's agents need it)
        new._fast_setup(log)
    if not new.logging:
        new.state.log, new._public_log = [], EventLog()
        new._secrets = []
        for _ in new.seats:  # (a loop, not a comprehension: every rollout's)
            new._secrets.append(Secrets())
    return new


def play_out_round(game: Game) -> None:
    """Play the rest of a round from a copy taken while players were selecting (a copy
    taken between rounds plays whole rounds with ``game.play_round()``)."""
    decisions = game.decisions  # (a determinization keeps only the round it was dealt in)
    if (
        decisions
        and decisions[-1]["round"] == game.state.round
        and not decisions[-1]["selections"]
        and not game.state.plays
    ):
        game._play_out_round()
    else:
        game.play_round()


# ==============================================================================================
# What a seat knows of the other hands
# ==============================================================================================
#: Events that show, by their ``card``, the card their seat selected this round.
_SHOWS_SELECTION = frozenset({"at_beginning", "played", "cancelled", "redirected", "replaced"})


def known_cards(game: Game, seat: int) -> dict[int, list[str]]:
    """For each other seat, the ids of cards ``seat`` knows to be in that hand now, worked
    out from the events as ``seat`` saw them: a hand shown to it stays known, less the cards
    its owner plays or discards, until its owner gives a card away unseen, swaps hands or is
    dealt a new hand (while a selected card is still face down, it is not known which card
    left, so that hand is not known); a card it gave, or saw taken from the discard pile, is
    known to be there; after it swapped hands with someone, it knows the hand it gave them."""
    known: dict[int, Counter] = {}
    face_down: dict[int, int] = {}  # seat -> round: a card left its known hand, face down

    def forget(who: int) -> Counter | None:
        """Its hand is not known any more: what was known, if it is certain."""
        hand, unsure = known.pop(who, None), who in face_down
        face_down.pop(who, None)
        return None if unsure else hand

    for event in seen_events(game._public_log, game._secrets[seat], len(game._public_log)):
        kind, who = event.kind, event.seat
        if kind == "shown":
            if event.data.get("to") == seat and event.secret is not None and who != seat:
                known[who] = Counter(event.secret["cards"])
                face_down.pop(who, None)  # shown after selecting: the card is not in it
        elif kind == "selected":
            if who in known:
                face_down[who] = event.round
        elif kind in _SHOWS_SELECTION:
            if who in face_down:
                if face_down.pop(who) == event.round:
                    known[who][event.data["card"]] -= 1  # (none, if it was drawn since)
                else:  # a selection never shown: which card left is not known
                    known.pop(who)
        elif kind == "dealt":
            forget(who)
        elif kind == "discarded":
            if who in known:
                known[who][event.data["card"]] -= 1
        elif kind == "took_from_discard":  # face up: everyone knows it is in that hand
            known.setdefault(who, Counter())[event.data["card"]] += 1
        elif kind == "gave":
            receiver = event.data["to"]
            card = event.secret["card"] if event.secret is not None else None
            if who == seat and card is not None:
                known.setdefault(receiver, Counter())[card] += 1
            elif receiver == seat and card is not None and who in known:
                known[who][card] -= 1
            else:
                forget(who)
        elif kind == "swapped_hands":
            other = event.data["other"]
            a, b = forget(who), forget(other)
            if a is not None:
                known[other] = a
            if b is not None:
                known[who] = b
            if event.secret is not None:  # one of the two: it sees both hands
                known[who] = Counter(event.secret["cards"])
                known[other] = Counter(event.secret["other_cards"])
    known.pop(seat, None)
    return {s: sorted((+c).elements()) for s, c in known.items() if s not in face_down}


def determinize(
    game: Game,
    seat: int,
    rng: random.Random,
    *,
    known: dict[int, list[str]] | None = None,
    fast: bool = False,
    log: bool = True,
    unseen: Unseen | None = None,
) -> Game:
    """A copy of ``game`` in which what ``seat`` cannot know is dealt again at random (see
    the module's docstring). ``known``: the cards it knows in other hands (default: worked
    out from its events); ``log=False`` leaves the copy without an event log (rollouts);
    ``unseen``: ``unseen_cards(game, seat, known)``, when already worked out (a searcher
    deals many copies of one game)."""
    if known is None:
        known = known_cards(game, seat)
    if unseen is None:
        unseen = unseen_cards(game, seat, known)
    sure, unknown = unseen
    pool = list(unknown)
    rng.shuffle(pool)
    # The copy's own RNG (so the copy does not copy the game's, only to drop it).
    new_rng = random.Random(rng.getrandbits(64))
    new = clone(game, fast=fast, log=None if not fast else log, rng=new_rng)
    st = new.state
    for other in st.players:
        if other.seat != seat:
            hand = list(sure[other.seat])
            while len(hand) < len(other.hand):
                hand.append(pool.pop())
            other.hand = hand
            other.known = {}
    st.deck = pool  # what is left: as many cards as the real deck, in a new order
    new.seed = None  # a determinization is never recorded
    new.decisions = [
        {"round": r["round"], "selections": {}, "answers": []} for r in game.decisions[-1:]
    ]
    if new.logging:  # the log as this seat saw it, and no one else's
        new.state.log = list(
            seen_events(new._public_log, game._secrets[seat], len(new._public_log))
        )
        new._secrets = [
            Secrets(game._secrets[seat]) if s == seat else Secrets() for s in range(len(st.players))
        ]
    return new


#: What a seat cannot see, by ``unseen_cards``: for each other seat the cards it knows to be
#: in that hand, and the other unseen cards, in an order that depends on nothing hidden.
Unseen = tuple[dict[int, list], list]


def unseen_cards(game: Game, seat: int, known: dict[int, list[str]]) -> Unseen:
    """The cards ``seat`` cannot see, to deal again: all the game's cards but its hand and
    the face-up ones; of them, for each other seat, those it knows to be in that hand (as
    many as the hand holds), and the others sorted by id (then shuffled by the searcher's
    own RNG, in ``determinize``)."""
    st = game.state
    unseen = Counter(card.id for card in st.built)
    unseen.subtract(card.id for card in st.players[seat].hand)
    unseen.subtract(card.id for card in st.discard)
    unseen.subtract(card.id for card in st.in_play)
    unseen.subtract(play.card.id for play in st.plays)
    sure: dict[int, list] = {}
    by_id = game.cards_by_id
    for other in st.players:
        if other.seat == seat:
            continue
        hand: list = []
        for card_id in known.get(other.seat, ()):
            if unseen[card_id] > 0 and len(hand) < len(other.hand):
                unseen[card_id] -= 1
                hand.append(by_id[card_id])
        sure[other.seat] = hand
    return sure, [by_id[card_id] for card_id in sorted((+unseen).elements())]


class Searcher:
    """One seat's window for search, taken when it was asked to select: ``sample(rng)``
    gives a determinization of the game as it stood then, from that seat's point of view,
    as a fast game with no event log, ready for ``play_out_round``; its seats' agents are
    to be set with ``clone`` or ``set_agents``.

    ``held``: cards (by seat, ids) the seat has since learned were in those hands then (a
    card played this round was in its player's hand when selection began)."""

    def __init__(self, game: Game, seat: int):
        self.seat = seat
        self.round = game.state.round
        self._known = known_cards(game, seat)
        # The agent holds this window, so it must not hold the real game: its root is a
        # determinization already (with no agents), which holds nothing the seat may not
        # know. Samples dealt from it are the very ones dealt from the real game, since a
        # determinization keeps only what the seat knows.
        blind = clone(game, [None] * len(game.seats), fast=True, log=False)
        self._root = determinize(
            blind, seat, random.Random(0), known=self._known, fast=True, log=False
        )
        #: The cards dealt again in each sample (the same in all, but with ``held``).
        self._unseen = unseen_cards(self._root, seat, self._known)

    def sample(self, rng: random.Random, held: dict[int, list[str]] | None = None) -> Game:
        known: dict[int, list[str]] = self._known
        unseen: Unseen | None = self._unseen
        if held:
            unseen = None
            known = {s: list(known.get(s, ())) for s in set(known) | set(held)}
            for s, ids in held.items():
                have = Counter(known[s])
                for card_id in ids:
                    if have[card_id] > 0:
                        have[card_id] -= 1
                    else:
                        known[s].append(card_id)
        return determinize(
            self._root, self.seat, rng, known=known, fast=True, log=False, unseen=unseen
        )


# Agents that search find a Searcher in view.search (the seam: spoiler.rules.selection).
register_search_window(Searcher)


def set_agents(game: Game, agents: list) -> None:
    """Seat new agents in a copy (a fast copy re-reads what they need)."""
    game.seats = [Seat(s.name, a, s.kind) for s, a in zip(game.seats, agents, strict=True)]
    if isinstance(game, FastGame):
        game._fast_setup(game.logging)
