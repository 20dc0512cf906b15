"""Start-up time of the ``spoiler`` command against the CLI framework alone.

Prints the median wall time (several runs each) of ``spoiler --help`` and
``spoiler sets list`` next to ``python -c "import typer"``, and their ratios. Targets:
``--help`` at most 1.3 times, ``sets list`` at most 2 times. Exit code 1 if a target is
missed (the figures vary from machine to machine: this is a script, not a timed test).

    python benchmarks/startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

TARGETS = {"spoiler --help": 1.3, "spoiler sets list": 2.0}


def spoiler_command() -> str:
    """The console script installed next to this Python, else the one on PATH."""
    beside = Path(sys.executable).with_name("spoiler")
    found = str(beside) if beside.exists() else shutil.which("spoiler")
    if found is None:
        sys.exit("no `spoiler` command found: pip install -e . first")
    return found


def median_time(command: list[str], runs: int) -> float:
    env = dict(os.environ, COLUMNS="100")
    subprocess.run(command, capture_output=True, env=env, check=True)  # warm the file cache
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, capture_output=True, env=env, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs per command (default 15)")
    runs = parser.parse_args().runs
    spoiler = spoiler_command()
    baseline = median_time([sys.executable, "-c", "import typer"], runs)
    label = 'python -c "import typer"'
    print(f"{label:<28} {baseline * 1000:7.1f} ms")
    missed = 0
    for label, target in TARGETS.items():
        elapsed = median_time([spoiler, *label.split()[1:]], runs)
        ratio = elapsed / baseline
        verdict = "ok" if ratio <= target else "SLOW"
        missed += ratio > target
        print(
            f"{label:<28} {elapsed * 1000:7.1f} ms  {ratio:4.2f}x  (target <= {target}x) {verdict}"
        )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
