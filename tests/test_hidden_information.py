"""Hidden information stays hidden: an agent sees only its PlayerView.

"An agent (human prompt, bot) receives a player view: its own hand, public state, what it has
been shown. It never receives the full state; hidden hands stay hidden from bots too." A spy
agent inspects every field of every view it is given, in many random games, against the
true state at that moment.
"""

from __future__ import annotations

import dataclasses
import enum
import io
import random
import types
from collections.abc import Mapping

import pytest
from rich.console import Console

from spoiler import plugins
from spoiler.agents import RandomAgent
from spoiler.cards import Card, CardSet, Target
from spoiler.cli.human import HumanAgent
from spoiler.cli.play import new_game, run_game, seat_players
from spoiler.cli.screen import Screen
from spoiler.engine import Game, Seat
from spoiler.leaks import assert_keeps_secrets
from spoiler.plugins import AgentKind
from spoiler.seeds import bot_seed, new_seed
from spoiler.state import Status
from spoiler.testing import agent, play_round, table
from spoiler.views import PlayerInfo, PlayerView


@pytest.fixture(scope="module")
def installed():
    """Every installed plugin: the base set, the bots and the expansions."""
    registry = plugins.load(environ={})
    return registry, list(registry.sets.values())


#: Every field of a PlayerView. A new field fails this test until it is checked below.
VIEW_FIELDS = {
    "seat",
    "round",
    "hand",
    "players",
    "deck_size",
    "discard",
    "ongoing",
    "known",
    "card_names",
    "playable",
    "error",
    "_public_log",
    "_secrets",
    "_upto",
    "_legal",
    "search",
}
#: The only fields that may hold cards: one's own hand (and which of it is playable), the
#: face-up discard pile, and what one has been shown.
CARD_FIELDS = {"hand", "playable", "discard", "known"}


