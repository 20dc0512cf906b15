"""Runs of one benchmark script by several Pythons (checkouts, or the pure and the compiled
engine), interleaved so that all of them see the same load on a busy machine."""

from __future__ import annotations

import json
import subprocess


def interleaved(script: str, pythons: list[str], argv: list[str], repeat: int) -> dict:
    """{python: [the JSON each of its runs printed]}: ``python script *argv`` ``repeat``
    times each, in turn, the order reversed every other time. RuntimeError names a run
    that failed."""
    runs: dict[str, list[dict]] = {python: [] for python in pythons}
    for r in range(repeat):
        for python in pythons if r % 2 == 0 else pythons[::-1]:
            done = subprocess.run([python, script, *argv], capture_output=True, text=True)
            if done.returncode != 0:
                raise RuntimeError(f"{python}: {done.stderr.strip()}")
            runs[python].append(json.loads(done.stdout))
    return runs
