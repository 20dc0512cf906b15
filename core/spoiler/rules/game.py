"""The engine: the rules of Spoiler, moving a ``GameState`` from deal to result.

A round, as the rules order it (see docs/architecture.md):

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

Plugins take part through the hooks in ``spoiler.hookspecs``; only hooks that some plugin
in this game implements are ever called, so a game without rule plugins pays nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from time import monotonic
from types import MappingProxyType

from spoiler.model.cards import Card, CardSet, targets_possible
from spoiler.model.errors import CardError, GameError, IllegalChoice, RoundTooLong
from spoiler.model.events import Event, make_event
from spoiler.model.interrupts import PLUGIN_FAILURES, Stop
from spoiler.model.state import GameState, Result, Seat, Status
from spoiler.model.verbs import Ongoing, Play
from spoiler.model.views import (
    EventLog,
    PlayerInfo,
    PlayerView,
    Question,
    Secrets,
    Selection,
    TableView,
    seen_events,
)

MIN_PLAYERS, MAX_PLAYERS = 2, 8
HAND_SIZE = 3
#: How often an agent may answer illegally before the game gives up on it.
MAX_ATTEMPTS = 50
#: The runaway guard: a round may take this many engine steps (events, effects run, reads
#: of hands and counters; a usual round takes under a hundred) and this many seconds of
#: card code without a decision from a player. Checked inside the engine, never by a
#: signal, so that it also guards games run off the main thread.
MAX_ROUND_STEPS = 100_000
MAX_ROUND_SECONDS = 10.0
_STEP_CHUNK = 1000  # steps between two looks at the clock

LOST, IN_PLAY, WON = Status.LOST, Status.IN_PLAY, Status.WON


def _cause_id(cause) -> str | None:
    if cause is None or isinstance(cause, str):
        return cause
    card = getattr(cause, "card", None)
    return card.id if card is not None else getattr(cause, "name", None)


def _playable(hand: list, legal: Mapping) -> list[Card]:
    """The cards in this hand that have legal targets (``legal``: {target kind: seats})."""
    return [
        card
        for card in hand
        if not card.targets
        or (
            legal[card.targets[0]]
            if len(card.targets) == 1
            else targets_possible([legal[k] for k in card.targets])
        )
    ]


def _find(hand: list, card) -> Card | None:
    """The card in hand that ``card`` (a Card, an id or a name) designates."""
    if isinstance(card, Card):
        for c in hand:
            if c is card:
                return c
        card = card.id
    wanted = str(card).lower()
    for c in hand:
        if c.id == wanted or c.name.lower() == wanted:
            return c
    return None


class Game:
    """One game of Spoiler: its state and the rules that move it.

    The engine is the only writer of ``state``. Card effects, ongoing effects and plugins
    change the game through the verbs below, each of which records an ``Event``.
    """

    def __init__(
        self,
        sets: list[CardSet],
        seats: list[Seat],
        seed: int,
        *,
        max_rounds: int = 100,
        hooks: dict[str, Callable] | None = None,
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
        #: Only hooks some plugin in this game implements.
        self.hooks = {name: caller for name, caller in (hooks or {}).items() if caller is not None}
        #: Every decision, by round: what each seat selected and every answer given.
        self.decisions: list[dict] = []
        self._order: list[int] = []  # this round's priority order (may differ from state.priority)
        self._rank: dict[int, int] = {}
        self._order_version = 0
        self._handlers: dict[str, list[Ongoing]] = {h: [] for h in Ongoing.HANDLERS}
        self._target_kinds = frozenset(kind for card in self.cards for kind in card.targets)
        #: {seat} for each seat: who may see their own secrets (shared, not rebuilt per event).
        self._only = tuple(frozenset((seat,)) for seat in range(len(seats)))
        #: The log with every secret removed, and for each seat the events (by index in the
        #: log) whose secret it may see: together, the log as that seat saw it.
        self._public_log = EventLog()
        self._secrets = [Secrets() for _ in seats]
        self._started = False
        #: The runaway guard's limits (see MAX_ROUND_STEPS), and its count of this round.
        self.max_round_steps = MAX_ROUND_STEPS
        self.max_round_seconds = MAX_ROUND_SECONDS
        self._guard_reset()

    # ==========================================================================================
    # Running the game
    # ==========================================================================================
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
        while not self.over:
            self.play_round()
        assert self.state.result is not None  # the loop runs until there is one
        return self.state.result

    def start(self) -> None:
        """Game start: random priorities, build and shuffle the deck, deal three each."""
        if self._started:
            return
        self._started = True
        self._guard_reset()
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
        """Play one whole round (selection to end check)."""
        if self.over:
            raise GameError("the game is over")
        self.start()
        if self._runaway:  # a round that ran away cannot go on
            raise RoundTooLong(self._runaway)
        self._guard_reset()
        st = self.state
        st.round += 1
        if self._order != st.priority:  # usually already set by the last shift
            self._order = list(st.priority)
            self._reorder()
        self.decisions.append({"round": st.round, "selections": {}, "answers": []})
        self._emit("round_started", None, None, {"order": tuple(st.priority)})
        if "spoiler_round_start" in self.hooks:
            self._hook("spoiler_round_start", game=self)
        self._play_out_round()

    def _play_out_round(self) -> None:
        """The round from selection on: where a clone taken while players select goes on."""
        st = self.state
        self._select()

        # Beginning of round.
        if "spoiler_beginning_of_round" in self.hooks:
            self._hook("spoiler_beginning_of_round", game=self)
        self._resolve_parts("at_beginning")

        # Mid round.
        for _, _, play in self._in_priority([(p.player, 1, p) for p in st.plays]):
            self._resolve(play)

        # End of round.
        self._resolve_parts("at_end")
        if "spoiler_end_of_round" in self.hooks:
            self._hook("spoiler_end_of_round", game=self)
        self._tick_ongoing()
        self._clear_table()
        for seat in list(self._order):
            if st.players[seat].status is not LOST:
                self.draw(seat, 1, cause=None)
        if "spoiler_after_draw" in self.hooks:
            self._hook("spoiler_after_draw", game=self)
        st.priority.append(st.priority.pop(0))
        self._order = list(st.priority)  # between rounds, "this round" means the next one
        self._reorder()
        self._emit("priorities_shifted", None, None, {"order": tuple(st.priority)})
        if "spoiler_round_end" in self.hooks:
            self._hook("spoiler_round_end", game=self)
        self._check_end()

    def clone(self, agents: list | None = None) -> Game:
        """An independent copy: the same state, RNG and ongoing effects, cards shared, and the
        seats' agents replaced by ``agents`` (default: the same agent objects). See
        ``spoiler.search`` for clones and determinizations."""
        from spoiler.search import clone

        return clone(self, agents)

    # -- selection -----------------------------------------------------------------------------
    def legal_targets(self, seat: int) -> Mapping:
        """For each kind of target the game's cards use, the seats (a tuple) this player may
        choose.

        A target kind sees only public facts, and decides on seats and statuses, so the table
        is worked out once per line-up of statuses and shared: it is read-only."""
        return self._legal_table()[seat]

    def _legal_table(self) -> tuple[Mapping, ...]:
        players = self.state.players
        key = (self._target_kinds, tuple([p.status for p in players]))
        table = _LEGAL_TABLES.get(key)
        if table is None:
            public = self._public_players()  # target kinds never see a hand
            table = _LEGAL_TABLES[key] = tuple(
                [
                    MappingProxyType(
                        {kind: tuple(kind.candidates(me, public)) for kind in self._target_kinds}
                    )
                    for me in range(len(players))
                ]
            )
        return table

    def playable(self, seat: int) -> list[Card]:
        """The cards in a player's hand they could legally select now."""
        return _playable(self.state.players[seat].hand, self.legal_targets(seat))

    def _choosers(self, legal_table: tuple[Mapping, ...]):
        """The one place that decides who selects this round: (seat, the cards it may play)
        for every player who has not lost and holds a card, in priority order; an empty list
        for one who holds no card with a legal target (they cannot select)."""
        players = self.state.players
        for seat in self.state.priority:
            player = players[seat]
            if player.status is not LOST and player.hand:
                yield seat, _playable(player.hand, legal_table[seat])

    def selecting(self) -> tuple[int, ...]:
        """The seats that must select a card now, in priority order (rulings 2 and 8)."""
        return tuple([seat for seat, cards in self._choosers(self._legal_table()) if cards])

    def _select(self) -> None:
        st = self.state
        # What every seat sees alike, taken once: nothing changes while players choose.
        public, table = self._common_view()
        legal_table = self._legal_table()
        plays: list[Play] = []
        for seat, playable in self._choosers(legal_table):
            if not playable:
                self._emit("cannot_select", seat)
                continue
            plays.append(self._ask_agent(seat, public, legal_table[seat], table, tuple(playable)))
        # Everyone has chosen: only now do the selected cards leave the hands.
        record = self.decisions[-1]["selections"]
        for play in plays:
            st.players[play.player].hand.remove(play.card)
            record[play.player] = {
                "card": play.card.id,
                "targets": list(play.targets),
                "info": play.info,
            }
            # The event gets its own copy: the player's view must not reach the record.
            self._emit(
                "selected",
                play.player,
                None,
                None,
                {"card": play.card.id, "targets": tuple(play.targets), "info": play.info},
                self._only[play.player],
            )
        st.plays = plays

    def _ask_agent(
        self, seat: int, public: tuple, legal: Mapping, table: tuple, playable: tuple
    ) -> Play:
        agent = self.seats[seat].agent
        searches = getattr(agent, "searches", False)
        error = None
        for _ in range(MAX_ATTEMPTS):
            view = self.view(seat, error, public, legal, table, playable)
            if searches:  # an agent that searches gets a window on this moment (spoiler.search)
                from spoiler.search import Searcher

                view.search = Searcher(self, seat)
            selection = agent.select(view)
            self._decided_at = monotonic()  # a player's thinking is no effect running away
            try:
                return self.check_selection(seat, selection)
            except IllegalChoice as exc:
                error = str(exc)
        raise GameError(
            f"{self.seats[seat].name}'s agent made {MAX_ATTEMPTS} illegal selections; last: {error}"
        )

    def check_selection(self, seat: int, selection: Selection) -> Play:
        """Check a selection against the rules; return the play or raise IllegalChoice."""
        st = self.state
        if not isinstance(selection, Selection):
            raise IllegalChoice(f"expected a Selection, got {selection!r}")
        hand = st.players[seat].hand
        card = selection.card
        # Usually the very Card object from the hand (cards compare by identity): no search
        # by id or name needed.
        if card.__class__ is not Card or card not in hand:
            card = _find(hand, card)
            if card is None:
                raise IllegalChoice(f"{selection.card!r} is not in your hand")
        targets = selection.targets
        if targets.__class__ is not tuple:  # a single seat, or a list
            targets = (targets,) if isinstance(targets, int) else tuple(targets)
        if len(targets) != len(card.targets):
            want = ", ".join(t.description for t in card.targets) or "no target"
            raise IllegalChoice(f"{card.name} needs {want}")
        if len(targets) > 1 and len(set(targets)) != len(targets):
            raise IllegalChoice(f"{card.name} needs different players as its targets")
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

    # -- resolution ----------------------------------------------------------------------------
    def _in_priority(self, items: list[tuple]):
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
        items = [(p.player, 1, p) for p in self.state.plays if getattr(p.card, part)]
        effects = self._handlers[part]
        if effects:
            items = [(o.owner, 0, o) for o in effects] + items
        elif not items:
            return
        for _, _, item in self._in_priority(items):
            if isinstance(item, Play):
                if not item.cancelled:
                    self._emit(part, item.player, item.card.id, {"card": item.card.id})
                    self._run(item, getattr(item.card, part), item)
            elif item in self.state.ongoing:
                self._run(item, getattr(item, part))

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
        if ask is not None and ask.secret:  # told only once the main effect is over
            self._emit(
                "played",
                play.player,
                play.card.id,
                {"card": play.card.id, "targets": tuple(play.targets)},
                {"info": play.info},
                self._only[play.player],
            )
        else:
            self._emit(
                "played",
                play.player,
                play.card.id,
                {"card": play.card.id, "targets": tuple(play.targets), "info": play.info},
            )
        acting_as = play.acting_as
        if acting_as.main is not None:  # blamed on the card whose code runs, if replaced
            self._run(play, acting_as.main, play, card=acting_as)
        if ask is not None and ask.secret:
            self._emit(
                "revealed", play.player, play.card.id, {"card": play.card.id, "info": play.info}
            )
        if "spoiler_after_play" in self.hooks:
            self._hook("spoiler_after_play", game=self, play=play)
        if handlers["after_play"]:
            for effect in self._live("after_play"):
                self._run(effect, effect.after_play, play)

    def _run(self, source, fn: Callable, *args, card: Card | None = None) -> None:
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
            card = card or getattr(source, "card", None)
            if self.strict:
                blamed = card.id if card is not None else _cause_id(source)
                raise CardError(f"{blamed}: {type(exc).__name__}: {exc}") from exc
            self._emit(
                "fizzled",
                _seat_of(source),
                card.id if card is not None else source,
                {
                    "card": card.id if card else None,
                    "set": card.set_name if card else None,
                    "error": f"{type(exc).__name__}: {exc}",
                },
            )

    def _live(self, handler: str):
        """The effects with this handler, walked over a copy because handlers may add or end
        effects: one ended by an earlier handler is skipped, one added joins from the next
        event on."""
        effects = self._handlers[handler]
        if not effects:
            return ()
        return (e for e in list(effects) if e in self.state.ongoing)

    def _prevents(self, effect: Ongoing, handler: Callable, seat: int, cause) -> bool:
        """Does an ongoing effect prevent a loss or a win? One that raises fizzles like any
        effect, and prevents nothing."""
        answers = []
        self._run(effect, lambda: answers.append(handler(seat, cause)))
        return bool(answers and answers[0])

    def _clear_table(self) -> None:
        st = self.state
        # A card stays on the table only while an effect keeping it lasts: one that ended
        # in its own round (rounds=1) lets its card go to the discard pile with the rest.
        keeping = {(o.owner, o.card) for o in st.ongoing if o.keeps_card}
        for play in st.plays:
            play.kept = play.kept and (play.player, play.card) in keeping
            (st.in_play if play.kept else st.discard).append(play.card)
        if st.plays:
            self._emit(
                "cleared", None, None, {"cards": tuple([p.card.id for p in st.plays if not p.kept])}
            )
        st.plays = []

    def _tick_ongoing(self) -> None:
        for effect in list(self.state.ongoing):
            if effect.rounds is not None:
                effect.rounds -= 1
                if effect.rounds <= 0:
                    self.end_ongoing(effect)

    def _check_end(self) -> None:
        st = self.state
        won = tuple([p.seat for p in st.players if p.status is WON])
        alive = [p.seat for p in st.players if p.status is not LOST]
        if won:
            result = Result("win", won, st.round)
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

    # -- hooks and events ----------------------------------------------------------------------
    def _hook(self, name: str, **kwargs):
        caller = self.hooks.get(name)
        if caller is None:
            return None
        try:
            return caller(**kwargs)
        except (EOFError, GameError, Stop):
            raise
        except PLUGIN_FAILURES as exc:
            plugin = _blame(caller, exc)
            if self.strict:
                raise CardError(f"plugin {plugin!r} failed in {name}: {exc}") from exc
            self._emit(
                "rule_failed",
                None,
                plugin,
                {"plugin": plugin, "hook": name, "error": f"{type(exc).__name__}: {exc}"},
            )
            return None

    def _emit(
        self,
        kind: str,
        seat: int | None = None,
        cause=None,
        data: dict | None = None,
        secret: dict | None = None,
        secret_to: frozenset[int] = frozenset(),
    ) -> Event:
        """Record an event. Its public facts come as one dict, not as keyword arguments:
        this runs ~18 times a round, and gathering keywords into a dict costs more."""
        self._steps -= 1
        if self._steps <= 0:
            self._guard()
        if data is None:
            data = {}
        if cause is not None and cause.__class__ is not str:
            cause = _cause_id(cause)
        log = self.state.log
        event = make_event(self.state.round, kind, seat, cause, data, secret, secret_to)
        # Kept as the game goes so that a view needs neither the whole log nor the game.
        if secret is None:
            self._public_log.add(event)
        else:
            self._public_log.add(make_event(event.round, kind, seat, cause, data))
            for s in secret_to:
                self._secrets[s].put(len(log), event)
        log.append(event)
        return event

    # -- the runaway guard ----------------------------------------------------------------------
    def _guard_reset(self) -> None:
        """A new round (or the game's start): its steps counted, its clock started."""
        self._steps = _STEP_CHUNK
        self._steps_done = 0
        self._decided_at = monotonic()
        self._runaway = ""

    def _guard(self) -> None:
        """Every _STEP_CHUNK steps: stop a round past its limits with RoundTooLong. Once
        tripped it stays tripped, so code that swallows the error meets it again at once."""
        self._steps_done += _STEP_CHUNK - self._steps
        self._steps = _STEP_CHUNK
        if not self._runaway:
            busy = monotonic() - self._decided_at
            if self._steps_done > self.max_round_steps:
                why = f"over {self.max_round_steps:,} steps"
            elif busy > self.max_round_seconds:
                why = f"{busy:.0f} s of card code with no player deciding anything"
            else:
                return
            st = self.state
            names = [p.name for p in st.players]
            played = ", ".join(f"{names[p.player]}'s {p.card.name}" for p in st.plays)
            when = f"round {st.round}" if st.round else "the game's start"
            self._runaway = (
                f"{when} ran past its limit ({why}): an effect that never ends? "
                f"Cards played that round: {played or 'none'}. Seed {self.seed}."
            )
        self._steps = 1  # tripped: the next step raises again
        raise RoundTooLong(self._runaway)

    def _reorder(self) -> None:
        self._rank = {seat: i for i, seat in enumerate(self._order)}
        self._order_version += 1

    # ==========================================================================================
    # Views
    # ==========================================================================================
    def _public_players(self) -> tuple[PlayerInfo, ...]:
        st = self.state
        rank = self._rank or {s: i for i, s in enumerate(st.priority)}
        # Built for every view: tuple.__new__ skips the NamedTuple's Python-level __new__.
        new = tuple.__new__
        return tuple(
            [
                new(
                    PlayerInfo,
                    (
                        p.seat,
                        p.name,
                        p.status,
                        len(p.hand),
                        rank[p.seat] + 1,
                        MappingProxyType(dict(p.counters)) if p.counters else _NO_COUNTERS,
                    ),
                )
                for p in st.players
            ]
        )

    def _common_view(self) -> tuple:
        """The parts of a view every seat shares while players select."""
        return self._public_players(), self._table()

    def _table(self) -> tuple[tuple, tuple]:
        """The face-up table every view shows: the discard pile and the ongoing effects."""
        st = self.state
        return tuple(st.discard), tuple([(o.name, o.owner, o.rounds) for o in st.ongoing])

    def view(
        self,
        seat: int,
        error: str | None = None,
        public: tuple | None = None,
        legal: Mapping | None = None,
        table: tuple | None = None,
        playable: tuple | None = None,
    ) -> PlayerView:
        """What ``seat`` may see now (``public``, ``legal``, ``table`` and ``playable``: parts
        already worked out for this moment, passed in so views of several seats share them).
        The view holds copies and this seat's own event list, never the game itself."""
        st = self.state
        player = st.players[seat]
        discard, ongoing = table or self._table()
        legal = self.legal_targets(seat) if legal is None else legal
        if playable is None:
            playable = tuple(_playable(player.hand, legal))
        return PlayerView(
            seat,
            st.round,
            tuple(player.hand),
            public or self._public_players(),
            len(st.deck),
            discard,
            ongoing,
            dict(player.known),
            self.card_names,
            playable,
            error,
            self._public_log,
            self._secrets[seat],
            len(self._public_log),
            legal,
        )

    def table(self, *, hands: bool = False) -> TableView:
        """The table as everyone sees it (``hands``: with every hand, for a game that no
        player watches, such as one of bots)."""
        st = self.state
        discard, ongoing = self._table()
        return TableView(
            st.round,
            self._public_players(),
            tuple([seat.kind for seat in self.seats]),
            len(st.deck),
            discard,
            tuple(st.in_play),
            ongoing,
            st.result,
            tuple([tuple(p.hand) for p in st.players]) if hands else None,
        )

    def events_seen_by(self, seat: int | None) -> tuple[Event, ...]:
        """The log as one seat saw it (None: as a spectator who sees only public facts)."""
        return seen_events(
            self._public_log, {} if seat is None else self._secrets[seat], len(self._public_log)
        )

    # ==========================================================================================
    # Verbs (what card effects, ongoing effects and plugins may do)
    # ==========================================================================================
    def lose(self, seat: int, cause=None) -> bool:
        """One step down the ladder (won -> in play -> lost). False if something prevented it."""
        for effect in self._live("would_lose"):
            if self._prevents(effect, effect.would_lose, seat, cause):
                self._emit("loss_prevented", seat, effect, {"by": effect.name})
                return False
        if "spoiler_would_lose" in self.hooks and self._hook(
            "spoiler_would_lose", game=self, seat=seat, cause=cause
        ):
            self._emit("loss_prevented", seat, cause, {"by": "rule"})
            return False
        player = self.state.players[seat]
        before = player.status
        player.status = Status(max(LOST, before - 1))
        self._emit(
            "lost",
            seat,
            cause,
            {"before": before.name.lower(), "after": player.status.name.lower()},
        )
        return True

    def win(self, seat: int, cause=None) -> bool:
        """One step up the ladder (lost -> in play -> won). False if something prevented it."""
        for effect in self._live("would_win"):
            if self._prevents(effect, effect.would_win, seat, cause):
                self._emit("win_prevented", seat, effect, {"by": effect.name})
                return False
        if "spoiler_would_win" in self.hooks and self._hook(
            "spoiler_would_win", game=self, seat=seat, cause=cause
        ):
            self._emit("win_prevented", seat, cause, {"by": "rule"})
            return False
        player = self.state.players[seat]
        before = player.status
        player.status = Status(min(WON, before + 1))
        self._emit(
            "won", seat, cause, {"before": before.name.lower(), "after": player.status.name.lower()}
        )
        return True

    def draw(self, seat: int, n: int = 1, cause=None) -> list[Card]:
        """Draw n cards; an empty deck is refilled by shuffling the discard pile first."""
        st = self.state
        hand = st.players[seat].hand
        drawn = []
        for _ in range(n):
            if not st.deck:
                if not st.discard:
                    self._emit("no_card", seat, cause)
                    break
                st.deck, st.discard = st.discard, []
                st.rng.shuffle(st.deck)
                self._emit("reshuffled", None, cause, {"cards": len(st.deck)})
            card = st.deck.pop()
            hand.append(card)
            drawn.append(card)
            self._emit("drew", seat, cause, None, {"card": card.id}, self._only[seat])
            if "spoiler_card_drawn" in self.hooks:
                self._hook("spoiler_card_drawn", game=self, seat=seat, card=card)
            if self._handlers["card_drawn"]:  # (checked here: usually none)
                for effect in self._live("card_drawn"):
                    self._run(effect, effect.card_drawn, seat, card)
        return drawn

    def discard(self, seat: int, card, cause=None) -> bool:
        """Discard a card (Card, id or name) from a hand, face up. False if not held."""
        hand = self.state.players[seat].hand
        found = _find(hand, card)
        if found is None:
            return False
        hand.remove(found)
        self.state.discard.append(found)
        self._emit("discarded", seat, cause, {"card": found.id})
        self._hook("spoiler_card_discarded", game=self, seat=seat, card=found, cause=cause)
        for effect in self._live("card_discarded"):
            self._run(effect, effect.card_discarded, seat, found, cause)
        return True

    def give(self, giver: int, receiver: int, card, cause=None) -> bool:
        """Move a card from one hand to another; only those two see which. False if not held."""
        players = self.state.players
        found = _find(players[giver].hand, card)
        if found is None:
            return False
        players[giver].hand.remove(found)
        players[receiver].hand.append(found)
        self._emit(
            "gave", giver, cause, {"to": receiver}, {"card": found.id}, frozenset((giver, receiver))
        )
        self._hook(
            "spoiler_card_given", game=self, giver=giver, receiver=receiver, card=found, cause=cause
        )
        for effect in self._live("card_given"):
            self._run(effect, effect.card_given, giver, receiver, found, cause)
        return True

    def swap_hands(self, a: int, b: int, cause=None) -> None:
        players = self.state.players
        players[a].hand, players[b].hand = players[b].hand, players[a].hand
        # Each of the two knew their own hand, so each now knows both: they see what they got.
        hands = {
            "cards": [c.id for c in players[a].hand],
            "other_cards": [c.id for c in players[b].hand],
        }
        self._emit("swapped_hands", a, cause, {"other": b}, hands, frozenset((a, b)))

    def cancel(self, play: Play, cause=None) -> bool:
        """Cancel a play that has not resolved: it does nothing at all, later parts included."""
        if play.resolved or play.cancelled:
            return False
        play.cancelled = True
        self._emit("cancelled", play.player, cause, {"card": play.card.id})
        return True

    def redirect(self, play: Play, targets, cause=None) -> bool:
        """Give an unresolved play new targets."""
        if play.resolved or play.cancelled:
            return False
        play.targets = (targets,) if isinstance(targets, int) else tuple(targets)
        self._emit(
            "redirected", play.player, cause, {"card": play.card.id, "targets": tuple(play.targets)}
        )
        return True

    def replace(self, play: Play, card: Card | str, cause=None) -> bool:
        """An unresolved play resolves as another card's main effect (``card``: a Card, or
        the name or id of a card in this game; targets and information stay as selected)."""
        if not isinstance(card, Card):
            card = self.find_card(card)
        if play.resolved or play.cancelled:
            return False
        play.acting_as = card
        self._emit("replaced", play.player, cause, {"card": play.card.id, "instead": card.id})
        return True

    def copy(self, play: Play, cause) -> bool:
        """Resolve ``play``'s main effect again (as the card it acts as) on behalf of
        ``cause``'s player (or of the play's own player, for an effect no player owns). A
        cancelled play did nothing, so there is nothing to copy: False."""
        if play.cancelled:
            return False
        card = play.acting_as
        player = _seat_of(cause)
        if player is None:  # a rule's effect copies on behalf of the play's own player
            player = play.player
        self._emit("copied", player, cause, {"card": card.id, "targets": tuple(play.targets)})
        if card.main is not None:
            twin = Play(self, player, card, play.targets, play.info)
            twin.resolved = True
            self._run(twin, card.main, twin)
        return True

    def change_priority(
        self, seat: int, position: int, *, this_round: bool = False, cause=None
    ) -> None:
        """Move a player to a priority position (1 = first): for the rest of this round only,
        or from now on (the shift at the end of the round then moves it as usual)."""
        index = max(1, min(position, len(self.state.players))) - 1
        orders = [self._order] if this_round else [self._order, self.state.priority]
        for order in orders:
            order.remove(seat)
            order.insert(index, seat)
        self._reorder()
        self._emit(
            "priority_changed", seat, cause, {"position": index + 1, "this_round": this_round}
        )

    def reveal(self, hand_of: int, to: int, cause=None) -> tuple[Card, ...]:
        """Show one player's hand to another; only the viewer learns the cards."""
        st = self.state
        cards = tuple(st.players[hand_of].hand)
        st.players[to].known[hand_of] = (st.round, cards)
        self._emit(
            "shown",
            hand_of,
            cause,
            {"to": to},
            {"cards": tuple([c.id for c in cards])},
            self._only[to],
        )
        return cards

    def add_ongoing(self, effect: Ongoing, cause=None) -> None:
        effect.game = self
        if isinstance(cause, Play):
            effect.owner, effect.card = cause.player, cause.card
            cause.kept = cause.kept or effect.keeps_card
        elif isinstance(cause, Ongoing):
            effect.owner, effect.card = cause.owner, cause.card
        self.state.ongoing.append(effect)
        # (The ignores: mypy checks a class object against Hashable as if it were an instance.)
        for handler in _overridden(type(effect)):  # type: ignore[arg-type]  # handler lists follow state.ongoing's order
            self._handlers[handler].append(effect)
        # On whom: the targets of the play that made it (what "Ada's Hex on Cog" names).
        targets = tuple(cause.targets) if isinstance(cause, Play) else ()
        self._emit(
            "ongoing_added",
            _seat_of(effect),
            cause,
            {"name": effect.name, "text": effect.text, "rounds": effect.rounds, "targets": targets},
        )

    def end_ongoing(self, effect: Ongoing) -> None:
        st = self.state
        if effect not in st.ongoing:
            return
        st.ongoing.remove(effect)
        for handler in _overridden(type(effect)):  # type: ignore[arg-type]
            self._handlers[handler].remove(effect)
        if effect.keeps_card and effect.card is not None and effect.card in st.in_play:
            st.in_play.remove(effect.card)
            st.discard.append(effect.card)
        self._emit("ongoing_ended", _seat_of(effect), effect, {"name": effect.name})

    def ask(self, seat: int, prompt: str, options, cause=None) -> str | None:
        """Ask a player (lost or not) to choose one of ``options``. A single option is
        chosen without asking; no option gives None. Questions belong to rounds (that is
        where records keep their answers), so none may be asked before round 1."""
        if self.state.round == 0:
            raise GameError(
                f"{_cause_id(cause) or 'a plugin'} asked {prompt!r} before round 1; "
                "questions can only be asked during a round"
            )
        options = tuple([str(o) for o in options])
        if not options:
            return None
        if len(options) == 1:
            answer = options[0]
        else:
            question = Question(prompt, options, _cause_id(cause))
            agent = self.seats[seat].agent
            error = None
            for _ in range(MAX_ATTEMPTS):
                # legal={}: an answer needs no target table (the view works it out if asked).
                raw = agent.answer(self.view(seat, error), question)
                self._decided_at = monotonic()
                wanted = str(raw).strip().lower()
                answer = next((o for o in options if o.lower() == wanted), None)
                if answer is not None:
                    break
                error = f"{raw!r} is not one of: {', '.join(options)}"
            else:
                raise GameError(
                    f"{self.seats[seat].name}'s agent gave {MAX_ATTEMPTS} "
                    f"illegal answers; last: {error}"
                )
            self.decisions[-1]["answers"].append({"seat": seat, "prompt": prompt, "answer": answer})
        asker = _seat_of(cause)
        asker = seat if asker is None else asker
        self._emit(
            "answered",
            seat,
            cause,
            {"prompt": prompt},
            {"answer": answer},
            frozenset((seat, asker)),
        )
        return answer

    def add_counter(self, seat: int, name: str, delta: int = 1, cause=None) -> int:
        counters = self.state.players[seat].counters
        counters[name] = value = counters.get(name, 0) + delta
        self._emit("counter", seat, cause, {"name": name, "delta": delta, "value": value})
        return value

    def note(self, message: str, cause=None) -> None:
        self._emit("note", None, cause, {"message": message})

    # -- questions -----------------------------------------------------------------------------
    def hand(self, seat: int) -> tuple[Card, ...]:
        self._steps -= 1  # (a loop reading the game forever is a runaway too)
        if self._steps <= 0:
            self._guard()
        return tuple(self.state.players[seat].hand)

    def find_card(self, name: str) -> Card:
        """The card of this game's deck with that name or id (case-insensitive)."""
        found = _find(self.cards, name)
        if found is None:
            import difflib

            close = difflib.get_close_matches(str(name), self.card_names, n=3, cutoff=0.6)
            hint = f" (did you mean {' or '.join(map(repr, close))}?)" if close else ""
            raise LookupError(f"no card {name!r} in this game{hint}")
        return found

    def holds(self, seat: int, name: str) -> bool:
        self._steps -= 1
        if self._steps <= 0:
            self._guard()
        return _find(self.state.players[seat].hand, name) is not None

    def status(self, seat: int) -> Status:
        return self.state.players[seat].status

    def priority_of(self, seat: int) -> int:
        """Position in this round's priority order (1 = first)."""
        rank = self._rank or {s: i for i, s in enumerate(self.state.priority)}
        return rank[seat] + 1

    def play_of(self, seat: int) -> Play | None:
        return next((p for p in self.state.plays if p.player == seat), None)

    def counter(self, seat: int, name: str) -> int:
        self._steps -= 1
        if self._steps <= 0:
            self._guard()
        return self.state.players[seat].counters.get(name, 0)

    def name_of(self, seat: int) -> str:
        return self.state.players[seat].name

    @property
    def plays(self) -> list[Play]:
        """This round's plays in priority order."""
        return sorted(self.state.plays, key=lambda p: self.priority_of(p.player))