def leaves(value):
    """Every card and every string inside a value, however nested."""
    if isinstance(value, (Card, str)):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from leaves(k)
            yield from leaves(v)
    elif isinstance(value, (tuple, list, set, frozenset)):
        for item in value:
            yield from leaves(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from leaves(getattr(value, f.name))


def ids(cards) -> list[str]:
    return [c.id for c in cards]


class Spy:
    """Plays like RandomAgent, and checks each view it is given against the true state."""

    def __init__(self, game_box: list, seed: int, seat: int):
        self.game_box = game_box
        self.seat = seat
        self.inner = RandomAgent(seed, seat)
        self.views = 0

    def select(self, view):
        self.check(view, selecting=True)
        return self.inner.select(view)

    def answer(self, view, question):
        self.check(view, selecting=False)
        return self.inner.answer(view, question)

    def check(self, view: PlayerView, selecting: bool) -> None:
        game: Game = self.game_box[0]
        st, seat = game.state, self.seat
        self.views += 1
        assert {f.name for f in dataclasses.fields(PlayerView)} == VIEW_FIELDS
        assert view.seat == seat and view.round == st.round

        # Own hand, exactly; the discard pile is face up.
        assert ids(view.hand) == ids(st.players[seat].hand)
        assert ids(view.discard) == ids(st.discard)

        # Others: public facts only.
        for info, player in zip(view.players, st.players, strict=True):
            assert type(info) is PlayerInfo
            assert isinstance(info.hand_size, int) and isinstance(info.status, Status)
            assert (info.seat, info.name) == (player.seat, player.name)
        assert isinstance(view.deck_size, int) and view.deck_size == len(st.deck)
        for name, owner, _rounds in view.ongoing:
            assert isinstance(name, str) and isinstance(owner, int)
        assert view.card_names == game.card_names
        assert view.error is None or isinstance(view.error, str)
        assert view.search is None  # only an agent that searches gets a Searcher
        for seats in view._legal.values():
            assert all(isinstance(s, int) for s in seats)

        # No card, and no card id, anywhere but in the three fields allowed to hold cards.
        card_ids = {c.id for c in game.cards}
        assert set(ids(view.playable)) <= set(ids(view.hand))
        for f in VIEW_FIELDS - CARD_FIELDS - {"_public_log", "_secrets"}:
            for leaf in leaves(getattr(view, f)):
                assert not isinstance(leaf, Card), f"view.{f} holds a card"
                assert leaf not in card_ids, f"view.{f} names card {leaf}"

        # What it knows of other hands is exactly what it was shown, and only that.
        shown = {}
        for e in st.log:
            if e.kind == "shown" and e.data["to"] == seat:
                shown[e.seat] = (e.round, list(e.secret["cards"]))
        assert {s: (r, ids(cards)) for s, (r, cards) in view.known.items()} == shown

        # Events: the whole log so far, with every secret not meant for this seat removed.
        seen = view.events
        assert len(seen) == len(st.log)
        for mine, truth in zip(seen, st.log, strict=True):
            assert truth.secret is None or not set(truth.secret) & set(truth.data), (
                f"{truth.kind} has a secret in its public part"
            )
            if truth.secret is not None and seat not in truth.secret_to:
                assert mine.secret is None and mine.data == truth.data, f"{truth.kind} leaked"
            else:
                assert mine.as_dict() == truth.as_dict()
        if selecting:
            # Selection is hidden: nobody's choice for this round is in the log yet.
            assert not any(e.kind == "selected" and e.round == st.round for e in st.log)


@pytest.mark.parametrize("players", range(2, 9))
def test_no_view_ever_shows_another_players_hand_or_selection(toy, players):
    """An agent's view holds its own hand, public facts and what it was shown: never
    another player's hand or a selection not yet revealed."""
    views = 0
    for seed in range(12):
        box: list = []
        spies = [Spy(box, seed, s) for s in range(players)]
        game = Game(
            [toy],
            [Seat(f"P{s}", spy) for s, spy in enumerate(spies)],
            seed * 31 + players,
            max_rounds=30,
        )
        box.append(game)
        game.play()
        views += sum(spy.views for spy in spies)
    assert views > 12 * players  # the spies did look


def test_a_revealed_hand_is_in_the_viewers_view_only(toy):
    """What a card reveals to a player is in that player's view, and no one else's."""
    game = table(
        [toy],
        [["Peek"], ["Crown", "Doom", "Blank"], ["Blank"]],
        deck=["Blank"] * 6,
        priority=[0, 1, 2],
    )
    events = play_round(game, {0: ("Peek", 1), 1: "Blank", 2: "Blank"})
    [shown] = [e for e in events if e.kind == "shown"]
    assert shown.secret_to == frozenset({0})
    assert sorted(shown.secret["cards"]) == ["toy:crown", "toy:doom"]

    a, b, c = (game.view(s) for s in range(3))
    assert sorted(card.name for card in a.known[1][1]) == ["Crown", "Doom"]
    assert a.known[1][0] == 1  # seen in round 1
    assert b.known == {} and c.known == {}
    for view in (b, c):
        [theirs] = [e for e in view.events if e.kind == "shown"]
        assert theirs.secret is None and theirs.data == {"to": 0}


def test_a_given_card_is_seen_by_giver_and_receiver_only(toy):
    """Only the two players a card passes between learn which card it was."""
    game = table(
        [toy],
        [["Gift"], ["Crown", "Blank", "Blank"], ["Blank"]],
        deck=["Blank"] * 6,
        priority=[0, 1, 2],
    )
    play_round(game, {0: ("Gift", 1), 1: "Blank", 2: "Blank"}, answers={1: ["Crown"]})
    for seat, sees in ((0, True), (1, True), (2, False)):
        [gave] = [e for e in game.view(seat).events if e.kind == "gave"]
        assert (gave.secret == {"card": "toy:crown"}) is sees
        assert gave.data == {"to": 0}


def test_the_question_a_card_asks_is_answered_in_private(toy):
    """An answer is seen by the player who gave it and the player whose card asked."""
    game = table(
        [toy],
        [["Gift"], ["Crown", "Blank", "Blank"], ["Blank"]],
        deck=["Blank"] * 6,
        priority=[0, 1, 2],
    )
    play_round(game, {0: ("Gift", 1), 1: "Blank", 2: "Blank"}, answers={1: ["Crown"]})
    assert [q.options for q in agent(game, 1).questions] == [("Blank", "Crown")]
    for seat, sees in ((0, True), (1, True), (2, False)):
        [answered] = [e for e in game.view(seat).events if e.kind == "answered"]
        assert (answered.secret == {"answer": "Crown"}) is sees


def test_a_spectator_sees_public_facts_only(toy):
    """The public log (``events_seen_by(None)``) holds no secret at all."""
    game = Game([toy], [Seat(f"P{s}", RandomAgent(5, s)) for s in range(4)], 5, max_rounds=20)
    game.play()
    assert all(e.secret is None for e in game.events_seen_by(None))
    assert any(e.secret is not None for e in game.state.log)


# ==============================================================================================
# The seed: secret while the game runs; bots get seeds derived one way
# ==============================================================================================
def _ints(value):
    """Every int inside an event's public or secret part."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from _ints(v)
    elif isinstance(value, (tuple, list)):
        for v in value:
            yield from _ints(v)


def test_the_seed_is_in_no_event_until_the_game_is_over(toy):
    """The seed decides every hand, so it is a secret while the game runs: `game_started`
    does not tell it, no event before the end holds it, and `game_over` tells it."""
    seed = 0x9E3779B97F4A7C15
    game = Game([toy], [Seat(f"P{s}", RandomAgent(s, s)) for s in range(3)], seed, max_rounds=20)
    game.play()
    *running, over = game.state.log
    assert over.kind == "game_over" and over.data["seed"] == seed
    assert "seed" not in running[0].data and running[0].kind == "game_started"
    for event in running:
        assert seed not in _ints(event.data) and seed not in _ints(event.secret or {})


def test_a_seed_drawn_at_random_has_64_bits():
    """A random seed cannot be searched for: 64 bits, from the system's randomness."""
    seeds = [new_seed() for _ in range(64)]
    assert all(-(2**63) <= s < 2**63 for s in seeds)  # what a record (TOML) can hold
    assert max(s.bit_length() for s in seeds) > 60
    assert any(s < 0 for s in seeds) and any(s > 0 for s in seeds)  # the 64th bit is the sign
    assert len(set(seeds)) == 64


def test_bot_factories_get_a_seed_derived_one_way_the_same_every_time():
    """A bot's factory never gets the game's seed: it gets a keyed hash of it, the seat and
    the bot kind, the same on every call (so records replay), different for every seat."""
    registry = plugins.load()
    handed = []
    registry.agents["probe"] = AgentKind(
        "probe", lambda seat, seed: handed.append((seat, seed)) or RandomAgent(seed, seat), "", "t"
    )
    game_seed = 777
    for seat in range(4):
        registry.agent("probe", seat, game_seed)
    registry.agent("probe", 0, game_seed)
    seeds = [seed for _, seed in handed]
    assert game_seed not in seeds
    assert seeds[:4] == [bot_seed(game_seed, seat, "probe") for seat in range(4)]
    assert seeds[4] == seeds[0] and len(set(seeds[:4])) == 4
    assert bot_seed(game_seed, 0, "probe") != bot_seed(game_seed, 0, "greedy")
    assert bot_seed(game_seed, 0, "probe") != bot_seed(game_seed + 1, 0, "probe")


# ==============================================================================================
# Views hand out copies or read-only things
# ==============================================================================================
def _try(action) -> bool:
    """Did ``action`` succeed? (A tampering bot shrugs off every refusal.)"""
    try:
        action()
    except (TypeError, AttributeError, ValueError):
        return False
    return True


class Tamperer(RandomAgent):
    """Plays like RandomAgent, and from round 2 on tries to rewrite its round-1 selection and
    everything else its view holds."""

    def __init__(self, seed: int, seat: int):
        super().__init__(seed, seat)
        self.changed = 0

    def select(self, view):
        if view.round >= 2:
            for event in view.events:
                if event.kind == "selected" and event.secret is not None:
                    secret, data = event.secret, event.data
                    self.changed += _try(lambda: secret.__setitem__("card", "toy:crown"))  # noqa: B023
                    self.changed += _try(lambda: data.__setitem__("card", "toy:crown"))  # noqa: B023
                    self.changed += _try(lambda: setattr(event, "secret", {"card": "toy:crown"}))  # noqa: B023
            self.changed += _try(view._public_log.clear)
            self.changed += _try(lambda: view._secrets.__setitem__(0, None))
            self.changed += _try(lambda: view.me.counters.__setitem__("stolen", 1))
            self.changed += _try(view._secrets.clear)
        return super().select(view)


def test_a_bot_that_rewrites_its_recorded_selection_changes_nothing(toy):
    """Its own `selected` event is not the record's decision, and no event can be changed:
    the game, its decisions and its log are those of a bot that kept its hands off."""
    games = []
    for kind in (RandomAgent, Tamperer):
        seats = [Seat(f"P{s}", kind(s, s)) for s in range(3)]
        game = Game([toy], seats, 2024, max_rounds=12)
        game.play()
        games.append(game)
    honest, tampered = games
    assert all(seat.agent.changed == 0 for seat in tampered.seats)
    assert tampered.decisions == honest.decisions
    assert [e.as_dict() for e in tampered.state.log] == [e.as_dict() for e in honest.state.log]


def test_the_event_lists_a_view_gives_out_are_the_callers_own(toy):
    """``events_since``, ``public_events_since`` and ``secrets_since`` hand out new lists:
    emptying them or putting another event in changes no later view."""
    game = Game([toy], [Seat(f"P{s}", RandomAgent(s, s)) for s in range(3)], 7, max_rounds=4)
    game.play()
    view = game.view(0)
    before = [e.as_dict() for e in view.events]
    for got in (view.events_since(0), view.public_events_since(0), view.secrets_since(0)):
        assert got
        got.clear()
    view.public_events_since(0).append(None)
    assert [e.as_dict() for e in game.view(0).events] == before


def test_an_events_get_reads_its_public_facts_then_the_secret_it_holds(toy):
    """``Event.get(name)`` is ``data[name]``, else ``secret[name]`` for a seat told the
    secret; the public event that everyone else sees has no secret to read."""
    game = Game([toy], [Seat(f"P{s}", RandomAgent(s, s)) for s in range(3)], 7, max_rounds=4)
    game.play()
    index, drawn = next((i, e) for i, e in enumerate(game.state.log) if e.kind == "drew")
    (drawer,) = drawn.secret_to
    assert drawn.get("card") == drawn.secret["card"] and "card" not in drawn.data
    public = game.view((drawer + 1) % 3).events[index]  # the same draw, as another seat saw it
    assert public.kind == "drew" and public.get("card") is None
    assert public.get("card", "?") == "?"
    played = next(e for e in game.state.log if e.kind == "played")
    assert played.get("card") == played.data["card"]


def test_emptying_the_legal_targets_of_a_view_breaks_no_later_game(toy):
    """The legal-target tables are shared by every game in the process, so a view hands them
    out read-only: a bot that tries to empty them cannot make a card unplayable later."""
    game = table([toy], [["Doom", "Blank"], ["Blank"], ["Blank"]], deck=["Blank"] * 6)
    view = game.view(0)
    doom = view.hand[0]
    changed = 0
    for seats in view.legal_targets(doom):
        changed += _try(lambda: seats.clear())  # noqa: B023
        changed += _try(lambda: seats.__delitem__(0))  # noqa: B023
    for kind in list(view._legal):
        changed += _try(lambda: view._legal.__setitem__(kind, ()))  # noqa: B023
    assert changed == 0
    later = table([toy], [["Doom"], ["Blank"], ["Blank"]], deck=["Blank"] * 6)
    assert later.view(0).legal_targets(later.hand(0)[0]) == ((1, 2),)
    assert [c.name for c in later.playable(0)] == ["Doom"]


def test_a_target_kind_sees_only_the_public_row_of_a_player():
    """`allows(me, candidate)` is handed the candidate's public row, never their hand."""
    seen = []
    kind = Target("a watched player", lambda me, p: seen.append(p) or p.seat != me)
    watch = CardSet("watch", "1.0.0")
    watch.add(Card("watch:eye", "Eye", "Choose a watched player.", 12, (kind,)))
    game = Game([watch], [Seat(n, RandomAgent(0, s)) for s, n in enumerate("ABC")], 5)
    game.play_round()
    assert seen and all(type(p) is PlayerInfo for p in seen)
    assert not any(hasattr(p, "hand") for p in seen)


# ==============================================================================================
# Secret information chosen with a card (Ask(secret=True)): Standoff
# ==============================================================================================
def test_standoff_the_target_names_a_number_without_seeing_yours():
    """Standoff: "They name a number from 1 to 3 without seeing yours." Until Standoff has
    resolved, the number is in no event the target (or anyone else) can see; then a public
    `revealed` event tells it."""
    from spoiler_base.cards import base

    game = table(
        [base],
        [["Standoff"], ["Supply", "Supply"], ["Supply"]],
        deck=["Supply"] * 8,
        priority=[0, 1, 2],
    )
    events = play_round(game, {0: ("Standoff", 1, 2), 1: "Supply", 2: "Supply"}, {1: ["3"]})
    [asked] = [v for v in agent(game, 1).views if v.round == 1][1:]  # the view it answered
    standoff = [e for e in asked.events if e.kind == "played" and e.seat == 0]
    assert standoff, "the target is asked while Standoff resolves"
    for event in asked.events:
        assert event.kind != "revealed"
        if event.seat == 0 and event.kind in ("played", "selected"):
            assert "info" not in event.data and event.secret is None
    [played] = [e for e in events if e.kind == "played" and e.seat == 0]
    assert "info" not in played.data and played.secret == {"info": 2}
    assert played.secret_to == frozenset({0})
    [revealed] = [e for e in events if e.kind == "revealed"]
    assert revealed.secret is None and revealed.data == {"card": "base:standoff", "info": 2}
    assert events.index(revealed) > events.index(played)


class Asked:
    """Plays like RandomAgent; when a card asks it a question while that card resolves, it
    notes whether its view already told it the information chosen with that card."""

    def __init__(self, seed: int, seat: int, told: list):
        self.inner = RandomAgent(seed, seat)
        self.seat, self.told = seat, told

    def select(self, view):
        return self.inner.select(view)

    def answer(self, view, question):
        plays = [e for e in view.events if e.round == view.round and e.kind == "played"]
        if plays and plays[-1].cause == question.cause and plays[-1].seat != self.seat:
            secret = plays[-1].secret or {}
            self.told.append(
                plays[-1].data.get("info") is not None or secret.get("info") is not None
            )
        return self.inner.answer(view, question)


def test_no_card_shows_its_information_to_a_player_it_asks_before_it_resolves(installed):
    """Checked for every installed card, base set and expansions: a player whom a card asks
    something while it resolves answers without having seen the information chosen with it
    (Standoff's number), unless that card asks for none."""
    registry, sets = installed
    told: list = []
    cards = {c.id: c for s in sets for c in s.cards}
    hooks = registry.game_hooks([s.name for s in sets])
    for seed in range(150):
        seats = [Seat(f"P{s}", Asked(seed, s, told)) for s in range(2 + seed % 4)]
        Game(sets, seats, seed, max_rounds=25, hooks=hooks).play()
    assert told, "no card asked anyone anything while resolving"
    assert not any(told)
    assert any(c.ask is not None and c.ask.secret for c in cards.values())


# ==============================================================================================
# A cheating bot learns nothing hidden
# ==============================================================================================
_OPAQUE = (
    type,
    types.ModuleType,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    types.CodeType,
    str,
    bytes,
    float,
    complex,
    bool,
    type(None),
)


def reachable(root, limit: int = 200_000) -> list:
    """Everything reachable from ``root`` through attributes and containers: what a bot can
    read in its view without digging through the interpreter (code, classes and modules are
    not followed: they hold the program, not the game)."""
    seen, found, todo = set(), [], [root]
    while todo and len(found) < limit:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, (*_OPAQUE, enum.Enum)):
            continue
        seen.add(id(obj))
        found.append(obj)
        if isinstance(obj, int):
            continue
        if isinstance(obj, Mapping):
            todo.extend(obj.keys())
            todo.extend(obj.values())
        elif isinstance(obj, (list, tuple, set, frozenset)):
            todo.extend(obj)
        for klass in type(obj).__mro__:
            for name in getattr(klass, "__slots__", ()):
                if hasattr(obj, name):
                    todo.append(getattr(obj, name))
        todo.extend(getattr(obj, "__dict__", {}).values())
    return found


