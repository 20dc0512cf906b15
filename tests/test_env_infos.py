"""spoiler.env's infos are made when read (``spoiler.env.Info``): whenever they are read, and
however they are read, they hold what they would have held made at once."""

from __future__ import annotations

import copy
import json
import pickle

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from spoiler.agents.wire import legal_selections, view_to_wire  # noqa: E402
from spoiler.env import Info, raw_env  # noqa: E402


def test_an_info_is_a_dict_whose_later_entries_are_made_once_when_read():
    made = []

    def make():
        made.append(1)
        return {"seat": 0}

    reads = {
        "index": lambda info: info["view"],
        "get": lambda info: info.get("view"),
        "dict": dict,
        "unpack": lambda info: {**info},
        "items": lambda info: list(info.items()),
        "values": lambda info: list(info.values()),
        "json": json.dumps,
        "copy": copy.copy,
        "deepcopy": copy.deepcopy,
        "pickle": lambda info: pickle.loads(pickle.dumps(info)),
        "eq": lambda info: info == {"kind": "select", "view": {"seat": 0}} or None,
        "repr": repr,
    }
    for name, read in reads.items():
        made.clear()
        info = Info({"kind": "select", "view": None}, {"view": make})
        assert isinstance(info, dict) and list(info.keys()) == ["kind", "view"] and not made
        assert read(info) is not None, name
        assert made == [1], name
        assert info == {"kind": "select", "view": {"seat": 0}}, name
        assert made == [1], name


def test_infos_read_late_hold_what_they_held_at_their_step():
    """Kept infos read after later steps, and after the next game began, are those of
    their own step."""
    game = raw_env(players=4)
    rng = np.random.default_rng(7)
    kept = []
    for seed in (2, 3):
        game.reset(seed=seed)
        for _agent in game.agent_iter():
            observation, _r, termination, truncation, info = game.last()
            if termination or truncation:
                game.step(None)
                continue
            pending = game._decision.pending  # nothing of the info read yet
            view = pending.view
            legal = legal_selections(view) if pending.question is None else None
            kept.append((info, view_to_wire(view), legal))
            allowed = np.flatnonzero(observation["action_mask"])
            game.step(allowed[rng.integers(len(allowed))])
    assert len(kept) > 50
    for info, wire, legal in reversed(kept):  # the latest first: the memory is ahead of each
        assert info["view"] == wire
        assert info["legal"] == legal


def test_the_legal_actions_are_those_of_the_legal_selections_in_their_order():
    """``Encoding.legal_actions`` (worked out once per card, targets and seat) agrees with
    the legal selections made afresh at every step, and each action plays its selection."""
    game = raw_env(players=4)
    enc = game.encoding
    rng = np.random.default_rng(11)
    checked = 0
    for seed in range(4):
        game.reset(seed=seed)
        for _agent in game.agent_iter():
            observation, _r, termination, truncation, _info = game.last()
            if termination or truncation:
                game.step(None)
                continue
            pending = game._decision.pending
            if pending.question is None:
                legal = legal_selections(pending.view)
                actions = enc.legal_actions(pending.view)
                assert actions == list(enc.selection_actions(pending.seat, legal))
                for action, entry in zip(actions, legal, strict=True):
                    selection = enc.selection(pending.seat, action)
                    assert (selection.card.id, list(selection.targets), selection.info) == (
                        entry["card"],
                        entry["targets"],
                        entry["info"],
                    )
                checked += 1
            allowed = np.flatnonzero(observation["action_mask"])
            game.step(allowed[rng.integers(len(allowed))])
    assert checked > 100
