"""``spoiler cards list`` and ``spoiler cards show``: the cards of the installed sets."""

import typer

from spoiler.commands.common import console, fail, print_json
from spoiler.commands.completion import complete_cards, complete_sets
from spoiler.commands.group import SpoilerGroup, command_app, examples, help_when_bare
from spoiler.console.cards import card_panel, needs

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


def _usable_sets(set_names: list[str] | None):
    from spoiler.commands import common
    from spoiler.names import EmptyName, split, unknown

    registry = common.load_registry()
    sets = registry.sets
    try:
        wanted = split(set_names, "set")
    except EmptyName as exc:
        fail(f"--set {exc}")
    if wanted is None:
        return [sets[name] for name in sorted(sets)]
    for set_name in wanted:
        if set_name not in sets:
            info = next((i for i in registry.set_infos if i.name == set_name), None)
            if info is not None:
                fail(f"set {set_name!r} is {info.status}: {info.error}")
            fail(unknown("set named", set_name, sets))
    return [sets[name] for name in wanted]


def card_dict(card) -> dict:
    """A card as ``cards list --json`` and ``cards show --json`` give it (docs/json.md)."""
    from spoiler.console.cards import timing

    return {
        "id": card.id,
        "name": card.name,
        "set": card.set_name,
        "copies": card.copies,
        "text": card.text,
        "targets": [t.description for t in card.targets],
        "ask": card.ask.prompt if card.ask is not None else None,
        "acts": timing(card),
        "rulings": list(card.rulings),
    }


@cards_app.command(
    "list",
    epilog=examples(
        "spoiler cards list", "spoiler cards list --set base,chrono", "spoiler cards list --json"
    ),
)
def list_cards(
    set_names: list[str] | None = typer.Option(
        None,
        "--set",
        metavar="NAMES",
        help="Only these sets' cards (comma-separated or repeated).",
        autocompletion=complete_sets,
    ),
    as_json: bool = typer.Option(
        False, "--json", help="Print a JSON object instead of a table (docs/json.md)."
    ),
) -> None:
    """List the cards of every installed set, or of some sets.

    Each card with its set, its copies in the deck, what it asks for and its text."""
    from spoiler.console.columns import Column, render

    card_sets = _usable_sets(set_names)
    if as_json:
        print_json(
            {
                "cards": [
                    card_dict(card)
                    for card_set in card_sets
                    for card in sorted(card_set.cards, key=lambda c: c.name.lower())
                ]
            }
        )
        return
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
        ...,
        metavar="NAME",
        help="A card's name (any case), or its id (set:card).",
        autocompletion=complete_cards,
    ),
    as_json: bool = typer.Option(
        False, "--json", help="Print a JSON object instead (docs/json.md)."
    ),
) -> None:
    """Show one card: its text, what it asks for, when it acts, its rulings.

    Cards of the same name in two sets are both shown."""
    card_sets = _usable_sets(None)
    cards = [c for s in card_sets for c in s.cards]
    wanted = name.strip().lower()
    found = [c for c in cards if c.name.lower() == wanted or c.id == wanted]
    if not found:
        from spoiler.names import unknown

        fail(unknown("card named", name, {c.name for c in cards}, listed=False))
    if as_json:
        print_json({"cards": [card_dict(card) for card in found]})
        return
    for card in found:
        console().print(card_panel(card, console().width))
