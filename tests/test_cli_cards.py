"""``spoiler cards list`` and ``spoiler cards show``, on a small set of our own (so the test
does not change when the base set does) loaded through a fake entry point like any plugin."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from spoiler import hookimpl, plugins
from spoiler.cards import ANOTHER_PLAYER, CardSet, NameANumber
from spoiler.cli import app, common
from spoiler.testing import FakeEntryPoint


def build_shelf() -> CardSet:
    shelf = CardSet("shelf", "2.0.0")

    @shelf.card
    class Lantern:
        text = "Look at another player's hand."
        copies = 3
        target = ANOTHER_PLAYER
        rulings = (
            "You see the hand as it is when Lantern resolves.",
            "The other player is not told which cards you saw.",
        )

        def main(play):
            play.reveal(play.target, play.player)

    @shelf.card
    class Hourglass:
        text = "Name a number from 1 to 5. At End of Round: nothing happens."
        copies = 2
        ask = NameANumber(1, 5)

        def at_end(play):
            pass

    @shelf.card
    class Lamp:
        text = "No effect."
        copies = 4

    return shelf


class ShelfPlugin:
    @staticmethod
    @hookimpl
    def spoiler_register_sets(register):
        register(build_shelf())


class Other:
    @staticmethod
    @hookimpl
    def spoiler_register_sets(register):
        other = CardSet("other", "1.0.0")

        @other.card
        class Lamp:
            text = "You win."

        register(other)


@pytest.fixture(autouse=True)
def shelf_only(monkeypatch):
    registry = plugins.load(
        environ={},
        entry_points=[FakeEntryPoint("shelf", ShelfPlugin), FakeEntryPoint("other", Other)],
    )
    monkeypatch.setattr(common, "load_registry", lambda: registry)
    # The console keeps the width it was made with: make it afresh, under this test's COLUMNS.
    common.console.cache_clear()
    yield
    common.console.cache_clear()


def cards(*args, width: int = 120):
    return CliRunner().invoke(app, ["cards", *args], env={"COLUMNS": str(width), "NO_COLOR": "1"})


def test_cards_list_shows_name_set_copies_targets_and_text():
    """`spoiler cards list`: a table of every card with its set, copies, what it asks for
    and its text."""
    result = cards("list", width=200)
    assert result.exit_code == 0
    rows = [line.split() for line in result.stdout.splitlines()]
    assert [
        "Lantern",
        "shelf",
        "3",
        "another",
        "player",
        "Look",
        "at",
        "another",
        "player's",
        "hand.",
    ] in rows
    assert [
        "Hourglass",
        "shelf",
        "2",
        "name",
        "a",
        "number",
        "Name",
        "a",
        "number",
        "from",
        "1",
        "to",
        "5.",
        "At",
        "End",
        "of",
        "Round:",
        "nothing",
        "happens.",
    ] in rows
    assert ["Lamp", "other", "1", "-", "You", "win."] in rows
    assert result.stdout.rstrip().endswith("4 cards, 10 in the deck.")


def test_cards_list_set_lists_only_that_set():
    """`--set NAME` keeps one set's cards."""
    result = cards("list", "--set", "other")
    assert result.exit_code == 0
    assert "Lamp" in result.stdout and "Lantern" not in result.stdout
    assert "1 cards, 1 in the deck." in result.stdout


def test_cards_list_with_an_unknown_set_suggests_the_closest():
    """An unknown set is a one-line error (exit 2) naming the closest set and the installed ones."""
    result = cards("list", "--set", "shelve")
    assert result.exit_code == 2
    assert result.stderr == (
        "Error: no set named 'shelve' (did you mean 'shelf'? installed: other, shelf)\n"
    )


def test_cards_show_gives_the_full_text_what_it_asks_when_it_acts_and_its_rulings():
    """`spoiler cards show NAME` (any case): one card, its full text and its rulings."""
    result = cards("show", "lantern")
    assert result.exit_code == 0
    text = " ".join(result.stdout.replace("│", " ").split())
    assert "Lantern" in text
    assert "Look at another player's hand." in text
    assert "Set: shelf (id shelf:lantern)" in text
    assert "Copies in the deck: 3" in text
    assert "You choose: another player" in text
    assert "Acts: mid round" in text
    assert (
        "Rulings: - You see the hand as it is when Lantern resolves. "
        "- The other player is not told which cards you saw."
    ) in text


def test_cards_show_says_when_a_card_acts():
    """A card with an At End of Round part says so."""
    text = " ".join(cards("show", "Hourglass").stdout.replace("│", " ").split())
    assert "Acts: At End of Round" in text
    assert "You choose: name a number" in text


def test_cards_show_finds_a_card_by_its_id():
    result = cards("show", "shelf:lamp")
    assert result.exit_code == 0
    assert "No effect." in result.stdout and "You win." not in result.stdout


def test_cards_show_a_name_two_sets_share_shows_both():
    """Two sets may each have a card of one name: both are shown, each with its set."""
    text = cards("show", "Lamp").stdout
    assert "id shelf:lamp" in text and "id other:lamp" in text


def test_an_unknown_card_gets_a_one_line_error_with_the_closest_names():
    """An unknown name: a clear one-line error, exit code 2, the closest names suggested."""
    result = cards("show", "Lanter")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == "Error: no card named 'Lanter' (did you mean 'Lantern'?)\n"


def test_an_unknown_card_with_nothing_close_gets_no_suggestion():
    result = cards("show", "Zzyzx")
    assert result.exit_code == 2
    assert result.stderr == "Error: no card named 'Zzyzx'\n"
