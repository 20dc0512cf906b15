"""Checking that a screen keeps a game's secrets: for tests of anything that shows a game to
a player (the local screen, a hot seat, a hosted game's screens).

``leaks(text, game, seat)`` lists the facts hidden from ``seat`` that appear in ``text``, the
screen text that seat was shown (plain text, as a recording rich ``Console`` exports it);
``assert_keeps_secrets`` raises ``AssertionError`` naming them. ``seat=None`` is a screen every
player may see (a shared screen between turns, a spectator of a game with humans).

The hidden facts, as the game went (a screen's text was produced at some moment of it, and is
checked against what was hidden then, not only now):

* every secret event of the log that ``seat`` may not see (another player's hand as dealt,
  drawn, given or shown; a selection before it resolves; an answer given in private; a card's
  secret information before it resolves), told in full the way the screen would tell it
  (``Bix drew Jewel.``, ``Ada selected Accuse on you, naming Jewel.``);
* every hand of three or more cards another player held while ``seat`` did not know it (worked
  out from the log: dealt, drawn, selected, discarded, given, swapped, taken from the discard
  pile), listed as the players table lists hands (``Jewel, Crown, Shield``), and the hands they
  hold now; a hand ``seat`` was shown, or held itself, in that very order, is not counted;
* the deck's order: its next four cards named in order;
* the game's seed, while the game runs (only a seed of six digits or more is looked for:
  a small number on a screen is no sign of anything).

``Hidden(game)`` works the facts out as the log grows, for a caller that checks a game's
screens round by round (``spoiler sets validate``: ``Watch``).

Text is compared with all runs of white space made one space, so that a sentence wrapped
over several lines is still found.
"""

from __future__ import annotations

import re
from collections import Counter

from spoiler.narration.narrate import narrate


def _flat(text: str) -> str:
    return " ".join(text.split())


def hidden_facts(game, seat: int | None) -> list[tuple[str, object]]:
    """(what, how a screen would show it) for every fact hidden from ``seat`` (see the module
    docstring): a text, a list of card names (in that order, however joined) or a regular
    expression."""
    return Hidden(game).facts(seat)


class Hidden:
    """What each seat did not know as a game went, worked out from its log (every secret in
    it) as the log grows: ``facts(seat)`` reads the events since the last call first.

    The hands are worked back from the hands of now, undoing each event's move (a test's
    table may set hands by hand after the deal: now is the one state sure to be true), and
    then read forward to see who knew which. A hand is compared as the cards in it, in any
    order (undoing a selection cannot tell where in the hand the card was)."""

    def __init__(self, game):
        self.game = game
        self.names = [p.name for p in game.state.players]
        readers = [*range(len(self.names)), None]
        self._done = 0
        #: For each reader (None: a spectator): the hands of others it did not know (owner,
        #: the card names sorted), and the hands it held or was shown (those it may see).
        self._unknown: dict[int | None, set[tuple[int, tuple[str, ...]]]] = {
            s: set() for s in readers
        }
        self._seen: dict[int | None, set[tuple[str, ...]]] = {s: set() for s in readers}
        self._secrets: dict[int | None, list[tuple[str, str]]] = {s: [] for s in readers}
        #: For each reader, the sentences of secrets it was told (another secret told in the
        #: same words, Standoff's "answered 3" of another round, is no leak).
        self._told: dict[int | None, set[str]] = {s: set() for s in readers}
        #: The log's secret events, and how many of them each reader's sentences cover (they
        #: are told for a reader when its facts are first asked for).
        self._secret_events: list = []
        self._narrated: dict[int | None, int] = {s: 0 for s in readers}

    def update(self) -> None:
        st = self.game.state
        new = st.log[self._done :]
        self._done = len(st.log)
        hands = {p.seat: [c.id for c in p.hand] for p in st.players}
        after: list[dict | None] = []  # the hands just after each new event (moves only)
        for event in reversed(new):
            after.append({s: list(h) for s, h in hands.items()} if event.kind in _TOLD else None)
            _undo(event, hands)
        after.reverse()
        for event, hands_after in zip(new, after, strict=True):
            if hands_after is not None:
                self._note_hands(event, hands_after)
            if event.secret is not None:
                self._secret_events.append(event)

    def _note_hands(self, event, hands: dict[int, list[str]]) -> None:
        """Who knows which hand after this event: its owner, a viewer it was shown to, the
        two players of a swap (each knew the hand it gave)."""
        knows: dict[int | None, int] = {}  # reader -> the owner whose hand it now knows
        if event.kind == "shown":
            knows[event.data.get("to")] = event.seat
        elif event.kind == "swapped_hands":
            knows = {event.seat: event.data.get("other"), event.data.get("other"): event.seat}
        for owner, hand in hands.items():
            key = self._key(hand)
            for s in self._unknown:
                if s == owner or knows.get(s) == owner:
                    self._seen[s].add(key)
                elif len(key) >= 3:
                    self._unknown[s].add((owner, key))

    def _key(self, hand) -> tuple[str, ...]:
        by_id = self.game.cards_by_id
        return tuple(sorted(by_id[c].name if c in by_id else str(c) for c in hand))

    def _tell_secrets(self, seat: int | None) -> None:
        cards, told, hidden = self.game.cards_by_id, self._told[seat], self._secrets[seat]
        for event in self._secret_events[self._narrated[seat] :]:
            if seat in event.secret_to:
                told.add(_flat(narrate(event.seen_by(seat), self.names, cards, seat)))
            else:
                sentence = _flat(narrate(event, self.names, cards, seat))
                hidden.append(
                    (f"the secret of a {event.kind!r} event of round {event.round}", sentence)
                )
        self._narrated[seat] = len(self._secret_events)

    def facts(self, seat: int | None) -> list[tuple[str, object]]:
        self.update()
        self._tell_secrets(seat)
        game, st = self.game, self.game.state
        told = self._told[seat]
        facts: list[tuple[str, object]] = (
            [(what, sentence) for what, sentence in self._secrets[seat] if sentence not in told]
            if told  # (a spectator is told no secret)
            else list(self._secrets[seat])
        )
        seen = self._seen[seat]
        hands = {(owner, key) for owner, key in self._unknown[seat] if key not in seen}
        for player in st.players:  # now (a hand set by hand has no event of its own)
            if player.seat == seat or len(player.hand) < 3:
                continue
            if seat is not None and st.players[seat].known.get(player.seat, (None, ()))[1] == tuple(
                player.hand
            ):
                continue  # shown to this seat, and unchanged since
            key = self._key(c.id for c in player.hand)
            if key not in seen:
                hands.add((player.seat, key))
        for owner, key in sorted(hands):
            facts.append((f"{self.names[owner]}'s hand", _Hand(key, seen)))
        if len(st.deck) >= 4:
            top = [card.name for card in reversed(st.deck[-4:])]
            facts.append(("the deck's order", top))
        if not game.over and game.seed is not None and len(str(abs(game.seed))) >= 6:
            facts.append(("the seed", re.compile(rf"(?<!\d){game.seed}(?!\d)")))
        return facts


