"""The wire form (spoiler.agents.wire): what a bot program is sent, as JSON values, and how
its replies are read back. Checked against the JSON Schema shipped beside it, and against
the engine's own rules on many random games."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from spoiler import plugins
from spoiler.agents import RandomAgent
from spoiler.agents.wire import (
    WireError,
    answer_from_wire,
    card_to_wire,
    legal_selections,
    selection_from_wire,
    view_to_wire,
)
from spoiler.engine import Game, Seat
from spoiler.views import Question

SCHEMA = json.loads(
    resources.files("spoiler.agents").joinpath("spoiler-bot-1.schema.json").read_text()
)


@pytest.fixture(scope="module")
def registry():
    return plugins.load(environ={"SPOILER_PLUGINS": ""})


class Watcher(RandomAgent):
    """A random agent that hands each view it is given to ``seen`` (and ``check``)."""

    def __init__(self, seed, seat, seen, check):
        super().__init__(seed, seat)
        self.seen, self.check, self.game = seen, check, None

    def select(self, view):
        self.seen.append((self.game, view))
        if self.check is not None:
            self.check(self.game, view)
        return super().select(view)


def every_view(registry, games: int = 20, check=None):
    """(game, view) for each view a random agent is given in seeded games with every
    built-in set; ``check(game, view)`` runs on each while the game waits for the answer."""
    seen: list = []
    sets = registry.card_sets(None)
    for seed in range(games):
        watchers = [Watcher(seed, i, seen, check) for i in range(4)]
        seats = [Seat(f"P{i}", watcher) for i, watcher in enumerate(watchers)]
        game = Game(sets, seats, seed, hooks=registry.game_hooks([s.name for s in sets]))
        for watcher in watchers:
            watcher.game = game
        game.play()
        yield from seen
        seen.clear()


def test_the_schema_names_every_field_the_wire_form_has(registry):
    _, view = next(every_view(registry, 1))
    wire = view_to_wire(view)
    defs = SCHEMA["$defs"]
    assert sorted(defs["view"]["required"]) == sorted(wire)
    assert sorted(defs["card"]["required"]) == sorted(card_to_wire(view.hand[0]))
    assert sorted(defs["player"]["required"]) == sorted(wire["players"][0])
    assert sorted(defs["selection"]["required"]) == sorted(legal_selections(view)[0])
    json.dumps(wire)  # plain JSON values all the way down


def test_every_legal_selection_is_one_the_rules_accept_and_none_is_missing(registry):
    """Each entry of legal is a valid reply as it stands; every selection the rules accept
    (here: what a random agent picks) is among them."""
    checked = 0

    def check(game, view):
        nonlocal checked
        legal = legal_selections(view)
        assert len({json.dumps(s, sort_keys=True) for s in legal}) == len(legal)
        for entry in legal:
            game.check_selection(view.seat, selection_from_wire(entry, legal))  # no IllegalChoice
        pick = RandomAgent(view.round, view.seat).select(view)
        assert {"card": pick.card.id, "targets": list(pick.targets), "info": pick.info} in legal
        checked += 1

    for _ in every_view(registry, check=check):
        pass
    assert checked > 100


def test_a_reply_that_is_not_legal_is_refused_in_one_line(registry):
    _, view = next(every_view(registry, 1))
    legal = legal_selections(view)
    assert selection_from_wire(legal[0], legal).card == legal[0]["card"]
    for bad in ("Accuse", {"card": "nope"}, {**legal[0], "targets": [99]}, [legal[0]]):
        with pytest.raises(WireError) as refused:
            selection_from_wire(bad, legal)
        assert "\n" not in str(refused.value)


def test_true_is_not_taken_for_the_number_one():
    legal = [{"card": "base:standoff", "targets": [1], "info": 1}]
    with pytest.raises(WireError):
        selection_from_wire({"card": "base:standoff", "targets": [1], "info": True}, legal)


def test_an_answer_must_name_one_of_the_options():
    question = Question("Discard which card?", ("Jewel", "Crown"), "base:purge")
    assert answer_from_wire({"answer": "Crown"}, question) == "Crown"
    for bad in ({"answer": "crown "}, {"answer": 1}, "Crown", None):
        with pytest.raises(WireError):
            answer_from_wire(bad, question)
