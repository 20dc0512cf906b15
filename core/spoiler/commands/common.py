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
def _console_class():
    from rich.console import Console

    class PipedConsole(Console):
        def on_broken_pipe(self) -> None:
            # rich exits 1 here; the command ends as any broken pipe does (BROKEN_PIPE).
            self.quiet = True
            raise BrokenPipeError

    return PipedConsole


@functools.cache
def console():
    return _console_class()(highlight=False, file=_Stdout())


@functools.cache
def err_console():
    return _console_class()(stderr=True, highlight=False)


def note_partners(asked: list[str] | tuple[str, ...] | None, played: list) -> None:
    """Say on stderr which sets are in the deck only because the asked ones cannot end a
    game alone (``CardSet.requires``): ``played`` is what ``Registry.sets_played`` gave."""
    if asked is None:
        return
    added = [s.name for s in played if s.name not in asked]
    if added:
        needy = [s.name for s in played if set(s.requires) & set(added)]
        err_console().print(
            f"Note: {', '.join(needy)} cannot end a game alone, so {', '.join(added)} "
            f"{'is' if len(added) == 1 else 'are'} in the deck too.",
            markup=False,
            soft_wrap=True,
        )


def fail(message: str, code: int = 2) -> NoReturn:
    """Print a one-line error to stderr and exit with ``code`` (2: usage or bad file)."""
    from rich.markup import escape

    # soft_wrap: the error stays one line however narrow the terminal (or a pipe) is.
    err_console().print(f"[bold red]Error:[/] {escape(message)}", soft_wrap=True)
    raise typer.Exit(code)


#: How a plugin's status is shown (``sets list``, ``plugins``).
STATUS_STYLE = {"ok": "green", "broken": "bold red", "disabled": "yellow"}


#: The layout of every ``--json`` answer, which each carries as ``"schema"`` (docs/json.md):
#: raised when a key changes its meaning or type, or goes away (a new key does not raise it).
JSON_SCHEMA = 1


def print_json(data: dict) -> None:
    """A command's ``--json`` answer, on stdout: one object, which says its schema version
    and the spoiler-game that made it before its own keys."""
    import json

    from spoiler import __version__

    typer.echo(json.dumps({"schema": JSON_SCHEMA, "spoiler_game": __version__, **data}, indent=2))


def names_of(values, option: str, what: str = "set", unique: bool = True) -> list[str] | None:
    """The names an option that takes a list was given, repeated or comma-separated alike
    (None when it was not given); none, or an empty one, is a usage error."""
    from spoiler.names import EmptyName, split

    try:
        return split(values, what, unique)
    except EmptyName as exc:
        fail(f"{option} {exc}")


def bot_kinds(values: list[str]) -> list[str]:
    """The bot kinds --bot was given, repeated or comma-separated; an ``exec:`` command is
    taken whole (a program's arguments may hold commas)."""
    kinds: list[str] = []
    for value in values:
        if value.strip().startswith("exec:"):
            kinds.append(value.strip())
        else:
            kinds += names_of(value, "--bot", "kind", unique=False) or []
    return kinds


def load_registry():
    """Load the plugins (never raises for a broken plugin: it is recorded instead). A name
    in SPOILER_PLUGINS that no installed plugin distribution has is warned about."""
    from spoiler import plugins

    registry = plugins.load()
    for line in unknown_allowed():
        err_console().print(f"Warning: {line}", markup=False, highlight=False, soft_wrap=True)
    return registry


def unknown_allowed() -> tuple[str, ...]:
    """One line for each name in SPOILER_PLUGINS that is no installed distribution with
    plugins or commands, with the closest that is."""
    import os

    from spoiler import entrypoints
    from spoiler.names import did_you_mean

    allowed = entrypoints.allowlist(os.environ)
    if not allowed:
        return ()
    there = {
        ep.distribution
        for group in ("spoiler", "spoiler.commands")
        for ep in entrypoints.installed(group)
    } - {entrypoints.CORE_DISTRIBUTION}
    return tuple(
        f"SPOILER_PLUGINS names {name!r}, which is no installed plugin distribution "
        f"({did_you_mean(name, there)}installed: {', '.join(sorted(there)) or 'none'})"
        for name in sorted(allowed - there)
    )


# -- bot options, as play, host, simulate and ladder take them --------------------------------
BOT_OPTION_HELP = (
    "An option for the bots, as KEY=VALUE; repeat it for more. Every bot is given them and "
    "reads the keys it knows (the expert: think=MS); a program bot (exec:) gets them in its "
    "hello."
)
#: For the commands that play one game: the expert may search in several processes there.
JOBS_HELP = (
    "The expert reads jobs=N too: its search shared among N processes (the same play, sooner)."
)
THINK_HELP = (
    "Short for --bot-option think=MS: thinking time per decision of bots that search "
    "(expert), in milliseconds, at most 60000. Default: 200."
)
BOT_TIME_LIMIT_HELP = (
    "Seconds a program bot (exec:) may take over one decision before a random legal choice "
    "is played for it (a fault). Default: 10."
)


BOT_KEY_HELP = "The secret the bots' seeds are keyed by, so no bot can search back its game's seed."


# One declaration of each option for every command that takes it (Typer reads them, never
# changes them); ``note`` is what the option means for that command in particular.
def bot_option_flag(note: str = ""):
    return typer.Option(None, "--bot-option", metavar="KEY=VALUE", help=BOT_OPTION_HELP + note)


def think_flag():
    return typer.Option(None, "--think", metavar="MS", help=THINK_HELP)


def bot_time_limit_flag(note: str = ""):
    return typer.Option(None, "--bot-time-limit", metavar="S", help=BOT_TIME_LIMIT_HELP + note)


def bot_key_flag(default: str):
    return typer.Option(None, "--bot-key", metavar="KEY", help=f"{BOT_KEY_HELP} {default}")


def jobs_flag():
    return typer.Option(
        None, "--jobs", metavar="N", help="Processes to play in. Default: every available core."
    )


def cluster_flag():
    return typer.Option(
        None,
        "--cluster",
        metavar="ADDRESS",
        help="Play on a Dask distributed scheduler (tcp://HOST:PORT) instead of local processes; "
        "every batch checks its worker has this machine's plugins. Needs spoiler-game[cluster].",
    )


def plain_flag(what: str = "the game"):
    return typer.Option(
        False,
        "--plain",
        help=f"Tell {what} as a transcript, line after line, instead of the full-screen "
        "table a terminal gets (for screen readers; pipes and TERM=dumb get it anyway).",
    )


def checked_key(given: str | None) -> str:
    """The run's key for bot seeds (``--bot-key``): the one given, checked, or a new one."""
    from spoiler.model.seeds import check_key, new_key

    if given is None:
        return new_key()
    try:
        return check_key(given)
    except ValueError as exc:
        fail(f"--bot-key: {exc}")


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
