"""The table of players, as the transcript and the full-screen table both draw it."""

from __future__ import annotations

from collections.abc import Mapping

from rich.table import Table
from rich.text import Text

from spoiler.model.state import Status
from spoiler.narration.narrate import label, ordinal

STATUS_STYLE = {Status.LOST: "red", Status.IN_PLAY: "", Status.WON: "bold green"}


def players_table(
    players,
    *,
    labels=None,
    replaced: Mapping[int, int] | None = None,
    you: int | None = None,
    kinds=None,
    hands: dict | None = None,
    title: str | None = None,
    outcome: dict | None = None,
) -> Table:
    """Players in priority order, each with their seat: the number that target prompts use
    for them, which stays the same all game while priorities shift. ``labels`` are the sets'
    names for their counters; ``replaced``, the seats a bot took over."""
    replaced = replaced or {}
    table = Table(title=title, title_justify="left", show_edge=False, pad_edge=False)
    table.add_column("Priority")
    table.add_column("Seat", justify="right")
    table.add_column("Player", no_wrap=True)
    table.add_column("Status", no_wrap=True)
    table.add_column("Hand", justify="right")
    table.add_column("Counters")
    if hands is not None:
        table.add_column("Cards")
    for p in sorted(players, key=lambda p: p.priority):
        name = Text(p.name, style="bold" if p.seat == you else "")
        if p.seat in replaced:
            name.append(" (bot)", style="dim")
        elif p.seat == you:
            if p.name.lower() != "you":
                name.append(" (you)")
        elif kinds and kinds[p.seat] != "human":
            name.append(f" ({kinds[p.seat]} bot)", style="dim")
        counters = ", ".join(f"{label(k, labels)} {v}" for k, v in sorted(p.counters.items()) if v)
        status = Text(str(p.status), style=STATUS_STYLE[p.status])
        if outcome is not None:
            status = outcome[p.seat]
        row: list[str | Text] = [
            ordinal(p.priority),
            str(p.seat + 1),
            name,
            status,
            str(p.hand_size),
            counters,
        ]
        if hands is not None:
            row.append(", ".join(c.name for c in hands[p.seat]))
        table.add_row(*row)
    return table


def final_statuses(table) -> dict | None:
    """How each player ended (won, won by default, lost, a draw), once the game is over."""
    result = table.result
    if result is None:
        return None
    if result.kind == "draw":
        return {p.seat: Text("draw") for p in table.players}
    won = "won by default" if result.kind == "default" else "won"
    return {
        p.seat: Text(won, style=STATUS_STYLE[Status.WON])
        if p.seat in result.winners
        else Text("lost", style=STATUS_STYLE[Status.LOST])
        for p in table.players
    }
