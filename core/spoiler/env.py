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
#: An event's five columns (``Observer._columns``), as the window keeps them.
_EVENT = struct.Struct("5q")
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
        for card in dict.fromkeys(view.playable):
            slots = view.legal_targets(card)
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
        """The selection a selection action stands for, for the seat ``me``."""
        card, targets, info = self.selections[action]
        return Selection(card, tuple([(me + t) % self.players for t in targets]), info)

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

    The log only grows, and what everyone saw of an event is the same in every seat's view,
    so each event's public columns are worked out once, by position, for every seat; a
    seat's window is the latest of them with its own secrets (``secrets_since``) put in.
    The public table is kept in parts (the discard pile, each seat's row), each worked out
    again only when it changed."""

    def __init__(self, encoding: Encoding):
        self.encoding = encoding
        enc, n = encoding, encoding.players
        # An event's columns within its slot (``_columns``), looked up rather than worked out.
        self._seat_column: dict[int | None, int] = {s: enc.e_seat + s for s in range(n)}
        self._seat_column[None] = enc.e_seat + n
        self._cause_column = {card.id: enc.e_cause + i for i, card in enumerate(enc.cards)}
        self._card_column = {card.id: enc.e_card + i for i, card in enumerate(enc.cards)}
        #: Where each of the window's events starts, five times over (an event has five
        #: columns), for windows of every length: the latest event last.
        self._starts = [
            enc.o_events
            + np.repeat(np.arange(EVENT_WINDOW - length, EVENT_WINDOW) * enc.event_size, 5)
            for length in range(EVENT_WINDOW + 1)
        ]
        #: For each seat, each column of an event's slot as that seat counts it: an event's
        #: seat and target are kept as seats (``_columns``), each seat counts them from itself.
        self._frames = []
        for me in range(n):
            frame = np.arange(enc.event_size, dtype=np.int64)
            for seat in range(n):
                frame[enc.e_seat + seat] = enc.e_seat + (seat - me) % n
                frame[enc.e_target + seat] = enc.e_target + (seat - me) % n
            self._frames.append(frame)
        self._counter_slots: dict[str, int] = {}
        #: One-hot columns as bytes, by size and position; the zeros that end a row.
        self._one_hot = {
            size: [
                array("f", [float(i == hot) for i in range(size)]).tobytes() for hot in range(size)
            ]
            for size in (3, n)
        }
        self._row_tail = bytes(4 * (len(enc.cards) + 1))
        self.forget()

    def forget(self) -> None:
        """A new game: no seat has seen anything yet."""
        # New ones, not emptied: a view of the last game may still be made (``later``).
        self._wire: dict[int, list[dict[str, Any]]] = {}
        self._public_wire: dict[int, dict[str, Any]] = {}
        #: The public columns of the log's events, five by five, by position.
        self._public = bytearray()
        self._filled = 0  # events, so far
        #: The columns of events with a secret, by position (the same for every seat told it).
        self._secret_columns: dict[int, bytes] = {}
        #: The public table (``_update_table``): the moment it was worked out for, the
        #: discard pile counted, each seat's public row encoded, the ongoing effects.
        enc = self.encoding
        self._table_key: tuple | None = None
        self._discard: tuple = ()
        self._discard_columns = _zeros(len(enc.cards))
        self._discard_bytes = self._discard_columns.tobytes()
        #: Each seat's PlayerInfo and its row as encoded; its counters and their columns.
        self._rows: list[tuple[Any, bytes]] = [(None, b"")] * enc.players
        self._counters: list[tuple[Any, bytes]] = [({}, bytes(4 * COUNTER_SLOTS))] * enc.players
        self._rows_twice = bytes(8 * enc.players * enc.row)  # by absolute seat, twice over
        self._ongoing: tuple = ()

    def _columns(self, events: list) -> bytes:
        """The events' columns within their slots (``_EVENT``, one after the other): each
        one's kind, its seat, the card that caused it, the card it names, its target; its
        seat and target as seats, not counted from any seat yet (``_frames`` does that)."""
        enc = self.encoding
        n, no_kind, no_card = enc.players, len(EVENT_KINDS), len(enc.cards)
        e_seat, e_target = enc.e_seat, enc.e_target
        no_cause, no_card_named = enc.e_cause + no_card, enc.e_card + no_card
        kinds, seats = _EVENT_COLUMN, self._seat_column
        causes, cards = self._cause_column, self._card_column
        pack = _EVENT.pack
        out = []
        for event in events:
            get = event.get  # its secret too, when this seat may see it
            card, targets = get("card"), get("targets")
            target = targets[0] if targets else get("to")
            seat = event.seat
            seat_column = seats.get(seat)
            if seat_column is None:  # (a seat beyond the table: counted round it)
                seat_column = e_seat + seat % n
            out.append(
                pack(
                    kinds.get(event.kind, no_kind),
                    seat_column,
                    causes.get(event.cause, no_cause),
                    cards.get(card, no_card_named) if isinstance(card, str) else no_card_named,
                    e_target + (target % n if isinstance(target, int) else n),
                )
            )
        return b"".join(out)

    def _window(self, view: PlayerView) -> bytearray:
        """The columns of the latest events this seat saw (``_columns``), as int64s."""
        total = view.event_count
        if total > self._filled:
            self._public += self._columns(view.public_events_since(self._filled))
            self._filled = total
        low = max(0, total - EVENT_WINDOW)
        size = _EVENT.size
        window = self._public[size * low : size * total]
        secrets = view.secrets_since(low)
        if secrets:
            known = self._secret_columns
            for index, event in secrets:
                secret = known.get(index)
                if secret is None:
                    secret = known[index] = self._columns([event])
                window[size * (index - low) : size * (index - low + 1)] = secret
        return window

    def wire(self, view: PlayerView) -> dict[str, Any]:
        """``view_to_wire(view)``, with the events kept from earlier views of this seat."""
        return self.later(view)()

    def later(self, view: PlayerView) -> Callable[[], dict[str, Any]]:
        """What makes ``wire(view)`` when called, however late: after later views of this
        seat, or once the next game began."""
        wire, public = self._wire.setdefault(view.seat, []), self._public_wire  # this game's

        def make() -> dict[str, Any]:
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

        return make

    def observe(self, view: PlayerView, question: Question | None = None) -> np.ndarray:
        """The observation vector of this view (``question``: the one being asked, if any)."""
        enc = self.encoding
        n, me = enc.players, view.seat
        card_index = enc.card_index
        # Filled as bytes through a float32 memoryview (a single item costs a tenth of a
        # numpy array's to write), then handed out as a numpy array over the same memory.
        buf = bytearray(4 * enc.size)

        # What every seat sees alike (as bytes), worked out again only where it changed; the
        # rows and the owners of effects are each kept twice over, so that the seats counted
        # from any seat are one slice.
        self._update_table(view)
        buf[4 * enc.o_round : 4 * enc.o_round + 8] = self._rounds
        discard = 4 * enc.o_discard
        buf[discard : discard + 4 * len(enc.cards)] = self._discard_bytes
        rows, line = 4 * enc.o_rows, 4 * enc.row
        buf[rows : rows + n * line] = self._rows_twice[me * line : (me + n) * line]
        if self._ongoing:
            ongoing, effects = 4 * enc.o_ongoing, 4 * enc.effects
            buf[ongoing : ongoing + n * effects] = self._owned_twice[
                me * effects : (me + n) * effects
            ]
            buf[ongoing + n * effects : ongoing + (n + 1) * effects] = self._unowned

        # What is this seat's own.
        obs = memoryview(buf).cast("f")
        if question is None:
            obs[enc.o_decision] = 1.0
        else:
            obs[enc.o_decision + 1] = 1.0
            obs[enc.o_asker + card_index.get(question.cause or "", len(enc.cards))] = 1.0
        for card in view.hand:
            obs[enc.o_hand + card_index[card.id]] += 1
        if view.known:
            known = 4 + n + COUNTER_SLOTS
            for seat, (round_seen, cards) in view.known.items():
                base = enc.o_rows + ((seat - me) % n) * enc.row + known
                for card in cards:
                    obs[base + card_index[card.id]] += 1
                obs[base + len(enc.cards)] = 1.0 / (1 + max(0, view.round - round_seen))
        obs.release()

        out = np.frombuffer(buf, np.float32)
        window = self._window(view)
        if window:
            columns = np.frombuffer(window, np.int64)
            out[self._starts[len(columns) // 5] + self._frames[me][columns]] = 1.0
        return out

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
        self._rounds = _ROUNDS.pack(
            min(view.round / enc.max_rounds, 1.0), min(view.deck_size / enc.deck_size, 1.0)
        )
        rows, changed = self._rows, False
        for p in view.players:
            if rows[p.seat][0] != p:
                rows[p.seat] = (p, self._row(p))
                changed = True
        if changed:
            self._rows_twice = b"".join([line for _p, line in rows]) * 2
        if view.ongoing != self._ongoing:
            self._ongoing = view.ongoing
            self._effects(view.ongoing)

    def _row(self, p) -> bytes:
        """One seat's public row: its status, hand size, priority, counters, and the
        columns of the cards this seat was shown (0 here: they are each seat's own)."""
        counters = p.counters
        known = self._counters[p.seat]
        if known[0] != counters:  # (counters change seldom: kept encoded)
            known = self._counters[p.seat] = (counters, self._counter_columns(counters))
        status = 0 if p.status is LOST else 1 if p.status is IN_PLAY else 2
        return b"".join(
            [
                self._one_hot[3][status],
                _FLOAT.pack(p.hand_size),
                self._one_hot[self.encoding.players][p.priority - 1],
                known[1],
                self._row_tail,
            ]
        )

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
    """The decision ``agent_selection`` faces: what its actions mean, its mask, its
    observation and its info. ``choices``: the allowed actions, each with its answer when
    answering (a selection action's selection is ``Encoding.selection``)."""

    pending: Pending
    choices: dict[int, Any]
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
        choices: dict[int, Any]
        info: dict[str, Any]
        later: dict[str, Callable[[], Any]] = {}
        if question is None:
            choices = dict.fromkeys(enc.legal_actions(view))
            info = {"kind": "select", "legal": None, "question": None}
            later["legal"] = partial(legal_selections, view)
        else:
            choices = enc.answer_actions(pending.seat, question)
            info = {"kind": "answer", "legal": None, "question": question_to_wire(question)}
        actions = list(choices)
        allowed = bytearray(enc.actions)  # (cheaper to fill item by item than numpy)
        for action in actions:
            allowed[action] = 1
        mask = np.frombuffer(allowed, np.int8)
        info["actions"] = actions  # each legal selection's action, or each option's
        info["view"] = None
        later["view"] = self.observer.later(view)
        observation = {"observation": self.observer.observe(view, question), "action_mask": mask}
        return _Decision(pending, choices, observation, Info(info, later))

    def _end(self) -> None:
        """The game is over: rewards, terminations (truncations for a draw by the round
        limit) and each agent's last info."""
        self._decision = None
        result = self.game.result
        draw = result.kind == "draw"
        for agent in self.agents:
            seat = self._seats[agent]
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
                    "view": self.observer.later(self.game.view(seat)),
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
        if pending.question is None:
            choice = self.encoding.selection(pending.seat, chosen)
        else:
            choice = decision.choices[chosen]
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
        if isinstance(action, int | np.integer):  # (the usual case: its number as it is)
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
        if chosen not in decision.choices:
            raise ValueError(
                f"action {chosen} ({self.encoding.describe(chosen)}) is not legal for "
                f"{self.agent_selection} now: the action mask forbids it"
            )
        return chosen

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        decision = self._decision
        if decision is not None and agent == self.agent_selection:
            return decision.observation
        # Not this agent's turn: its view now, and nothing it may do.
        view = self.game.view(self._seats[agent])
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
