"""The engine: the rules of Spoiler, moving a ``GameState`` from deal to result.

``Game`` is built of parts, each a module of ``spoiler.rules`` with one job, each building on
the ones before it (``Game``'s bases, lowest first):

=================  ==========================================================================
``guard``          the runaway guard: a round's steps and its clock
``log``            the event log, and each seat's secrets in it
``hooks``          calling the plugins' hooks, and blaming the one that failed
``resolution``     this round's priority order; parts and plays resolving in it; effects run
``questions``      the read-only questions card code asks (hand, holds, counter, ...)
``legality``       legal targets, playable cards, checking a selection, who selects
``projections``    what one seat sees (``view``) and the table everyone sees (``table``)
``selection``      asking for the round's selections (and the search window seam)
``effects``        the verbs on players and cards (lose, win, draw, give, ask, ...)
``plays``          the verbs on plays and lasting effects (cancel, redirect, copy, ...)
=================  ==========================================================================

The round is a table of phases, ``ROUND`` (below): each row names the phase, the hook it
calls after its step (if any), and its step. Adding a phase is a row, and its hook spec in
``spoiler.plugins.hookspecs``. As the rules order it (see docs/architecture.md):

1. round start: every player who has not lost and can play selects a card (hidden, all
   before anything resolves); selected cards leave the hands;
2. beginning of round: "At Beginning of Round" parts (cards and ongoing effects) resolve in
   priority order;
3. mid round: each play resolves in priority order (a player who lost meanwhile still has
   their card resolve; a cancelled play does nothing at all);
4. end of round: "At End of Round" parts in priority order; ongoing effects tick; played
   cards go to the discard pile; every player who has not lost draws one card; priorities
   shift (2nd becomes 1st, 1st becomes last);
5. the game ends if anyone has won, everyone has lost, one player is left, or the round
   limit is reached.

A clone copies what each part holds (``_copy_into``, extended by every part), never a
``__dict__``: a part that adds an attribute copies it, or the clone test fails.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any, NamedTuple, NoReturn

from spoiler.model.cards import CardSet
from spoiler.model.errors import CardError, GameError, IllegalChoice, RoundTooLong
from spoiler.model.state import GameState, PlayerState, Result, Seat, Status
from spoiler.model.verbs import Play
from spoiler.rules.guard import MAX_ROUND_SECONDS, MAX_ROUND_STEPS, Guard
from spoiler.rules.hooks import who_is_running
from spoiler.rules.legality import playable_cards
from spoiler.rules.native import mypyc_attr
from spoiler.rules.plays import PlayEffects
from spoiler.rules.selection import MAX_ATTEMPTS

# API 1 imported these from here (spoiler.engine): they live in the model now.
__all__ = [
    "Game",
    "Phase",
    "ROUND",
    "Play",
    "Seat",
    "Result",
    "GameError",
    "CardError",
    "RoundTooLong",
    "IllegalChoice",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "HAND_SIZE",
    "MAX_ATTEMPTS",
    "MAX_ROUND_STEPS",
    "MAX_ROUND_SECONDS",
]

MIN_PLAYERS, MAX_PLAYERS = 2, 8
HAND_SIZE = 3

LOST, IN_PLAY, WON = Status.LOST, Status.IN_PLAY, Status.WON

#: A game's stage: not started yet; starting or playing a round; between rounds.
NEW, RUNNING, IDLE = "new", "running", "idle"

#: (kept for API 1's spoiler.fast: the cards of a hand that have legal targets)
_playable = playable_cards


# Plain Python may subclass it even when it is compiled (simulate's tally, tests), so every
# part allows that (hatch_compile.py).
@mypyc_attr(allow_interpreted_subclasses=True)
class Game(PlayEffects):
    """One game of Spoiler: its state and the rules that move it.

    The engine is the only writer of ``state``. Card effects, ongoing effects and plugins
    change the game through the verbs (``lose``, ``win``, ``draw`` …), each of which records
    an ``Event``.
    """

    def __init__(
        self,
        sets: list[CardSet],
        seats: list[Seat],
        seed: int,
        *,
        max_rounds: int = 100,
        hooks: dict[str, Callable[..., Any]] | None = None,
        strict: bool = False,
    ):
        if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
            raise GameError(
                f"Spoiler needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(seats)}"
            )
        names = [s.name for s in seats]
        if len(set(n.lower() for n in names)) != len(names):
            raise GameError(f"player names must differ: {', '.join(names)}")
        if max_rounds < 1:
            raise GameError(f"the round limit must be at least 1, not {max_rounds}")
        self.sets = sorted(sets, key=lambda s: s.name)
        self.cards = [c for s in self.sets for c in s.cards]
        deck_size = sum(c.copies for c in self.cards)
        if deck_size < HAND_SIZE * len(seats):
            raise GameError(
                f"a deck of {deck_size} cards is too small to deal {HAND_SIZE} "
                f"to {len(seats)} players"
            )
        self.seats = seats
        self.seed = seed
        self.max_rounds = max_rounds
        self.strict = strict
        self.state = GameState(names, seed)
        self.card_names = tuple(sorted({c.name for c in self.cards}))
        for card in self.cards:  # the one question whose answers depend on the game's cards
            if card.ask is not None and not card.ask.choices(self.card_names):
                raise GameError(f"{card.name} asks a question no answer fits in this game")
        self.cards_by_id = {c.id: c for c in self.cards}
        #: How players see counters and rule causes: the sets' labels, by id.
        self.labels = {k: v for s in self.sets for k, v in getattr(s, "labels", {}).items()}
        #: Every decision, by round: what each seat selected and every answer given. (A
        #: determinization, a game with no seed, is never recorded nor replayed: it keeps
        #: only the round it was dealt in, with no decision in it; spoiler.search.)
        self.decisions: list[dict] = []
        #: NEW, then RUNNING while it starts or plays a round (it cannot be played from
        #: inside then: ruling 15), IDLE between rounds. (One attribute, not two flags: a
        #: FastGame has 29 and CPython keeps at most 30 in its compact instance layout,
        #: whose attribute reads are faster; tests/test_engine_parts.py checks it.)
        self._stage = NEW
        # The parts, lowest first (the limits read from this module, where tests change them).
        self._init_guard(MAX_ROUND_STEPS, MAX_ROUND_SECONDS)
        self._init_log(len(seats))
        self._init_hooks(hooks)
        self._init_resolution()
        self._init_legality()

    # -- running the game ----------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.state.result is not None

    @property
    def result(self) -> Result | None:
        return self.state.result

    @property
    def round(self) -> int:
        return self.state.round

    def play(self) -> Result:
        """Play rounds until the game ends."""
        st = self.state
        while st.result is None:
            self.play_round()
        assert self.state.result is not None  # the loop runs until there is one
        return self.state.result

    def start(self) -> None:
        """Game start: random priorities, build and shuffle the deck, deal three each."""
        if self._stage != NEW:
            return
        self._stage = RUNNING
        try:
            self._guard_reset()
            self._watched(self._deal)
        finally:
            self._stage = IDLE

    def _deal(self) -> None:
        st = self.state
        st.rng.shuffle(st.priority)
        deck = [card for card in self.cards for _ in range(card.copies)]
        st.built = list(deck)
        st.rng.shuffle(deck)
        st.deck = deck
        self._emit(
            "game_started",
            None,
            None,
            # No seed: it decides every hand, so it is told only when the game ends.
            {
                "players": tuple([p.name for p in st.players]),
                "sets": tuple([s.name for s in self.sets]),
            },
        )
        self._emit("priorities", None, None, {"order": tuple(st.priority)})
        for seat in st.priority:
            hand = st.players[seat].hand
            for _ in range(HAND_SIZE):
                hand.append(deck.pop())
            self._emit(
                "dealt", seat, None, None, {"cards": tuple([c.id for c in hand])}, self._only[seat]
            )
        self._hook("spoiler_game_start", game=self)

    def play_round(self) -> None:
        """Play one whole round (selection to end check): every phase of ``ROUND``."""
        if self._stage == RUNNING:
            self._refuse_reentry("play_round")
        if self.state.result is not None:
            raise GameError("the game is over")
        if self._stage == NEW:
            self.start()
        if self._runaway is not None:  # a round that ran away cannot go on
            raise self._again()
        self._guard_reset()
        self._watched(self._play_phases, ROUND)

    def _play_whole_round(self) -> None:
        self._play_phases(ROUND)

    def _play_out_round(self) -> None:
        """The round from selection on: where a clone taken while players select goes on."""
        if self._stage == RUNNING:
            self._refuse_reentry("play_round")
        self._watched(self._play_phases, ROUND[_SELECTION:])

    def _play_from_selection(self) -> None:
        self._play_phases(ROUND[_SELECTION:])

    def _play_phases(self, phases: tuple[Phase, ...]) -> None:
        hooks = self.hooks
        self._stage = RUNNING
        try:
            st = self.state
            for name, hook, step in phases:
                if step is not None:
                    step(self)
                if hook is not None and hook in hooks:
                    self._hook(hook, game=self)
                if st.kept_secrets:  # (a secret kept until this phase is over: Ask.until)
                    self._reveal_kept(name)
        finally:
            self._stage = IDLE

    def _refuse_reentry(self, verb: str) -> NoReturn:
        """Ruling 15: a game that is starting or playing a round (``RUNNING``) is not played
        from inside it (a hook's or a card's ``game.play_round()`` would record a round
        inside a round)."""
        raise GameError(
            f"{who_is_running(self)} called game.{verb}() while the game was "
            f"{'playing round ' + str(self.round) if self.round else 'starting'}: "
            "a hook or a card acts on the game through its verbs and cannot play it"
        )

    # -- the round's own steps (the others are the parts') ------------------------------------
    def _begin_round(self) -> None:
        st = self.state
        st.round += 1
        if self._order != st.priority:  # usually already set by the last shift
            self._order = list(st.priority)
            self._reorder()
        if self.seed is not None:  # (a determinization is never recorded: see decisions)
            self.decisions.append({"round": st.round, "selections": {}, "answers": []})
        if self.logging:
            self._emit("round_started", None, None, {"order": tuple(st.priority)})

    def _clear_table(self) -> None:
        """Ongoing effects tick (those whose duration is over end); played cards go to the
        discard pile, unless an effect still in play keeps them on the table."""
        st = self.state
        if st.ongoing:
            for effect in list(st.ongoing):
                if effect.rounds is not None:
                    effect.rounds -= 1
                    if effect.rounds <= 0:  # told apart from an effect a card ended (story.py)
                        self._remove_ongoing(effect, {"name": effect.name, "expired": True})
        # A card stays on the table only while an effect keeping it lasts: one that ended
        # in its own round (rounds=1) lets its card go to the discard pile with the rest.
        plays = st.plays
        if not plays:
            return
        kept = False
        for play in plays:  # (loops, not comprehensions, on every round's path)
            if play.kept:
                kept = True
        if kept:
            keeping = {(o.owner, o.card) for o in st.ongoing if o.keeps_card}
            for play in plays:
                play.kept = play.kept and (play.player, play.card) in keeping
                (st.in_play if play.kept else st.discard).append(play.card)
            cleared = [p.card for p in plays if not p.kept]
        else:
            cleared = []
            for play in plays:
                cleared.append(play.card)
            st.discard.extend(cleared)
        if self.logging:
            self._emit("cleared", None, None, {"cards": tuple([c.id for c in cleared])})
        st.plays = []

    def _draw_all(self) -> None:
        """Every player who has not lost draws a card, in this round's priority order."""
        players = self.state.players
        draw = self.draw
        for seat in list(self._order):
            if players[seat].status is not LOST:
                draw(seat, 1, None)

    def _shift_priorities(self) -> None:
        st = self.state
        st.priority.append(st.priority.pop(0))
        self._order = list(st.priority)  # between rounds, "this round" means the next one
        self._reorder()
        if self.logging:
            self._emit("priorities_shifted", None, None, {"order": tuple(st.priority)})

    def _check_end(self) -> None:
        st = self.state
        won: list[int] = []
        alive: list[int] = []
        for p in st.players:  # (one loop for both)
            if p.status is not LOST:
                alive.append(p.seat)
                if p.status is WON:
                    won.append(p.seat)
        if won:
            result = Result("win", tuple(won), st.round)
        elif not alive:
            result = Result("all_lost", (), st.round)
        elif len(alive) == 1:
            result = Result("default", (alive[0],), st.round)
        elif st.round >= self.max_rounds:
            result = Result("draw", (), st.round)
        else:
            return
        st.result = result
        self._emit(
            "game_over",
            None,
            None,
            {"result": result.kind, "winners": tuple(result.winners), "seed": self.seed},
        )
        self._hook("spoiler_game_end", game=self, result=result)

    # -- clones ---------------------------------------------------------------------------------
    def clone(
        self,
        agents: list | None = None,
        *,
        kind: type[Game] | None = None,
        rng: random.Random | None = None,
    ) -> Game:
        """An independent copy: the same state, RNG and ongoing effects, cards shared, and the
        seats' agents replaced by ``agents`` (default: the same agent objects). ``kind``: the
        copy's class (a subclass of ``Game``; default this game's). ``rng``: the copy's RNG,
        instead of a copy of this game's (a stream's copy costs more than seeding a new one,
        wasted on a copy that deals again with its own). ``spoiler.search`` builds fast copies
        and determinizations on it."""
        kind = kind or type(self)
        new = kind.__new__(kind)  # (not object.__new__, which a compiled Game refuses)
        if agents is None:
            agents = [seat.agent for seat in self.seats]
        # The state first (every part's copy points into it), then what each part holds.
        new.state = _copy_state(self.state, new, rng)
        self._copy_into(new)
        new.seats = seats = []
        for seat, agent in zip(self.seats, agents, strict=True):  # (a loop: every rollout's)
            seats.append(Seat(seat.name, agent, seat.kind))
        return new

    def _copy_into(self, new: Guard) -> None:
        """The game's own: the table it was made with (shared: never changed) and its
        decisions (its state is copied before any part's, by ``clone``)."""
        assert isinstance(new, Game)
        new.sets, new.cards, new.seats = self.sets, self.cards, list(self.seats)
        new.seed, new.max_rounds, new.strict = self.seed, self.max_rounds, self.strict
        new.card_names, new.cards_by_id, new.labels = self.card_names, self.cards_by_id, self.labels
        new.decisions = [*self.decisions[:-1], *map(_copy_decisions, self.decisions[-1:])]
        new._stage = NEW if self._stage == NEW else IDLE  # a clone is played from outside
        super()._copy_into(new)


