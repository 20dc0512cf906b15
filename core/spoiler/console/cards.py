"""A card as the terminal shows it: its panel (``spoiler cards show``, and ``? NAME`` at a
prompt in a game), what it asks for, when it acts, and the names close to a misspelt one."""

from __future__ import annotations

import difflib


def needs(card) -> str:
    """What a card asks for when selected: "another player; name a card", or "-"."""
    parts = [t.description for t in card.targets]
    if card.ask is not None:
        parts.append(card.ask.prompt.lower())
    return "; ".join(parts) or "-"


def timing(card) -> str:
    """The parts a card has, in the order they resolve."""
    parts = [
        label
        for label, part in (
            ("At Beginning of Round", card.at_beginning),
            ("mid round", card.main),
            ("At End of Round", card.at_end),
        )
        if part is not None
    ]
    return ", ".join(parts) or "no effect"


def suggestion(wanted: str, known) -> str:
    """' Did you mean: A, B?' for the closest of ``known``, or ''."""
    by_lower = {k.lower(): k for k in known}
    close = difflib.get_close_matches(wanted.lower(), list(by_lower), n=3, cutoff=0.5)
    return f" Did you mean: {', '.join(by_lower[c] for c in close)}?" if close else ""


def card_panel(card, width: int):
    """A card as `cards show` and `? NAME` in a game show it: text, set, copies, what it asks
    for, when it acts, rulings."""
    from rich.markup import escape
    from rich.panel import Panel
    from rich.text import Text

    body = Text(card.text + "\n\n")
    body.append("Set: ", style="bold").append(f"{card.set_name} (id {card.id})\n")
    body.append("Copies in the deck: ", style="bold").append(f"{card.copies}\n")
    body.append("You choose: ", style="bold").append(f"{needs(card)}\n")
    body.append("Acts: ", style="bold").append(timing(card))
    if card.rulings:
        body.append("\n\nRulings:", style="bold")
        for ruling in card.rulings:
            body.append(f"\n- {ruling}")
    return Panel(
        body,
        title=f"[bold]{escape(card.name)}[/]",
        title_align="left",
        expand=False,
        width=min(width, 78),
    )
