"""The runaway guard: how long, and how much memory, until a looping card is stopped.

    python benchmarks/runaway.py [--json]

A set whose one card loops forever through a verb (a note: one event per turn) or through a
question (reading a hand: no event) is played until the engine raises RoundTooLong at its
step budget (spoiler.engine.MAX_ROUND_STEPS). Prints, for each loop, the CPU seconds and the
peak memory traced (tracemalloc) until the round is stopped, and the events it left in the
log. A third card spins without calling the engine (``while True: n += 1``): the watchdog
stops it at the round's clock (spoiler.engine.MAX_ROUND_SECONDS, 10 s); it prints the wall
seconds that took, in the main thread and in another thread (``--spin-seconds S`` sets the
clock for this run). The guard's cost in a normal game is what benchmarks/engine.py measures.
"""

from __future__ import annotations

import argparse
import json
import time
import tracemalloc

from spoiler.model.cards import CardSet
from spoiler.rules.game import MAX_ROUND_SECONDS, MAX_ROUND_STEPS, RoundTooLong
from spoiler.testing import play_round, table


def noting(play) -> None:
    while True:
        play.note("again")


def reading(play) -> None:
    while True:
        play.hand(play.player)


def spinning(play) -> None:
    n = 0
    while True:
        n += 1


def stop_spin(seconds: float, thread: bool) -> float:
    """Wall seconds until a card that never calls the engine is stopped."""
    import threading

    loopy = CardSet("loopy", "0.1.0")
    loopy.card(type("Pebble", (), {"text": "No effect.", "copies": 8}))
    loopy.card(type("Loop", (), {"text": "Forever.", "copies": 4, "main": spinning}))
    game = table([loopy], [["Loop"], ["Pebble"]], deck=["Pebble"] * 4, strict=False)
    game.max_round_seconds = seconds
    took: list[float] = []

    def run() -> None:
        start = time.monotonic()
        try:
            play_round(game, {0: "Loop", 1: "Pebble"})
        except RoundTooLong:
            took.append(time.monotonic() - start)

    if thread:
        worker = threading.Thread(target=run)
        worker.start()
        worker.join()
    else:
        run()
    if not took:
        raise SystemExit("the watchdog did not stop the loop")
    return round(took[0], 3)


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
    parser.add_argument("--spin-seconds", type=float, default=MAX_ROUND_SECONDS)
    args = parser.parse_args()
    figures = {"steps": MAX_ROUND_STEPS, "noting": stop(noting), "reading": stop(reading)}
    figures["spinning"] = {
        "limit": args.spin_seconds,
        "main_thread": stop_spin(args.spin_seconds, thread=False),
        "other_thread": stop_spin(args.spin_seconds, thread=True),
    }
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
    spin = figures["spinning"]
    print(
        f"  a loop that never calls the engine, clock {spin['limit']:g} s: stopped after "
        f"{spin['main_thread']:.2f} s (main thread), {spin['other_thread']:.2f} s (another thread)"
    )


if __name__ == "__main__":
    main()