class Phase(NamedTuple):
    """A row of the round: its name, the hook spec called after its step (if any), and the
    step (a function of the game; None for a phase that only calls its hook)."""

    name: str
    hook: str | None
    step: Callable[[Game], None] | None


#: The round, phase by phase. A hook is called only if some plugin in the game implements it.
ROUND: tuple[Phase, ...] = (
    Phase("round start", "spoiler_round_start", Game._begin_round),
    Phase("selection", None, Game._select),
    Phase("beginning of round", "spoiler_beginning_of_round", None),
    Phase("at beginning of round", None, Game._resolve_beginning),
    Phase("mid round", None, Game._resolve_plays),
    Phase("at end of round", "spoiler_end_of_round", Game._resolve_end),
    Phase("clearing the table", None, Game._clear_table),
    Phase("the draw", "spoiler_after_draw", Game._draw_all),
    Phase("priority shift", "spoiler_round_end", Game._shift_priorities),
    Phase("end check", None, Game._check_end),
)
#: Where a round taken up by a clone made while players select goes on.
_SELECTION = 1


def _copy_decisions(record: dict) -> dict:
    return {
        "round": record["round"],
        "selections": dict(record["selections"]),
        "answers": list(record["answers"]),
    }


_new_random = random.Random.__new__


def random_in(state: tuple) -> random.Random:
    """A random stream in ``state`` (``rng.getstate()``, the costly half of copying a stream:
    copies of one stream made again and again can take it once)."""
    # Not random.Random(): it seeds itself from the system first, which costs twice the copy.
    rng = _new_random(random.Random)
    rng.setstate(state)
    return rng


