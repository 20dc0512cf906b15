"""The one check of a card set's declarations (`spoiler.model.cards.declaration_problems`): every
message it can give, one test each, named after what it refuses or reports.

A *refused* declaration is one a game could not rely on: `CardSet.add` (and so `@set.card`)
refuses the card with that message, and loading refuses a set holding it (a card put straight
into `CardSet.cards`), so its plugin is broken. A *reported* one leaves the set loading and
playing, and `spoiler sets validate` reports it (its static check is this same function)."""

from __future__ import annotations

import pytest

from spoiler import hookimpl, plugins
from spoiler.model.cards import (
    ANOTHER_PLAYER,
    Ask,
    Card,
    CardSet,
    Choose,
    DeclarationProblem,
    NameACard,
    NameANumber,
    declaration_problems,
    refusal,
)
from spoiler.plugins import validation
from spoiler.testing import FakeEntryPoint

KINDS = "ANY_PLAYER, ANOTHER_PLAYER, ANOTHER_ACTIVE_PLAYER or LOST_PLAYER"


def probe(**fields) -> Card:
    """A card built without the decorator (which normalises what it is given)."""
    return Card(**{"id": "probe:probe", "name": "Probe", "text": "No effect.", **fields})


def holding(*cards) -> CardSet:
    card_set = CardSet("probe", "0.1.0")
    card_set.cards.extend(cards)  # past CardSet.add: what loading sees of such a set
    return card_set


def refused(card, card_names: tuple[str, ...] = ()) -> str:
    """The one problem of a card: refused by CardSet.add with that message, and by loading."""
    [problem] = declaration_problems(holding(card), card_names)
    assert problem.refused
    with pytest.raises(ValueError) as caught:
        CardSet("probe", "0.1.0").add(card)
    assert str(caught.value) == str(problem)

    class Plugin:
        @hookimpl
        def spoiler_register_sets(self, register):
            register(holding(card))

    registry = plugins.load({}, [FakeEntryPoint("probe", Plugin())])
    assert registry.plugins["probe"].error == str(problem)
    return str(problem)


def reported(*cards, card_names: tuple[str, ...] = ()) -> str:
    """The one problem of a set: it loads all the same, and `sets validate` reports it."""
    [problem] = declaration_problems(holding(*cards), card_names)
    assert not problem.refused
    card_set = CardSet("probe", "0.1.0")
    for card in cards:
        card_set.add(card)  # not refused
    [static] = validation.check_set(card_set, card_names)
    assert (static.card, static.message) == (problem.card, problem.message)
    return str(problem)


def test_well_declared_sets_have_no_problem():
    """The sets spoiler-game and the expansions ship pass every check, those of validate too."""
    registry = plugins.load({})
    names = tuple(sorted({c.name for s in registry.sets.values() for c in s.cards}))
    assert {"base", "chrono", "mirror"} <= set(registry.sets)
    for card_set in registry.sets.values():
        assert declaration_problems(card_set, names) == []


# -- the set ----------------------------------------------------------------------------------
def test_refuses_a_set_that_is_not_a_card_set():
    assert [str(p) for p in declaration_problems(["Probe"])] == [
        "['Probe'] is not a spoiler.CardSet"
    ]

    class Plugin:
        @hookimpl
        def spoiler_register_sets(self, register):
            register("cards")

    registry = plugins.load({}, [FakeEntryPoint("probe", Plugin())])
    assert registry.plugins["probe"].error == "'cards' is not a spoiler.CardSet"


def test_refuses_a_card_that_is_not_a_card():
    [problem] = declaration_problems(holding("Probe"))
    assert (problem.card, problem.refused) == (None, True)
    assert str(problem) == "set 'probe': 'Probe' is not a spoiler Card"
    with pytest.raises(ValueError, match=r"^set 'probe': 'Probe' is not a spoiler Card$"):
        CardSet("probe", "0.1.0").add("Probe")  # type: ignore[arg-type]


def test_refuses_two_cards_with_one_id():
    """The second card of an id would be unreachable: a game finds cards by id."""
    twin = probe(name="Twin")
    assert [str(p) for p in declaration_problems(holding(probe(), twin))] == [
        "card Twin: set 'probe' already has a card with the id 'probe:probe'"
    ]

    class Plugin:
        @hookimpl
        def spoiler_register_sets(self, register):
            register(holding(probe(), twin))

    registry = plugins.load({}, [FakeEntryPoint("probe", Plugin())])
    assert registry.plugins["probe"].error.startswith("card Twin: set 'probe' already has")
    card_set = CardSet("probe", "0.1.0")
    card_set.add(probe())
    with pytest.raises(ValueError, match=r"^card Twin: set 'probe' already has a card with the id"):
        card_set.add(twin)


def test_refuses_a_card_whose_id_is_outside_its_set():
    assert refused(probe(id="other:probe")) == (
        "card Probe: its id 'other:probe' is outside set 'probe' (its cards' ids start with "
        "'probe:')"
    )


def test_reports_two_cards_of_one_name():
    """Ids differ, so a game runs, but a card that names a card cannot tell them apart."""
    assert reported(probe(), probe(id="probe:probe-2", name="PROBE")) == (
        "card PROBE: another card of the set is named 'PROBE' too: a card that names a card "
        "cannot tell them apart"
    )


# -- what a card is -----------------------------------------------------------------------------
def test_refuses_a_card_with_no_name():
    assert refused(probe(name="")) == (
        "card 'probe:probe': name must be a string with letters or digits, not ''"
    )
    with pytest.raises(ValueError, match=r"^card Probe: name must be a string with letters or"):
        CardSet("probe", "0.1.0").card(type("Probe", (), {"text": "x.", "name": "?!"}))


