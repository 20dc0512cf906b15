"""``spoiler sets list``, ``spoiler sets show`` and ``spoiler sets validate``: the card sets
installed, what each holds, and whether it works."""

import typer

from spoiler.commands import common
from spoiler.commands.common import STATUS_STYLE, console, err_console, fail, print_json
from spoiler.commands.completion import complete_sets
from spoiler.commands.group import SpoilerGroup, command_app, examples, help_when_bare

sets_app = command_app(
    cls=SpoilerGroup,
    help="The card sets: list, show and validate them.",
    invoke_without_command=True,
    epilog=examples("spoiler sets list", "spoiler sets validate mirror --games 50"),
)


@sets_app.callback()
def _sets(ctx: typer.Context) -> None:
    """The card sets: list, show and validate them."""
    help_when_bare(ctx)


CORE = "spoiler-game"  # spoiler.plugins.CORE_DISTRIBUTION, without importing the loader


def _ordered_sets(registry) -> list:
    """Built-in sets first, then the others by name."""
    return sorted(
        registry.set_infos, key=lambda s: (s.distribution != CORE, s.name, s.distribution)
    )


@sets_app.command(
    "list",
    epilog=examples(
        "spoiler sets list", "spoiler sets list --available", "spoiler sets list --json"
    ),
)
def list_sets(
    available: bool = typer.Option(
        False,
        "--available",
        help="Also list the known expansions, installed or not, and how to install the others.",
    ),
    as_json: bool = typer.Option(
        False, "--json", help="Print a JSON object instead (docs/json.md)."
    ),
) -> None:
    """List every card set: built in, installed, broken or disabled.

    A set disabled by SPOILER_PLUGINS says so; a broken plugin is listed under its entry
    point's name, with the reason. An installed distribution that looks like a set
    (spoiler-*, or depending on spoiler-game) but declares no 'spoiler' entry point is
    named on stderr, with the [project.entry-points.spoiler] table to add. With
    --available, the known expansions follow (docs/sets.md), each with the version
    installed here, and the spoiler install command that adds the others.
    """
    registry = common.load_registry()
    infos = _ordered_sets(registry)
    warnings = _hook_warnings(registry, infos)
    _note_missing_entry_points()
    known = _known_sets(infos) if available else None
    if as_json:
        answer: dict = {
            "sets": [{**info.as_dict(), "warnings": warnings[info.name]} for info in infos]
        }
        if known is not None:
            answer["available"] = known
        print_json(answer)
        return
    from spoiler.console.columns import Column, render

    columns = [Column("Set"), Column("Version"), Column("Distribution"), Column("Cards", True)]
    columns += [Column("Status"), Column("Reason", wrap=1)]
    rows = [
        [
            info.name,
            info.version,
            info.distribution,
            str(info.cards) if info.status == "ok" else "-",
            info.status,
            info.error or "; ".join(warnings[info.name]),
        ]
        for info in infos
    ]
    styles = {(r, 4): STATUS_STYLE[info.status] for r, info in enumerate(infos)}
    render(columns, rows, title="Card sets", styles=styles)
    if not infos:
        print("No card set is installed.")
    if known is not None:
        _print_known(known)


