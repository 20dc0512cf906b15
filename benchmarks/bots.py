"""What the spoiler-bot/1 protocol costs: decisions per second of a bot that is a program
(``exec:python3 examples/bots/legal_bot.py``) against the very same bot run in-process.

    python benchmarks/bots.py [--games 40] [--players 4]

Both play the same seeded games, seat 0 against random bots, every built-in set. The
in-process bot calls the example's own ``choose`` on the wire form, so the difference is the
protocol alone: JSON both ways and a pipe to another process. Times are wall-clock, since
half the work happens in the bot's process.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path

from spoiler import Game, Seat, plugins
from spoiler.agents import RandomAgent
from spoiler.agents.process import ProcessBot
from spoiler.agents.wire import legal_selections, selection_from_wire, view_to_wire

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "bots" / "legal_bot.py"


def load_example():
    spec = importlib.util.spec_from_file_location("legal_bot", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class InProcess:
    """The example bot's logic, given the wire form in-process: the protocol without pipes."""

    def __init__(self, example, seat: int):
        import random

        self.example, self.rng = example, random.Random(seat)
        self.decisions = 0

    def select(self, view):
        self.decisions += 1
        legal = legal_selections(view)
        reply = self.example.choose({"view": view_to_wire(view), "legal": legal}, self.rng)
        return selection_from_wire(reply, legal)

    def answer(self, view, question):
        self.decisions += 1
        view_to_wire(view)
        return question.options[0]


class Counted(ProcessBot):
    decisions = 0

    def select(self, view):
        self.decisions += 1
        return super().select(view)

    def answer(self, view, question):
        self.decisions += 1
        return super().answer(view, question)


def run(make_bot, games: int, players: int) -> tuple[int, float]:
    registry = plugins.load(environ={"SPOILER_PLUGINS": ""})
    sets = registry.card_sets(None)
    hooks = registry.game_hooks([s.name for s in sets])
    decisions, spent = 0, 0.0
    for seed in range(games):
        bot = make_bot()
        seats = [Seat("Bot", bot, "exec")]
        seats += [Seat(f"R{i}", RandomAgent(seed, i)) for i in range(1, players)]
        game = Game(sets, seats, seed, hooks=hooks)
        start = time.perf_counter()
        game.play()
        spent += time.perf_counter() - start
        decisions += bot.decisions
        if isinstance(bot, ProcessBot):
            bot.close(game.result)
    return decisions, spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    example = load_example()
    command = f"{sys.executable} {EXAMPLE}"
    inside, inside_s = run(lambda: InProcess(example, 0), args.games, args.players)
    outside, outside_s = run(lambda: Counted(command, 0, 0), args.games, args.players)
    print(f"in-process: {inside / inside_s:,.0f} decisions/s ({inside} decisions)")
    print(f"exec:       {outside / outside_s:,.0f} decisions/s ({outside} decisions)")
    print(
        f"the protocol's cost: {outside_s / outside * 1e6:,.0f} µs a decision, "
        f"{(inside / inside_s) / (outside / outside_s):.1f}x slower"
    )


if __name__ == "__main__":
    main()
