"""A player as a script that reads its screen and answers what it asks, for the hosted
games of tests/test_host.py and benchmarks/host.py."""

from __future__ import annotations

import re

#: The question a hosted table asks everyone at a game's end.
AGAIN = re.compile(r"Play again at this table.*\? \[y/n\] ")
#: The prompts a screen asks, as (kind, pattern) in the order they are tried.
PROMPTS = [
    ("again", AGAIN),
    ("card", re.compile(r"Play which card\? \[1-(\d+)\] ")),
    ("target", re.compile(r"Target\? \[([\d, ]+)\] ")),
    ("range", re.compile(r"\? \[(\d+)-(\d+)\] ")),
    ("listed", re.compile(r"\? \[(\d+)(?:, \d+)+\] ")),
]


def answer_for(since: str, tries: int) -> tuple[str | None, int]:
    """What a player who reads the screen types: a card by its number (the next one when
    the last could not be played), the first target or option offered, the lowest number."""
    for kind, pattern in PROMPTS:
        found = pattern.search(since)
        if found is None:
            continue
        if kind == "again":  # a scripted player plays one game
            return "n", tries
        if kind == "card":
            tries = tries + 1 if "cannot be played now" in since else 1
            return str(tries), tries
        if kind == "target":
            return found.group(1).split(",")[0].strip(), tries
        return found.group(1), tries
    return None, tries
