"""How the ``spoiler`` command presents itself: commands listed in the order a newcomer needs
them, each with its whole one-line summary, and a usage error told in one line (as every
other error is) instead of click's four."""

from __future__ import annotations

import sys
from collections.abc import Mapping, MutableMapping

import typer
from typer.core import TyperGroup

#: The exit code of a command whose output was cut off (``spoiler cards list | head -1``):
#: 128 + SIGPIPE, as a shell reports a program that a closed pipe stopped (docs/cli.md).
BROKEN_PIPE = 141


def _caught(name: str) -> tuple:
    """click's exception ``name`` (``UsageError``, ``ClickException``, ``Abort``, ``Exit``)
    as the running Typer raises it, and click's own too once a command plugin written with
    click itself has imported it. Typer 0.26 and later carry their own copy of click, earlier
    ones use click; either way the public ``typer.BadParameter`` is that click's
    BadParameter, whose bases are its UsageError and ClickException, and Typer 0.28 keeps
    ``Abort`` and ``Exit`` in ``typer`` itself (so nothing private of Typer is imported)."""
    found = [c for c in typer.BadParameter.__mro__ if c.__name__ == name]
    for module in (typer, sys.modules.get("click")):
        exception = getattr(module, name, None)
        if isinstance(exception, type) and exception not in found:
            found.append(exception)
    return tuple(found)


def quiet_broken_pipe() -> int:
    """After a write to a closed pipe: send what is left to os.devnull (so that Python's
    last flush does not complain), and return BROKEN_PIPE."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real stdout (a test's captured one)
        pass
    return BROKEN_PIPE


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
        except _caught("UsageError") as exc:
            sys.exit(usage_error(exc))
        except _caught("ClickException") as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except _caught("Abort"):
            typer.echo(err=True)
            sys.exit(130)
        except (typer.Exit, *_caught("Exit")) as exc:  # a click command's own ctx.exit()
            sys.exit(exc.exit_code)
        except BrokenPipeError:
            sys.exit(quiet_broken_pipe())
        sys.exit(code if isinstance(code, int) else 0)

    def invoke(self, ctx):
        # Typer turns a broken pipe into exit code 1; ours is BROKEN_PIPE, and quiet.
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            raise typer.Exit(quiet_broken_pipe()) from None


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

    from spoiler.commands.discovery import as_command

    module, _, attribute = target.partition(":")
    return as_command(getattr(import_module(module), attribute))


def unusable(name: str, reason: str):
    """A command that stands for one that cannot be loaded: whatever it is given (--help
    too), it says why in one line and exits 1."""
    from typer.core import TyperCommand

    def explain() -> None:
        from spoiler.commands.common import fail

        fail(reason, 1)

    return TyperCommand(
        name,
        callback=explain,
        help=reason,
        add_help_option=False,
        context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
    )


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

    def __contains__(self, name) -> bool:  # (MutableMapping's would import the command)
        return name in self.loaded or name in self.lazy

    def __iter__(self):
        return iter([*self.lazy, *self.loaded])

    def __len__(self) -> int:
        return len(self.lazy) + len(self.loaded)


class RootGroup(SpoilerGroup):
    """``spoiler`` itself: its commands come from the ``spoiler.commands`` entry points,
    spoiler-game's own from a static table (spoiler.commands.builtin), so that running one
    of them reads no distribution's metadata; the other distributions' commands are found
    (``spoiler.commands.discovery``) only when a name is not built in, or to list them."""

    def __init__(self, *args, **kwargs):
        from spoiler.commands.builtin import BUILTIN

        super().__init__(*args, **kwargs)
        self.commands = LazyCommands(
            self.commands, {name: target for name, (target, _) in BUILTIN.items()}
        )
        self._others: dict | None = None

    def others(self) -> dict:
        """The commands of other distributions that are there (not left out by
        SPOILER_PLUGINS, not named like a built-in): name -> the claims to it (two or more:
        a clash, neither is loaded)."""
        if self._others is None:
            import spoiler.commands.discovery as discovery

            self._others = {}
            for info in discovery.find():
                if (
                    not info.builtin
                    and info.status != "disabled"
                    and info.name not in self.commands
                ):
                    self._others.setdefault(info.name, []).append(info)
        return self._others

    def get_command(self, ctx, name: str):
        if name not in self.commands and name in self.others():
            self.commands[name] = self._load(name)
        return super().get_command(ctx, name)

    def _load(self, name: str):
        import spoiler.commands.discovery as discovery

        claims = self.others()[name]
        if len(claims) > 1:
            return unusable(name, f"{_clash(name, claims)} (see `spoiler plugins`)")
        try:
            return discovery.load(claims[0])
        except discovery.Unusable as exc:
            return unusable(name, f"{exc} (see `spoiler plugins`)")

    def list_commands(self, ctx) -> list[str]:
        from spoiler.commands.builtin import BUILTIN

        rank = {name: i for i, name in enumerate(BUILTIN)}
        names = {*self.commands, *self.others()}
        return sorted(names, key=lambda n: (rank.get(n, len(rank)), n))

    def summary(self, ctx, name: str) -> str | None:
        from spoiler.commands.builtin import BUILTIN

        commands = self.commands
        if isinstance(commands, LazyCommands) and name in commands.lazy and name in BUILTIN:
            return BUILTIN[name][1]
        claims = self.others().get(name)
        if claims and name not in commands:  # listed from its metadata, not imported
            if len(claims) > 1:
                return f"({_clash(name, claims)}; see `spoiler plugins`)"
            info = claims[0]
            return f"{info.summary} ({info.distribution})".lstrip()
        return super().summary(ctx, name)


def _clash(name: str, claims) -> str:
    *others, last = [c.distribution for c in claims]
    return f"command {name!r} is claimed by {', '.join(others)} and {last}: neither is loaded"
