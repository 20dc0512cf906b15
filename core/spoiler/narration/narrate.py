"""Events told as plain English sentences, as one player sees them.

``narrate(event, names, cards, you=seat)`` turns one ``Event`` into a sentence. Pass the event
as the reader saw it (``event.seen_by(seat)``): a secret part the reader may not see has
already been removed, so the sentence says only what they know ("Ada drew a card." rather
than "Ada drew Guard."). The reader's own seat is told as "you".

The sentences are plain text; the CLI styles them. Event kinds that plugins add get a
generic sentence (``data["message"]`` when the event carries one).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

#: Event kinds that change nothing a player must act on; the CLI prints them quietly.
MINOR = frozenset(
    {
        "dealt",
        "drew",
        "cleared",
        "priorities_shifted",
        "selected",
        "answered",
        "reshuffled",
        "at_beginning",
        "at_end",
    }
)


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def join(words: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def label(key: str, labels: Mapping | None = None) -> str:
    """How players see a counter or a rule cause, by its id: the label its set gives it
    (``CardSet(labels=...)``), else the id without the set's namespace, its words spaced
    ("mirror:hand-mirror" -> "hand mirror")."""
    if labels and key in labels:
        return labels[key]
    return key.rpartition(":")[2].replace("-", " ").replace("_", " ")


def short_counter(name: str) -> str:
    """A counter's name without its set's namespace ("chrono:time" -> "time")."""
    return label(name)


def shared_names(cards) -> frozenset[str]:
    """The card names (lowercase) that cards of different sets share among ``cards``."""
    sets_of: dict[str, set[str]] = {}
    for card in cards:
        sets_of.setdefault(card.name.lower(), set()).add(card.set_name)
    return frozenset(name for name, sets in sets_of.items() if len(sets) > 1)


def card_label(card, shared: frozenset[str]) -> str:
    """A card's name, with its set when a card of another set has that name too."""
    return f"{card.name} ({card.set_name})" if card.name.lower() in shared else card.name


#: shared_names of the card mappings Tellers were made with, by id (with the mapping, so that
#: a new mapping at an old one's address is not mistaken for it).
_SHARED: dict[int, tuple[Mapping, frozenset[str]]] = {}


class Teller:
    """Names players and cards for one reader."""

    def __init__(
        self, names: Sequence[str], cards: Mapping, you: int | None, labels: Mapping | None = None
    ):
        self.names = names
        self.cards = cards
        self.you = you
        # A game's card mapping never changes: its shared names are worked out once (every
        # sentence makes a Teller).
        cached = _SHARED.get(id(cards))
        if cached is None or cached[0] is not cards:
            if len(_SHARED) > 64:
                _SHARED.clear()
            cached = _SHARED[id(cards)] = (cards, shared_names(cards.values()))
        self.shared = cached[1]
        self.labels = labels

    def who(self, seat) -> str:
        if seat == self.you:
            return "you"
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat]
        return "someone"

    def whose(self, seat) -> str:
        return "your" if seat == self.you else f"{self.who(seat)}'s"

    def card(self, card_id) -> str:
        card = self.cards.get(card_id)
        if card is not None:
            return card_label(card, self.shared)
        text = str(card_id)  # a rule's cause ("chrono:hourglass-rule"), or a plugin's name
        return label(text, self.labels) if ":" in text else text

    def cards_list(self, ids) -> str:
        return join([self.card(i) for i in ids]) if ids else "no cards"

    def players(self, seats) -> str:
        return join([self.who(s) for s in seats])

    def info(self, card_id, info) -> str:
        """How a play's information reads: "naming Guard", "naming 7", "choosing left"."""
        if info is None:
            return ""
        ask = getattr(self.cards.get(card_id), "ask", None)
        kind = type(ask).__name__
        if kind in ("NameACard", "NameANumber"):
            return f"naming {info}"
        if kind == "Choose":
            return f"choosing {info}"
        return f"with {info}"

    def play(self, seat, card_id, targets, info) -> str:
        """'Ada played Guard on Bix, naming Crown' (without the full stop)."""
        text = f"{self.who(seat)} played {self.card(card_id)}"
        if targets:
            text += f" on {self.players(targets)}"
        said = self.info(card_id, info)
        return f"{text}, {said}" if said else text