#: Legal-target tables ({target kind: seats} per seat) by (target kinds, statuses), shared by
#: every game: a target kind decides on seats and statuses, so those two settle the table, and
#: games keep meeting the same few line-ups (every game starts with all players in play).
#: Read-only all the way down (mapping proxies of tuples): views hand them out.
_LEGAL_TABLES: dict[tuple, tuple[Mapping, ...]] = {}


#: The counters of a player who has none (read-only, so one can be shared).
_NO_COUNTERS: Mapping = MappingProxyType({})


@cache
def _overridden(kind: type) -> frozenset[str]:
    """The handlers an Ongoing subclass overrides (only those are ever called)."""
    return frozenset(h for h in Ongoing.HANDLERS if getattr(kind, h) is not getattr(Ongoing, h))


def _seat_of(source) -> int | None:
    """The player a play or an ongoing effect belongs to (None: a rule's, or no one's)."""
    # A play has a player, an ongoing effect an owner; asking an effect for a player would
    # go through Verbs.__getattr__, whose spelling hint costs a difflib search each time.
    seat: object
    if isinstance(source, Play):
        seat = source.player
    elif isinstance(source, Ongoing):
        seat = source.owner
    else:
        seat = getattr(source, "player", getattr(source, "owner", None))
    return seat if isinstance(seat, int) and seat >= 0 else None


def _blame(caller, exc: BaseException) -> str:
    """The name of the plugin whose hook implementation raised ``exc``."""
    impls = {impl.function.__code__: impl.plugin_name for impl in caller.get_hookimpls()}
    tb = exc.__traceback__
    while tb is not None:
        name = impls.get(tb.tb_frame.f_code)
        if name is not None:
            return name
        tb = tb.tb_next
    return ", ".join(sorted(set(impls.values()))) or "unknown"
