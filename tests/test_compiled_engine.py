"""The compiled engine (hatch_compile.py) plays the very games the pure engine plays.

Where the installed engine is compiled (CI's stage 3), the same seeded games are played twice,
each in a fresh process: once by it, once by its own sources copied without the extension
modules beside them. Every set is in, normal and fast mode, random, greedy and expert bots
(the expert's rollouts run the search), and every decision and result must be the same.
Where the engine is pure Python there is nothing to set beside it, and the test is skipped.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import spoiler
from spoiler.commands import engine_build

PLAY = """
import hashlib, json
from spoiler import plugins
from spoiler.rules.game import Game, Seat
from spoiler.search.fast import FastGame
import spoiler.rules.game as engine

registry = plugins.load()
names = sorted(registry.sets)
sets, hooks = registry.card_sets(names), registry.game_hooks(names)
digest = hashlib.sha256()
for seed in range(24):
    kinds = (["expert"] if seed % 6 == 0 else []) + ["greedy", "random", "greedy", "random"]
    seats = []
    for seat, kind in enumerate(kinds[: 2 + seed % 4]):
        factory = registry.agents[kind].factory
        agent = factory(seat, seed, {"think": "8"}) if kind == "expert" else factory(seat, seed)
        seats.append(Seat(f"P{seat}", agent, kind))
    game = (FastGame if seed % 2 else Game)(sets, seats, seed, hooks=hooks)
    game.play()
    played = {"decisions": game.decisions, "result": game.result.kind, "won": game.result.winners}
    digest.update(json.dumps(played, sort_keys=True, default=str).encode())
print(json.dumps({"compiled": not engine.__file__.endswith(".py"), "digest": digest.hexdigest()}))
"""


def play(pythonpath: Path | None) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    done = subprocess.run(
        [sys.executable, "-c", PLAY], env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(engine_build() != "compiled", reason="the engine here is pure Python")
def test_the_compiled_engine_plays_the_games_the_pure_engine_plays(tmp_path):
    installed = Path(spoiler.__file__).parent
    ignored = shutil.ignore_patterns("*.so", "*.pyd", "__pycache__")
    shutil.copytree(installed, tmp_path / "spoiler", ignore=ignored)
    compiled, pure = play(None), play(tmp_path)
    assert compiled["compiled"] and not pure["compiled"]
    assert compiled["digest"] == pure["digest"]
