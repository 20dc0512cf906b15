"""A plain, plugin-free Python loop with the round structure of Spoiler, for comparison.

Four random bots, six simple cards, no hooks, no events, no views: every player who has not
lost selects a card and a target (all before anything resolves), the cards resolve in
priority order, everyone still in draws, priorities shift, and the game ends when someone
has won, one player is left, or everyone has lost. This is the ceiling ``engine.py`` is
measured against.

    python benchmarks/baseline_loop.py [--seconds 3] [--json]

Timed in CPU time of this process, like ``engine.py``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

LOST, IN_PLAY, WON = 0, 1, 2
# name: copies. Strike: the target loses if they hold a Crown; Crown: you win if you hold
# another; Gift: the target gives you a card; Swap: swap hands; Peek, Blank: nothing.
CARDS = {"Strike": 6, "Crown": 8, "Gift": 6, "Swap": 6, "Peek": 6, "Blank": 8}
TARGETED = {"Strike", "Gift", "Swap", "Peek"}


def play_game(seed: int, players: int = 4, max_rounds: int = 100) -> int:
    rng = random.Random(seed)
    bots = [random.Random(f"{seed}:{i}") for i in range(players)]
    deck = [name for name, copies in CARDS.items() for _ in range(copies)]
    rng.shuffle(deck)
    discard: list[str] = []
    hands = [[deck.pop() for _ in range(3)] for _ in range(players)]
    status = [IN_PLAY] * players
    priority = list(range(players))
    rng.shuffle(priority)
    rounds = 0
    while True:
        rounds += 1
        plays = []
        for seat in priority:
            if status[seat] == LOST or not hands[seat]:
                continue
            bot = bots[seat]
            card = hands[seat].pop(bot.randrange(len(hands[seat])))
            others = [s for s in range(players) if s != seat and status[s] != LOST]
            target = bot.choice(others) if card in TARGETED and others else None
            plays.append((seat, card, target))
        for seat, card, target in plays:  # already in priority order
            if card == "Strike" and target is not None and "Crown" in hands[target]:
                status[target] = max(LOST, status[target] - 1)
            elif card == "Crown" and "Crown" in hands[seat]:
                status[seat] = min(WON, status[seat] + 1)
            elif card == "Gift" and target is not None and hands[target]:
                hands[seat].append(hands[target].pop())
            elif card == "Swap" and target is not None:
                hands[seat], hands[target] = hands[target], hands[seat]
        discard.extend(card for _, card, _ in plays)
        for seat in priority:
            if status[seat] != LOST:
                if not deck:
                    deck, discard = discard, []
                    rng.shuffle(deck)
                if deck:
                    hands[seat].append(deck.pop())
        priority.append(priority.pop(0))
        alive = [s for s in range(players) if status[s] != LOST]
        if WON in status or len(alive) <= 1 or rounds >= max_rounds:
            return rounds


def run(seconds: float) -> dict:
    games = rounds = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        rounds += play_game(games)
        games += 1
    elapsed = time.process_time() - start
    return {
        "rounds_per_second": round(rounds / elapsed),
        "games_per_second": round(games / elapsed, 1),
        "mean_rounds": round(rounds / games, 2),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    figures = run(args.seconds)
    if args.json:
        print(json.dumps(figures))
    else:
        print(
            f"{figures['rounds_per_second']:,} rounds/s, {figures['games_per_second']:,} games/s, "
            f"{figures['mean_rounds']} rounds per game (plain loop, 4 random bots, 6 cards)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
