"""Engine cost in machine instructions per round, counted by callgrind (repeatable on a busy
machine, unlike timings).

    python benchmarks/instructions.py [--games 300] [--seed 0] [--mode normal|fast|plain|all]

Runs this script under ``valgrind --tool=callgrind`` twice per mode: once playing no game
(interpreter start, imports, plugin loading, and one warm-up game) and once playing ``--games`` seeded games of the
base set between four random bots, in one process, after the same warm-up game. The difference over the rounds played is
the figure: instructions per round, plugin loading subtracted. ``plain`` is the plugin-free
loop of ``benchmarks/baseline_loop.py``. It also prints a digest of the games' results (seed,
rounds, statuses), which must not change when the engine only gets faster.

Works on older trees too (``spoiler.engine.Game`` before the engine was split into layers),
so the same script measures an old commit in its own worktree and venv.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile

#: The seed of the game played first, in the subtracted run as well, and not counted.
WARM_UP = 10**6


def play(games: int, seed: int, mode: str) -> tuple[int, str]:
    """Play the games in this process; return (rounds, digest of results)."""
    digest = hashlib.sha256()
    rounds = 0
    if mode == "plain":
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import baseline_loop  # (beside this script)

        for game_seed in (WARM_UP, *range(seed, seed + games)):
            played = baseline_loop.play_game(game_seed)
            if game_seed == WARM_UP:
                continue
            rounds += played
            digest.update(f"{game_seed}:{played};".encode())
        return rounds, digest.hexdigest()[:16]
    from spoiler import plugins

    try:
        from spoiler.rules.game import Game, Seat
    except ImportError:  # a tree from before the layers
        from spoiler.engine import Game, Seat  # type: ignore[no-redef]
    if mode == "fast":
        from spoiler.search.fast import FastGame as Game  # type: ignore[assignment]
    registry = plugins.load()
    card_set = registry.card_sets(["base"])[0]
    hooks = registry.game_hooks(["base"])
    random_bot = registry.agents["random"].factory
    # One game first, in both runs (the one subtracted too): what the first game imports and
    # caches is not counted against the games measured.
    for game_seed in (WARM_UP, *range(seed, seed + games)):
        seats = [Seat(f"P{i}", random_bot(i, game_seed)) for i in range(4)]
        game = Game([card_set], seats, game_seed, hooks=hooks)
        game.play()
        if game_seed == WARM_UP:
            continue
        rounds += game.round
        statuses = [p.status for p in game.state.players]
        digest.update(f"{game_seed}:{game.round}:{statuses};".encode())
    return rounds, digest.hexdigest()[:16]


def count(games: int, seed: int, mode: str) -> tuple[int, int, str]:
    """(instructions, rounds, digest) of one run under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        run = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                sys.executable,
                os.path.abspath(__file__),
                "--inside",
                f"--games={games}",
                f"--seed={seed}",
                f"--mode={mode}",
            ],
            capture_output=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},  # (string hashes decide dict layouts)
            text=True,
            check=True,
        )
        with open(out) as handle:
            total = next(int(line.split()[1]) for line in handle if line.startswith("summary:"))
    rounds, digest = run.stdout.split()
    return total, int(rounds), digest


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--mode", choices=("normal", "fast", "plain", "all"), default="normal")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.inside:
        rounds, digest = play(args.games, args.seed, args.mode)
        print(rounds, digest)
        return 0
    modes = ("normal", "fast", "plain") if args.mode == "all" else (args.mode,)
    for mode in modes:
        setup, _, _ = count(0, args.seed, mode)
        total, rounds, digest = count(args.games, args.seed, mode)
        per_round = (total - setup) / rounds
        print(
            f"{mode}: {per_round / 1000:.1f}k instructions per round "
            f"({args.games} games from seed {args.seed}, {rounds} rounds; digest {digest})"
        )
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