def _copy_state(st: GameState, game: Game, rng: random.Random | None = None) -> GameState:
    """A copy of the state for a clone: lists, hands, counters and the RNG copied (or
    ``rng`` instead); cards shared (they never change); ongoing effects copied with
    ``copy.copy`` (their own state is kept in plain attributes) and this round's plays
    remade, both for ``game``."""
    new = object.__new__(GameState)
    new.players = []
    for p in st.players:
        q = object.__new__(PlayerState)
        q.seat, q.name, q.status = p.seat, p.name, p.status
        q.hand, q.counters, q.known = list(p.hand), dict(p.counters), dict(p.known)
        new.players.append(q)
    new.deck, new.discard, new.in_play = list(st.deck), list(st.discard), list(st.in_play)
    new.priority, new.round, new.result, new.built = (
        list(st.priority),
        st.round,
        st.result,
        st.built,
    )
    new.kept_secrets = list(st.kept_secrets)
    new.rng = random_in(st.rng.getstate()) if rng is None else rng
    new.log = list(st.log)
    new.ongoing = []
    for effect in st.ongoing:
        twin = copy.copy(effect)
        twin.game = game
        new.ongoing.append(twin)
    new.plays = []
    for play in st.plays:
        twin_play = Play(game, play.player, play.card, play.targets, play.info)
        twin_play.cancelled, twin_play.resolved = play.cancelled, play.resolved
        twin_play.acting_as, twin_play.kept = play.acting_as, play.kept
        new.plays.append(twin_play)
    return new
