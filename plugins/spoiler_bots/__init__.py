"""The bots shipped with Spoiler: ``random`` and ``greedy``, provided through the agents hook.

Both see only their player's ``PlayerView`` and draw randomness from their own seeded stream
(``spoiler.agents.bot_rng``), so a game of bots replays exactly from its seed.
"""

from spoiler import hookimpl
from spoiler.agents import RandomAgent

from spoiler_bots.greedy import GreedyAgent

__all__ = ["GreedyAgent", "spoiler_register_agents"]


def random_bot(seat: int, seed: int) -> RandomAgent:
    return RandomAgent(seed, seat)


def greedy_bot(seat: int, seed: int) -> GreedyAgent:
    return GreedyAgent(seed, seat)


@hookimpl
def spoiler_register_agents(register):
    register("random", random_bot, "Plays a uniformly random legal card, targets and answers.")
    register("greedy", greedy_bot,
             "Takes a win when it has one, shields itself when threatened, aims at the player "
             "closest to winning, and uses Spoiler only when it can still catch a card.")
