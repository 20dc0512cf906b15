"""The ``spoiler`` command. Its commands are plugins (entry point group ``spoiler.commands``),
each imported only when it runs; a command's module imports the engine and loads plugins only
then too, so ``--help`` and ``--version`` cost no more than Typer itself.

The command modules leave out ``from __future__ import annotations``: Typer reads every
command's annotations at each start, and string annotations take it twice as long."""

import os

import typer

from spoiler import __version__
from spoiler.commands.group import RootGroup, examples, help_when_bare

app = typer.Typer(
    cls=RootGroup,
    name="spoiler",
    help="Spoiler: the card game where everyone plays at once and priority decides. "
    "Play against bots or friends, and add card sets with spoiler install.",
    # Plain help: Typer's rich help imports a Markdown parser and costs twice its own
    # start-up (see benchmarks/startup.py); output from the commands is rich as ever.
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
    invoke_without_command=True,  # bare `spoiler` prints the help (see _root)
    epilog=examples(
        "spoiler play                      you against three bots",
        "spoiler play --bots 4 --delay 1   watch four bots, one event a second",
        "spoiler cards show Accuse         a card's text and rulings",
        "spoiler COMMAND --help            what a command does, with examples",
    ),
)


def engine_build() -> str:
    """``"compiled"`` when the engine runs compiled (built with mypyc: hatch_compile.py), else
    ``"pure Python"``. Looked up without importing the engine (``--version`` stays light)."""
    from importlib.machinery import EXTENSION_SUFFIXES

    rules = os.path.join(os.path.dirname(os.path.dirname(__file__)), "rules")
    found = any(os.path.exists(os.path.join(rules, "game" + s)) for s in EXTENSION_SUFFIXES)
    return "compiled" if found else "pure Python"


def _version(value: bool) -> None:
    if value:
        # A compiled engine says so; the pure one, the usual case, does not.
        compiled = " (compiled engine)" if engine_build() == "compiled" else ""
        typer.echo(f"spoiler {__version__}{compiled}")
        raise typer.Exit()


@app.callback()
def _root(
    ctx: typer.Context,
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Show the version and exit."
    ),
) -> None:
    """Spoiler: the card game where everyone plays at once and priority decides."""
    help_when_bare(ctx)


def main() -> None:
    app()
