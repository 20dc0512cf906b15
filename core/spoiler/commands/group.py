"""How the ``spoiler`` command presents itself: commands listed in the order a newcomer needs
them, each with its whole one-line summary, and a usage error told in one line (as every
other error is) instead of click's four."""

from __future__ import annotations

import sys
from collections.abc import Mapping, MutableMapping

import typer
from typer.core import TyperGroup

try:  # Typer 0.28 carries its own copy of click; earlier ones depend on click itself.
    from typer._click.exceptions import ClickException, UsageError
except ImportError:  # pragma: no cover
    from click.exceptions import (  # type: ignore[no-redef,import-not-found,assignment,unused-ignore]
        ClickException,
        UsageError,
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


def command_app(**settings) -> typer.Typer:
    """A Typer app holding one of spoiler's commands, laid out as the root's help is (plain
    help, no completion options of its own); ``typer.main.get_command`` makes it a click
    command for the ``spoiler.commands`` entry point group."""
    return typer.Typer(
        rich_markup_mode=None, pretty_exceptions_enable=False, add_completion=False, **settings
    )


class SpoilerGroup(TyperGroup):
    def format_commands(self, ctx, formatter) -> None:
        # click cuts each summary to fit one line with "..."; ours are written to fit, and a
        # longer one is wrapped rather than cut.
        rows = []
        for name in self.list_commands(ctx):
            summary = self.summary(ctx, name)
            if summary is not None:
                rows.append((name, summary))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def summary(self, ctx, name: str) -> str | None:
        """A command's line in the help (None: hidden)."""
        command = self.get_command(ctx, name)
        if command is None or command.hidden:
            return None
        return command.get_short_help_str(limit=1000)

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


def command_from(target: str):
    """The click command an entry point's object names (``module:attribute``): a click
    command or group as it is, a Typer app converted."""
    from importlib import import_module

    module, _, attribute = target.partition(":")
    found = getattr(import_module(module), attribute)
    if isinstance(found, typer.Typer):
        return typer.main.get_command(found)
    return found


class LazyCommands(MutableMapping):
    """A group's commands by name, each imported the first time it is looked up: listing
    the names imports nothing."""

    def __init__(self, loaded: Mapping, lazy: dict[str, str]):
        self.loaded = dict(loaded)
        self.lazy = {name: target for name, target in lazy.items() if name not in loaded}

    def __getitem__(self, name: str):
        if name not in self.loaded:
            if name not in self.lazy:
                raise KeyError(name)
            self.loaded[name] = command_from(self.lazy.pop(name))
        return self.loaded[name]

    def __setitem__(self, name: str, command) -> None:
        self.lazy.pop(name, None)
        self.loaded[name] = command

    def __delitem__(self, name: str) -> None:
        if self.lazy.pop(name, None) is None:
            del self.loaded[name]

    def __iter__(self):
        return iter([*self.lazy, *self.loaded])

    def __len__(self) -> int:
        return len(self.lazy) + len(self.loaded)


class RootGroup(SpoilerGroup):
    """``spoiler`` itself: its commands come from the ``spoiler.commands`` entry points,
    spoiler-game's own from a static table (spoiler.commands.builtin)."""

    def __init__(self, *args, **kwargs):
        from spoiler.commands.builtin import BUILTIN

        super().__init__(*args, **kwargs)
        self.commands = LazyCommands(
            self.commands, {name: target for name, (target, _) in BUILTIN.items()}
        )

    def list_commands(self, ctx) -> list[str]:
        from spoiler.commands.builtin import BUILTIN

        rank = {name: i for i, name in enumerate(BUILTIN)}
        return sorted(self.commands, key=lambda n: rank.get(n, len(rank)))

    def summary(self, ctx, name: str) -> str | None:
        from spoiler.commands.builtin import BUILTIN

        commands = self.commands
        if isinstance(commands, LazyCommands) and name in commands.lazy and name in BUILTIN:
            return BUILTIN[name][1]
        return super().summary(ctx, name)
