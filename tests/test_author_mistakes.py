"""Every mistake a card author can make is named, with the right card, before a player meets
it: in the declaration (the plugin is then broken, with the reason, and `sets list` never
calls the set ok), in an Ongoing subclass, in a hook, or in the set's API range."""

from __future__ import annotations

import subprocess
import sys

import pytest

from spoiler import hookimpl, plugins
from spoiler.agents import RandomAgent
from spoiler.cards import ANOTHER_PLAYER, CardSet, Choose, NameACard, NameANumber, Ongoing
from spoiler.engine import Game, GameError, Seat
from spoiler.testing import FakeEntryPoint, InvariantBroken, check_invariants, play_round, table


def declare(**attributes) -> CardSet:
    card_set = CardSet("oops", "0.1.0")
    card_set.card(type("Probe", (), {"text": "No effect.", **attributes}))
    return card_set


@pytest.mark.parametrize(
    ("attributes", "message"),
    [
        ({"copies": "4"}, "card Probe: copies must be a whole number, not '4'"),
        ({"copies": 10**9}, "card Probe: copies must be from 1 to 100, not 1000000000"),
        ({"copies": True}, "card Probe: copies must be a whole number, not True"),
        ({"ask": Choose(options=())}, "card Probe: its question has no possible answer"),
        ({"ask": NameANumber(5, 1)}, "card Probe: its question has no possible answer"),
        ({"ask": NameACard}, "card Probe: ask must be a question, not the class: write NameACard"),
        ({"ask": "a card"}, "card Probe: ask 'a card' is not a question"),
        (
            {"ask": NameACard(excluding="Probe")},
            "card Probe: NameACard(excluding=...) must be a tuple of card names, not 'Probe'",
        ),
        (
            {"target": "another player"},
            "card Probe: target 'another player' is not a target kind; use ANY_PLAYER, "
            "ANOTHER_PLAYER, ANOTHER_ACTIVE_PLAYER or LOST_PLAYER",
        ),
        (
            {"target": (ANOTHER_PLAYER, ANOTHER_PLAYER)},
            "card Probe: several targets are given as 'targets', not 'target'",
        ),
        ({"text": 42}, "card Probe: text must be a string, not 42"),
        ({"main": "lose"}, "card Probe: main must be a function, not 'lose'"),
        ({"at_end": lambda: None}, "card Probe: at_end must take exactly one argument"),
        ({"rulings": "Just one."}, "card Probe: rulings must be a tuple of sentences"),
    ],
    ids=lambda value: str(value)[:40] if isinstance(value, str) else None,
)
def test_a_bad_declaration_is_refused_with_a_clear_message(attributes, message):
    with pytest.raises(ValueError) as caught:
        declare(**attributes)
    assert str(caught.value).startswith(message)


def test_a_set_with_a_bad_declaration_is_broken_and_never_ok():
    """`sets list` shows the plugin as broken with the declaration's mistake as its reason."""

    class Plugin:
        @hookimpl
        def spoiler_register_sets(self, register):
            register(declare(copies="4"))

    registry = plugins.load({}, [FakeEntryPoint("oops", Plugin())])
    [info] = [i for i in registry.set_infos if i.name == "oops"]
    assert (info.status, info.error) == (
        "broken",
        "ValueError: card Probe: copies must be a whole number, not '4'",
    )
    assert "oops" not in registry.sets


def test_a_question_no_card_of_the_game_answers_is_refused_when_the_game_is_set_up():
    """NameACard's answers are the game's card names: one that excludes them all is a clear
    GameError when the game is set up, never a game that asks forever."""
    card_set = declare(ask=NameACard(excluding=("Probe",)), copies=6)
    seats = [Seat("A", RandomAgent(0, 0)), Seat("B", RandomAgent(0, 1))]
    with pytest.raises(GameError, match="Probe asks a question no answer fits in this game"):
        Game([card_set], seats, 0)


def test_a_misspelt_ongoing_handler_is_an_error_suggesting_the_closest_name():
    with pytest.raises(TypeError, match=r"Ward\.would_loose is not an Ongoing handler") as caught:

        class Ward(Ongoing):
            def would_loose(self, seat, cause):
                return True

    assert "did you mean 'would_lose'?" in str(caught.value)


def test_an_ongoing_handler_with_the_wrong_parameters_is_an_error():
    with pytest.raises(TypeError, match=r"Ward.would_lose must take \(self, seat, cause\)"):

        class Ward(Ongoing):
            def would_lose(self, seat):
                return True


def test_an_ongoing_effect_may_have_helpers_of_its_own():
    class Tally(Ongoing):
        def total(self):
            return 3

    assert Tally().total() == 3


