"""``spoiler new set NAME``: start an expansion from a complete, working one."""

from pathlib import Path

import typer

from spoiler.commands.common import console, fail
from spoiler.commands.group import SpoilerGroup, command_app, examples, help_when_bare

new_app = command_app(
    cls=SpoilerGroup,
    help="Start something new: a card set of your own (for authors).",
    invoke_without_command=True,
    epilog=examples("spoiler new set heist", "spoiler new set heist --dir ~/code/heist"),
)


@new_app.callback()
def _new(ctx: typer.Context) -> None:
    """Start something new: a card set of your own (for authors)."""
    help_when_bare(ctx)


@new_app.command(
    "set",
    short_help="Write a new card set: a distribution ready to install and test.",
    epilog=examples("spoiler new set heist", "spoiler new set heist --dir ~/code/heist"),
)
def new_set(
    name: str = typer.Argument(
        ...,
        metavar="NAME",
        help="The set's name, e.g. heist: not an installed distribution's (spoiler-NAME), "
        "package's or plugin's, a Python keyword or a name the set's code uses.",
    ),
    directory: Path | None = typer.Option(
        None,
        "--dir",
        metavar="DIR",
        help="The folder to create (default: spoiler-NAME here). It must not exist or be empty.",
    ),
) -> None:
    """Write a new card set's distribution: pyproject.toml, a package with two cards and a
    rule, tests using spoiler-game's pytest fixtures, a README, an MIT LICENSE, a .gitignore
    and a CI workflow (GitHub Actions) running the tests and `spoiler sets validate NAME`.

    It installs with pip, passes its own tests and `spoiler sets validate NAME` as it is.
    Nothing is ever overwritten, and a write that fails leaves nothing behind.
    """
    from spoiler_game.new.scaffold import ScaffoldError, write_set

    try:
        folder = write_set(name, directory)
    except ScaffoldError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write {directory or 'spoiler-' + name}: {exc.strerror or exc}")
    from spoiler.installer import install_hint, python_hint

    out = console()
    out.print(f"Wrote the {name} set to {folder}/. Next:", markup=False)
    for line in (
        f"cd {folder} && {install_hint('.[test]', editable=True)}",
        f"{python_hint()} -m pytest",
        f"spoiler sets validate {name}",
        f"spoiler play --sets base,{name}",
    ):
        out.print(f"  {line}", markup=False, soft_wrap=True)