def test_refuses_a_text_that_is_not_a_string():
    assert refused(probe(text=42)) == "card Probe: text must be a string, not 42"


def test_reports_a_card_with_no_printed_text():
    """An empty text still plays (loading takes it: existing sets may rely on that)."""
    assert reported(probe(text="  ")) == "card Probe: the card has no printed text"


def test_refuses_copies_that_are_not_a_whole_number():
    assert refused(probe(copies=2.5)) == "card Probe: copies must be a whole number, not 2.5"


def test_refuses_copies_outside_1_to_100():
    assert refused(probe(copies=0)) == "card Probe: copies must be from 1 to 100, not 0"


def test_refuses_targets_that_are_not_a_tuple():
    assert refused(probe(targets=ANOTHER_PLAYER)) == (
        f"card Probe: targets must be a tuple of target kinds ({KINDS}), not {ANOTHER_PLAYER!r}"
    )


def test_refuses_a_target_that_is_not_a_target_kind():
    assert refused(probe(targets=("another player",))) == (
        f"card Probe: target 'another player' is not a target kind; use {KINDS}"
    )


def test_refuses_rulings_that_are_not_a_tuple_of_sentences():
    assert refused(probe(rulings=("Fine.", " "))) == (
        "card Probe: rulings must be a tuple of sentences, not ('Fine.', ' ')"
    )


def test_refuses_an_unmet_text_that_is_not_a_string():
    assert refused(probe(unmet=7)) == "card Probe: unmet must be a string, not 7"


def test_refuses_an_unmet_text_that_cannot_be_filled():
    assert refused(probe(unmet="{victim} is fine")) == (
        "card Probe: unmet '{victim} is fine' cannot be filled (KeyError: 'victim'); it may "
        "name {player}, {player_s}, {target}, {target_s}, {info}"
    )


# -- its question -------------------------------------------------------------------------------
class Unlisted(Ask):
    def choices(self, card_names):
        raise LookupError("no list")


class Fussy(Ask):
    def choices(self, card_names):
        return ("yes",)

    def check(self, answer, card_names):
        raise ValueError("never")


def test_refuses_a_question_class_instead_of_a_question():
    assert refused(probe(ask=NameANumber)) == (
        "card Probe: ask must be a question, not the class: write NameANumber(...)"
    )


def test_refuses_an_ask_that_is_not_a_question():
    assert refused(probe(ask="a card")) == (
        "card Probe: ask 'a card' is not a question (NameACard, NameANumber, Choose)"
    )


def test_refuses_name_a_card_excluding_a_string():
    assert refused(probe(ask=NameACard(excluding="Probe"))) == (  # type: ignore[arg-type]
        "card Probe: NameACard(excluding=...) must be a tuple of card names, not 'Probe'"
    )


def test_refuses_a_question_that_cannot_list_its_answers():
    assert refused(probe(ask=Unlisted())) == (
        "card Probe: its question cannot list its answers: LookupError: no list"
    )


def test_refuses_a_question_with_no_possible_answer():
    assert (
        refused(probe(ask=Choose(options=()))) == "card Probe: its question has no possible answer"
    )


def test_refuses_a_question_that_refuses_its_own_answer():
    assert refused(probe(ask=Fussy())) == (
        "card Probe: its question refuses its own answer 'yes': never"
    )


def test_reports_a_question_that_leaves_no_card_of_the_game_to_name():
    """Which cards a NameACard may name depends on the game: validate checks the set with the
    base set's names (and a game of only these cards is refused when it is set up)."""
    card = probe(ask=NameACard(excluding=("Probe", "Pebble")))
    assert reported(card, card_names=("Pebble", "Probe")) == (
        "card Probe: its question leaves no card to name: it excludes every card of the game"
    )
    assert declaration_problems(holding(card)) == []  # no game's names: nothing to check


# -- its parts ----------------------------------------------------------------------------------
def test_refuses_an_effect_that_is_not_a_function():
    assert refused(probe(main="lose")) == "card Probe: main must be a function, not 'lose'"


def test_refuses_an_effect_that_does_not_take_the_play():
    assert refused(probe(at_beginning=lambda: None, text="At Beginning of Round: x.")) == (
        "card Probe: at_beginning must take exactly one argument (the play)"
    )


def test_reports_a_part_its_text_does_not_announce():
    assert reported(probe(at_end=lambda play: None)) == (
        "card Probe: has an 'At End of Round' part but its text does not say so"
    )


def test_reports_a_text_announcing_a_part_the_card_lacks():
    assert reported(probe(text="At Beginning of Round: nothing.")) == (
        "card Probe: its text says 'At Beginning of Round' but the card has no at_beginning part"
    )


# -- how problems are told ----------------------------------------------------------------------
def test_a_refusal_names_each_card_once_on_one_line():
    problems = declaration_problems(
        holding(probe(copies=0, text=1), probe(id="probe:b", name="B", main=3))
    )
    assert refusal(problems) == (
        "card Probe: text must be a string, not 1; copies must be from 1 to 100, not 0; "
        "card B: main must be a function, not 3"
    )
    assert str(DeclarationProblem(None, "set 'x': wrong")) == "set 'x': wrong"


def test_loading_refuses_a_set_name_one_plugin_registers_twice():
    """Like a bot kind registered twice: which set would a game get?"""

    class Plugin:
        @hookimpl
        def spoiler_register_sets(self, register):
            register(CardSet("twice", "1.0"))
            register(CardSet("twice", "2.0"))

    registry = plugins.load({}, [FakeEntryPoint("twice", Plugin())])
    assert registry.plugins["twice"].error == "set name 'twice' is registered twice"
    assert "twice" not in registry.sets