def deal(cards, players: int, seed: int) -> tuple[list[int], list[list[str]], list[str]]:
    """The priorities, hands and deck the engine would deal from ``seed`` (how a bot that
    knew the seed would read every hand)."""
    rng = random.Random(seed)
    priority = list(range(players))
    rng.shuffle(priority)
    deck = [card.id for card in cards for _ in range(card.copies)]
    rng.shuffle(deck)
    hands: list[list[str]] = [[] for _ in range(players)]
    for seat in priority:
        for _ in range(3):
            hands[seat].append(deck.pop())
    return priority, hands, deck


class Cheater:
    """Reads everything its factory and its view give it (the search window too), collects
    every number it finds, and tries each as the game's seed: a seed that deals it its own
    hand and the table's priorities is the game's. It then predicts the other hands and the
    deck, cracked or not."""

    searches = True

    def __init__(self, seat: int, seed: int, cards):
        self.seat, self.seed, self.cards = seat, seed, cards
        self.inner = RandomAgent(seed, seat)
        self.cracked = False
        self.hands: list[list[str]] | None = None
        self.deck: list[str] = []
        self.objects: list = []
        self.numbers: set[int] = set()

    def select(self, view):
        if view.round == 1:
            self.objects = reachable(view)
            self.numbers = {o for o in self.objects if type(o) is int} | {self.seed}
            mine = sorted(card.id for card in view.hand)
            order = [p.seat for p in sorted(view.players, key=lambda p: p.priority)]
            n = len(view.players)
            guess = deal(self.cards, n, self.seed)
            for number in sorted(self.numbers):
                priority, hands, deck = deal(self.cards, n, number)
                if sorted(hands[self.seat]) == mine and priority == order:
                    self.cracked, guess = True, (priority, hands, deck)
                    break
            _, self.hands, self.deck = guess
        return self.inner.select(view)

    def answer(self, view, question):
        return self.inner.answer(view, question)