def _because(t: Teller, event) -> str:
    """' (Guard)': the card (or rule) that caused an event, when there is one."""
    return f" ({t.card(event.cause)})" if event.cause else ""


def _status_change(t: Teller, event, verb: str) -> str:
    seat, before, after = event.seat, event.data.get("before"), event.data.get("after")
    who = t.who(seat)
    why = _because(t, event)
    if before == after:
        state = "lost" if after == "lost" else "won"
        return f"{who} {verb}{why}, but had already {state}: nothing changes."
    if after == "in_play":
        undone = "win" if verb == "lost" else "loss"
        return f"{who} {verb}{why}, which cancels out the earlier {undone}: back in play."
    return f"{who} {verb}{why}!" if verb == "won" else f"{who} {verb}{why}."


def _prevented(t: Teller, event, what: str) -> str:
    by = event.data.get("by")
    shield = t.card(event.cause) if by == "rule" and event.cause else by or "something"
    return f"{t.who(event.seat)} would have {what}, but {shield} prevented it."


def _result(t: Teller, event) -> str:
    kind, winners = event.data.get("result"), event.data.get("winners", [])
    if kind == "win":
        # "You win!": the reader, or a player named You (at one keyboard, where no one is "you")
        one = len(winners) == 1 and t.who(winners[0]).lower() != "you"
        verb = "wins" if one else "win"
        return f"Game over: {t.players(winners)} {verb}!"
    if kind == "default":
        return f"Game over: {t.players(winners)} won by default, everyone else has lost."
    if kind == "all_lost":
        return "Game over: everyone has lost."
    if kind == "draw":
        return "Game over: the round limit was reached with no winner. It is a draw."
    return f"Game over: {kind}."


def _rounds(rounds) -> str:
    if rounds is None:
        return "until removed"
    if rounds == 1:
        return "until the end of this round"
    return f"for {rounds} rounds"


def _counter(t: Teller, event) -> str:
    d = event.data
    delta = d.get("delta", 0)
    change = f"+{delta}" if delta >= 0 else str(delta)
    why = f", {t.card(event.cause)}" if event.cause else ""
    return (
        f"{t.whose(event.seat)} {label(str(d.get('name')), t.labels)}: now {d.get('value')} "
        f"({change}{why})."
    )


def _generic(t: Teller, event) -> str:
    """Event kinds the core does not know (a plugin's own)."""
    message = event.data.get("message")
    if message is None:
        details = ", ".join(f"{k}: {v}" for k, v in event.data.items())
        message = event.kind.replace("_", " ") + (f" ({details})" if details else "")
        if event.seat is not None:
            message = f"{t.who(event.seat)}: {message}"
    source = f"{t.card(event.cause)}: " if event.cause else ""
    return f"{source}{message}"


def _answered(t: Teller, event) -> str:
    """'Bix answered Standoff's question (name a number from 1 to 3): 2.'"""
    prompt = str(event.data.get("prompt", "")).strip()
    card = t.card(event.cause) if event.cause else ""
    if card and prompt.lower().startswith(card.lower() + ":"):
        prompt = prompt[len(card) + 1 :].strip()  # "Standoff: name a number" asked by Standoff
    asked = f"{card}'s question" if card else "a question"
    text = f"{t.who(event.seat)} answered {asked} ({prompt.rstrip('?.')})"
    return f"{text}: {_s(event, 'answer')}." if event.secret else f"{text}."