def known_distributions() -> list[dict]:
    """The known expansion distributions, as spoiler/known_sets.toml lists them: each a
    ``name``, its ``sets`` and a line ``about`` it."""
    import tomllib
    from importlib import resources

    text = resources.files("spoiler").joinpath("known_sets.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)["distribution"]


def _known_sets(infos) -> list[dict]:
    """The known expansion distributions, each with the version installed here (None when
    it is not) and the command that installs it."""
    from spoiler.entrypoints import normalise

    installed = {normalise(i.distribution): i.version for i in infos}
    return [
        {
            "distribution": d["name"],
            "sets": d["sets"],
            "about": d["about"],
            "installed": installed.get(normalise(d["name"])),
            "install": f"spoiler install {d['name']}",
        }
        for d in known_distributions()
    ]


def _print_known(known: list[dict]) -> None:
    from spoiler.console.columns import Column, render

    print()
    columns = [Column("Distribution"), Column("Sets"), Column("Installed"), Column("About", wrap=1)]
    rows = [
        [k["distribution"], ", ".join(k["sets"]), k["installed"] or "-", k["about"]] for k in known
    ]
    render(columns, rows, title="Known expansions (docs/sets.md)")
    missing = [k["distribution"] for k in known if k["installed"] is None]
    if missing:
        print(f"Install with: spoiler install {' '.join(missing)}")
    else:
        print("Every known expansion is installed.")


def _note_missing_entry_points() -> None:
    """On stderr (stdout stays a table or JSON): each installed distribution that looks like
    a card set but declares no ``spoiler`` entry point, so none of its sets is found."""
    from spoiler.plugins import entry_point_fix, without_entry_point

    for dist in without_entry_point():
        common.err_console().print(
            f"Note: {entry_point_fix(dist)}.", markup=False, highlight=False, soft_wrap=True
        )


def _hook_warnings(registry, infos) -> dict[str, list[str]]:
    """For each usable set, what is wrong with its plugin's hooks though it loads: a function
    named like a hook but not marked ``@spoiler.hookimpl`` (pluggy ignores it silently)."""
    from spoiler.plugins.validation import check_hooks

    return {
        info.name: [p.message for p in check_hooks(registry, info.plugin, info.name)]
        if info.status == "ok"
        else []
        for info in infos
    }


@sets_app.command(
    "show", epilog=examples("spoiler sets show chrono", "spoiler sets show base --json")
)
def show_set(
    name: str = typer.Argument(
        ..., metavar="NAME", help="An installed set's name.", autocompletion=complete_sets
    ),
    as_json: bool = typer.Option(
        False, "--json", help="Print a JSON object instead (docs/json.md)."
    ),
) -> None:
    """Show one card set: what it is, the rules it adds, and its cards."""
    from spoiler.plugins import UnknownName

    registry = common.load_registry()
    try:
        [card_set] = registry.card_sets([name])
    except UnknownName as exc:
        fail(str(exc))
    info = next(i for i in registry.set_infos if i.name == name and i.status == "ok")
    cards = [
        {"id": c.id, "name": c.name, "copies": c.copies, "text": c.text} for c in card_set.cards
    ]
    if as_json:
        print_json(
            {
                "name": card_set.name,
                "title": card_set.title,
                "version": card_set.version,
                "distribution": info.distribution,
                "description": card_set.description,
                "rules": card_set.rules,
                "labels": dict(card_set.labels),
                "requires": list(card_set.requires),
                "cards": cards,
            }
        )
        return
    from rich.markup import escape
    from rich.table import Table

    out = console()
    out.print(
        f"[bold]{escape(card_set.title)}[/] ({escape(card_set.name)} {escape(card_set.version)}, "
        f"from {escape(info.distribution)})",
        soft_wrap=True,
    )
    if card_set.description:
        out.print(card_set.description, markup=False)
    out.print()
    out.print(
        "[bold]Rules:[/] " + escape(card_set.rules or "none of its own (only its cards' texts).")
    )
    if card_set.requires:
        partners = ", ".join(card_set.requires)
        out.print(
            f"[bold]Played with:[/] {escape(partners)} (it cannot end a game alone: every "
            f"game with it has {escape(partners)} in the deck too)."
        )
    table = Table(
        title=f"Cards ({len(cards)} kinds, {sum(c['copies'] for c in cards)} in the deck)",
        title_justify="left",
    )
    for column in ("Card", "Copies", "Text"):
        table.add_column(column, justify="right" if column == "Copies" else "left")
    for card in cards:
        table.add_row(card["name"], str(card["copies"]), card["text"])
    out.print()
    out.print(table)


@sets_app.command(
    "validate",
    epilog=examples(
        "spoiler sets validate",
        "spoiler sets validate chrono --games 50",
        "spoiler sets validate mirror --games 1 --seed 7",
    ),
)
def validate_sets(
    names: list[str] | None = typer.Argument(
        None,
        metavar="[NAMES]...",
        help="Sets to validate, by spaces or commas (default: every usable set).",
        autocompletion=complete_sets,
    ),
    games: int = typer.Option(200, "--games", min=0, help="Random-bot games per set."),
    seed: int = typer.Option(0, "--seed", help="Seed of the first game; game i uses SEED+i."),
    as_json: bool = typer.Option(
        False, "--json", help="Print a JSON report instead of a table (docs/json.md)."
    ),
) -> None:
    """Check card sets, then play seeded random-bot games with each.

    Static checks first, then games with each set mixed into the base set, checking the
    engine's invariants after every round, and every seat's screen for text that shows what
    that seat may not know (a card or hook that tells another player's hand is named).

    Every problem names the set, the card and a seed that reproduces it. Exit code 0 when all
    is well, 1 when anything is wrong (a broken plugin included).
    """
    names = common.names_of(names or None, "NAMES")
    try:
        reports, general = _validate(names, games, seed, quiet=as_json or games == 0)
    except LookupError as exc:  # a name that is no set at all (with the fix, if it is ours)
        fail(str(exc))
    if not names:
        _note_missing_entry_points()
    problems = general + [p for r in reports for p in r.problems]

    if as_json:
        print_json(
            {
                "ok": not problems,
                "games": games,
                "seed": seed,
                "sets": [
                    {
                        "name": r.name,
                        "cards": r.cards,
                        "games": r.games,
                        "rounds": r.rounds,
                        "draws": r.draws,
                        "problems": [p.as_dict() for p in r.problems],
                        "unplayed": r.unplayed,
                        "notes": r.notes,
                    }
                    for r in reports
                ],
                "problems": [p.as_dict() for p in problems],
            }
        )
    else:
        _print_validation(reports, problems, games)
    raise typer.Exit(1 if problems else 0)


def _validate(names, games: int, seed: int, quiet: bool):
    """The reports and the installation's problems, with a progress bar on stderr unless
    ``quiet``. LookupError for a name that is no set."""
    from spoiler.plugins import isolation

    run = _validate_in_child if ISOLATE and isolation.CHILDREN else _validate_here
    if ISOLATE and not isolation.CHILDREN:
        common.err_console().print(isolation.IN_PROCESS, markup=False, soft_wrap=True)
    if quiet:
        return run(names, games, seed, None)
    import contextlib

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    with contextlib.ExitStack() as stack:
        bars: list = []

        def progress(name: str) -> None:
            if not bars:  # shown from the first game on: a bad name leaves no trace of it
                bar = Progress(
                    TextColumn("Playing games: {task.description}"),
                    BarColumn(),
                    MofNCompleteColumn(),
                    console=err_console(),
                    transient=True,
                )
                stack.enter_context(bar)
                bars.append((bar, bar.add_task(name, total=None)))
            bar, task = bars[0]
            bar.update(task, advance=1, description=name)

        return run(names, games, seed, progress)


#: Validate in a child process (the default). Tests that install fake plugins in this
#: process (which a child cannot see) turn it off.
ISOLATE = True


def _validate_in_child(names, games: int, seed: int, progress):
    """Plugins are loaded and games played in child processes (``spoiler.isolation``): a
    plugin that exits, hangs or kills its process is reported, never passed."""
    from spoiler.narration.leaks import Watch
    from spoiler.plugins import isolation

    return isolation.validate(names or None, games, seed, progress, Watch)


def _validate_here(names, games: int, seed: int, progress):
    from spoiler.narration.leaks import Watch
    from spoiler.plugins import stdout_to_stderr, validation

    with stdout_to_stderr():  # what plugin code prints in a game stays out of the report
        return validation.validate_named(
            common.load_registry(), names or None, games, seed, progress, Watch
        )


def _print_validation(reports, problems, games: int) -> None:
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=f"Validation ({games} games per set)", title_justify="left")
    for column in ("Set", "Cards", "Games", "Avg rounds", "Draws", "Problems"):
        table.add_column(column, justify="left" if column == "Set" else "right")
    for r in reports:
        mark = "[green]0[/]" if r.ok else f"[bold red]{len(r.problems)}[/]"
        avg = f"{r.rounds / r.games:.1f}" if r.games else "-"
        table.add_row(r.name, str(r.cards), str(r.games), avg, str(r.draws), mark)
    out = console()
    out.print(table)
    for r in reports:
        for note in r.notes:  # worth a look, not a failure
            out.print(f"[dim]Note: {escape(note)}[/]", soft_wrap=True)
        if r.unplayed:  # worth a look, not a failure
            out.print(
                f"[dim]Note: {escape(r.name)} · {escape(', '.join(r.unplayed))}: never "
                f"played in {r.games} games.[/]",
                soft_wrap=True,
            )
    for p in problems:
        out.print(f"[bold red]✗[/] {escape(p.describe())}", soft_wrap=True)
        if p.reproduce():
            out.print(f"    reproduce: {escape(p.reproduce())}", soft_wrap=True)
    if problems:
        out.print(f"[bold red]{len(problems)} problem{'s' * (len(problems) != 1)} found.[/]")
    else:
        passed = (
            f"{reports[0].name} passed" if len(reports) == 1 else f"All {len(reports)} sets passed"
        )
        out.print(f"[green]{escape(passed)}: no problems found.[/]")
