"""Plain text tables for the listing commands (``sets list``, ``cards list``).

A listing is printed and the program ends, so it should start as fast as the CLI framework:
importing rich's console and tables alone costs half of ``import typer`` (see
benchmarks/startup.py). These tables are aligned columns under a header, long cells wrapped
to the terminal's width, and colour only on a terminal (never with NO_COLOR or TERM=dumb).
The game's screens use rich as ever.
"""

from __future__ import annotations

import os
import sys
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

GAP = "  "
STYLES = {"bold": "1", "green": "32", "yellow": "33", "red": "31", "bold red": "1;31"}


@dataclass
class Column:
    header: str
    right: bool = False  # right-aligned (numbers)
    wrap: int = 0  # how much of the spare width it may take when wrapped (0: never wrapped)


def terminal_width(stream: TextIO) -> int:
    """COLUMNS if set (as rich and click read it), else the terminal's width, else 80."""
    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        pass
    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (OSError, ValueError, AttributeError):
        return 80


def wants_colour(stream: TextIO) -> bool:
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return hasattr(stream, "isatty") and stream.isatty()


def _widths(columns: Sequence[Column], rows: list[list[str]], width: int) -> list[int]:
    """Each column's width: its widest cell, the wrapped ones narrowed (by their share of
    ``wrap``) until the row fits ``width``, but never below 10 or their longest word."""
    natural = [max([len(c.header), *(len(row[i]) for row in rows)]) for i, c in enumerate(columns)]
    widths = list(natural)
    wrapped = [i for i, c in enumerate(columns) if c.wrap]
    fixed = sum(w for i, w in enumerate(widths) if i not in wrapped) + len(GAP) * (len(columns) - 1)
    room = width - fixed
    if wrapped and sum(natural[i] for i in wrapped) > room:
        share = sum(columns[i].wrap for i in wrapped)
        for i in wrapped:
            longest_word = max(
                [len(columns[i].header), *(len(w) for row in rows for w in row[i].split())]
            )
            floor = min(natural[i], max(10, longest_word))
            widths[i] = max(floor, min(natural[i], room * columns[i].wrap // share))
    return widths


def render(
    columns: Sequence[Column],
    rows: list[list[str]],
    *,
    stream: TextIO | None = None,
    title: str = "",
    styles: dict[tuple[int, int], str] | None = None,
) -> None:
    """Print ``rows`` (lists of cells) under the columns' headers. ``styles`` maps (row,
    column) to a style name of STYLES, used only when colour is wanted."""
    out = stream or sys.stdout
    colour = wants_colour(out)
    widths = _widths(columns, rows, terminal_width(out))

    def paint(text: str, style: str | None) -> str:
        return f"\x1b[{STYLES[style]}m{text}\x1b[0m" if colour and style and text.strip() else text

    def fit(i: int, text: str, last: bool) -> str:
        if columns[i].right:
            return text.rjust(widths[i])
        return text if last else text.ljust(widths[i])

    def line(cells: list[str], row_styles: list[str | None]) -> list[str]:
        parts = [
            textwrap.wrap(cell, w) or [""] if columns[i].wrap else [cell]
            for i, (cell, w) in enumerate(zip(cells, widths, strict=True))
        ]
        out_lines = []
        for k in range(max(len(p) for p in parts)):
            texts = [part[k] if k < len(part) else "" for part in parts]
            while texts and not texts[-1]:  # no padding after the last cell with text
                texts.pop()
            last = len(texts) - 1
            padded = [
                paint(fit(i, text, last=i == last), style)
                for i, (text, style) in enumerate(zip(texts, row_styles, strict=False))
            ]
            out_lines.append(GAP.join(padded))
        return out_lines

    lines = [paint(title, "bold")] if title else []
    lines += line([c.header for c in columns], ["bold"] * len(columns))
    lines.append(GAP.join("-" * w for w in widths))
    for r, row in enumerate(rows):
        lines += line(row, [(styles or {}).get((r, i)) for i in range(len(columns))])
    out.write("\n".join(lines) + "\n")
