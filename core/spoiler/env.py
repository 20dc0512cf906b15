"""Spoiler as a PettingZoo environment, for people who train agents (docs/learning.md).

    from spoiler.env import env

    game = env(players=4, opponents="greedy")  # one learner, "player_0", against three bots
    game.reset(seed=7)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        action = None if termination or truncation else choose(observation)
        game.step(action)

A front end like the console or the SSH host: it drives a game through the session's
pending decisions (``spoiler.session.driver``) and reads only what each seat may see (the
``PlayerView`` in each pending decision, ``Game.view``, ``Game.table``), never the game's
state. Nothing in the core imports it; it needs the ``rl`` extra (pettingzoo, gymnasium,
numpy).

* **Agents** are the learners' seats, ``player_0`` .. ``player_{N-1}``; with ``opponents``
  only ``player_0`` learns and bots of that kind sit in the other seats.
* **Decisions**: every selection and every answer to a card's question is one step.
  Selection is simultaneous (ruling 2): when a round begins every learner that must select
  is pending at once, and ``agent_selection`` walks through them in seat order; a card's
  question is asked of one seat at a time, as the card asks it.
* **Observations** (``Encoding``): a fixed-size float32 vector from the deciding seat's own
  view, seats counted from that seat (0 = itself, 1 = the next seat ...), with an action mask.
* **Actions** (``Encoding``): one ``Discrete`` enumeration fixed by the game's card list and
  player count: (card, targets, information) for a selection, then the answers to
  questions (a card name, a seat, or the n-th option).
* **Rewards**: +1 for each winner and -1 for each loser when the game ends (everyone lost:
  -1 each); a game ended by the round limit is a draw: reward 0 and ``truncations`` True.
"""

from __future__ import annotations

import itertools
import operator
import random
import struct
import sys
import zlib
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from spoiler.agents import new_faults
from spoiler.agents.wire import (
    legal_selections,
    question_to_wire,
    result_to_wire,
    view_to_wire,
)
from spoiler.model.seeds import new_seed
from spoiler.model.state import Status
from spoiler.model.views import PlayerView, Question, Selection
from spoiler.session.driver import Driver, Pending

#: The event kinds the engine emits, each its own column in an event's encoding; any
#: other kind (a plugin's) shares the last column.
EVENT_KINDS = (
    "game_started",
    "priorities",
    "dealt",
    "round_started",
    "cannot_select",
    "selected",
    "at_beginning",
    "played",
    "revealed",
    "at_end",
    "answered",
    "lost",
    "won",
    "loss_prevented",
    "win_prevented",
    "drew",
    "no_card",
    "reshuffled",
    "discarded",
    "gave",
    "swapped_hands",
    "shown",
    "cancelled",
    "redirected",
    "replaced",
    "copied",
    "fizzled",
    "priority_changed",
    "ongoing_added",
    "ongoing_ended",
    "counter",
    "note",
    "rule_failed",
    "cleared",
    "priorities_shifted",
    "game_over",
)
LOST, IN_PLAY = Status.LOST, Status.IN_PLAY
_EVENT_COLUMN = {kind: column for column, kind in enumerate(EVENT_KINDS)}
#: What an action may be as it is: a number (numpy's too, as a mask's indices are).
_INTEGERS = (int, np.integer)
#: The round and the deck's size, as the observation holds them; a float32.
_ROUNDS, _FLOAT = struct.Struct("2f"), struct.Struct("f")
#: How many of the latest events (as the seat saw them) an observation holds.
EVENT_WINDOW = 16
#: Columns for counters (public tokens such as "base:treasure"), by a stable hash of the name.
COUNTER_SLOTS = 8
#: Columns for ongoing effects whose name is no card's, by a stable hash of the name.
EFFECT_SLOTS = 8
#: Answers to questions whose options are neither card names nor seats: the n-th option.
OPTION_SLOTS = 16
#: Counter values are clipped to this bound either way.
COUNTER_BOUND = 100.0


def _zeros(size: int) -> array:
    """``size`` float32 zeros, as an array("f")."""
    return array("f", bytes(4 * size))


def _one_hot(size: int) -> list[bytes]:
    """For each position, ``size`` float32 columns as bytes: 1 there, 0 elsewhere."""
    return [array("f", [float(i == hot) for i in range(size)]).tobytes() for hot in range(size)]


def _clip(value: float) -> float:
    """A counter's value within the bound, either way."""
    if value > COUNTER_BOUND:
        return COUNTER_BOUND
    return -COUNTER_BOUND if value < -COUNTER_BOUND else value


