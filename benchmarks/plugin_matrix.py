"""The plugin-misbehaviour matrix, as a user meets it: each misbehaving plugin (see
tests/misbehaving.py) installed for real, against `sets list --json`, `plugins --json`,
`sets validate --json` and `play`, each a real `spoiler` process with the default limits.

    python benchmarks/plugin_matrix.py [-v]

Prints, over every pair: tracebacks, wrong verdicts, and the figure that matters: commands
that exit 0 while a plugin failed without saying so. Then the time of a default `sets
validate` (200 games per set) with one card stuck in a loop, and with a plugin that hangs
while it is imported.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from misbehaving import CASES, EXPECT, FAULTY, install, run, verdict  # noqa: E402


def main() -> None:
    verbose = "-v" in sys.argv
    pairs = wrong = silent = tracebacks = 0
    with tempfile.TemporaryDirectory() as tmp:
        sites = {case: install(case, Path(tmp)) for case in CASES}
        for case, commands in EXPECT.items():
            for command in commands:
                started = time.perf_counter()
                done = run(case, command, sites[case], timeout=300)
                elapsed = time.perf_counter() - started
                problem = verdict(case, command, done)
                pairs += 1
                output = done.stdout + done.stderr
                tracebacks += "Traceback" in output
                wrong += problem is not None
                silent += case in FAULTY and done.returncode == 0 and problem is not None
                if verbose or problem:
                    mark = "ok " if problem is None else "BAD"
                    print(f"{mark} {case:22} {command:14} exit {done.returncode} {elapsed:5.1f} s")
                    if problem:
                        print(f"    {problem}")
        print(
            f"{pairs} case/command pairs over {len(CASES)} misbehaving plugins: tracebacks "
            f"{tracebacks}, wrong verdicts {wrong}, commands that exit 0 while a plugin "
            f"failed without saying so: {silent}"
        )
        # Out of reach in the process that imports the plugin (docs/plugins.md, the trust
        # model): measured to say so plainly, not counted above.
        for case in ("os_exit_at_import", "hang_at_import"):
            for command in ("sets list", "plugins", "play"):
                try:
                    done = run(case, command, sites[case], timeout=5)
                    what = f"exit {done.returncode}, output {len(done.stdout + done.stderr)} bytes"
                except subprocess.TimeoutExpired:
                    what = "still running after 5 s (killed)"
                print(f"out of reach, documented: {case:18} {command:10} {what}")
        for case in ("loop_in_card", "hang_at_import"):
            started = time.perf_counter()
            done = run(case, "sets validate", sites[case], timeout=300)
            elapsed = time.perf_counter() - started
            named = verdict(case, "sets validate", done) is None
            print(
                f"default `sets validate` with {case.replace('_', ' ')}: {elapsed:.1f} s, "
                f"exit {done.returncode}, {'names the culprit' if named else 'WRONG VERDICT'}"
            )


if __name__ == "__main__":
    main()
