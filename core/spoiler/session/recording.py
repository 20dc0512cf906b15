"""Recording a game as it is played, for any front end (``spoiler play``, ``spoiler host``):
the record kept in memory and, when asked, in a file written after every whole round; and
saving a game that stopped. Asking the user whether to save is the front end's
(``spoiler.console.game.save_stopped``).
"""

from __future__ import annotations

import os
from pathlib import Path


class RecordingError(Exception):
    """A record that cannot be made or written. The message names the file and why;
    ``code`` is the exit code a command ends with (2: refused before the game began, 1: the
    game stops)."""

    def __init__(self, message: str, code: int = 2):
        super().__init__(message)
        self.code = code


def start_recording(
    game,
    registry,
    path: Path | None,
    force: bool = False,
    match: tuple[int, int] | None = None,
    bot_options: dict[str, str] | None = None,
    bot_time_limit: float | None = None,
    bot_key: str | None = None,
):
    """A recorder for a game about to be played. It keeps the record in memory (so a stopped
    game can still be saved) and, with a ``path``, writes it after every round. The file is
    created (refused when it exists, unless ``force``), locked for the whole game (or match)
    and the empty record written at once, so a path that cannot be written is refused before
    the game starts (``RecordingError``). ``match``: (wins needed, match seed) for the first
    game of a match; ``bot_options``, ``bot_time_limit``, ``bot_key``: the bots'
    ``--bot-option``, ``--bot-time-limit`` and the key of their seeds, kept for ``resume``."""
    from spoiler.session import recordfile, records

    record = records.Record.of(game, registry, bot_options, bot_time_limit, bot_key)
    if match is not None:
        record.match = records.Match(*match)
    recorder = records.Recorder(record)
    if path is not None:
        try:
            held = recordfile.RecordFile.create(path, force)
        except recordfile.FileProblem as exc:
            raise RecordingError(f"--record {path}: {exc}") from None
        try:
            recorder.record.save(held)
        except (OSError, recordfile.FileProblem) as exc:
            held.close()
            raise RecordingError(f"--record {path}: cannot write it: {reason(exc)}") from None
        recorder.path = held
    return recorder


def stop_recording(recorder) -> None:
    """The game is over or stopped: let go of its record file (and its lock)."""
    if recorder.path is not None:
        recorder.path.close()


def reason(exc: BaseException) -> str:
    """Why a file could not be written, in a few words."""
    return getattr(exc, "strerror", None) or str(exc)


def record_round(recorder, game) -> None:
    """After each whole round: add it to the record (and the file). ``RecordingError``
    (exit code 1) when the file cannot be written: the game stops there."""
    from spoiler.session import recordfile

    try:
        recorder.round_played(game)
    except (OSError, recordfile.FileProblem) as exc:
        raise RecordingError(
            f"--record {shown(recorder.path)}: cannot write it: {reason(exc)}; the game "
            f"stops here (seed {game.seed})",
            1,
        ) from None


def shown(target) -> Path:
    """The path of a record, held or not, as the user named it."""
    return getattr(target, "given", target)


def whole_rounds(rounds: int) -> str:
    """'no whole round yet', 'the 1 whole round played', 'the 3 whole rounds played'."""
    if rounds == 0:
        return "no whole round played yet"
    return f"the {rounds} whole round{'s' * (rounds != 1)} played"


def save_runaway(recorder) -> str:
    """A game stopped by the runaway guard: save its whole rounds without asking (there may be
    no one to ask), and say where, in a sentence to follow the guard's message."""
    from spoiler.session import recordfile

    record, path = recorder.record, recorder.path
    if path is None:
        path = free_name(f"spoiler-{record.seed}", ".toml")
        try:
            with recordfile.RecordFile.create(path) as held:
                record.save(held)
        except (OSError, recordfile.FileProblem) as exc:
            return f"The record could not be saved to {path}: {reason(exc)}."
    where = shown(path)
    return (
        f"The record ({whole_rounds(len(record.rounds))}) is saved in {where}; "
        f"spoiler resume {where} plays that round again."
    )


def free_name(stem: str, suffix: str) -> Path:
    """``stem + suffix`` (relative to the current directory), numbered if that file exists."""
    path, n = Path(stem + suffix), 2
    while os.path.lexists(path):
        path, n = Path(f"{stem}-{n}{suffix}"), n + 1
    return path


def play_command(record, seed: int) -> str | None:
    """The ``spoiler play`` command that plays the game of ``record`` again with ``seed``:
    every option that decides it (sets, players, bots and their options, limits), so that the
    same answers give the same game. Bots of several kinds are named in the order they take
    the seats in turn (``--bot greedy --bot random``). None for a table ``play`` cannot seat
    (humans after bots, or kinds not in turn: a hosted game a bot took a seat of)."""
    import shlex

    kinds = [p.kind for p in record.players]
    humans = [p.name for p in record.players if p.kind == "human"]
    bots = kinds[len(humans) :]
    period = next(
        (n for n in range(1, len(bots) + 1) if bots == [bots[i % n] for i in range(len(bots))]), 0
    )
    if "human" in bots:
        return None
    words = [
        "spoiler",
        "play",
        "--seed",
        str(seed),
        "--sets",
        ",".join(s.name for s in record.sets),
    ]
    if humans:
        words += ["--players", ",".join(humans)]
    words += ["--bots", str(len(bots))]
    if bots:
        for kind in bots[:period]:
            words += ["--bot", kind]
        for key, value in record.bot_options.items():
            words += ["--bot-option", f"{key}={value}"]
        if record.bot_time_limit is not None:
            words += ["--bot-time-limit", f"{record.bot_time_limit:g}"]
        if record.bot_key is not None:
            words += ["--bot-key", record.bot_key]
    if record.max_rounds != 100:
        words += ["--max-rounds", str(record.max_rounds)]
    if record.strict:
        words.append("--strict")
    return shlex.join(words)
