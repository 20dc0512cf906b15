"""The smaller points a card author ran into (issue 21, items 11 and 5): what the screen says
after ``replace``, which card ``spoiler_table`` picks when two sets share a name, the text
rule for "At End of Round", and the shipped expansions' docstrings."""

from __future__ import annotations

import importlib
import io
import pkgutil
import re

import pytest
from rich.console import Console

from spoiler.console.screen import Screen
from spoiler.model.cards import ANOTHER_PLAYER, CardSet, declaration_problems
from spoiler.testing import play_round, table


def forgery_set() -> CardSet:
    toys = CardSet("toys", "1.0")

    @toys.card
    class Forgery:
        text = "Choose another player. Their card this round resolves as a Dud instead."
        target = ANOTHER_PLAYER

        @staticmethod
        def main(play):
            theirs = play.play_of(play.target)
            if theirs is not None:
                play.replace(theirs, "Dud")

    @toys.card
    class Boom:
        text = "Choose another player. They lose."
        target = ANOTHER_PLAYER

        @staticmethod
        def main(play):
            play.lose(play.target)

    @toys.card
    class Dud:
        text = "Choose another player. If they hold a Boom, they draw a card."
        target = ANOTHER_PLAYER
        copies = 9
        unmet = "{target} holds no Boom"

        @staticmethod
        def main(play):
            if play.holds(play.target, "Boom"):
                play.draw(play.target)

    return toys


def told(game) -> str:
    out = io.StringIO()
    screen = Screen(Console(file=out, width=200, color_system=None), card_text="always")
    screen.follow(game)
    screen.catch_up()
    return out.getvalue()


def test_after_replace_the_screen_shows_the_text_of_the_card_that_resolves():
    """A replaced play resolves as another card: the text under it is that card's (before,
    the text of the card selected, which never resolved), and so is the reason nothing
    happened."""
    game = table([forgery_set()], [["Forgery"], ["Boom"]], deck=["Dud"] * 6, names=["Ann", "Bix"])
    game.state.priority = [0, 1]
    play_round(game, {0: ("Forgery", 1), 1: ("Boom", 0)})
    text = told(game)
    after = text[text.index("resolves as Dud instead") :]
    assert "Dud: Choose another player. If they hold a Boom" in after
    assert "Boom: Choose another player. They lose." not in after
    assert "Nothing happens: you holds no Boom." not in text
    assert "Nothing happens: Ann holds no Boom." in after


def test_spoiler_table_picks_the_card_of_the_first_set_given_when_names_clash():
    """Two sets with a card of one name: the table deals the card of the set given first,
    the author's before the base set's; an id picks that very card."""
    from spoiler_base import base

    mine = CardSet("mine", "1.0")
    mine.card(type("Jewel", (), {"text": "Nothing happens.", "main": lambda play: None}))
    game = table([mine, base], [["Jewel", "base:jewel"], ["Supply"]], deck=["Supply"] * 9)
    assert [c.id for c in game.hand(0)] == ["mine:jewel", "base:jewel"]
    game = table([base, mine], [["Jewel"], ["Supply"]], deck=["Supply"] * 9)
    assert [c.id for c in game.hand(0)] == ["base:jewel"]


@pytest.mark.parametrize(
    "text",
    [
        "At End of Round: you win.",
        "at end of round: you win.",
        "AT END OF ROUND: you win.",
        "Name nothing. At End\n        of Round: you win.",
    ],
)
def test_the_at_end_of_round_text_rule_ignores_case_and_line_breaks(text):
    """A text says "At End of Round" in any case, and however a long string wraps it: a card
    with that part and that text is not reported."""
    toys = CardSet("toys", "1.0")
    toys.card(type("Late", (), {"text": text, "at_end": lambda play: None}))
    assert declaration_problems(toys) == []


def test_the_shipped_expansions_docstrings_name_modules_that_exist():
    """Every ``spoiler_…`` dotted name in the shipped sets' docstrings imports (a module, or
    an attribute of one): the docs point at real code."""
    missing = []
    for package in ("spoiler_base", "spoiler_chrono", "spoiler_mirror"):
        root = importlib.import_module(package)
        modules = [root] + [
            importlib.import_module(f"{package}.{m.name}")
            for m in pkgutil.iter_modules(root.__path__)
        ]
        for module in modules:
            for name in re.findall(r"``(spoiler_\w+(?:\.\w+)*)``", module.__doc__ or ""):
                if not _resolves(name):
                    missing.append(f"{module.__name__}: {name}")
    assert missing == []


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            thing = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            if not hasattr(thing, attr):
                return False
            thing = getattr(thing, attr)
        return True
    return False
