"""``spoiler rules``: the rules and rulings."""

from __future__ import annotations

from spoiler.cli import app
from spoiler.cli.common import console


def rules_text() -> str:
    from importlib import resources
    from pathlib import Path

    packaged = resources.files("spoiler") / "rules.md"
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    # A source checkout (editable install): the rules live in docs/.
    return (Path(__file__).resolve().parents[3] / "docs" / "rules.md").read_text(encoding="utf-8")


@app.command()
def rules() -> None:
    """Show the rules of Spoiler and the rulings on what the rules leave open."""
    from rich.markdown import Markdown

    console().print(Markdown(rules_text()))