def test_a_bot_that_reads_everything_it_is_given_learns_nothing_hidden(installed):
    """Done when: "A bot that reads everything its view and its factory give it learns
    nothing hidden." Over 200 games the cheater never finds the seed, never reaches the game,
    its state, a hand or the game's RNG, and predicts the others' round-1 hands and the deck
    no better than chance (with the seed, it would get every one right)."""
    registry, sets = installed
    base = [s for s in sets if s.name == "base"]
    cards = [c for s in base for c in s.cards]
    registry.agents["cheater"] = AgentKind(
        "cheater", lambda seat, seed: Cheater(seat, seed, cards), "reads everything", "test"
    )
    hooks = registry.game_hooks(["base"])
    hands_right = hands_tried = tops_right = 0
    for i in range(200):
        game_seed = random.Random(i).getrandbits(64)
        players = 2 + i % 4
        seats = [Seat("Cheat", registry.agent("cheater", 0, game_seed), "cheater")]
        seats += [Seat(f"P{s}", registry.agent("greedy", s, game_seed)) for s in range(1, players)]
        game = Game(base, seats, game_seed, max_rounds=1, hooks=hooks)
        game.start()
        truth_hands = [sorted(c.id for c in game.hand(s)) for s in range(players)]
        truth_deck = [c.id for c in game.state.deck]
        forbidden = {id(game), id(game.state), id(game.state.rng), id(game.state.deck)}
        forbidden |= {id(p) for p in game.state.players} | {id(p.hand) for p in game.state.players}
        game.play_round()
        cheater = seats[0].agent
        assert not cheater.cracked, f"game {i}: the cheater found the seed"
        assert game_seed not in cheater.numbers
        assert not [o for o in cheater.objects if id(o) in forbidden], f"game {i}: game state"
        rng_state = random.Random(game_seed).getstate()
        assert not any(
            isinstance(o, random.Random) and o.getstate() == rng_state for o in cheater.objects
        )
        for seat in range(1, players):
            hands_tried += 1
            hands_right += sorted(cheater.hands[seat]) == truth_hands[seat]
        tops_right += cheater.deck[-1:] == truth_deck[-1:]
    # Chance: about 1 in 200 for a whole hand, about 1 in 16 for the top card of the deck.
    assert hands_right <= hands_tried * 0.03, (hands_right, hands_tried)
    assert tops_right <= 200 * 0.15, tops_right


