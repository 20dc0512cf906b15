"""``spoiler rules``: the rules and rulings."""

import typer

from spoiler.cli import app
from spoiler.cli.common import console
from spoiler.cli.group import examples


def rules_text() -> str:
    from importlib import resources
    from pathlib import Path

    packaged = resources.files("spoiler") / "rules.md"
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    # A source checkout (editable install): the rules live in docs/.
    return (Path(__file__).resolve().parents[3] / "docs" / "rules.md").read_text(encoding="utf-8")


def set_rules_text(names: list[str]) -> str:
    """The rules the named sets add, as Markdown (fails with a usage error for a set that
    is not installed)."""
    from spoiler.cli.common import fail, load_registry
    from spoiler.plugins import UnknownName

    try:
        card_sets = load_registry().card_sets(names)
    except UnknownName as exc:
        fail(str(exc))
    parts = []
    for card_set in card_sets:
        said = card_set.rules or "No rules of its own: only its cards' texts."
        parts.append(f"## {card_set.title} ({card_set.name})\n\n{said}\n")
    return "\n".join(parts)


@app.command(epilog=examples("spoiler rules", "spoiler rules --set chrono", "spoiler rules | less"))
def rules(
    sets: list[str] = typer.Option(
        [],
        "--set",
        metavar="NAME",
        help="Show the rules this installed set adds instead (may be repeated).",
    ),
) -> None:
    """Show the rules, and the rulings on what they leave open.

    With --set, the rules a card set adds to them (also shown at the start of every game
    with that set, and by `spoiler sets show NAME`). On a terminal the rules open in a pager
    (q to leave it)."""
    from rich.markdown import Markdown

    text = set_rules_text(sets) if sets else rules_text()
    out = console()
    if out.is_terminal:
        with out.pager(styles=True):
            out.print(Markdown(text))
    else:
        out.print(Markdown(text))
