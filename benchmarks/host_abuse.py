"""What one bad client costs a hosted game (issue 23): the other seats' prompt latency while
one player floods, the joins that get in while 200 idle connections wait at the door, and
the host's memory over a soak of scripted players.

    python benchmarks/host_abuse.py [--flood [--runs 1]] [--idle [--joins 20] [--pace 1]]
                                    [--soak SECONDS [--think 0.5]] [--seed 11]

Everything is real: ``spoiler host`` in a child process, asyncssh clients on loopback in this
process (the idle sockets and the flood too).

* ``--flood``: a game of three players, played twice with the same seed: once quiet (ann
  answers like the others), once while ann types ``1``, ``2``, ``3`` lines as fast as her
  connection takes them. For ben and cat, the latency of a prompt is the time from their
  answer to the first text the host sends back. Printed: the median and 95th percentile of
  each, and flood / quiet (target: within 2x).
* ``--idle``: 200 sockets that never say a word are held open (each one the host closes is
  opened again), from the address of the players or from 50 other loopback addresses; then
  20 players join, one after another, from a player's address and from a stranger's.
  Printed: how many got in (within 10 s each) and the median time it took.
* ``--soak S``: 8 scripted players play hosted games for S seconds (a new host when a game
  ends), thinking ``--think`` seconds an answer, one of them dropping out and joining again
  every 7 prompts, while wrong-code logins go on one after another and 50 idle sockets wait
  at the door; the host's resident memory (VmRSS) is sampled every second. Printed: RSS at
  each game's start, its peak and at its end, and overall. (The issue asks for an hour:
  ``--soak 3600``.)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from scripted_player import answer_for

NAMES = ("ann", "ben", "cat", "dan", "eve", "fay", "gil", "hal")
SEAT_KEYS: dict[str, str] = {}  # each player's seat key, as their screen showed it


class Host:
    """``spoiler host`` in a child process."""

    def __init__(self, key: Path, *args: str):
        env = {**os.environ, "SPOILER_PLUGINS": "", "SPOILER_HOST_KEY": str(key), "NO_COLOR": "1"}
        command = [sys.executable, "-c", "from spoiler.cli import main; main()"]
        self.proc = subprocess.Popen(
            [*command, "host", "--port", "0", *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
        self.out: list[str] = []
        threading.Thread(
            target=lambda: self.out.extend(self.proc.stdout or ()), daemon=True
        ).start()
        deadline = time.monotonic() + 30
        while not re.search(r"Waiting for \d+ player", self.output):
            if time.monotonic() > deadline or self.proc.poll() is not None:
                sys.exit("the host did not start:\n" + self.output)
            time.sleep(0.01)
        self.port = int(re.search(r"ssh -p (\d+) ", self.output).group(1))  # type: ignore[union-attr]
        self.code = re.search(r"Join code:\s+(\S+)", self.output).group(1)  # type: ignore[union-attr]

    @property
    def output(self) -> str:
        return "".join(self.out)

    def rss_kib(self) -> int:
        try:
            status = Path(f"/proc/{self.proc.pid}/status").read_text()
        except OSError:
            return 0
        found = re.search(r"VmRSS:\s+(\d+) kB", status)
        return int(found.group(1)) if found else 0

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


async def connect(host: Host, name: str, local: str | None = None):
    import asyncssh

    return await asyncssh.connect(
        "127.0.0.1",
        host.port,
        username=name,
        password=host.code,
        known_hosts=None,
        client_keys=None,
        agent_path=None,
        local_addr=(local, 0) if local else None,
    )


async def play(
    host: Host, name: str, latencies: list[float] | None = None, drop_every=0, think=0.0
):
    """Answer every prompt until the game ends; with ``latencies``, the time from each
    answer to the host's next text; with ``drop_every``, drop and join again that often;
    ``think`` seconds before each answer."""
    prompts = 0
    while True:
        conn = await connect(host, name)
        dropped = False
        async with conn:
            proc = await conn.create_process(term_type=None, encoding="utf-8")
            since, tries, sent = "", 1, None
            while True:
                chunk = await proc.stdout.read(1 << 16)
                if not chunk:
                    break
                if sent is not None and latencies is not None:
                    latencies.append(time.perf_counter() - sent)
                sent = None
                since += chunk
                given = re.search(r"Your seat key: (\S+)\.", since)
                if given:
                    SEAT_KEYS[name] = given.group(1)
                if since.endswith("Seat key: "):
                    since = ""
                    proc.stdin.write(SEAT_KEYS[name] + "\n")
                    continue
                answer, tries = answer_for(since, tries)
                if answer is None:
                    continue
                since = ""
                prompts += 1
                if drop_every and prompts % drop_every == 0:
                    dropped = True
                    break
                if think:
                    await asyncio.sleep(think)
                sent = time.perf_counter()
                with contextlib.suppress(BrokenPipeError):
                    proc.stdin.write(answer + "\n")
        if not dropped:
            return
        while f"{name} dropped out" not in host.output:
            await asyncio.sleep(0.01)


async def flood(host: Host, name: str, stop: asyncio.Event) -> None:
    import asyncssh

    conn = await connect(host, name)
    async with conn:
        proc = await conn.create_process(term_type=None, encoding="utf-8", errors="replace")

        async def read():
            while await proc.stdout.read(1 << 16):
                pass

        reader = asyncio.ensure_future(read())
        with contextlib.suppress(BrokenPipeError, ConnectionError, asyncssh.Error):
            while not stop.is_set() and not proc.stdin.is_closing():
                proc.stdin.write("1\n2\n3\n" * 4096)
                await proc.stdin.drain()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(reader, 30)


def three_players(key: Path, seed: int, flooding: bool) -> list[float]:
    host = Host(key, "--seats", "3", "--seed", str(seed), "--max-rounds", "30")
    latencies: list[float] = []

    async def game():
        stop = asyncio.Event()
        first = flood(host, "ann", stop) if flooding else play(host, "ann")
        tasks = [asyncio.ensure_future(first)]
        while "In the lobby: ann." not in host.output:
            await asyncio.sleep(0.01)
        tasks.append(asyncio.ensure_future(play(host, "ben", latencies)))
        while "In the lobby: ann, ben." not in host.output:
            await asyncio.sleep(0.01)
        tasks.append(asyncio.ensure_future(play(host, "cat", latencies)))
        await asyncio.gather(*tasks[1:])
        stop.set()
        await tasks[0]

    try:
        asyncio.run(asyncio.wait_for(game(), 300))
    finally:
        host.close()
    return latencies


def bench_flood(key: Path, seed: int, runs: int) -> None:
    print("Prompt latency of ben and cat (answer to the host's next text), ms:")
    medians = {}
    for flooding in (False, True):
        every: list[float] = []
        for _ in range(runs):
            every += three_players(key, seed, flooding)
        every.sort()
        median = statistics.median(every) * 1000
        p95 = every[int(len(every) * 0.95)] * 1000
        medians[flooding] = median
        what = "ann floods" if flooding else "quiet     "
        print(f"  {what}: median {median:6.2f}  p95 {p95:7.2f}  ({len(every)} prompts)")
    print(f"  flood / quiet (medians): {medians[True] / medians[False]:.2f}x (target: within 2x)")


async def hold_idle(
    port: int, sources: list[str], count: int, stop: asyncio.Event, pace: float
) -> list[int]:
    """``count`` idle sockets spread over ``sources``, each opened again ``pace`` seconds after
    the host closes it."""
    loop = asyncio.get_running_loop()
    opened = [0]

    async def one(source: str) -> None:
        while not stop.is_set():
            sock = socket.socket()
            sock.setblocking(False)
            try:
                sock.bind((source, 0))
                await loop.sock_connect(sock, ("127.0.0.1", port))
                opened[0] += 1
                while not stop.is_set():  # until the host closes it
                    try:
                        if not await asyncio.wait_for(loop.sock_recv(sock, 1024), 0.5):
                            break
                    except TimeoutError:
                        continue
            except OSError:
                pass
            finally:
                sock.close()
            await asyncio.sleep(pace)  # then opened again

    await asyncio.gather(*(one(sources[i % len(sources)]) for i in range(count)))
    return opened


def bench_idle(key: Path, joins: int, pace: float) -> None:
    import asyncssh

    print(
        f"Joins while 200 idle connections are held open (each reopened {pace:g} s after the "
        f"host closes it); did each join get in within 10 s?"
    )
    for label, sources in (
        ("from the players' address", ["127.0.0.1"]),
        ("from 50 other addresses  ", [f"127.0.1.{i}" for i in range(1, 51)]),
    ):
        host = Host(key, "--seats", "8")

        async def scenario(sources=sources, host=host):
            first = await connect(host, "ann")  # a player: her address is the table's
            proc = await first.create_process(term_type=None, encoding="utf-8")
            while "Welcome" not in await proc.stdout.read(1 << 16):
                pass
            stop = asyncio.Event()
            idle = asyncio.ensure_future(hold_idle(host.port, sources, 200, stop, pace))
            await asyncio.sleep(2)  # the door fills
            results = {}
            for where, local in (("player", "127.0.0.1"), ("stranger", "127.0.2.1")):
                took = []
                for i in range(joins):
                    began = time.perf_counter()
                    try:
                        conn = await asyncio.wait_for(connect(host, f"p{i}", local), 10)
                        took.append(time.perf_counter() - began)
                        conn.close()
                    except (TimeoutError, asyncssh.Error, OSError):
                        pass
                results[where] = took
            stop.set()
            opened = await idle
            first.close()
            return results, opened[0]

        try:
            results, opened = asyncio.run(scenario())
        finally:
            host.close()
        for where, took in results.items():
            median = f"median {statistics.median(took) * 1000:.0f} ms" if took else ""
            print(f"  idle {label}; a join from a {where:8}: {len(took)}/{joins} got in {median}")
        print(f"    ({opened} idle sockets opened in all)")


async def knock(host: Host, stop: asyncio.Event) -> int:
    """Wrong-code logins, one after another, and 50 idle sockets held: the door's churn."""
    import asyncssh

    idle = asyncio.ensure_future(hold_idle(host.port, ["127.0.3.1"], 50, stop, 1.0))
    tries = 0
    while not stop.is_set():
        tries += 1
        with contextlib.suppress(asyncssh.Error, OSError):
            await asyncssh.connect(
                "127.0.0.1",
                host.port,
                username=f"mallory{tries}",
                password="wrong",
                known_hosts=None,
                client_keys=None,
                agent_path=None,
                local_addr=("127.0.4.1", 0),
            )
    await idle
    return tries