def _seed(value: Any) -> int | None:
    """A game's seed as a plain int: any integer (numpy's too, as learners pass them), of at
    most 64 bits as ``spoiler play --seed`` takes; else a TypeError or ValueError naming it."""
    if value is None:
        return None
    try:
        seed = operator.index(value)
    except TypeError:
        raise TypeError(f"seed must be a whole number or None, not {value!r}") from None
    if not -(2**63) <= seed < 2**64:
        raise ValueError(f"seed must be a whole number of at most 64 bits, not {seed}")
    return seed


def _bucket(name: str, slots: int) -> int:
    """A column for a name, the same in every process (``hash`` of a str is salted)."""
    return zlib.crc32(name.encode()) % slots


class Encoding:
    """The fixed layout of observations and actions for one card list and player count.

    Seats are relative to the deciding seat: 0 is itself, 1 the seat after it, and so on,
    so the same policy serves every seat. ``segments`` names each part of the observation
    vector with its offset and size (docs/learning.md shows them)."""

    def __init__(
        self,
        cards: Sequence[Any],
        card_names: Sequence[str],
        seat_names: Sequence[str],
        rounds: int,
    ):
        self.cards = list(cards)
        self.card_names = tuple(card_names)
        self.players = players = len(seat_names)
        #: Seats by name, for the answers that name a seat.
        self.seat_names = {name: seat for seat, name in enumerate(seat_names)}
        self.max_rounds = rounds
        self.card_index = {card.id: i for i, card in enumerate(self.cards)}
        self.name_index = {name: i for i, name in enumerate(self.card_names)}
        self.deck_size = sum(card.copies for card in self.cards)
        n_cards, n_seats = len(self.cards), players

        # -- actions ---------------------------------------------------------------------------
        #: Selection actions: (card id, targets as relative seats, information).
        self.selections: list[tuple[str, tuple[int, ...], Any]] = []
        #: The first action of each (card id, targets) and how many follow it (its infos).
        self._runs: dict[tuple[str, tuple[int, ...]], range] = {}
        for card in self.cards:
            infos = [None] if card.ask is None else list(card.ask.choices(self.card_names))
            for targets in itertools.permutations(range(n_seats), len(card.targets)):
                first = len(self.selections)
                for info in infos:
                    self.selections.append((card.id, targets, info))
                self._runs[card.id, targets] = range(first, len(self.selections))
        self.selection_index = {key: a for a, key in enumerate(self.selections)}
        #: Each card's actions by (card id, its legal targets, the seat): see legal_actions.
        self._card_actions: dict[tuple, tuple[int, ...]] = {}
        #: Each selection made so far (``selection``), by seat and action.
        self._selection_made: dict[int, Selection] = {}
        #: For each seat, every seat counted from it.
        self.turns = [
            tuple([(seat - me) % n_seats for seat in range(n_seats)]) for me in range(n_seats)
        ]
        self.answer_card = len(self.selections)  # answers naming a card of the game
        self.answer_seat = self.answer_card + len(self.card_names)  # answers naming a seat
        self.answer_option = self.answer_seat + n_seats  # the n-th option of any question
        self.actions = self.answer_option + OPTION_SLOTS

        # -- observations ----------------------------------------------------------------------
        self.segments: dict[str, tuple[int, int]] = {}
        lows: list[float] = []
        highs: list[float] = []

        def segment(name: str, size: int, low: float = 0.0, high: float = 1.0) -> int:
            self.segments[name] = (len(lows), size)
            lows.extend([low] * size)
            highs.extend([high] * size)
            return self.segments[name][0]

        deck = float(self.deck_size)
        self.o_decision = segment("decision", 2)  # selecting, answering
        self.o_asker = segment("question_card", n_cards + 1)  # the asking card (last: other)
        self.o_round = segment("round", 2)  # round / round limit, deck size / cards in the game
        self.o_hand = segment("hand", n_cards, high=deck)  # copies of each card in my hand
        self.o_discard = segment("discard", n_cards, high=deck)
        self.row = 3 + 1 + n_seats + COUNTER_SLOTS + n_cards + 1
        self.o_rows = len(lows)
        for r in range(n_seats):  # one row per seat, from mine on
            segment(f"seat_{r}.status", 3)  # lost, in play, won
            segment(f"seat_{r}.hand_size", 1, high=deck)
            segment(f"seat_{r}.priority", n_seats)  # one-hot: 1st .. last
            segment(f"seat_{r}.counters", COUNTER_SLOTS, -COUNTER_BOUND, COUNTER_BOUND)
            segment(f"seat_{r}.known_hand", n_cards, high=deck)  # cards I was shown
            segment(f"seat_{r}.known_fresh", 1)  # 1 / (1 + rounds since I was shown it)
        self.effects = n_cards + EFFECT_SLOTS  # an effect named like a card, or hashed
        self.o_ongoing = segment("ongoing", self.effects * (n_seats + 1), high=COUNTER_BOUND)
        # An event: its kind, its seat, the card that caused it, the card it names, its target.
        self.e_seat = len(EVENT_KINDS) + 1
        self.e_cause = self.e_seat + n_seats + 1
        self.e_card = self.e_cause + n_cards + 1
        self.e_target = self.e_card + n_cards + 1
        self.event_size = self.e_target + n_seats + 1
        self.o_events = segment("events", EVENT_WINDOW * self.event_size)
        self.size = len(lows)
        self.low = np.array(lows, dtype=np.float32)
        self.high = np.array(highs, dtype=np.float32)

    # -- the action enumeration ----------------------------------------------------------------
    def selection_actions(self, me: int, legal: list[dict[str, Any]]) -> dict[int, dict]:
        """The action of each legal selection in wire form (``{"card", "targets", "info"}``,
        as ``spoiler.agents.wire.legal_selections`` lists them), for the seat ``me``."""
        index, turn = self.selection_index, self.turns[me]
        return {
            index[(entry["card"], tuple([turn[t] for t in entry["targets"]]), entry["info"])]: entry
            for entry in legal
        }

    def legal_actions(self, view: PlayerView) -> list[int]:
        """The action of each of ``legal_selections(view)``, in that order, without making
        them: one card's actions are worked out once for its legal targets and the seat."""
        actions: list[int] = []
        known, me = self._card_actions, view.seat
        seats_for: dict[tuple, tuple] = {}  # the legal seats of each kind of targets, here
        for card in dict.fromkeys(view.playable):
            slots = seats_for.get(card.targets)
            if slots is None:
                slots = seats_for[card.targets] = view.legal_targets(card)
            key = (card.id, slots, me)
            card_actions = known.get(key)
            if card_actions is None:
                card_actions = known[key] = self._actions_of(card.id, slots, me)
            actions.extend(card_actions)
        return actions

    def _actions_of(self, card_id: str, slots: tuple, me: int) -> tuple[int, ...]:
        """One card's actions for the seats its targets allow (``slots``), in the order of
        ``card_selections``: distinct targets in product order, then each information."""
        turn, runs = self.turns[me], self._runs
        actions: list[int] = []
        for combo in itertools.product(*slots):
            if len(set(combo)) == len(combo):
                actions.extend(runs[card_id, tuple([turn[t] for t in combo])])
        return tuple(actions)

    def selection(self, me: int, action: int) -> Selection:
        """The selection a selection action stands for, for the seat ``me``: the game's
        card itself (the engine finds it in the hand without a search), made once."""
        key = me * self.actions + action
        selection = self._selection_made.get(key)
        if selection is None:
            card, targets, info = self.selections[action]
            selection = self._selection_made[key] = Selection(
                self.cards[self.card_index[card]],
                tuple([(me + t) % self.players for t in targets]),
                info,
            )
        return selection

    def answer_actions(self, me: int, question: Question) -> dict[int, str]:
        """The actions that answer this question, each with its option: an option that is a
        card's name is that card's answer, one that is a seat's name that seat's (counted
        from ``me``), any other the n-th option's."""
        out: dict[int, str] = {}
        for position, option in enumerate(question.options):
            if option in self.name_index:
                out[self.answer_card + self.name_index[option]] = option
            elif option in self.seat_names:
                out[self.answer_seat + (self.seat_names[option] - me) % self.players] = option
            elif position < OPTION_SLOTS:
                out[self.answer_option + position] = option
        return out

    def describe(self, action: int) -> str:
        """An action in words: "base:accuse -> seat +1, info 'Spy'", "answer: Spy" ..."""
        if action < self.answer_card:
            card, targets, info = self.selections[action]
            words = card
            if targets:
                words += " -> " + ", ".join(f"seat +{t}" if t else "self" for t in targets)
            return words if info is None else f"{words}, info {info!r}"
        if action < self.answer_seat:
            return f"answer: {self.card_names[action - self.answer_card]}"
        if action < self.answer_option:
            offset = action - self.answer_seat
            return f"answer: seat +{offset}" if offset else "answer: self"
        return f"answer: option {action - self.answer_option + 1}"