def test_a_misspelt_hook_suggests_the_closest_spec():
    class Typo:
        @hookimpl
        def spoiler_before_ply(self, game, play):
            pass

    registry = plugins.load({}, [FakeEntryPoint("typo", Typo())])
    assert registry.plugins["typo"].error == (
        "implements unknown hook(s) spoiler_before_ply (did you mean spoiler_before_play?)"
    )


def test_a_hook_asking_for_a_parameter_its_spec_lacks_lists_the_specs_parameters():
    class Wrong:
        @hookimpl
        def spoiler_would_lose(self, game, player):
            pass

    registry = plugins.load({}, [FakeEntryPoint("wrong", Wrong())])
    assert registry.plugins["wrong"].error == (
        "invalid hook implementation: spoiler_would_lose asks for player, which the hook "
        "does not have; its parameters are: game, seat, cause"
    )


@pytest.mark.parametrize(
    ("spec", "ok"),
    [(">=1,<2", True), ("~=1.0", True), ("==1.*", True), (">=2", False), ("!=1.0", False)],
)
def test_api_ranges_are_version_specifiers(spec, ok):
    assert plugins.api_compatible(spec, "1.0") is ok


def test_an_unreadable_api_range_is_named():
    with pytest.raises(ValueError, match="unreadable API range 'one or two'"):
        plugins.api_compatible("one or two")


def test_invariants_are_checked_without_assert(toy):
    """check_invariants raises whatever Python's optimisation level (not an ``assert``)."""
    game = table([toy], [["Blank"], ["Blank"]], deck=["Blank"] * 4)
    game.state.deck.pop()  # a card vanishes
    with pytest.raises(InvariantBroken, match="cards not conserved"):
        check_invariants(game)
    script = (
        "from spoiler.testing import check_invariants, table\n"
        "from spoiler.cards import CardSet\n"
        "s = CardSet('t', '1')\n"
        "s.card(type('Blank', (), {'text': 'x', 'copies': 9}))\n"
        "g = table([s], [['Blank'], ['Blank']], deck=['Blank'] * 4)\n"
        "g.state.deck.pop()\n"
        "try:\n    check_invariants(g)\nexcept AssertionError as e:\n    print('caught', e)\n"
    )
    out = subprocess.run(
        [sys.executable, "-O", "-c", script], capture_output=True, text=True, check=True
    )
    assert out.stdout.startswith("caught cards not conserved")


def test_replace_takes_a_card_name_and_find_card_names_the_closest(toy):
    game = table([toy], [["Blank"], ["Blank"]], deck=["Blank"] * 4)
    with pytest.raises(
        LookupError, match=r"no card 'Crwn' in this game \(did you mean 'Crown'\?\)"
    ):
        game.find_card("Crwn")
    assert game.find_card("toy:crown") is game.find_card("CROWN")


def test_a_card_put_straight_into_cards_is_checked_when_the_set_registers():
    """CardSet.cards is a plain list: a card appended to it, skipping the checks of
    CardSet.add, is checked when the plugin registers the set all the same."""
    from spoiler.cards import Card

    card_set = CardSet("oops", "0.1.0")
    card_set.cards.append(Card("oops:huge", "Huge", "A big deck.", copies=10**9))

    class Plugin:
        @hookimpl
        def spoiler_register_sets(self, register):
            register(card_set)

    registry = plugins.load({}, [FakeEntryPoint("oops", Plugin())])
    [info] = [i for i in registry.set_infos if i.name == "oops"]
    assert (info.status, info.error) == (
        "broken",
        "card Huge: copies must be from 1 to 100, not 1000000000",
    )


def test_a_misspelt_card_attribute_suggests_the_closest():
    with pytest.raises(
        ValueError, match=r"card Probe: unknown attribute\(s\) copy \(did you mean 'copies'\?\)"
    ):
        declare(copy=3)


def test_a_misspelt_ongoing_attribute_suggests_the_closest():
    with pytest.raises(
        TypeError, match=r"Ward.round is not an Ongoing attribute.*did you mean 'rounds'"
    ):

        class Ward(Ongoing):
            round = 2


def test_a_misspelt_verb_fizzles_naming_the_closest_verb(toy):
    """The fizzled event (and so `sets validate`) says what was meant."""
    broken = CardSet("typo", "0.1.0")
    broken.card(
        type("Typo", (), {"text": "You lose.", "copies": 4, "main": lambda p: p.loose(p.player)})
    )
    game = table([toy, broken], [["Typo"], ["Blank"]], deck=["Blank"] * 4, strict=False)
    events = play_round(game, {0: "Typo", 1: "Blank"})
    [fizzled] = [e for e in events if e.kind == "fizzled"]
    assert (
        fizzled.data["error"]
        == "AttributeError: Play has no attribute 'loose'; did you mean 'lose'?"
    )