class _Hand(tuple):
    """A hand's card names as a hidden fact: shown by a list of exactly these names, in any
    order, however joined, unless the reader held (or was shown) them all in one hand: a
    list of its own cards says nothing about another hand that happened to hold the same."""

    known: set[tuple[str, ...]]

    def __new__(cls, names: tuple[str, ...], known: set[tuple[str, ...]]):
        hand = super().__new__(cls, names)
        hand.known = known
        return hand

    def told_by(self, names: list[str]) -> bool:
        """Do these names, listed on a screen, tell this hand (and not one the reader knew)?"""
        wanted = Counter(names)
        return not any(not wanted - Counter(hand) for hand in self.known)


def _undo(event, hands: dict[int, list[str]]) -> None:
    """Put the hands back as they were before this event."""
    kind, seat, data, secret = event.kind, event.seat, event.data, event.secret or {}

    def take(who, card) -> None:
        hand = hands.get(who)
        if hand is not None and card in hand:
            del hand[len(hand) - 1 - hand[::-1].index(card)]  # the latest copy

    if kind == "dealt":
        hands[seat] = []
    elif kind == "drew" and "card" in secret:
        take(seat, secret["card"])
    elif kind == "took_from_discard":
        take(seat, data.get("card"))
    elif kind == "selected" and "card" in secret:
        hands[seat].append(secret["card"])
    elif kind == "discarded":
        hands[seat].append(data.get("card"))
    elif kind == "gave" and "card" in secret:
        take(data.get("to"), secret["card"])
        hands[seat].append(secret["card"])
    elif kind == "swapped_hands":
        other = data.get("other")
        hands[seat], hands[other] = hands[other], hands[seat]


#: The events after which a hand may have changed hands or become known.
_TOLD = frozenset(
    {
        "dealt",
        "drew",
        "took_from_discard",
        "selected",
        "discarded",
        "gave",
        "swapped_hands",
        "shown",
    }
)


def leaks(text: str, game, seat: int | None) -> list[str]:
    """The facts hidden from ``seat`` that ``text`` shows, each as "what: the text found"."""
    return found_in(text, hidden_facts(game, seat))