def _swapped(t: Teller, event) -> str:
    """'You and Bix swapped hands (Swap): you now hold Crown and Jewel.'"""
    a, b = event.seat, event.data.get("other")
    text = f"{t.who(a)} and {t.who(b)} swapped hands{_because(t, event)}"
    if not event.secret:
        return text + "."
    got = {a: _s(event, "cards", []), b: _s(event, "other_cards", [])}
    if t.you in got:
        return f"{text}: you now hold {t.cards_list(got[t.you])}."
    return f"{text}: {t.who(a)} now holds {t.cards_list(got[a])}; {t.who(b)} now holds " + (
        f"{t.cards_list(got[b])}."
    )


def _s(event, key, default=None):
    """A secret field, when the reader may see it (``seen_by`` removed it otherwise)."""
    return (event.secret or {}).get(key, default)


_SENTENCES: dict[str, Callable] = {
    "game_started": lambda t, e: (
        f"A game of Spoiler begins: {join(e.data.get('players', []))}, "
        f"playing with {join(e.data.get('sets', []))}."
    ),
    "priorities": lambda t, e: (
        "Priorities: "
        + ", ".join(f"{ordinal(i + 1)} {t.who(s)}" for i, s in enumerate(e.data.get("order", [])))
        + "."
    ),
    "dealt": lambda t, e: (
        f"{t.who(e.seat)} got {t.cards_list(_s(e, 'cards'))}."
        if e.secret
        else f"{t.who(e.seat)} got a hand of cards."
    ),
    "round_started": lambda t, e: (
        f"Round {e.round}. Priority order: {', '.join(t.who(s) for s in e.data.get('order', []))}."
    ),
    "cannot_select": lambda t, e: (
        f"{t.who(e.seat)} cannot play this round: no card in hand has a legal target."
    ),
    "selected": lambda t, e: (
        t.play(e.seat, _s(e, "card"), _s(e, "targets"), _s(e, "info")).replace(
            " played ", " selected ", 1
        )
        + "."
        if e.secret
        else f"{t.who(e.seat)} selected a card."
    ),
    "at_beginning": lambda t, e: (
        f"At Beginning of Round: {t.whose(e.seat)} {t.card(e.data.get('card'))}."
    ),
    "at_end": lambda t, e: f"At End of Round: {t.whose(e.seat)} {t.card(e.data.get('card'))}.",
    "played": lambda t, e: (
        t.play(e.seat, e.data.get("card"), e.data.get("targets"), e.data.get("info", _s(e, "info")))
        + "."
    ),
    "revealed": lambda t, e: (
        f"Revealed: {t.whose(e.seat)} {t.card(e.data.get('card'))}, "
        f"{t.info(e.data.get('card'), e.data.get('info')) or 'with nothing'}."
    ),
    "fizzled": lambda t, e: (
        f"{t.whose(e.seat)} {t.card(e.data.get('card') or e.cause)} "
        f"fizzled: its effect failed ({e.data.get('error')}) and does "
        f"nothing."
    ),
    "cleared": lambda t, e: f"To the discard pile: {t.cards_list(e.data.get('cards'))}.",
    "game_over": _result,
    "target_failed": lambda t, e: (
        f"{', '.join(t.card(c) for c in e.data.get('cards', ())) or 'A card'} cannot be "
        f"played this round: its target ({e.data.get('target')}, of set "
        f"{', '.join(e.data.get('sets', ()))}) failed ({e.data.get('error')})."
    ),
    "rule_failed": lambda t, e: (
        f"A rule of plugin {e.data.get('plugin')} failed in "
        f"{e.data.get('hook')} ({e.data.get('error')}); the game "
        f"goes on without it."
    ),
    "loss_prevented": lambda t, e: _prevented(t, e, "lost"),
    "win_prevented": lambda t, e: _prevented(t, e, "won"),
    "lost": lambda t, e: _status_change(t, e, "lost"),
    "won": lambda t, e: _status_change(t, e, "won"),
    "no_card": lambda t, e: (
        f"{t.who(e.seat)} could not draw: the deck and the discard pile are empty."
    ),
    "reshuffled": lambda t, e: (
        f"The deck ran out: the discard pile ({e.data.get('cards')} "
        f"cards) was shuffled into a new deck."
    ),
    "drew": lambda t, e: (
        f"{t.who(e.seat)} drew {t.card(_s(e, 'card'))}{_because(t, e)}."
        if e.secret
        else f"{t.who(e.seat)} drew a card{_because(t, e)}."
    ),
    "discarded": lambda t, e: (
        f"{t.who(e.seat)} discarded {t.card(e.data.get('card'))}{_because(t, e)}."
    ),
    "took_from_discard": lambda t, e: (
        f"{t.who(e.seat)} took {t.card(e.data.get('card'))} from the discard pile{_because(t, e)}."
    ),
    "gave": lambda t, e: (
        f"{t.who(e.seat)} gave {t.card(_s(e, 'card'))} to "
        f"{t.who(e.data.get('to'))}{_because(t, e)}."
        if e.secret
        else f"{t.who(e.seat)} gave a card to {t.who(e.data.get('to'))}{_because(t, e)}."
    ),
    "swapped_hands": lambda t, e: _swapped(t, e),
    "cancelled": lambda t, e: (
        f"{t.whose(e.seat)} {t.card(e.data.get('card'))} was "
        f"cancelled{_because(t, e)}: it does nothing."
    ),
    "redirected": lambda t, e: (
        f"{t.whose(e.seat)} {t.card(e.data.get('card'))} now targets "
        f"{t.players(e.data.get('targets', [])) or 'no one'}"
        f"{_because(t, e)}."
    ),
    "replaced": lambda t, e: (
        f"{t.whose(e.seat)} {t.card(e.data.get('card'))} resolves as "
        f"{t.card(e.data.get('instead'))} instead{_because(t, e)}."
    ),
    "copied": lambda t, e: (
        f"{t.who(e.seat)} copied {t.card(e.data.get('card'))}"
        + (f" on {t.players(e.data['targets'])}" if e.data.get("targets") else "")
        + f"{_because(t, e)}."
    ),
    "priority_changed": lambda t, e: (
        f"{t.who(e.seat)} moved to {ordinal(e.data.get('position', 0))} priority "
        f"{'for this round' if e.data.get('this_round') else 'from now on'}{_because(t, e)}."
    ),
    "shown": lambda t, e: (
        f"{t.whose(e.seat)} hand was shown to {t.who(e.data.get('to'))}{_because(t, e)}: "
        f"{t.cards_list(_s(e, 'cards'))}."
        if e.secret
        else f"{t.whose(e.seat)} hand was shown to {t.who(e.data.get('to'))}{_because(t, e)}."
    ),
    "ongoing_added": lambda t, e: (
        f"{t.whose(e.seat)} {e.data.get('name')}"
        + (f" on {t.players(e.data['targets'])}" if e.data.get("targets") else "")
        + f" is in effect {_rounds(e.data.get('rounds'))}"
        + (f": {e.data['text']}" if e.data.get("text") else ".")
    ),
    "ongoing_ended": lambda t, e: f"{t.whose(e.seat)} {e.data.get('name')} has ended.",
    "answered": lambda t, e: _answered(t, e),
    "counter": _counter,
    "note": _generic,
    "priorities_shifted": lambda t, e: (
        "Priorities shift; next round: "
        + ", ".join(t.who(s) for s in e.data.get("order", []))
        + "."
    ),
}

KINDS = frozenset(_SENTENCES)


def narrate(
    event,
    names: Sequence[str],
    cards: Mapping,
    you: int | None = None,
    labels: Mapping | None = None,
) -> str:
    """One event as a sentence. ``names``: player names by seat; ``cards``: card id -> Card
    (for card names and what they ask); ``you``: the reader's seat, told as "you";
    ``labels``: display names of counters and rule causes (``Game.labels``)."""
    teller = Teller(names, cards, you, labels)
    sentence = _SENTENCES.get(event.kind, _generic)(teller, event)
    # Only "you" needs a capital: player names are told as their players typed them.
    return "Y" + sentence[1:] if sentence.startswith(("you ", "your ")) else sentence
