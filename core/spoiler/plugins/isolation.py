"""``spoiler sets validate`` in a child process: a plugin that exits, hangs, loops or eats
memory is reported, never passed, and never takes the command down.

The ``spoiler`` process that prints the verdict never imports a plugin. A child process loads
the plugins and plays the games (``spoiler.validation.validate_named``), under a memory limit
(``RLIMIT_AS``), telling the parent over a pipe what it is doing: which plugin it imports,
each game it finishes, each set's report. The parent waits for each message with a deadline:

* a child that dies or hangs while importing a plugin: that plugin is reported as broken
  ("exited the process while importing", "did not finish importing within 10 s"), and a new
  child goes on without it;
* a child that dies or hangs during a set's games (``os._exit`` in a card, a loop no signal
  interrupts, memory past the limit): the set gets a problem naming the seed of the game that
  was under way (``spoiler sets validate SET --games 1 --seed S`` reproduces it), and a new
  child goes on with the next sets.

Inside the child, a round that runs for more than ``validation.ROUND_SECONDS`` (2 s) is
interrupted and blamed on its card, as in-process validation does.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import select
import subprocess
import sys
from dataclasses import asdict

from spoiler.plugins.validation import Problem, SetReport

#: A plugin that takes longer than this to import is reported as hanging.
IMPORT_SECONDS = 10.0
#: The longest wait for the child's next word once games are under way (a game over its
#: rounds' own time limits, or a round no signal could interrupt).
GAME_SECONDS = 8.0
#: The child's address-space limit: far above a validation's needs (about 0.2 GB).
MEMORY_BYTES = 2 * 1024**3
#: Whether the child can be given the pipe it tells the parent on (``pass_fds``) and the
#: parent can wait on that pipe with a deadline (``select()``): both are POSIX only. Elsewhere
#: ``spoiler sets validate`` validates in its own process, and says so (docs/installing.md).
CHILDREN = os.name == "posix"
#: What ``spoiler sets validate`` prints where CHILDREN is false.
IN_PROCESS = (
    "Note: sets are validated in this process: a child process needs pass_fds and select() "
    "on pipes (POSIX), so a plugin that exits or hangs stops the command."
)


class UnknownSet(LookupError):
    """A set named on the command line that is not installed at all."""


def validate(
    names: list[str] | None, games: int, first_seed: int, progress=None, watch=None
) -> tuple[list[SetReport], list[Problem]]:
    """``validation.validate_named``, run in child processes (see the module docstring);
    ``progress(set_name)`` is called after each game. ``watch``: a class or function a module
    defines at its top level (the child imports it by its name). Raises UnknownSet."""
    broken: dict[str, str] = {}  # plugins that took a child down while importing
    done: dict[str, SetReport] = {}  # sets whose games are over (well or not)
    general: list[Problem] = []
    for _ in range(64):  # each new child gets past at least one plugin or set
        outcome = _Child(names, games, first_seed, broken, list(done), progress, watch).run()
        if outcome.error is not None:
            raise UnknownSet(outcome.error)
        done.update(outcome.reports)
        general = outcome.general or general
        if outcome.finished:
            break
        if outcome.importing is not None and outcome.importing in broken:
            break  # cannot happen: a plugin known broken is never imported again
        if outcome.importing is not None:
            broken[outcome.importing] = outcome.why("while importing")
        elif outcome.playing is not None:
            name, seed, report = outcome.playing
            report.problems.append(
                Problem(name, None, "crashed", outcome.why("in a game"), seed, name)
            )
            done[name] = report
        else:  # registering sets and bots, or static checks: no one plugin to blame
            general.append(
                Problem("spoiler", None, "crashed", f"a plugin {outcome.why('while loading')}")
            )
            break
    order = outcome.chosen or list(done)
    return [done[n] for n in order if n in done], general


class _Outcome:
    def __init__(self):
        self.finished = False
        self.error: str | None = None
        self.chosen: list[str] = []
        self.reports: dict[str, SetReport] = {}
        self.general: list[Problem] = []
        self.importing: str | None = None
        self.playing: tuple[str, int, SetReport] | None = None  # set, seed, report so far
        self.returncode: int | None = None
        self.timed_out: float | None = None
        self.phase = "importing"  # importing, registering, playing

    def why(self, where: str) -> str:
        where = f" {where}" if where else ""
        if self.timed_out is not None:
            what = {"importing": "importing", "registering": "registering its sets and bots"}
            doing = what.get(self.phase, "the game")
            return f"did not finish {doing} within {self.timed_out:g} s (hung, or in a loop)"
        code = self.returncode
        if code is not None and code < 0:
            import signal

            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = str(-code)
            return f"killed the validation process{where} (signal {name})"
        return f"exited the validation process{where} (exit code {code})"


class _Child:
    def __init__(self, names, games, first_seed, broken, done, progress, watch=None):
        from spoiler.plugins import validation

        self.request = {
            "names": names,
            "games": games,
            "seed": first_seed,
            "broken": broken,
            "done": done,
            "round_seconds": validation.ROUND_SECONDS,
            "memory": MEMORY_BYTES,
            # By name: the child imports it (the caller's layer, which this one cannot import).
            "watch": f"{watch.__module__}:{watch.__qualname__}" if watch is not None else None,
        }
        self.progress = progress

    def run(self) -> _Outcome:
        outcome = _Outcome()
        read_end, write_end = os.pipe()
        child = subprocess.Popen(
            [sys.executable, "-c", "from spoiler.isolation import child; child()"],
            stdin=subprocess.DEVNULL,
            stdout=sys.stderr.fileno() if _has_fd(sys.stderr) else subprocess.DEVNULL,
            stderr=sys.stderr.fileno() if _has_fd(sys.stderr) else subprocess.DEVNULL,
            pass_fds=(write_end,),
            env={**os.environ, "SPOILER_CHILD": f"{write_end}:{json.dumps(self.request)}"},
        )
        os.close(write_end)
        try:
            self._listen(read_end, outcome)
        finally:
            os.close(read_end)
            if child.poll() is None:
                child.kill()
            outcome.returncode = child.wait()
        return outcome

    def _listen(self, fd: int, outcome: _Outcome) -> None:
        buffer = b""
        deadline = IMPORT_SECONDS
        playing: dict | None = None
        while True:
            ready, _, _ = select.select([fd], [], [], deadline)
            if not ready:
                outcome.timed_out = deadline
                break
            chunk = os.read(fd, 65536)
            if not chunk:
                break  # the child is gone
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                message = json.loads(line)
                kind = message["kind"]
                if kind == "importing":
                    outcome.importing, deadline = message["plugin"], IMPORT_SECONDS
                    outcome.phase = "importing" if outcome.importing else "registering"
                elif kind == "loaded":
                    outcome.importing, deadline = None, GAME_SECONDS
                    outcome.phase = "playing"
                    outcome.error, outcome.chosen = message["error"], message["chosen"]
                elif kind == "set":
                    playing = {"name": message["name"], "cards": message["cards"], "games": 0}
                    outcome.playing = self._so_far(playing, message["first"])
                elif kind == "game":
                    assert playing is not None
                    playing["games"] += 1
                    outcome.playing = self._so_far(playing, message["next"])
                    if self.progress is not None:
                        self.progress(playing["name"])
                elif kind == "report":
                    report = _report(message["report"])
                    outcome.reports[report.name] = report
                    outcome.playing = playing = None
                elif kind == "done":
                    outcome.general = [Problem(**p) for p in message["general"]]
                    outcome.finished = True
                    return

    @staticmethod
    def _so_far(playing: dict, seed: int) -> tuple[str, int, SetReport]:
        report = SetReport(playing["name"], playing["cards"], games=playing["games"])
        return playing["name"], seed, report


def _has_fd(stream) -> bool:
    try:
        stream.fileno()
    except (AttributeError, OSError, ValueError):
        return False
    return True


def _report(data: dict) -> SetReport:
    problems = [Problem(**p) for p in data.pop("problems")]
    return SetReport(**data, problems=problems)


# ==============================================================================================
# The child
# ==============================================================================================
def child() -> None:
    """The child's side: load the plugins, validate, and tell the parent at each step."""
    from spoiler import plugins
    from spoiler.plugins import validation

    fd_text, _, request_text = os.environ.pop("SPOILER_CHILD").partition(":")
    request = json.loads(request_text)
    out = os.fdopen(int(fd_text), "w", buffering=1)

    def tell(kind: str, **data) -> None:
        out.write(json.dumps({"kind": kind, **data}) + "\n")

    _limit_memory(request["memory"])
    validation.ROUND_SECONDS = request["round_seconds"]
    registry = plugins.load(
        before_import=lambda info: tell("importing", plugin=info.key if info else None),
        known_broken=request["broken"],
    )
    names, games, first_seed = request["names"], request["games"], request["seed"]
    chosen = validation.chosen_sets(registry, names)
    known = {info.name for info in registry.set_infos}
    missing = [n for n in names or () if n not in known]
    error = None
    if missing:
        error = plugins.unknown_set(missing[0], known)
    tell("loaded", error=error, chosen=chosen)
    if error is not None:
        return
    skip = set(request["done"])
    state = {"set": None, "next": first_seed}

    def progress(name: str) -> None:
        state["next"] += 1
        tell("game", next=state["next"])

    class Telling(list):
        """The sets still to validate, announcing each as validation reaches it."""

        def __iter__(self):
            for name in super().__iter__():
                state["next"] = first_seed
                tell("set", name=name, cards=len(registry.sets[name].cards), first=first_seed)
                yield name

    todo = Telling(n for n in chosen if n not in skip)
    watch = None
    if request.get("watch"):
        module, _, name = request["watch"].partition(":")
        watch = getattr(importlib.import_module(module), name)
    reports, general = validation.validate(registry, todo, games, first_seed, progress, watch)
    general = validation.concerning(registry, names, general)
    for report in reports:
        tell("report", report=asdict(report))
    tell("done", general=[asdict(p) for p in general])
    with contextlib.suppress(OSError):
        out.close()


def _limit_memory(limit: int) -> None:
    """Cap the child's address space, where the platform can (a card that eats memory then
    fails with MemoryError, or the child dies; either is reported)."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        if soft == resource.RLIM_INFINITY or soft > limit:
            resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ImportError, ValueError, OSError):
        pass
