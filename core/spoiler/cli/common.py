"""What every command shares: the consoles and the one-line error."""

from __future__ import annotations

import functools
from typing import NoReturn

import typer


@functools.cache
def console():
    from rich.console import Console

    return Console(highlight=False)


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


def load_registry():
    """Load the plugins (never raises for a broken plugin: it is recorded instead)."""
    from spoiler import plugins

    return plugins.load()