class Observer:
    """Turns a seat's view into its observation vector and its wire form. It reads the view
    alone (``PlayerView``'s public fields), so it can encode no more than the seat may see.

    The vector is made of bytes, part after part. The log only grows, and what everyone saw
    of an event is the same in every seat's view, so each event's kind (``_kinds``) is worked
    out once, by position, for every seat; events of a kind keep coming back, so each kind's
    slot in the window is made once for each seat, and a seat's window is the slots of the
    latest kinds with its own secrets (``secrets_since``) put in. The public table is kept in
    parts (the discard pile, each seat's row), each worked out again only when it changed."""

    def __init__(self, encoding: Encoding):
        self.encoding = encoding
        enc, n = encoding, encoding.players
        # An event's slot is five one-hot blocks: its kind, its seat, the card that caused
        # it, the card it names, its target; the seat blocks as each seat counts seats, from
        # itself (the last column: no seat).
        seats = _one_hot(n + 1)
        self._kind_block = _one_hot(len(EVENT_KINDS) + 1)
        self._card_block = _one_hot(len(enc.cards) + 1)  # (the last: no card of the game)
        self._seat_blocks = [
            [seats[(s - me) % n] for s in range(n)] + [seats[n]] for me in range(n)
        ]
        #: Each kind of event met so far (``_kinds``): its number, by its facts.
        self._events: dict[tuple, int] = {}
        #: For each seat, the slot of each kind of event as that seat sees it (float32 bytes),
        #: by its number.
        self._slots: list[list[bytes]] = [[] for _ in range(n)]
        #: The window's empty slots before its first event, for windows of every length.
        self._blanks = [
            bytes(4 * enc.event_size * (EVENT_WINDOW - k)) for k in range(EVENT_WINDOW + 1)
        ]
        #: The decision's columns and the asking card's: selecting, or answering a card's
        #: question (by the card's position; the last: a card of no set).
        self._selecting = array("f", [1.0] + [0.0] * (enc.o_round - 1)).tobytes()
        self._answering = [b"".join([_one_hot(2)[1], hot]) for hot in _one_hot(len(enc.cards) + 1)]
        self._no_hand = bytes(4 * len(enc.cards))
        self._no_effects = bytes(4 * enc.effects * (n + 1))
        self._counter_slots: dict[str, int] = {}
        #: A row's one-hot columns as bytes (status; priority), and the zeros that end it.
        self._status_columns, self._priority_columns = _one_hot(3), _one_hot(n)
        self._row_tail = bytes(4 * (len(enc.cards) + 1))
        self._no_counters = bytes(4 * COUNTER_SLOTS)
        #: A seat's row, by its status, hand size, priority and counters' columns (``_row``).
        self._row_made: dict[tuple[int, int, int, bytes], bytes] = {}
        self.forget()

    def forget(self) -> None:
        """A new game: no seat has seen anything yet."""
        # New ones, not emptied: a view of the last game may still be made (``later``).
        self._wire: dict[int, list[dict[str, Any]]] = {}
        self._public_wire: dict[int, dict[str, Any]] = {}
        #: The kind of each of the log's events (``_kinds``) as everyone saw it, by position.
        self._public: list[int] = []
        #: The kinds of events with a secret, by position (the same for every seat told it).
        self._secret_kinds: dict[int, int] = {}
        #: The public table (``_update_table``): the moment it was worked out for, the
        #: discard pile counted, each seat's public row encoded, the ongoing effects.
        enc = self.encoding
        self._table_key: tuple | None = None
        self._rounds_of: tuple | None = None
        self._discard: tuple = ()
        self._discard_columns = _zeros(len(enc.cards))
        self._discard_bytes = self._discard_columns.tobytes()
        #: Each seat's counters and their columns.
        self._counters: list[tuple[Any, bytes]] = [({}, bytes(4 * COUNTER_SLOTS))] * enc.players
        self._rows_twice = bytes(8 * enc.players * enc.row)  # by absolute seat, twice over
        self._ongoing: tuple = ()

    def _kinds(self, events: list) -> list[int]:
        """The number of each event's kind (``_events``): events of one kind have the same
        slot in the window. Its kind is its kind, its seat, the card that caused it, the card
        it names and its target (a card as its id, a target as a seat: else none)."""
        known, new = self._events, self._new_kind
        out = []
        for event in events:
            get = event.get  # its secret too, when this seat may see it
            card, targets = get("card"), get("targets")
            target = targets[0] if targets else get("to")
            facts = (
                event.kind,
                event.seat,
                event.cause,
                card if isinstance(card, str) else None,
                target if isinstance(target, int) else None,
            )
            number = known.get(facts)
            out.append(new(facts) if number is None else number)
        return out

    def _new_kind(self, facts: tuple) -> int:
        """A kind of event not met before: its number; its slot as each seat sees it."""
        kind, seat, cause, card, target = facts
        enc = self.encoding
        n, card_index, no_card = enc.players, enc.card_index, len(enc.cards)
        kind_block = self._kind_block[_EVENT_COLUMN.get(kind, len(EVENT_KINDS))]
        seat = n if seat is None else seat % n  # (a seat beyond the table: counted round it)
        target = n if target is None else target % n
        cards = (
            self._card_block[card_index.get(cause, no_card)]
            + self._card_block[no_card if card is None else card_index.get(card, no_card)]
        )
        for me, seats in enumerate(self._seat_blocks):
            self._slots[me].append(b"".join([kind_block, seats[seat], cards, seats[target]]))
        number = self._events[facts] = len(self._events)
        return number

    def _window(self, view: PlayerView) -> list[int]:
        """The kinds of the latest events this seat saw (``_kinds``), the latest last."""
        total, public = view.event_count, self._public
        if total > len(public):
            public += self._kinds(view.public_events_since(len(public)))
        low = total - EVENT_WINDOW if total > EVENT_WINDOW else 0
        window = public[low:total]
        secrets = view.secrets_since(low)
        if secrets:
            known = self._secret_kinds
            for index, event in secrets:
                number = known.get(index)
                if number is None:
                    number = known[index] = self._kinds([event])[0]
                window[index - low] = number
        return window

    def wire(self, view: PlayerView) -> dict[str, Any]:
        """``view_to_wire(view)``, with the events kept from earlier views of this seat."""
        return self.later(view)()

    def later(self, view: PlayerView) -> Callable[[], dict[str, Any]]:
        """What makes ``wire(view)`` when called, however late: after later views of this
        seat, or once the next game began."""
        wire = self._wire.get(view.seat)
        if wire is None:
            wire = self._wire[view.seat] = []
        return partial(_wire_of, view, wire, self._public_wire)  # this game's

    def observe(self, view: PlayerView, question: Question | None = None) -> np.ndarray:
        """The observation vector of this view (``question``: the one being asked, if any)."""
        enc = self.encoding
        n, me = enc.players, view.seat
        card_index = enc.card_index
        # Made of bytes, part after part: what every seat sees alike (the round, the discard
        # pile, the seats' rows, the ongoing effects) worked out again only where it changed,
        # the rows and the owners of effects each kept twice over, so that the seats counted
        # from any seat are one slice; then the latest events, each slot made once.
        self._update_table(view)
        if question is None:
            head = self._selecting
        else:
            head = self._answering[card_index.get(question.cause or "", len(enc.cards))]
        line = 4 * enc.row
        parts = [
            head,
            self._rounds,
            self._no_hand,
            self._discard_bytes,
            self._rows_twice[me * line : (me + n) * line],
        ]
        if self._ongoing:
            effects = 4 * enc.effects
            parts += [self._owned_twice[me * effects : (me + n) * effects], self._unowned]
        else:
            parts.append(self._no_effects)
        window = self._window(view)
        parts.append(self._blanks[len(window)])
        slots = self._slots[me]
        for number in window:
            parts.append(slots[number])
        buf = bytearray().join(parts)

        # What is this seat's own, written through a float32 memoryview (a single item costs
        # a tenth of a numpy array's to write).
        obs = memoryview(buf).cast("f")
        hand = enc.o_hand
        for card in view.hand:
            obs[hand + card_index[card.id]] += 1
        known = view.known
        if known:
            row, shown = enc.row, enc.o_rows + 4 + n + COUNTER_SLOTS
            for seat, (round_seen, cards) in known.items():
                base = shown + (seat - me) % n * row
                for card in cards:
                    obs[base + card_index[card.id]] += 1
                rounds = view.round - round_seen
                obs[base + len(enc.cards)] = 1.0 / (1 + rounds) if rounds > 0 else 1.0
        obs.release()
        return np.frombuffer(buf, np.float32)

    def _update_table(self, view: PlayerView) -> None:
        """The public part of the observation at this view's moment: each part that changed
        since the last view's worked out again."""
        key = (view.round, view.deck_size, view.players, view.discard, view.ongoing)
        if key == self._table_key:
            return
        self._table_key = key
        enc = self.encoding
        card_index = enc.card_index
        discard, counted = view.discard, self._discard
        if discard != counted:
            if discard[: len(counted)] == counted:  # the pile grew: count the new cards
                columns, new = self._discard_columns, discard[len(counted) :]
            else:
                columns, new = _zeros(len(enc.cards)), discard
                self._discard_columns = columns
            for card in new:
                columns[card_index[card.id]] += 1
            self._discard = discard
            self._discard_bytes = columns.tobytes()
        rounds = (view.round, view.deck_size)
        if rounds != self._rounds_of:
            self._rounds_of = rounds
            self._rounds = _ROUNDS.pack(
                min(view.round / enc.max_rounds, 1.0), min(view.deck_size / enc.deck_size, 1.0)
            )
        # Each seat's row, made once for each status, hand size, priority and counters.
        made, kept, rows = self._row_made, self._counters, []
        for seat, _name, status, hand_size, priority, counters in view.players:
            tokens = self._no_counters
            if counters:
                known = kept[seat]
                if known[0] != counters:  # (counters change seldom: kept encoded)
                    known = kept[seat] = (counters, self._counter_columns(counters))
                tokens = known[1]
            facts = (
                0 if status is LOST else 1 if status is IN_PLAY else 2,
                hand_size,
                priority,
                tokens,
            )
            row = made.get(facts)
            rows.append(self._row(facts) if row is None else row)
        self._rows_twice = b"".join(rows) * 2
        if view.ongoing != self._ongoing:
            self._ongoing = view.ongoing
            self._effects(view.ongoing)

    def _row(self, key: tuple[int, int, int, bytes]) -> bytes:
        """A seat's public row: its status, hand size, priority, counters' columns
        (``key``), and the columns of the cards this seat was shown (0 here: they are each
        seat's own)."""
        status, hand_size, priority, counters = key
        self._row_made[key] = row = b"".join(
            [
                self._status_columns[status],
                _FLOAT.pack(hand_size),
                self._priority_columns[priority - 1],
                counters,
                self._row_tail,
            ]
        )
        return row

    def _counter_columns(self, counters) -> bytes:
        """A seat's counters, each added to its column (a stable hash of its name)."""
        totals = [0.0] * COUNTER_SLOTS
        for name, value in counters.items():
            slot = self._counter_slots.get(name)
            if slot is None:
                slot = self._counter_slots[name] = _bucket(name, COUNTER_SLOTS)
            totals[slot] = _clip(totals[slot] + value)
        return array("f", totals).tobytes()

    def _effects(self, ongoing: tuple) -> None:
        """The ongoing effects' columns: each owner's, twice over (by absolute seat), and
        the unowned ones'."""
        enc = self.encoding
        n, effects = enc.players, enc.effects
        owned = _zeros((n + 1) * effects)  # by absolute owner; last: none
        for name, owner, _rounds in ongoing:
            column = enc.name_index.get(name)
            if column is None:
                column = len(enc.card_names) + _bucket(name, EFFECT_SLOTS)
            position = (n if owner < 0 else owner) * effects + column
            owned[position] = min(owned[position] + 1, COUNTER_BOUND)
        self._owned_twice = (owned[: n * effects] * 2).tobytes()
        self._unowned = owned[n * effects :].tobytes()


