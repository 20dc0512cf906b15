"""What hosting costs: the time a hosted game adds over the same game played locally, per
decision. Target: under 20 ms.

    python benchmarks/host.py [--runs 3] [--players 8] [--seed 7] [--max-rounds 30]
                              [--bad-logins 50] [--table 80x24]

A hosted game: ``spoiler host --seats N`` in a child process, and N scripted players on
loopback (asyncssh clients in this process), each answering every prompt from what its screen
shows. The same game played locally: N ``HumanAgent`` prompts on in-memory screens answered
by the same script, each seat's screen told every round, as the host does. The script plays
the same way on both (same seats, same seed, same answers), so the games are the same; the
script checks that they end alike. Printed: median wall time of each game (from the full
table to the last screen's final line), the decisions made (every prompt answered), and
(hosted - local) / decisions. Wall time, not CPU time: the cost is in two processes and the
network between them. Medians of --runs; the machine's load shows in them.

Then the hosted game again while ``--bad-logins`` wrong-code logins are kept going at once
(each waits a second to be refused, on the server's loop, never in the game), and what that
adds per decision.

Then the hosted game for clients with a pseudo-terminal of ``--table`` size, each seat on the
full-screen table (as an ssh player with a terminal gets it), and the host's CPU per decision
for it (issue 24: halve the host's CPU per decision, the full-screen table included). "Play
again?" at the end is answered but not counted as a decision, nor is Enter at a "more" page.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from scripted_player import AGAIN, answer_for

TARGET_MS = 20.0
NAMES = ("ann", "ben", "cat", "dan", "eve", "fay", "gil", "hal")
END = re.compile(r"Seed: \d+")
MORE = re.compile(r"press Enter\. ")  # a full-screen page that a round goes on past


#: N guessers logging in with a wrong code, again and again, until their input ends; then
#: prints how many logins were refused for the code (others were closed before any work).
GUESSERS = """
import asyncio, sys, asyncssh
port, n = int(sys.argv[1]), int(sys.argv[2])
refused = 0
async def guess(i, over):
    global refused
    while not over.is_set():
        try:
            await asyncssh.connect("127.0.0.1", port, username=f"mallory{i}", password="x",
                                   known_hosts=None, client_keys=None, agent_path=None)
        except asyncssh.PermissionDenied:
            refused += 1
        except (asyncssh.Error, OSError):
            await asyncio.sleep(0.01)
async def main():
    over = asyncio.Event()
    loop = asyncio.get_running_loop()
    tasks = [asyncio.ensure_future(guess(i, over)) for i in range(n)]
    await loop.run_in_executor(None, sys.stdin.read)
    over.set()
    await asyncio.gather(*tasks)
