"""The one convention for names on the command line (docs/cli.md, "Lists of names"): an
option that takes names takes them repeated or comma-separated alike (``--sets base --sets
chrono`` is ``--sets base,chrono``), and an unknown name is told in one line with the closest
installed one. It imports nothing of spoiler, so every layer may use it."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class EmptyName(ValueError):
    """A list of names with an empty one in it (``--sets base,,chrono``, ``--sets ""``)."""


def split(
    values: Iterable[str] | str | None, what: str = "name", unique: bool = True
) -> list[str] | None:
    """The names an option was given, in order, each once (or as often as given, for
    ``unique=False``: one bot kind per seat): every value split at commas (None when the
    option was not given). EmptyName when there is none, or an empty one."""
    if values is None:
        return None
    if isinstance(values, str):
        values = [values]
    given = [name.strip() for value in values for name in value.split(",")]
    if not any(given):
        raise EmptyName(f"is empty; name at least one {what}")
    if not all(given):
        raise EmptyName(
            f"{','.join(values)!r} has an empty {what}; separate {what}s with commas "
            "or repeat the option"
        )
    return list(dict.fromkeys(given)) if unique else given


def closest(wanted: str, known: Iterable[str]) -> str | None:
    """The known name closest to ``wanted`` (any case), or None when none is close."""
    by_lower = {k.lower(): k for k in known}
    close = difflib.get_close_matches(wanted.lower(), list(by_lower), n=1, cutoff=0.6)
    if not close:  # a prefix is as good a guess ("acc" for Accuse)
        close = [k for k in sorted(by_lower) if k.startswith(wanted.lower())][:1]
    return by_lower[close[0]] if close and wanted else None


def did_you_mean(wanted: str, known: Iterable[str]) -> str:
    """``"did you mean 'chrono'? "`` for the closest known name, or ``""``."""
    found = closest(wanted, known)
    return f"did you mean {found!r}? " if found is not None else ""


def unknown(what: str, wanted: str, known: Iterable[str], listed: bool = True) -> str:
    """The one line for a name that is not installed: ``no set named 'chrno' (did you mean
    'chrono'? installed: base, chrono)``; with ``listed=False`` (cards: too many to list)
    only the guess."""
    known = sorted(known)
    guess = did_you_mean(wanted, known)
    if listed:
        return f"no {what} {wanted!r} ({guess}installed: {', '.join(known) or 'none'})"
    return f"no {what} {wanted!r}" + (f" ({guess.rstrip()})" if guess else "")
