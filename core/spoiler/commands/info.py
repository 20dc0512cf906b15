"""``spoiler rules``: the rules and rulings."""

import typer

from spoiler.commands import common
from spoiler.commands.common import console
from spoiler.commands.completion import complete_sets
from spoiler.commands.group import command_app, examples

app = command_app()


def rules_text() -> str:
    from importlib import resources
    from pathlib import Path

    packaged = resources.files("spoiler") / "rules.md"
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    # A source checkout (editable install): the rules live in docs/.
    return (Path(__file__).resolve().parents[3] / "docs" / "rules.md").read_text(encoding="utf-8")


def set_rules_text(names: list[str] | None) -> str:
    """The rules the named sets add (every installed set that adds some, for None), as
    Markdown. Fails with a usage error for a set that is not installed."""
    from spoiler.commands.common import fail
    from spoiler.plugins import UnknownName

    try:
        card_sets = common.load_registry().card_sets(names)
    except UnknownName as exc:
        fail(str(exc))
    if names is None:
        card_sets = [s for s in card_sets if s.rules]
    parts = []
    for card_set in card_sets:
        said = card_set.rules or "No rules of its own: only its cards' texts."
        parts.append(f"## {card_set.title} ({card_set.name})\n\n{said}\n")
    return "\n".join(parts)


@app.command(
    epilog=examples("spoiler rules", "spoiler rules --set chrono,mirror", "spoiler rules | less")
)
def rules(
    sets: list[str] | None = typer.Option(
        None,
        "--set",
        metavar="NAMES",
        help="Show only the rules these installed sets add (comma-separated or repeated).",
        autocompletion=complete_sets,
    ),
) -> None:
    """Show the rules, and the rulings on what they leave open.

    The rules the installed card sets add follow (also shown at the start of every game
    with that set, and by `spoiler sets show NAME`); with --set, only the named sets'
    rules. On a terminal the rules open in a pager (q to leave it)."""
    from rich.markdown import Markdown

    set_names = common.names_of(sets, "--set")
    if set_names:
        text = set_rules_text(set_names)
    else:
        added = set_rules_text(None)
        text = rules_text() + (f"\n# Rules the installed sets add\n\n{added}" if added else "")
    out = console()
    if out.is_terminal:
        from spoiler.console.paging import paged

        with paged(out):
            out.print(Markdown(text))
    else:
        out.print(Markdown(text))
