"""The bots shipped with Spoiler: ``random``, ``greedy`` and ``expert``, provided through the
agents hook.

Both see only their player's ``PlayerView`` and draw randomness from their own seeded stream
(``spoiler.agents.bot_rng``), so a game of bots replays exactly from its seed.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from spoiler import hookimpl

if TYPE_CHECKING:
    from spoiler.agents import RandomAgent
    from spoiler_game.bots.expert import ExpertAgent
    from spoiler_game.bots.greedy import GreedyAgent

__all__ = ["ExpertAgent", "GreedyAgent", "spoiler_register_agents"]


# The bots' code (and the engine it needs) loads only when a game seats a bot, so that
# `spoiler sets list` and `spoiler plugins` stay quick.
def __getattr__(name: str):
    if name == "GreedyAgent":
        from spoiler_game.bots.greedy import GreedyAgent

        return GreedyAgent
    if name == "ExpertAgent":
        from spoiler_game.bots.expert import ExpertAgent

        return ExpertAgent
    raise AttributeError(f"module 'spoiler_game.bots' has no attribute {name!r}")


def random_bot(seat: int, seed: int) -> RandomAgent:
    from spoiler.agents import RandomAgent

    return RandomAgent(seed, seat)


def greedy_bot(seat: int, seed: int) -> GreedyAgent:
    from spoiler_game.bots.greedy import GreedyAgent

    return GreedyAgent(seed, seat)


#: The longest thinking time the expert accepts (``think``), in ms: one minute, so that a game
#: (or a record from anywhere, resumed) plays in a sane time.
MAX_THINK_MS = 60_000


def expert_bot(seat: int, seed: int, options=None) -> ExpertAgent:
    """The expert; of its options it reads ``think``, its thinking time per decision in
    milliseconds (``--bot-option think=MS``, or ``--think MS``), and ``jobs``, the processes
    its search is shared among (``--bot-option jobs=N``: the same play, sooner)."""
    from spoiler_game.bots.expert import DEFAULT_THINK_MS, ExpertAgent

    options = options or {}
    think = options.get("think")
    return ExpertAgent(
        seed,
        seat,
        think_ms=DEFAULT_THINK_MS if think is None else think_ms(think),
        jobs=jobs(options.get("jobs", 1)),
    )


def think_ms(value) -> float:
    """A thinking time given as an option (text, or a number), in ms; OptionError if it is
    not one."""
    from spoiler.agents.options import OptionError

    try:
        ms = float(value)
    except (TypeError, ValueError):
        ms = math.nan
    if not 0 < ms <= MAX_THINK_MS:  # (NaN and infinity fail this too)
        raise OptionError(
            f"think={value} is not a thinking time (more than 0, at most {MAX_THINK_MS} ms)"
        )
    return ms


def jobs(value) -> int:
    """The processes the expert searches in, given as an option (text, or a number): a whole
    number from 1 to this machine's cores; OptionError if it is not one."""
    from spoiler.agents.options import OptionError, cores

    text = str(value).strip()
    most = cores()
    if not text.isdecimal() or int(text) < 1:
        raise OptionError(
            f"jobs={value} is not a number of processes (a whole number, 1 to {most})"
        )
    if int(text) > most:
        raise OptionError(f"jobs={value} is more than this machine's {most} cores")
    return int(text)


@hookimpl
def spoiler_register_agents(register):
    register("random", random_bot, "Plays a uniformly random legal card, targets and answers.")
    register(
        "greedy",
        greedy_bot,
        "Takes a win when it has one, shields itself when threatened, aims at the player "
        "closest to winning, and uses Spoiler only when it can still catch a card.",
    )
    register(
        "expert",
        expert_bot,
        "Searches: tries each legal play in many possible deals and plays each out, for any "
        "card set. Thinks about 200 ms a decision (--think MS); --bot-option jobs=N shares "
        "its search among N processes.",
    )
