#!/usr/bin/env python3
"""A Spoiler bot in plain Python, speaking spoiler-bot/1 (docs/bots.md) on stdin/stdout.

    spoiler play --bot "exec:python3 examples/bots/legal_bot.py"

It needs nothing but Python: it reads one JSON object per line and answers each with one
line. Of the legal selections it prefers those aimed at the player first in priority, and
it answers a card's question with its first option.
"""

import json
import random
import sys


def choose(message, rng):
    legal = message["legal"]
    view = message["view"]
    first = view["priorities"][0]
    aimed = [s for s in legal if first in s["targets"] and first != view["seat"]]
    return rng.choice(aimed or legal)


def main():
    rng = random.Random(0)
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            rng.seed(message["seat"])
            reply = {"name": "legal-bot.py"}
        elif kind == "select":
            reply = choose(message, rng)
        elif kind == "answer":
            reply = {"answer": message["question"]["options"][0]}
        else:  # game_over: nothing to say; stdin closes next
            continue
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