def found_in(text: str, facts: list[tuple[str, object]]) -> list[str]:
    """Which of these hidden facts ``text`` shows, each as "what: the text found"."""
    flat = _flat(text)
    found = []
    for what, shows in facts:
        if shows.__class__ is str:  # (most facts: checked first, and cheaply)
            if shows in flat:
                found.append(f"{what}: {_flat(shows)}")
            continue
        if isinstance(shows, re.Pattern):
            hit = shows.search(flat)
            if hit:
                found.append(f"{what}: {hit.group(0)}")
        elif isinstance(shows, _Hand):
            listed = _hand_in(shows, flat)
            if listed:
                found.append(f"{what}: {listed}")
        elif isinstance(shows, list):  # names in this order, however they are joined
            if not all(name in flat for name in shows):  # (the usual case, and cheap)
                continue
            pattern = r"\W+(?:and\W+)?".join(re.escape(name) for name in shows)
            hit = re.search(pattern, flat)
            if hit:
                found.append(f"{what}: {hit.group(0)}")
        elif _flat(str(shows)) in flat:
            found.append(f"{what}: {_flat(str(shows))}")
    return found


def _hand_in(hand: tuple[str, ...], flat: str) -> str | None:
    """A list in ``flat`` of exactly these card names, in any order ("Gem, Wait and Gem")."""
    if not all(name in flat for name in hand):  # (the usual case, and cheap)
        return None
    names = "|".join(re.escape(n) for n in sorted(set(hand), key=len, reverse=True))
    wanted = sorted(hand)
    # Joined as lists are: "A, B and C", "A, B, and C", "A and B" (not "A): B", a card named
    # next to a hand shown).
    join = r"(?:\s*,\s*(?:and\s+)?|\s+and\s+)"
    for run in re.finditer(rf"(?:{names})(?:{join}(?:{names}))*", flat):
        found = [m.group(0) for m in re.finditer(names, run.group(0))]
        for i in range(len(found) - len(hand) + 1):
            window = found[i : i + len(hand)]
            if sorted(window) == wanted and (not isinstance(hand, _Hand) or hand.told_by(window)):
                return ", ".join(window)
    return None


def assert_keeps_secrets(text: str, game, seat: int | None) -> None:
    """Raise AssertionError naming every fact hidden from ``seat`` that ``text`` shows."""
    found = leaks(text, game, seat)
    who = "a shared screen" if seat is None else f"{game.state.players[seat].name}'s screen"
    assert not found, f"{who} shows what it may not know: " + "; ".join(found)


# -- for `spoiler sets validate` ----------------------------------------------------------------
#: The events whose public part carries text a plugin wrote (a note, a question's prompt, an
#: effect's name, a counter's name, an error message): where a card or a hook could tell the
#: screens what they hide. The engine's own sentences keep the secrets
#: (tests/test_hidden_information.py).
PLUGIN_TEXT = frozenset(
    {
        "note",
        "answered",
        "ongoing_added",
        "ongoing_ended",
        "counter",
        "fizzled",
        "rule_failed",
        "target_failed",
    }
)


class Watch:
    """Every seat's screen text of one game, as far as cards and hooks write it, checked round
    by round against what was hidden as the game went: the public text of ``PLUGIN_TEXT``
    events (on every screen, so checked against what is hidden from a spectator, who knows
    no hand and no secret), and each question put to a seat, prompt and options (against
    what is hidden from that seat).

    ``agent(seat, agent)`` wraps a seat's agent to see its questions; ``follow(game)`` before
    the game starts; ``round_leaks()`` after each round: (the cause of the text: a card's id, a
    rule's, an ongoing effect's name; the seat shown it, None for every screen; what it
    showed), one per leak."""

    def __init__(self):
        self.game = None
        self._hidden: Hidden | None = None
        self._told = 0
        self._asked: list[tuple[int | None, str | None, str]] = []

    def agent(self, seat: int, agent):
        return _Asked(agent, seat, self._asked)

    def follow(self, game) -> None:
        self.game, self._hidden, self._told = game, Hidden(game), 0

    def round_leaks(self) -> list[tuple[str | None, int | None, str]]:
        game, hidden = self.game, self._hidden
        assert game is not None and hidden is not None  # follow() first
        log = game.state.log
        texts = list(self._asked)
        self._asked.clear()
        for event in log[self._told :]:
            if event.kind in PLUGIN_TEXT:
                written = [str(v) for v in event.data.values() if isinstance(v, str)]
                if written:
                    texts.append((None, event.cause, " / ".join(written)))
        self._told = len(log)
        out = []
        facts: dict[int | None, list] = {}
        for seat, cause, text in texts:
            if seat not in facts:
                facts[seat] = hidden.facts(seat)
            for found in found_in(text, facts[seat]):
                out.append((cause, seat, found))
        return out


class _Asked:
    """An agent whose questions are noted (seat, cause, prompt and options) for ``Watch``."""

    __test__ = False

    def __init__(self, agent, seat: int, asked: list):
        self._agent, self._seat, self._asked = agent, seat, asked
        for name in ("builtin", "searches", "reads_events"):
            if hasattr(agent, name):
                setattr(self, name, getattr(agent, name))

    def select(self, view):
        return self._agent.select(view)

    def answer(self, view, question):
        text = f"{question.prompt}: {', '.join(question.options)}"
        self._asked.append((self._seat, question.cause, text))
        return self._agent.answer(view, question)