def _wire_of(view: PlayerView, wire: list, public: dict[int, dict]) -> dict[str, Any]:
    """``view_to_wire(view)``, its events taken from ``wire`` (the seat's events in wire form
    so far, the list extended) and ``public`` (the public ones', by position)."""
    total = view.event_count
    for index, event in enumerate(view.events_since(len(wire)), len(wire)):
        if not event.secret_to:  # the public event: the same for every seat
            known = public.get(index)
            if known is None:
                known = public[index] = event.as_dict()
            wire.append(known)
        else:
            wire.append(event.as_dict())
    out = view_to_wire(replace(view, _upto=0))  # all but the events, which are known
    out["events"] = wire[:total]
    return out


class Info(dict):
    """An agent's info: a dict like any other, whose costly entries (the wire view, the legal
    selections, the game's result) are made the first time anything reads it. A learner
    that never looks at them does not pay for them (a fifth of a step, benchmarks/env.py);
    one that does sees the same dict.

    ``later`` gives each such entry's key and the function that makes its value; the key is
    in the dict from the start (in ``entries`` order), holding None until then. Everything
    that reads or changes the dict (other than its keys and its length) makes them first."""

    _later: dict[str, Callable[[], Any]] | None = None

    def __init__(self, entries: dict[str, Any], later: dict[str, Callable[[], Any]]):
        super().__init__(entries)
        self._later = later

    def _make(self) -> None:
        later = self._later
        if later:
            self._later = None
            for key, make in later.items():
                dict.__setitem__(self, key, make())