def bench_soak(key: Path, seconds: float, seed: int, think: float) -> None:
    print(
        f"Host RSS over a {seconds:g} s soak: 8 scripted players thinking {think:g} s an "
        f"answer, one dropping out and rejoining every 7 prompts, wrong-code logins one after "
        f"another and 50 idle sockets at the door; a new host when a game ends:"
    )
    end = time.monotonic() + seconds
    first = peak = last = 0
    game = 0
    while time.monotonic() < end:
        game += 1
        host = Host(key, "--seats", "8", "--seed", str(seed + game), "--max-rounds", "100000")
        samples: list[int] = []

        async def everyone(host=host, samples=samples):
            tasks = []
            for i, name in enumerate(NAMES):
                drop = 7 if i == 0 else 0
                tasks.append(asyncio.ensure_future(play(host, name, drop_every=drop, think=think)))
                while f"In the lobby: {', '.join(NAMES[: i + 1])}." not in host.output:
                    await asyncio.sleep(0.01)

            async def sample():
                while True:
                    samples.append(host.rss_kib())
                    await asyncio.sleep(1)

            stop = asyncio.Event()
            knocking = asyncio.ensure_future(knock(host, stop))
            sampler = asyncio.ensure_future(sample())
            await asyncio.gather(*tasks)
            sampler.cancel()
            stop.set()
            return await knocking

        try:
            knocks = asyncio.run(
                asyncio.wait_for(everyone(), max(60.0, end - time.monotonic() + 60))
            )
        finally:
            host.close()
        if samples:
            first = first or samples[0]
            peak = max(peak, *samples)
            last = samples[-1]
            print(
                f"  game {game}: RSS {samples[0] / 1024:.1f} MiB at the start, "
                f"peak {max(samples) / 1024:.1f} MiB, {samples[-1] / 1024:.1f} MiB at the end "
                f"({len(samples)} s, {knocks} wrong-code logins)"
            )
    print(
        f"  overall: first {first / 1024:.1f} MiB, peak {peak / 1024:.1f}, last {last / 1024:.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--flood", action="store_true")
    parser.add_argument("--idle", action="store_true")
    parser.add_argument("--soak", type=float, metavar="SECONDS", default=0)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--think", type=float, default=0.5, help="--soak: seconds an answer")
    parser.add_argument("--runs", type=int, default=1, help="games per --flood case")
    parser.add_argument("--joins", type=int, default=20, help="joins per --idle case")
    parser.add_argument(
        "--pace", type=float, default=1.0, help="--idle: seconds before a closed socket reopens"
    )
    args = parser.parse_args()
    if not (args.flood or args.idle or args.soak):
        args.flood = args.idle = True
    with tempfile.TemporaryDirectory() as tmp:
        key = Path(tmp) / "host_key"
        if args.flood:
            bench_flood(key, args.seed, args.runs)
        if args.idle:
            bench_idle(key, args.joins, args.pace)
        if args.soak:
            bench_soak(key, args.soak, args.seed, args.think)


if __name__ == "__main__":
    main()
