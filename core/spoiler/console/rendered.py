"""Prints of text rendered once per process: the seats of a hosted table (and the screens at
one keyboard) are told mostly the same lines, and rich renders a line in about as long as the
engine takes for a play.

``print_shared(console, line)`` prints a line of the narration so;
``shared(objects, kwargs, where, render)`` gives what ``render()`` gives, rendered only the
first time a print of equal text is made for an equal ``where`` (the width and the colours
it is rendered for). Only prints of strings, ``Text`` and padded ``Text`` are kept (what
the narration prints); anything else is rendered every time. The key is the whole text, so
a screen is given only what it would have rendered itself.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from rich.console import Console
from rich.padding import Padding
from rich.text import Text

#: What was rendered, by the print's signature and where it was rendered for.
_RENDERED: dict[tuple, str] = {}
#: Prints kept at most (emptied when full: a game's lines, several times over).
SHARED_PRINTS = 4096


def shared(objects: tuple, kwargs: dict, where: Hashable, render: Callable[[], str]) -> str:
    """``render()``, or what it gave for an equal print of text rendered for ``where``."""
    key = signature(objects, kwargs)
    if key is None:
        return render()
    key = (key, where)
    text = _RENDERED.get(key)
    if text is None:
        if len(_RENDERED) >= SHARED_PRINTS:
            _RENDERED.clear()
        text = _RENDERED[key] = render()
    return text


def print_shared(console: Any, line: Padding) -> None:
    """``console.print(line)`` for a line of the narration (padded text), rendered once in
    this process for each width and colours it is printed in. Anything but a rich
    ``Console`` (the full-screen table's sink, which keeps prints) is given the print."""
    if not isinstance(console, Console):
        console.print(line)
        return

    def render() -> str:
        with console.capture() as captured:
            console.print(line)
        return captured.get()

    where = ("transcript", console.width, console.color_system, console.no_color,
             console.soft_wrap, console.tab_size)  # fmt: skip
    console.file.write(shared((line,), {}, where, render))
    console.file.flush()


def signature(objects: tuple, kwargs: dict) -> tuple | None:
    """A print as a key, equal for equal prints of text; None for anything else."""
    parts = []
    for obj in objects:
        part = _signature_of(obj)
        if part is None:
            return None
        parts.append(part)
    key = (tuple(parts), tuple(sorted(kwargs.items())))
    try:
        hash(key)
    except TypeError:  # a keyword's value that cannot be a key
        return None
    return key


def _signature_of(obj: Any) -> tuple | None:
    if isinstance(obj, str):
        return ("str", obj)
    if type(obj) is Text:
        return ("text", obj.plain, tuple(obj.spans), str(obj.style), obj.justify, obj.overflow,
                obj.no_wrap, obj.end)  # fmt: skip
    if type(obj) is Padding:
        inner = _signature_of(obj.renderable)
        if inner is None:
            return None
        padding = (obj.top, obj.right, obj.bottom, obj.left)
        return ("padding", inner, padding, str(obj.style), obj.expand)
    return None
