"""``spoiler cards list`` and ``spoiler cards show``: the cards of the installed sets."""

import typer

from spoiler.commands.common import console, fail
from spoiler.commands.group import SpoilerGroup, command_app, examples, help_when_bare
from spoiler.console.cards import card_panel, needs, suggestion

cards_app = command_app(
    cls=SpoilerGroup,
    help="The cards of the installed sets: list them, or show one.",
    invoke_without_command=True,
    epilog=examples(
        "spoiler cards list", "spoiler cards list --set chrono", "spoiler cards show Accuse"
    ),
)


@cards_app.callback()
def _cards(ctx: typer.Context) -> None:
    """The cards of the installed sets: list them, or show one."""
    help_when_bare(ctx)


def _usable_sets(set_name: str | None):
    from spoiler.commands import common

    registry = common.load_registry()
    sets = registry.sets
    if set_name is None:
        return [sets[name] for name in sorted(sets)]
    if set_name not in sets:
        info = next((i for i in registry.set_infos if i.name == set_name), None)
        if info is not None:
            fail(f"set {set_name!r} is {info.status}: {info.error}")
        fail(
            f"no set named {set_name!r}.{suggestion(set_name, sets)} "
            f"Installed: {', '.join(sorted(sets)) or 'none'}."
        )
    return [sets[set_name]]


@cards_app.command("list", epilog=examples("spoiler cards list", "spoiler cards list --set base"))
def list_cards(
    set_name: str | None = typer.Option(
        None, "--set", metavar="NAME", help="Only this set's cards."
    ),
) -> None:
    """List the cards of every installed set, or of one set.

    Each card with its set, its copies in the deck, what it asks for and its text."""
    from spoiler.console.columns import Column, render

    card_sets = _usable_sets(set_name)
    columns = [Column("Card"), Column("Set"), Column("Copies", right=True)]
    columns += [Column("You choose", wrap=1), Column("Text", wrap=2)]
    rows = [
        [card.name, card_set.name, str(card.copies), needs(card), card.text]
        for card_set in card_sets
        for card in sorted(card_set.cards, key=lambda c: c.name.lower())
    ]
    render(columns, rows, styles={(r, 0): "bold" for r in range(len(rows))})
    total = sum(c.copies for s in card_sets for c in s.cards)
    print(f"{sum(len(s.cards) for s in card_sets)} cards, {total} in the deck.")


@cards_app.command(
    "show", epilog=examples("spoiler cards show Accuse", "spoiler cards show base:spoiler")
)
def show_card(
    name: str = typer.Argument(
        ..., metavar="NAME", help="A card's name (any case), or its id (set:card)."
    ),
) -> None:
    """Show one card: its text, what it asks for, when it acts, its rulings."""
    card_sets = _usable_sets(None)
    cards = [c for s in card_sets for c in s.cards]
    wanted = name.strip().lower()
    found = [c for c in cards if c.name.lower() == wanted or c.id == wanted]
    if not found:
        fail(f"no card named {name!r}.{suggestion(name, sorted({c.name for c in cards}))}")
    for card in found:
        console().print(card_panel(card, console().width))
