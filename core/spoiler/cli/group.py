"""How the ``spoiler`` command presents itself: commands listed in the order a newcomer needs
them, each with its whole one-line summary, and a usage error told in one line (as every
other error is) instead of click's four."""

from __future__ import annotations

import sys

import typer
from typer.core import TyperGroup

try:  # Typer 0.28 carries its own copy of click; earlier ones depend on click itself.
    from typer._click.exceptions import ClickException, UsageError
except ImportError:  # pragma: no cover
    from click.exceptions import (  # type: ignore[no-redef,import-not-found,assignment,unused-ignore]
        ClickException,
        UsageError,
    )

#: The order of ``spoiler --help``: playing first, then records, cards, authoring, the rest.
#: A command not named here (a new one) is listed after these, in the order it was added.
ORDER = (
    "play",
    "host",
    "replay",
    "resume",
    "cards",
    "sets",
    "rules",
    "simulate",
    "new",
    "plugins",
)


def help_when_bare(ctx: typer.Context) -> None:
    """A group's callback: called with no command, the group prints its help and exits 0
    (click's ``no_args_is_help`` would exit 2, on stderr). The group needs
    ``invoke_without_command=True`` for its callback to run then."""
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())
        raise typer.Exit()


def examples(*lines: str) -> str:
    """An "Examples:" epilog for a command's help, its lines kept as written."""
    # "\b" tells click not to rewrap the paragraph that follows.
    return "Examples:\n\n\b\n" + "\n".join(f"  {line}" for line in lines)


class SpoilerGroup(TyperGroup):
    def list_commands(self, ctx) -> list[str]:
        names = super().list_commands(ctx)
        rank = {name: i for i, name in enumerate(ORDER)}
        return sorted(names, key=lambda n: rank.get(n, len(ORDER)))

    def format_commands(self, ctx, formatter) -> None:
        # click cuts each summary to fit one line with "..."; ours are written to fit, and a
        # longer one is wrapped rather than cut.
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is None or command.hidden:
                continue
            rows.append((name, command.get_short_help_str(limit=1000)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    # (windows_expand_args, positional in click's signature, is passed on through **extra.)
    def main(  # type: ignore[override]
        self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra
    ):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except UsageError as exc:
            sys.exit(usage_error(exc))
        except ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except typer.Abort:
            typer.echo(err=True)
            sys.exit(130)
        sys.exit(code if isinstance(code, int) else 0)


def usage_error(exc) -> int:
    """Print a usage error as one line, naming the command and where to read its help."""
    ctx = exc.ctx
    where = f"{ctx.command_path} --help" if ctx is not None else "spoiler --help"
    message = exc.format_message().rstrip(".")
    typer.echo(f"Error: {message}. Try: {where}", err=True)
    return exc.exit_code