# ==============================================================================================
# No screen shows what its player may not know
# ==============================================================================================
class Typist:
    """A player's keyboard: answers every prompt with a random number from 1 to 8 (a refused
    answer is asked again, as it would be of a person)."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def readline(self) -> str:
        return f"{self.rng.randint(1, 8)}\n"

    def isatty(self) -> bool:
        return False


def _screen(seed: int, reader) -> tuple[Screen, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, force_terminal=False)
    return Screen(console, reader, stdin=Typist(seed)), out


def _new_game(installed, seed: int, humans: list[str], bots: int, screen) -> Game:
    registry, _sets = installed
    seats = seat_players(registry, humans, bots, "greedy", seed, screen)
    return new_game(registry, seats, None, seed, 12)


def test_a_human_against_bots_is_never_shown_what_they_may_not_know(installed):
    """One human against bots, every installed set, many seeded games: the screen never shows
    another hand, a selection before it resolves, an answer given in private, a card's secret
    information before it resolves, the deck's order, or the seed before the game ends."""
    standoffs = 0
    for i in range(20):
        seed = random.Random(f"solo {i}").getrandbits(64)
        screen, out = _screen(seed, 0)
        game = _new_game(installed, seed, ["Ann"], 1 + i % 3, screen)
        run_game(game, screen, lambda game: assert_keeps_secrets(out.getvalue(), game, 0))  # noqa: B023
        assert_keeps_secrets(out.getvalue(), game, 0)
        assert game.over and f"Seed: {seed} " in out.getvalue()
        standoffs += out.getvalue().count("Standoff asks you")
    assert standoffs, "Ann was never asked to answer a Standoff"


