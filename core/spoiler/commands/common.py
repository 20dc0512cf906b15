"""What every command shares: the consoles and the one-line error."""

from __future__ import annotations

import functools
import re
import sys
from typing import NoReturn

import typer


class _Stdout:
    """Standard output as the console writes to it: outside a terminal (a file, a pipe),
    without the spaces rich leaves at the end of wrapped, padded and table lines. Read anew
    at each write, as ``Console()`` does, so a test's captured output is honoured."""

    def write(self, text: str) -> int:
        out = sys.stdout
        if not out.isatty():
            text = _TRAILING_SPACES.sub("\n", text)
        return out.write(text)

    def __getattr__(self, name: str):
        return getattr(sys.stdout, name)


_TRAILING_SPACES = re.compile(r" +\n")


@functools.cache
def console():
    from rich.console import Console

    return Console(highlight=False, file=_Stdout())  # type: ignore[arg-type]  # a text stream


@functools.cache
def err_console():
    from rich.console import Console

    return Console(stderr=True, highlight=False)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print a one-line error to stderr and exit with ``code`` (2: usage or bad file)."""
    from rich.markup import escape

    # soft_wrap: the error stays one line however narrow the terminal (or a pipe) is.
    err_console().print(f"[bold red]Error:[/] {escape(message)}", soft_wrap=True)
    raise typer.Exit(code)


#: How a plugin's status is shown (``sets list``, ``plugins``).
STATUS_STYLE = {"ok": "green", "broken": "bold red", "disabled": "yellow"}


def print_json(data) -> None:
    """A command's ``--json`` answer, on stdout."""
    import json

    typer.echo(json.dumps(data, indent=2))


def load_registry():
    """Load the plugins (never raises for a broken plugin: it is recorded instead)."""
    from spoiler import plugins

    return plugins.load()
