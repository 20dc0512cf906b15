"""``spoiler rules``: the rules and rulings."""

from __future__ import annotations

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


@app.command(epilog=examples("spoiler rules", "spoiler rules | less"))
def rules() -> None:
    """Show the rules, and the rulings on what they leave open.

    On a terminal the rules open in a pager (q to leave it)."""
    from rich.markdown import Markdown

    out = console()
    if out.is_terminal:
        with out.pager(styles=True):
            out.print(Markdown(rules_text()))
    else:
        out.print(Markdown(rules_text()))