#: How a screen that is not a terminal shows that it was cleared.
CLEARED = "(screen cleared) " + "~" * 20


class Watched:
    """A human at a shared keyboard, noting which stretch of the screen was theirs alone."""

    def __init__(self, human: HumanAgent, out: io.StringIO, spans: list):
        self.human, self.out, self.spans = human, out, spans

    def _turn(self, act, view, *args):
        start = len(self.out.getvalue())
        handing_over = self.human._handing_over(view)
        result = act(view, *args)
        text = self.out.getvalue()
        if handing_over:
            # Theirs from the moment the others looked away, until the screen (and its
            # scrollback) is cleared; not cleared, it is there for the next player to see.
            start = text.index("only you can see the screen.", start)
            if not text.rstrip().endswith(CLEARED):
                return result
        self.spans.append((start, len(text), view.seat))
        return result

    def select(self, view):
        return self._turn(self.human.select, view)

    def answer(self, view, question):
        return self._turn(self.human.answer, view, question)


def seen_at_a_shared_keyboard(text: str, spans: list, seat: int) -> str:
    """What ``seat`` saw of a hot seat's screen: all but the others' own stretches."""
    shown, at = [], 0
    for start, end, owner in sorted(spans):
        if start >= at:
            shown.append(text[at:start])
            at = start
        if owner == seat:
            shown.append(text[at:end])
        at = max(at, end)
    shown.append(text[at:])
    return "".join(shown)


def test_players_at_one_keyboard_are_never_shown_what_they_may_not_know(installed):
    """Three humans and a bot at one keyboard: what each player sees (the shared screen, and
    their own turns once the others look away) never shows another hand, another player's
    selection or private answer, a card's secret information before it resolves, the deck's
    order, or the seed before the game ends."""
    humans = ["Ann", "Ben", "Cy"]
    for i in range(8):
        seed = random.Random(f"hot seat {i}").getrandbits(64)
        screen, out = _screen(seed, None)
        game = _new_game(installed, seed, humans, 1, screen)
        spans: list = []
        for seat in game.seats[:3]:
            seat.agent = Watched(seat.agent, out, spans)

        def check(game, out=out, spans=spans):
            for seat in range(3):
                assert_keeps_secrets(
                    seen_at_a_shared_keyboard(out.getvalue(), spans, seat), game, seat
                )

        run_game(game, screen, check)
        check(game)
        assert spans and "look away" in out.getvalue()