def _made_first(name: str) -> Any:
    method = getattr(dict, name)

    def call(self: Info, *args: Any, **kwargs: Any) -> Any:
        self._make()
        return method(self, *args, **kwargs)

    call.__name__ = name
    return call


for _name in (
    "__getitem__", "get", "items", "values", "__iter__", "__eq__", "__ne__", "__repr__",
    "__or__", "__ror__", "__ior__", "__reduce_ex__", "copy", "pop", "popitem", "setdefault",
    "update", "__setitem__", "__delitem__", "clear",
):  # fmt: skip
    setattr(Info, _name, _made_first(_name))


@dataclass
class _Decision:
    """The decision ``agent_selection`` faces: its allowed actions (1 in ``allowed``, a copy
    of the action mask, which the learner may write to), each answer's option when answering
    (a selection action's selection is ``Encoding.selection``), its observation and its
    info."""

    pending: Pending
    allowed: bytes
    options: dict[int, str] | None
    observation: dict[str, np.ndarray]
    info: dict[str, Any]


class raw_env(AECEnv):
    """The environment without PettingZoo's wrappers (``env()`` adds them).

    ``players``: 2 to 8 seats. ``sets``: card set names, a list or one string as ``--sets``
    takes them ("base,chrono"); None: every installed set (a set that is played with others
    brings them, as in ``spoiler play``). ``seed``: the first
    game's seed, if ``reset`` gets none. ``opponents``: a bot kind ("random", "greedy",
    "expert", "exec:COMMAND" ...) for every seat but ``player_0``, or one kind per other
    seat; None: every seat learns. ``max_rounds``: the round limit (a draw when reached)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "spoiler_v0",
        "render_modes": ["human", "ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 4,
        sets: Sequence[str] | None = None,
        seed: int | None = None,
        opponents: str | Sequence[str] | None = None,
        *,
        max_rounds: int = 100,
        render_mode: str | None = None,
    ):
        super().__init__()
        from spoiler import plugins

        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.registry = plugins.load()
        if isinstance(sets, str):  # "base" or "base,chrono", as --sets takes them
            sets = [name.strip() for name in sets.split(",")]
        self.set_names = None if sets is None else list(sets)
        self.max_rounds = max_rounds
        self.n_players = players
        if opponents is None:
            self.kinds: list[str | None] = [None] * players
        else:
            others = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
            if len(others) != players - 1:
                raise ValueError(
                    f"opponents: give one bot kind, or {players - 1} (one per other seat), "
                    f"not {len(others)}"
                )
            self.kinds = [None, *others]
        self._bots = any(kind is not None for kind in self.kinds)
        self.names = [f"player_{seat}" for seat in range(players)]
        self.possible_agents = [self.names[s] for s in range(players) if self.kinds[s] is None]
        self._seats = {name: seat for seat, name in enumerate(self.names)}
        # A game of these sets and seats, not played: it fixes the card list, and so the spaces.
        probe = self._new_game(0)
        self.encoding = Encoding(
            list(probe.cards_by_id.values()), probe.card_names, self.names, max_rounds
        )
        self.observer = Observer(self.encoding)
        box = spaces.Box(self.encoding.low, self.encoding.high, dtype=np.float32)
        mask = spaces.Box(0, 1, shape=(self.encoding.actions,), dtype=np.int8)
        self.observation_spaces = {
            agent: spaces.Dict({"observation": box, "action_mask": mask})
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(self.encoding.actions) for agent in self.possible_agents
        }
        #: The seed of the next game reset without one (None: drawn from ``_seeds``).
        self._next_seed = seed = _seed(seed)
        self._seeds = random.Random(seed) if seed is not None else None
        self.game: Any = None
        self.driver: Driver | None = None
        self._decision: _Decision | None = None
        #: Each agent's view of the game's end (``_end``), which observations go on showing.
        self._final_views: dict[str, PlayerView] = {}

    # -- spaces ---------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- a game ---------------------------------------------------------------------------------
    def _new_game(self, seed: int):
        from spoiler import Seat
        from spoiler.commands.play import new_game

        seats = [
            Seat(name, None, "learner")
            if kind is None
            else Seat(name, self.registry.agent(kind, seat, seed), kind)
            for seat, (name, kind) in enumerate(zip(self.names, self.kinds, strict=True))
        ]
        return new_game(self.registry, seats, self.set_names, seed, self.max_rounds)

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game. ``seed`` is that game's seed (the same seed, the same game, the bots'
        seeds derived from it), and seeds the games of later resets without one; with no
        seed ever given, each game gets a fresh 64-bit seed. Any integer of at most 64 bits
        is a seed, a numpy one too."""
        seed = _seed(seed)
        if seed is not None:
            game_seed, self._seeds = seed, random.Random(seed)
        elif self._next_seed is not None:
            game_seed = self._next_seed
        elif self._seeds is not None:  # a signed 64-bit seed, as new_seed() draws
            game_seed = self._seeds.getrandbits(64) - 2**63
        else:
            game_seed = new_seed()
        self._next_seed = None
        self._close_bots()
        self.observer.forget()
        self.game = self._new_game(game_seed)
        self._faults: dict[int, int] = {}  # the bots' faults told so far, per seat
        learners = {self._seats[agent] for agent in self.possible_agents}
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.driver = Driver(self.game, learners)
        self._final_views = {}
        self._next()

    def _next(self) -> None:
        """Put the next pending decision to its agent (the lowest seat first), or end."""
        driver = self.driver
        assert driver is not None
        if self._bots:  # a program bot's fault: one line on stderr, as simulate tells it
            for fault in new_faults(self.game, self._faults):
                sys.stderr.write(f"spoiler.env: seat {fault.seat + 1}: {fault.text}\n")
        pending = driver.pending()
        if driver.over or not pending:
            self._end()
            return
        first = pending[0]
        self.agent_selection = self.names[first.seat]
        self._decision = self._decide(first)
        self.infos[self.agent_selection] = self._decision.info

    def _decide(self, pending: Pending) -> _Decision:
        enc, view, question = self.encoding, pending.view, pending.question
        options: dict[int, str] | None = None
        wire = self.observer.later(view)
        info: dict[str, Any]
        later: dict[str, Callable[[], Any]]
        if question is None:
            actions = enc.legal_actions(view)
            info = {"kind": "select", "legal": None, "question": None}
            later = {"legal": partial(legal_selections, view), "view": wire}
        else:
            options = enc.answer_actions(pending.seat, question)
            actions = list(options)
            info = {"kind": "answer", "legal": None, "question": question_to_wire(question)}
            later = {"view": wire}
        info["actions"] = actions  # each legal selection's action, or each option's
        info["view"] = None
        allowed = bytearray(enc.actions)  # (cheaper to fill item by item than numpy)
        for action in actions:
            allowed[action] = 1
        observation = {
            "observation": self.observer.observe(view, question),
            "action_mask": np.frombuffer(allowed, np.int8),
        }
        return _Decision(pending, bytes(allowed), options, observation, Info(info, later))

    def _end(self) -> None:
        """The game is over: rewards, terminations (truncations for a draw by the round
        limit) and each agent's last info."""
        self._decision = None
        result = self.game.result
        draw = result.kind == "draw"
        for agent in self.agents:
            seat = self._seats[agent]
            view = self._final_views[agent] = self.game.view(seat)
            if draw:
                self.rewards[agent] = 0.0
                self.truncations[agent] = True
            else:
                self.rewards[agent] = 1.0 if seat in result.winners else -1.0
                self.terminations[agent] = True
            self.infos[agent] = Info(
                {"kind": None, "result": None, "view": None},
                {
                    "result": partial(result_to_wire, result),
                    "view": self.observer.later(view),
                },
            )
        self._close_bots()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        decision = self._decision
        assert decision is not None and self.driver is not None
        chosen = self._check(action, decision)
        self._cumulative_rewards[agent] = 0.0
        self.infos[agent] = {}
        pending = decision.pending
        if decision.options is None:
            choice: Any = self.encoding.selection(pending.seat, chosen)
        else:
            choice = decision.options[chosen]
        self.driver.answer(pending, choice)
        self._next()
        # The rewards stay 0 until the step that ends the game (``_end`` sets them): only
        # that step has any to add up, and no step has any to clear before it.
        if self._decision is None:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _check(self, action: Any, decision: _Decision) -> int:
        """The action as an int, if it is one the mask allows; else a ValueError naming it."""
        actions = self.encoding.actions
        if isinstance(action, _INTEGERS):  # (the usual case: its number as it is)
            chosen = int(action)
        else:
            try:
                chosen = int(action)
            except (TypeError, ValueError):
                raise ValueError(f"action {action!r} is not an action number") from None
            if chosen != action:
                raise ValueError(f"action {action!r} is not one of 0..{actions - 1}")
        if not 0 <= chosen < actions:
            raise ValueError(f"action {action!r} is not one of 0..{actions - 1}")
        if not decision.allowed[chosen]:
            raise ValueError(
                f"action {chosen} ({self.encoding.describe(chosen)}) is not legal for "
                f"{self.agent_selection} now: the action mask forbids it"
            )
        return chosen

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        decision = self._decision
        if decision is not None and agent == self.agent_selection:
            return decision.observation
        # Not this agent's turn: its view now (the last one, once the game is over), and
        # nothing it may do.
        view = self._final_views.get(agent) or self.game.view(self._seats[agent])
        return {
            "observation": self.observer.observe(view),
            "action_mask": np.zeros(self.encoding.actions, dtype=np.int8),
        }

    # -- the rest of the API ---------------------------------------------------------------------
    def render(self) -> str | None:
        if self.render_mode is None or self.game is None:
            return None
        table = self.game.table()
        lines = [f"round {table.round}, deck {table.deck_size}"]
        for p in sorted(table.players, key=lambda p: p.priority):
            lines.append(
                f"  {p.priority}. {p.name}: {p.status}, {p.hand_size} in hand"
                + "".join(f", {k} {v}" for k, v in p.counters.items())
            )
        if table.result is not None:
            lines.append("  " + table.result.describe([p.name for p in table.players]))
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self._close_bots()

    def _close_bots(self) -> None:
        """End the bots that hold something (a process bot's program)."""
        if self.game is None:
            return
        for seat in self.game.seats:
            close = getattr(seat.agent, "close", None)
            if callable(close):
                close()


def env(
    players: int = 4,
    sets: Sequence[str] | None = None,
    seed: int | None = None,
    opponents: str | Sequence[str] | None = None,
    **options: Any,
) -> AECEnv:
    """The environment, wrapped as PettingZoo recommends (the order of calls enforced)."""
    return wrappers.OrderEnforcingWrapper(raw_env(players, sets, seed, opponents, **options))
