"""The runaway guard: how long, and how much memory, until a looping card is stopped.

    python benchmarks/runaway.py [--json]

A set whose one card loops forever through a verb (a note: one event per turn) or through a
question (reading a hand: no event) is played until the engine raises RoundTooLong at its
step budget (spoiler.engine.MAX_ROUND_STEPS). Prints, for each loop, the CPU seconds and the
peak memory traced (tracemalloc) until the round is stopped, and the events it left in the
log. The guard's cost in a normal game is what benchmarks/engine.py measures.
"""

from __future__ import annotations

import argparse
import json
import time
import tracemalloc

from spoiler.model.cards import CardSet
from spoiler.rules.game import MAX_ROUND_STEPS, RoundTooLong
from spoiler.testing import play_round, table


def noting(play) -> None:
    while True:
        play.note("again")


def reading(play) -> None:
    while True:
        play.hand(play.player)


def stop(main) -> dict:
    loopy = CardSet("loopy", "0.1.0")
    loopy.card(type("Pebble", (), {"text": "No effect.", "copies": 8}))
    loopy.card(type("Loop", (), {"text": "Forever.", "copies": 4, "main": main}))
    game = table([loopy], [["Loop"], ["Pebble"]], deck=["Pebble"] * 4, strict=False)
    tracemalloc.start()
    start = time.process_time()
    try:
        play_round(game, {0: "Loop", 1: "Pebble"})
    except RoundTooLong:
        pass
    else:
        raise SystemExit("the guard did not stop the loop")
    seconds = time.process_time() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        "seconds": round(seconds, 3),
        "peak_mib": round(peak / 2**20, 1),
        "events": len(game.state.log),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args()
    figures = {"steps": MAX_ROUND_STEPS, "noting": stop(noting), "reading": stop(reading)}
    if args.json:
        print(json.dumps(figures))
        return
    print(f"Step budget per round: {MAX_ROUND_STEPS:,}")
    for name in ("noting", "reading"):
        f = figures[name]
        print(
            f"  a loop {name:7}: stopped after {f['seconds']:.2f} s CPU, "
            f"peak {f['peak_mib']:.1f} MiB traced, {f['events']:,} events in the log"
        )


if __name__ == "__main__":
    main()
