"""``spoiler install`` and ``spoiler uninstall``: expansions added to, or removed from, the
environment spoiler runs from, with that environment's own installer (pip, pipx or uv), so
that upgrading spoiler-game keeps them (docs/installing.md). The commands are worked out by
``spoiler.installer``; this module runs them."""

import typer

from spoiler.commands.common import fail
from spoiler.commands.group import command_app, examples

install_app = command_app()
uninstall_app = command_app()


def _run(command: list[str], dry_run: bool) -> None:
    import subprocess

    from spoiler import installer

    if dry_run:  # the command alone, on stdout: to read, or to run by hand
        typer.echo(installer.shown(command))
        return
    typer.echo(f"Running: {installer.shown(command)}", err=True)
    try:
        installer.check(command)
    except installer.InstallerError as exc:
        fail(str(exc), 1)
    try:
        code = subprocess.call(command)
    except OSError as exc:
        fail(f"cannot run {command[0]}: {exc.strerror or exc}", 1)
    if code != 0:
        fail(f"{command[0]} failed (exit code {code}); nothing else was changed", 1)


def _environment():
    from spoiler import installer

    try:
        return installer.current()
    except installer.InstallerError as exc:
        fail(str(exc), 1)


def _names(names: list[str]) -> list[str]:
    """The names given, each once. (Not split at commas: a version specifier has them.)"""
    given = [name.strip() for name in names]
    if not all(given):
        fail("an empty name; separate names with spaces")
    return list(dict.fromkeys(given))


@install_app.command(
    short_help="Add expansions, with the installer of spoiler's environment.",
    epilog=examples(
        "spoiler install spoiler-chrono            from the package index",
        "spoiler install -e ./spoiler-heist        a set you are writing",
        "spoiler install spoiler-mirror --dry-run  print the command only",
        "spoiler install 'spoiler-game[host]'      an optional extra",
    ),
)
def install(
    names: list[str] = typer.Argument(
        ...,
        metavar="NAME...",
        help="Distributions to install: names with an optional version (spoiler-chrono>=1.0), "
        "wheels or folders.",
    ),
    editable: bool = typer.Option(
        False, "--editable", "-e", help="Install folders in editable mode (for set authors)."
    ),
    dry_run: bool = typer.Option(
        False, "--dry-run", help="Print the installer's command and do not run it."
    ),
) -> None:
    """Install expansions into the environment spoiler runs from, with its own installer.

    pip in a virtual environment (python -m pip install), pipx (pipx inject spoiler-game) or
    uv's tool environment (uv tool install spoiler-game --with ..., keeping every expansion
    already there). Expansions installed so stay through `pipx upgrade` and `uv tool
    upgrade`; see docs/installing.md."""
    from spoiler import installer

    command = installer.install_command(_names(names), _environment(), editable=editable)
    _run(command, dry_run)


@uninstall_app.command(
    short_help="Remove expansions, with the installer of spoiler's environment.",
    epilog=examples(
        "spoiler uninstall spoiler-chrono",
        "spoiler uninstall spoiler-chrono spoiler-mirror --dry-run",
    ),
)
def uninstall(
    names: list[str] = typer.Argument(..., metavar="NAME...", help="Distributions to remove."),
    dry_run: bool = typer.Option(
        False, "--dry-run", help="Print the installer's command and do not run it."
    ),
) -> None:
    """Remove expansions from the environment spoiler runs from, with its own installer.

    spoiler-game itself cannot be removed so (uninstall it as you installed it)."""
    from spoiler import installer

    wanted = _names(names)
    if any(installer.normalise(n) == installer.GAME for n in wanted):
        fail(f"{installer.GAME} cannot uninstall itself; uninstall it as you installed it")
    env = _environment()
    there = installer.installed_names(env)
    if there is not None:  # a uv tool: only its receipt's requirements can be removed
        missing = [n for n in wanted if installer.normalise(n) not in there]
        if missing:
            from spoiler.names import did_you_mean

            fail(
                f"{missing[0]} is not installed in {env.describe()} "
                f"({did_you_mean(missing[0], there)}installed: {', '.join(sorted(there)) or 'none'})"
            )
    _run(installer.uninstall_command(wanted, env), dry_run)
