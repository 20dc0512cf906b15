"""Hostile records: thousands of corrupted records and every special file, against the
commands that read records. Prints tracebacks, hangs, files changed, and the worst time and
memory for reading one record.

    python benchmarks/hostile_records.py [--records 2000] [--seed 13]

Corrupted records run in this process through the CLI (``replay``, ``replay --verify``,
``resume``), each under an alarm that counts a hang; the special files (FIFO, devices, a
directory, huge, deep, long keys and numbers, unreadable, symlink loops) run as real
``spoiler`` processes with a timeout. Time and memory (tracemalloc peak) are for
``spoiler.records.load`` of one file, the step every command takes first.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from record_mutations import mutate, real_records  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spoiler import plugins  # noqa: E402
from spoiler.commands import app, common  # noqa: E402
from spoiler.session import recordfile, records  # noqa: E402

HANG_SECONDS = 20
LAUNCH = "from spoiler.launch import main; main()"


class Hang(BaseException):
    pass


def _alarm(signum, frame):
    raise Hang()


def measure_load(path: Path) -> tuple[float, int]:
    """(seconds, peak bytes allocated) of reading one record: timed without tracemalloc,
    which slows allocation-heavy parsing tenfold, then traced for its memory."""
    started = time.perf_counter()
    with contextlib.suppress(records.RecordError):
        records.load(path)
    elapsed = time.perf_counter() - started
    tracemalloc.start()
    with contextlib.suppress(records.RecordError):
        records.load(path)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return elapsed, peak


def corrupted(count: int, seed: int, workdir: Path) -> dict:
    registry = plugins.load()
    common.load_registry = lambda: registry
    originals = real_records(registry, range(24))
    rng = random.Random(seed)
    runner = CliRunner()
    stats = {"records": 0, "runs": 0, "tracebacks": 0, "hangs": 0, "changed": 0, "read": 0}
    times, peaks = [], []
    signal.signal(signal.SIGALRM, _alarm)
    path = workdir / "game.toml"
    for _ in range(count):
        data = mutate(rng.choice(originals), rng)
        path.write_bytes(data)
        elapsed, peak = measure_load(path)
        times.append(elapsed)
        peaks.append(peak)
        try:
            records.load(path)
            stats["read"] += 1  # still a valid record: resume may rightly add rounds to it
            readable = True
        except records.RecordError:
            readable = False
        stats["records"] += 1
        for command in (["replay", "--verify"], ["replay"], ["resume"]):
            signal.alarm(HANG_SECONDS)
            try:
                result = runner.invoke(app, [*command, str(path)], input="")
            except Hang:
                stats["hangs"] += 1
                continue
            finally:
                signal.alarm(0)
            stats["runs"] += 1
            output = result.stdout + result.stderr
            if not isinstance(result.exception, SystemExit | None) or "Traceback" in output:
                stats["tracebacks"] += 1
                print("traceback:", command, repr(result.exception), file=sys.stderr)
            if not readable and path.read_bytes() != data:
                stats["changed"] += 1
        path.write_bytes(data)
    stats["worst_s"] = max(times)
    stats["median_ms"] = statistics.median(times) * 1000
    stats["worst_mb"] = max(peaks) / 1e6
    return stats


def special_files(workdir: Path) -> list[tuple[str, Path | str]]:
    cases: list[tuple[str, Path | str]] = []
    fifo = workdir / "fifo.toml"
    os.mkfifo(fifo)
    cases += [("FIFO", fifo), ("/dev/zero", "/dev/zero"), ("/dev/urandom", "/dev/urandom")]
    cases += [("/dev/null", "/dev/null"), ("/dev/full", "/dev/full"), ("directory", workdir)]

    def file(name: str, data: bytes) -> Path:
        path = workdir / name
        path.write_bytes(data)
        return path

    cases.append(("1,000 nested arrays", file("nest.toml", b"x = " + b"[" * 1000 + b"]" * 1000)))
    cases.append(("long dotted key 40 kB", file("k40.toml", b"a" + b".a" * 20_000 + b" = 1")))
    cases.append(("long dotted key 62 kB", file("k62.toml", b"a" + b".a" * 31_000 + b" = 1")))
    cases.append(("4,400-digit integer", file("int.toml", b"seed = " + b"9" * 4400)))
    big = workdir / "huge.toml"
    with open(big, "wb") as out:  # 68 MB of a valid-looking TOML
        out.write(b"format = 1\n" + b'x = "' + b"a" * (68 * 1024 * 1024) + b'"\n')
    cases.append(("68 MB record", big))
    just = file("limit.toml", b'format = 1\nx = "' + b"a" * (recordfile.MAX_BYTES - 20) + b'"\n')
    cases.append(("record just under the size limit", just))
    many = file("many.toml", b"format = 1\n" + b"[[rounds]]\n" * 200_000)
    cases.append(("200,000 empty rounds", many))
    unreadable = file("unreadable.toml", b"format = 1\n")
    unreadable.chmod(0)
    cases.append(("unreadable", unreadable))
    loop = workdir / "loop.toml"
    loop.symlink_to(loop)
    cases.append(("symlink loop", loop))
    dangling = workdir / "dangling.toml"
    dangling.symlink_to(workdir / "nowhere.toml")
    cases.append(("dangling symlink", dangling))
    return cases


def run_special(cases) -> dict:
    stats = {"cases": 0, "runs": 0, "tracebacks": 0, "hangs": 0, "changed": 0}
    worst = (0.0, "")
    worst_mem = (0, "")
    for name, path in cases:
        stats["cases"] += 1
        before = _snapshot(path)
        elapsed, peak = _load_in_child(path)
        worst = max(worst, (elapsed, name))
        worst_mem = max(worst_mem, (peak, name))
        for command in (["replay", "--verify"], ["replay"], ["resume"]):
            try:
                done = subprocess.run(
                    [sys.executable, "-c", LAUNCH, *command, str(path)],
                    capture_output=True,
                    text=True,
                    timeout=HANG_SECONDS,
                    stdin=subprocess.DEVNULL,
                )
            except subprocess.TimeoutExpired:
                stats["hangs"] += 1
                print(f"hang: {name}: {command}", file=sys.stderr)
                continue
            stats["runs"] += 1
            lines = done.stderr.strip().splitlines()
            if "Traceback" in done.stderr or done.returncode != 2 or len(lines) != 1:
                stats["tracebacks"] += 1
                print(f"not one line / exit 2: {name}: {command}: {done.stderr}", file=sys.stderr)
            elif "-v" in sys.argv:
                print(f"  {name:32} {command[-1]:9} {lines[0][:110]}")
        if _snapshot(path) != before:
            stats["changed"] += 1
    stats["worst_s"], stats["worst_s_case"] = worst
    stats["worst_mb"], stats["worst_mb_case"] = worst_mem[0] / 1e6, worst_mem[1]
    return stats


def _snapshot(path):
    try:
        st = os.stat(path)
    except OSError:
        return None
    if not os.path.isfile(path):
        return (st.st_mode, st.st_ino)
    return (st.st_mode, st.st_ino, st.st_size, st.st_mtime_ns)


def _load_in_child(path) -> tuple[float, int]:
    """records.load of one special file in a child (a hang must not stop the benchmark)."""
    code = (
        "import sys\n"
        "sys.path.insert(0, sys.argv[2])\n"
        "from hostile_records import measure_load\n"
        "print(*measure_load(sys.argv[1]))\n"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", code, str(path), str(Path(__file__).parent)],
            capture_output=True,
            text=True,
            timeout=HANG_SECONDS,
        )
        elapsed, peak = done.stdout.split()
        return float(elapsed), int(peak)
    except (subprocess.TimeoutExpired, ValueError):
        return float(HANG_SECONDS), 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("-v", action="store_true", help="print each special file's error line")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        started = time.perf_counter()
        special = run_special(special_files(workdir))
        print(
            f"special files: {special['cases']} cases, {special['runs']} runs; "
            f"tracebacks or not one line/exit 2: {special['tracebacks']}, hangs: "
            f"{special['hangs']}, files changed: {special['changed']}; worst load "
            f"{special['worst_s']:.3f} s ({special['worst_s_case']}), worst memory "
            f"{special['worst_mb']:.1f} MB ({special['worst_mb_case']})"
        )
        (workdir / "corrupted").mkdir()
        stats = corrupted(args.records, args.seed, workdir / "corrupted")
        print(
            f"corrupted records: {stats['records']} ({stats['read']} still valid), "
            f"{stats['runs']} runs of replay/replay --verify/resume; tracebacks: "
            f"{stats['tracebacks']}, hangs: {stats['hangs']}, refused files changed: "
            f"{stats['changed']}; load median {stats['median_ms']:.2f} ms, worst "
            f"{stats['worst_s']:.3f} s, worst memory {stats['worst_mb']:.1f} MB"
        )
        print(f"({time.perf_counter() - started:.0f} s in all)")


if __name__ == "__main__":
    main()