asyncio.run(main())
print(refused)
"""


# -- hosted ------------------------------------------------------------------------------------
def hosted(
    players: int,
    seed: int,
    max_rounds: int,
    key: Path,
    bad_logins: int = 0,
    table: tuple[int, int] | None = None,
) -> tuple[float, int, str, float]:
    """The hosted game's wall time, decisions, ending and the host process's CPU time; with
    ``bad_logins``, that many wrong-code logins are kept going at once for the whole game;
    with ``table`` (columns, rows), each client has a pseudo-terminal of that size, so its
    seat gets the full-screen table (and Enter at each "more" page) instead of the
    transcript."""
    import asyncssh

    env = {**os.environ, "SPOILER_PLUGINS": "", "SPOILER_HOST_KEY": str(key), "NO_COLOR": "1"}
    command = [sys.executable, "-c", "from spoiler.cli import main; main()"]
    args = ["host", "--seats", str(players), "--seed", str(seed), "--max-rounds", str(max_rounds)]
    proc = subprocess.Popen(
        [*command, *args, "--port", "0"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    out: list[str] = []
    threading.Thread(target=lambda: out.extend(proc.stdout or ()), daemon=True).start()
    deadline = time.monotonic() + 30
    while not re.search(r"Join code:\s+\S+", "".join(out)):
        if time.monotonic() > deadline or proc.poll() is not None:
            sys.exit("the host did not start:\n" + "".join(out))
        time.sleep(0.01)
    text = "".join(out)
    port = int(re.search(r"ssh -p (\d+) ", text).group(1))  # type: ignore[union-attr]
    code = re.search(r"Join code:\s+(\S+)", text).group(1)  # type: ignore[union-attr]
    decisions = 0
    cpu: list[float] = []
    refused: list[int] = []
    screens: dict[str, str] = {}

    async def player(name: str, joined: asyncio.Event, start: list[float]) -> None:
        nonlocal decisions
        conn = await asyncssh.connect(
            "127.0.0.1",
            port,
            username=name,
            password=code,
            known_hosts=None,
            client_keys=None,
            agent_path=None,
        )
        async with conn:
            if table is None:
                process = await conn.create_process(term_type=None, encoding="utf-8")
            else:
                process = await conn.create_process(
                    term_type="xterm", term_size=table, encoding="utf-8", errors="replace"
                )
            screen, since, tries = "", "", 1
            while True:
                chunk = await process.stdout.read(1 << 16)
                if not chunk:
                    break
                if not screen:
                    joined.set()
                if "The game begins" in chunk and not start:
                    start.append(time.perf_counter())
                    cpu.append(_cpu_of(proc.pid))
                screen += chunk
                since += chunk
                answer, tries = answer_for(since, tries)
                if answer is None and table is not None and MORE.search(since):
                    answer = ""  # a round longer than its space: the next page
                elif answer is not None:
                    decisions += AGAIN.search(since) is None  # "Play again?" is no move
                if answer is not None:
                    since = ""
                    try:
                        process.stdin.write(answer + ("\n" if table is None else "\r"))
                    except BrokenPipeError:  # Enter at the last page, after the host hung up
                        break
            screens[name] = screen

    async def everyone() -> float:
        start: list[float] = []
        games = []
        for name in NAMES[:players]:  # one at a time, so the seats are the same every run
            joined = asyncio.Event()
            games.append(asyncio.ensure_future(player(name, joined, start)))
            await joined.wait()
        guessers = None
        if bad_logins:  # in a process of their own, as an attacker's would be
            guessers = subprocess.Popen(
                [sys.executable, "-c", GUESSERS, str(port), str(bad_logins)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
        await asyncio.gather(*games)
        elapsed = time.perf_counter() - start[0]
        cpu.append(_cpu_of(proc.pid))
        if guessers is not None:
            told, _ = guessers.communicate("", timeout=30)  # end of input: they stop
            refused.append(int(told.split()[0]))
        return elapsed

    elapsed = asyncio.run(everyone())
    proc.wait(30)
    if bad_logins:
        print(f"  ({refused[0]} wrong-code logins refused during the hosted game)")
    return elapsed, decisions, _ending(screens[NAMES[0]]), cpu[1] - cpu[0]


def _cpu_of(pid: int) -> float:
    """Seconds of CPU a process has used (Linux: /proc; NaN elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _ending(screen: str) -> str:
    """The result line of a screen's end (the same text hosted and local)."""
    tail = screen[screen.rfind("Final table") :]
    tail = re.sub(r"\x1b\[[0-?]*[ -/]*[@-~]", "\n", tail)  # a full-screen frame's codes
    lines = [line.strip() for line in tail.splitlines() if line.strip()]
    return next(line for line in lines if re.search(r"won in round|Draw|Everyone lost", line))


# -- local ---------------------------------------------------------------------------------------
class _Script(io.StringIO):
    """A seat's input: answers by ``answer_for`` from what its screen printed since."""

    def __init__(self, screen_file: io.StringIO, count: list[int]):
        super().__init__()
        self.screen_file = screen_file
        self.count = count
        self.mark = 0
        self.tries = 1

    def readline(self, size: int = -1) -> str:  # type: ignore[override]
        text = self.screen_file.getvalue()
        answer, self.tries = answer_for(text[self.mark :], self.tries)
        self.mark = len(text)
        if answer is None:
            return ""
        self.count[0] += 1
        return answer + "\n"

    def isatty(self) -> bool:
        return False


def local(players: int, seed: int, max_rounds: int) -> tuple[float, int, str, float]:
    from rich.console import Console

    from spoiler import plugins
    from spoiler.console.human import HumanAgent
    from spoiler.console.screen import Screen
    from spoiler.rules.game import Seat
    from spoiler.session.seating import new_game

    registry = plugins.load(environ={"SPOILER_PLUGINS": ""})
    count = [0]
    files, screens, seats = [], [], []
    for seat, name in enumerate(NAMES[:players]):
        file = io.StringIO()
        screen = Screen(
            Console(file=file, width=80, color_system=None, highlight=False),
            seat,
            _Script(file, count),
            delay=0.0,
        )
        files.append(file)
        screens.append(screen)
        seats.append(Seat(name, HumanAgent(screen), "human"))
    start, cpu = time.perf_counter(), time.process_time()
    game = new_game(registry, seats, None, seed, max_rounds)
    for screen in screens:
        screen.follow(game)
    game.start()
    while not game.over:
        game.play_round()
        for screen in screens:
            screen.catch_up()
    for screen in screens:
        screen.end()
    elapsed = time.perf_counter() - start
    return elapsed, count[0], _ending(files[0].getvalue()), time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--max-rounds", type=int, default=30)
    parser.add_argument(
        "--bad-logins",
        type=int,
        default=50,
        help="also play the hosted game while this many wrong-code logins go on at once",
    )
    parser.add_argument(
        "--table",
        metavar="COLSxROWS",
        default="80x24",
        help="also host the game for clients with a terminal of this size, which get the "
        "full-screen table, and print its host CPU per decision ('' to skip)",
    )
    args = parser.parse_args()
    if not 2 <= args.players <= len(NAMES):
        parser.error(f"--players must be 2 to {len(NAMES)}")
    import tempfile

    key = Path(tempfile.mkdtemp()) / "host_key"
    hosted_runs, local_runs, burst_runs = [], [], []
    for _ in range(args.runs):
        hosted_runs.append(hosted(args.players, args.seed, args.max_rounds, key))
        local_runs.append(local(args.players, args.seed, args.max_rounds))
        if args.bad_logins:
            burst = hosted(args.players, args.seed, args.max_rounds, key, args.bad_logins)
            burst_runs.append(burst)
    (_, h_decisions, h_end, _), (_, l_decisions, l_end, _) = hosted_runs[0], local_runs[0]
    if (h_decisions, h_end) != (l_decisions, l_end):
        sys.exit(
            f"the hosted and the local game differ: {h_decisions} decisions, {h_end!r} "
            f"against {l_decisions}, {l_end!r}"
        )
    h = statistics.median(run[0] for run in hosted_runs)
    loc = statistics.median(run[0] for run in local_runs)
    h_cpu = statistics.median(run[3] for run in hosted_runs)
    l_cpu = statistics.median(run[3] for run in local_runs)
    per = (h - loc) / h_decisions * 1000
    print(f"{args.players} players, seed {args.seed}: {l_end}")
    print(f"decisions (prompts answered): {h_decisions}")
    print(f"local game:  {loc * 1000:8.1f} ms (median of {args.runs})")
    print(f"hosted game: {h * 1000:8.1f} ms (median of {args.runs})")
    verdict = "within" if per < TARGET_MS else "OVER"
    print(f"hosting adds {per:.2f} ms per decision ({verdict} the {TARGET_MS:g} ms target)")
    print(
        f"CPU per decision: {l_cpu / h_decisions * 1000:.2f} ms local, "
        f"{h_cpu / h_decisions * 1000:.2f} ms in the host's process"
    )
    if args.table:
        size = tuple(int(n) for n in args.table.split("x"))
        runs = [
            hosted(args.players, args.seed, args.max_rounds, key, table=size)  # type: ignore[arg-type]
            for _ in range(args.runs)
        ]
        t_decisions, t_end = runs[0][1], runs[0][2]
        if (t_decisions, t_end) != (h_decisions, h_end):
            sys.exit(f"the full-screen game differs: {t_decisions} decisions, {t_end!r}")
        t = statistics.median(run[0] for run in runs)
        t_cpu = statistics.median(run[3] for run in runs)
        print(
            f"hosted game, full-screen table at {args.table}: {t * 1000:8.1f} ms; "
            f"host CPU {t_cpu / h_decisions * 1000:.2f} ms per decision"
        )
    if burst_runs:
        b = statistics.median(run[0] for run in burst_runs)
        b_cpu = statistics.median(run[3] for run in burst_runs)
        print(
            f"hosted game with {args.bad_logins} wrong-code logins going on at once: "
            f"{b * 1000:8.1f} ms ({(b - h) / h_decisions * 1000:+.2f} ms per decision; "
            f"host CPU {b_cpu / h_decisions * 1000:.2f} ms per decision)"
        )


if __name__ == "__main__":
    main()
