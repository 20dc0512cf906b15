"""The wire form: what a bot in another process receives and replies, as plain JSON.

A ``PlayerView`` holds cards with callables and target kinds with lambdas; the wire form
holds only what a player may know, as JSON values (docs/bots.md, and the JSON Schema in
``spoiler/agents/spoiler-bot-1.schema.json``):

* ``view_to_wire(view)``: the seat, its hand (card ids, names, texts, what each asks for),
  every player's public row, the priority order, the round, the table (deck size, discard
  pile, ongoing effects), the hands this seat was shown, and the events it has seen (each as
  ``Event.as_dict()``);
* ``legal_selections(view)``: every selection the rules accept now, each a valid reply as
  it stands (``{"card": id, "targets": [seats], "info": value}``);
* ``question_to_wire``, ``result_to_wire``; ``selection_from_wire`` and
  ``answer_from_wire`` read a reply back, refusing anything that is not legal.

Everything is built from the view alone, so the wire form can tell no more than the view.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

from spoiler.model.views import PlayerView, Question, Selection

#: The version of the wire form and of the ``spoiler-bot`` protocol built on it.
WIRE_VERSION = 1


class WireError(ValueError):
    """A reply that is not a legal selection or answer; the message says why, in one line."""


def card_to_wire(card) -> dict[str, Any]:
    ask = card.ask
    return {
        "id": card.id,
        "name": card.name,
        "text": card.text,
        "targets": [target.description for target in card.targets],
        "asks": None if ask is None else ask.prompt,
    }


def view_to_wire(view: PlayerView) -> dict[str, Any]:
    """A seat's view as JSON values."""
    players = sorted(view.players, key=lambda p: p.priority)
    return {
        "wire": WIRE_VERSION,
        "seat": view.seat,
        "round": view.round,
        "hand": [card_to_wire(card) for card in view.hand],
        "players": [
            {
                "seat": p.seat,
                "name": p.name,
                "status": str(p.status),
                "hand_size": p.hand_size,
                "priority": p.priority,
                "counters": dict(p.counters),
            }
            for p in view.players
        ],
        "priorities": [p.seat for p in players],
        "deck_size": view.deck_size,
        "discard": [card.id for card in view.discard],
        "ongoing": [
            {"name": name, "owner": owner, "rounds": rounds} for name, owner, rounds in view.ongoing
        ],
        "known": [
            {"seat": seat, "round": round_seen, "cards": [card.id for card in cards]}
            for seat, (round_seen, cards) in sorted(view.known.items())
        ],
        "card_names": list(view.card_names),
        "error": view.error,
        "events": [event.as_dict() for event in view.events],
    }


def legal_selections(view: PlayerView) -> list[dict[str, Any]]:
    """Every selection the rules accept from this view, in a fixed order (hand order, then
    targets, then information): each is a reply as it stands."""
    legal = []
    for card in dict.fromkeys(view.playable):  # two copies in hand: one card to play
        legal.extend(card_selections(card, view.legal_targets(card), view.card_names))
    return legal


def card_selections(card, slots: tuple, card_names: tuple[str, ...]) -> list[dict[str, Any]]:
    """Every selection of one card, given the seats its targets allow (``slots``, as
    ``PlayerView.legal_targets`` gives them): distinct targets, then each information."""
    combos = [combo for combo in itertools.product(*slots) if len(set(combo)) == len(combo)]
    infos = [None] if card.ask is None else list(card.ask.choices(card_names))
    return [
        {"card": card.id, "targets": list(targets), "info": info}
        for targets in combos
        for info in infos
    ]


def question_to_wire(question: Question) -> dict[str, Any]:
    return {"prompt": question.prompt, "options": list(question.options), "cause": question.cause}


def result_to_wire(result) -> dict[str, Any] | None:
    if result is None:
        return None
    return {"kind": result.kind, "winners": list(result.winners), "round": result.round}


def selection_from_wire(reply: object, legal: list[dict[str, Any]]) -> Selection:
    """The selection a reply names, if it is one of ``legal``."""
    if not isinstance(reply, dict):
        raise WireError(f"a selection is an object, not {_short(reply)}")
    wanted = {
        "card": reply.get("card"),
        "targets": reply.get("targets", []),
        "info": reply.get("info"),
    }
    # Compared as JSON text, so that true is not taken for 1 nor 1.0 for 1.
    if _canonical(wanted) not in {_canonical(entry) for entry in legal}:
        raise WireError(f"{_short(wanted)} is not a legal selection")
    return Selection(wanted["card"], tuple(wanted["targets"]), wanted["info"])


def answer_from_wire(reply: object, question: Question) -> str:
    """The option a reply names (``{"answer": option}``)."""
    answer = reply.get("answer") if isinstance(reply, dict) else None
    if not isinstance(answer, str) or answer not in question.options:
        raise WireError(f"{_short(reply)} does not name one of {list(question.options)}")
    return answer


def _canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True)


def _short(value: object, limit: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
