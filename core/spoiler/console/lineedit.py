"""Line editing at the local prompts, where the platform has readline: the arrow keys move in
the line (and through the answers given before), and Tab completes the answers the prompt
takes (card names, players, options, the in-game commands) and ``? NAME`` with any card's
name.

Used only when the player types at this process's own terminal; a hosted player has the
host's line editor, and piped input is read as it comes.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable

#: An escape sequence in a rendered prompt: readline must be told it takes no room on the
#: line (between \\x01 and \\x02), or it puts the cursor in the wrong place while editing.
_ESCAPE = re.compile(r"(\x1b\[[0-9;?]*[A-Za-z])")


def _readline():
    try:
        import readline
    except ImportError:  # Windows, or a Python built without it
        return None
    return readline


def available(stdin) -> bool:
    """Can a line typed at ``stdin`` be edited (this process's own terminal, with readline)?"""
    return stdin is sys.stdin and stdin.isatty() and sys.stdout.isatty() and _readline() is not None


def discard_typeahead(stdin) -> None:
    """Forget what was typed before the prompt appeared (while the bots were thinking), so a
    key pressed early never answers a question the player has not seen yet."""
    try:
        import termios

        termios.tcflush(stdin.fileno(), termios.TCIFLUSH)
    except (ImportError, OSError, ValueError):  # not a terminal after all, or no termios
        pass


def completions(typed: str, answers: Iterable[str], cards: Iterable[str]) -> list[str]:
    """What Tab offers for the line typed so far: the answers it begins (ignoring case), or
    after ``?``, the card names it begins."""
    head, question, rest = typed.partition("?")
    if question and not head.strip():
        start = rest.lstrip().lower()
        return sorted({f"? {name}" for name in cards if name.lower().startswith(start)})
    start = typed.lower()
    return sorted({word for word in answers if word.lower().startswith(start)})


def read_line(prompt: str, answers: Iterable[str], cards: Iterable[str]) -> str:
    """Read a line with editing and completion; ``prompt`` as rendered (escape codes and
    all). End of input raises EOFError, as ``input`` does."""
    readline = _readline()
    assert readline is not None
    answers, cards = list(answers), list(cards)
    offered: list[str] = []

    def complete(text: str, state: int) -> str | None:
        if state == 0:
            offered[:] = completions(readline.get_line_buffer(), answers, cards)
        return offered[state] if state < len(offered) else None

    readline.set_completer(complete)
    readline.set_completer_delims("")  # complete the whole line: card names have spaces
    if "libedit" in (readline.__doc__ or ""):  # macOS's readline
        readline.parse_and_bind("bind ^I rl_complete")
    else:
        readline.parse_and_bind("tab: complete")
    try:
        return input(_ESCAPE.sub("\x01\\1\x02", prompt))
    finally:
        readline.set_completer(None)


def typed() -> str:
    """What has been typed so far of the line being read (to draw it again after a resize)."""
    readline = _readline()
    return readline.get_line_buffer() if readline is not None else ""
