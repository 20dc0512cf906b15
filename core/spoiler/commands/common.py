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


# -- bot options, as play, host, simulate and ladder take them --------------------------------
BOT_OPTION_HELP = (
    "An option for the bots, as KEY=VALUE; repeat it for more. Every bot is given them and "
    "reads the keys it knows (the expert: think=MS); a program bot (exec:) gets them in its "
    "hello."
)
THINK_HELP = (
    "Short for --bot-option think=MS: thinking time per decision of bots that search "
    "(expert), in milliseconds, at most 60000. Default: 200."
)
BOT_TIME_LIMIT_HELP = (
    "Seconds a program bot (exec:) may take over one decision before a random legal choice "
    "is played for it (a fault). Default: 10."
)


def bot_settings(
    pairs: list[str] | None, think: float | None, time_limit: float | None
) -> tuple[dict[str, str], float | None]:
    """The bots' options (``--bot-option``, ``--think``) and ``--bot-time-limit``, checked;
    a malformed one ends the command with one line (exit code 2)."""
    from spoiler.agents import options

    try:
        return options.parse(pairs or [], think), options.time_limit(time_limit)
    except options.OptionError as exc:
        fail(str(exc))
