"""Bot options: ``--bot-option KEY=VALUE`` on the command line, the ``options`` a bot factory
is given (``spoiler_register_agents``), kept in a game's record.

The core passes options through without knowing any of them: a key is a name, a value is
text, and each bot reads the keys it knows (the expert reads ``think``, its thinking time in
milliseconds) and ignores the others, so that one ``--bot-option`` can reach bots of several
kinds. A factory that refuses a value raises ``OptionError`` with one line saying why. A
program bot (``exec:``) gets them as they are, in its ``hello``.

``--think MS`` is a shorthand for ``--bot-option think=MS``.

One key means the same to every bot that reads it: ``jobs``, the processes a bot may share
its search among (the expert's ``--bot-option jobs=N``). A simulation (and the ladder) plays
each game in one process and its games on every core, so it refuses more than one
(``one_process``).
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Iterable, Mapping

#: What a key may be: a name (letters, digits and ``_``, not starting with a digit), as in
#: ``KIND@KEY=VALUE``.
KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,39}")
#: The most options a game may carry, and the longest value: a record stays small.
MAX_OPTIONS = 32
MAX_VALUE = 200
#: The longest a program bot may take over one decision (``--bot-time-limit``), in seconds.
MAX_TIME_LIMIT = 3600.0
#: The option naming how many processes a bot may search in.
JOBS = "jobs"


class OptionError(ValueError):
    """A bot option that is malformed, or that a bot refuses; the message is one line."""


def parse_pair(text: str, where: str = "--bot-option") -> tuple[str, str]:
    """``"think=800"`` as ``("think", "800")``; OptionError names what is wrong."""
    key, sep, value = text.partition("=")
    if not sep:
        raise OptionError(f"{where} {text!r}: expected KEY=VALUE (e.g. think=800)")
    check(key, value, where)
    return key, value


def check(key: object, value: object, where: str = "--bot-option") -> None:
    """Refuse (OptionError) a key that is not a name or a value that is not a short line of
    text."""
    if not isinstance(key, str) or not KEY.fullmatch(key):
        raise OptionError(
            f"{where}: {key!r} is not an option name (letters, digits and _, "
            "at most 40, not starting with a digit)"
        )
    if not isinstance(value, str):
        raise OptionError(f"{where} {key}: the value must be text, not {value!r}")
    if len(value) > MAX_VALUE or any(ord(c) < 32 or ord(c) == 127 for c in value):
        raise OptionError(
            f"{where} {key}: the value must be one line of at most {MAX_VALUE} characters"
        )


def parse(pairs: Iterable[str], think: float | None = None) -> dict[str, str]:
    """The options of ``--bot-option`` pairs (a key given twice: the last wins), with
    ``--think MS`` as ``think=MS`` (a ``--bot-option think=`` given as well wins)."""
    options: dict[str, str] = {}
    if think is not None:
        if not (think > 0 and math.isfinite(think)):  # the bots check the rest (the expert's most)
            raise OptionError(f"--think must be more than 0 milliseconds, not {think:g}")
        options["think"] = number(think)
    for text in pairs:
        key, value = parse_pair(text)
        options[key] = value
    if len(options) > MAX_OPTIONS:
        raise OptionError(f"--bot-option: at most {MAX_OPTIONS} options, not {len(options)}")
    return options


def checked(options: Mapping, where: str) -> dict[str, str]:
    """Options read from elsewhere (a record), each checked as the command line's are."""
    if len(options) > MAX_OPTIONS:
        raise OptionError(f"{where}: at most {MAX_OPTIONS} options, not {len(options)}")
    for key, value in options.items():
        check(key, value, where)
    return dict(options)


def number(value: float) -> str:
    """A number as an option's text: ``800.0`` as ``"800"``, ``0.5`` as ``"0.5"``."""
    if math.isfinite(value) and float(value).is_integer():
        return str(int(value))
    return repr(float(value))


def time_limit(value: float | None, where: str = "--bot-time-limit") -> float | None:
    """A program bot's time limit per decision, in seconds: more than 0, at most an hour."""
    if value is None:
        return None
    if type(value) not in (int, float) or not (0 < value <= MAX_TIME_LIMIT):
        raise OptionError(
            f"{where}: {value!r} is not a time limit (more than 0, at most "
            f"{MAX_TIME_LIMIT:g} seconds)"
        )
    return float(value)


def describe(options: Mapping[str, str]) -> str:
    """``think=800 depth=3``: options as the command line gives them."""
    return " ".join(f"{key}={value}" for key, value in options.items())


def cores() -> int:
    """This machine's cores: the most processes a bot may search in (``jobs``)."""
    return os.cpu_count() or 1


def within_cores(options: Mapping[str, str]) -> tuple[dict[str, str], str | None]:
    """A record's options as this machine can play them, and a line saying what changed (None
    when nothing did). ``jobs`` changes only how soon a seeded bot decides (its rollouts are
    the same, shared among more processes), so a game recorded with more jobs than this
    machine has cores goes on with as many as it has: the same play, slower."""
    value = options.get(JOBS)
    here = cores()
    if value is None or not value.strip().isdecimal() or int(value) <= here:
        return dict(options), None  # (a value no bot takes is refused as it always was)
    return {**options, JOBS: str(here)}, (
        f"The record's bots searched in {int(value)} processes ({JOBS}={value}); this machine "
        f"has {here} {'core' if here == 1 else 'cores'}, so they search in {here}: the same "
        "play, slower."
    )


def one_process(options: Mapping[str, str], where: str | None = None) -> None:
    """Refuse (OptionError) ``jobs`` of more than one process, where every game is played in
    one process (a simulation, the ladder); ``where``: how the option was given (default
    ``--bot-option jobs=N``)."""
    value = options.get(JOBS)
    if value is not None and value.strip() != "1":
        raise OptionError(
            f"{where or f'--bot-option {JOBS}={value}'}: simulate and ladder play each game in "
            "one process, and their games on every core (--jobs N)"
        )
