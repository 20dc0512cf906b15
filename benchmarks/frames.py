"""What the full-screen table draws: frames per decision, and the time to draw one frame.

    python benchmarks/frames.py [--games 5] [--seed 1] [--draws 200]

Plays --games seeded games of one human against three greedy bots (every installed set) on a
full-screen table in memory (``spoiler.console.fullscreen.TableScreen``), at 80x24 and at
200x60, the human answering each prompt from what it asks (``tests/scripted_player.py``: a
card by its number, the first target, the lowest number). Printed for each size: decisions
made, frames drawn (the decisions' own, the "more" pages before them, and those between
rounds), frames per decision; then the median time to draw one frame (the table, the last
round, the hand and the prompt, rendered anew and written) at the fourth decision of
the last game, over --draws draws. CPU time of this process; the figures vary from machine to
machine: a script, not a timed test.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from rich.console import Console
from scripted_player import answer_for

from spoiler import plugins
from spoiler.console.fullscreen import TableScreen
from spoiler.console.game import run_game, seat_players
from spoiler.session.seating import new_game

SIZES = ((80, 24), (200, 60))


class Scripted(TableScreen):
    """A table whose player reads each prompt and answers it (Enter at a "more" page)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.tries = 1
        self.decisions = 0
        self.timed: list[float] = []
        self.draws = 0

    def _read_line(self, rendered: str) -> str:
        if "press Enter" in rendered or "Press Enter" in rendered:
            return ""
        typed, self.tries = answer_for(self._recent(rendered), self.tries)
        self.decisions += 1
        if self.draws and self.decisions == 4:  # a decision of round 2 or 3: this frame
            for _ in range(self.draws):
                self._laid_out, self.outcome.rendered = None, {}  # drawn anew, nothing kept
                self._players.forget()
                self._hand.forget()
                start = time.process_time()
                self.redraw()
                self.timed.append(time.process_time() - start)
        return typed or "1"

    def _recent(self, rendered: str) -> str:
        printed = " ".join(str(objects[0]) for objects, _ in self._prompt_records if objects)
        return f"{printed} {rendered}"


def play(registry, seed: int, columns: int, rows: int, draws: int) -> Scripted:
    console = Console(
        file=io.StringIO(), width=columns, height=rows, force_terminal=True, color_system="256"
    )
    screen = Scripted(console, 0, stdin=io.StringIO(), delay=0.0)
    screen.draws = draws
    seats = seat_players(registry, ["You"], 3, "greedy", seed, screen)
    game = new_game(registry, seats, None, seed, 100)
    with screen.shown():
        run_game(game, screen)
    return screen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--draws", type=int, default=200)
    args = parser.parse_args()
    registry = plugins.load()
    rng = random.Random(args.seed)
    seeds = [rng.getrandbits(64) for _ in range(args.games)]
    for columns, rows in SIZES:
        decisions = frames = 0
        timed: list[float] = []
        for i, seed in enumerate(seeds):
            screen = play(registry, seed, columns, rows, args.draws if i == len(seeds) - 1 else 0)
            decisions += screen.decisions
            frames += screen.frames - len(screen.timed)
            timed += screen.timed
        per = frames / decisions if decisions else float("nan")
        draw = f"{statistics.median(timed) * 1000:.1f} ms" if timed else "n/a (game too short)"
        print(
            f"{columns}x{rows}: {args.games} games, {decisions} decisions, {frames} frames, "
            f"{per:.2f} frames per decision; one frame drawn in {draw} (median of "
            f"{len(timed)})"
        )


if __name__ == "__main__":
    main()
