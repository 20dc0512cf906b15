"""The hook specifications: how plugins extend Spoiler.

Project name and entry point group: ``spoiler``. A plugin is any importable object (usually
a module) with functions decorated ``@spoiler.hookimpl`` whose names match the specs below.
An implementation may take any subset of a spec's parameters, by name.

Three families:

* content: what a plugin provides (card sets, agents);
* round phases: called at fixed points of every round; a plugin's phase hooks run only in
  games that use one of its card sets (or, for a plugin with no sets, in every game);
* card effects: called as plays resolve and as players would lose, win or move cards; they
  may change what happens. Ongoing effects take part in these for their duration through
  the ``Ongoing`` handlers of the same names.

Hooks act on the game only through its verbs: those of the ``rule`` argument, whose cause is
the plugin's rule (``rule.lose(seat)``), or the game's, naming a cause
(``game.lose(seat, cause="myset:rule")``). A hook must not play the game itself
(``game.play_round()``): the engine refuses, naming the plugin.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from spoiler.model.cards import Card, CardSet
    from spoiler.model.state import Result
    from spoiler.model.verbs import Cause as Cause
    from spoiler.model.verbs import Play, Rule
    from spoiler.rules.game import Game

hookspec = pluggy.HookspecMarker("spoiler")
hookimpl = pluggy.HookimplMarker("spoiler")


# -- content -----------------------------------------------------------------------------------
@hookspec
def spoiler_register_sets(register: Callable[[CardSet], None]) -> None:
    """Called once when plugins load, to collect card sets.

    :param register: call ``register(card_set)`` with each ``spoiler.CardSet`` the plugin provides.
    :return: ignored.
    """


@hookspec
def spoiler_register_agents(register: Callable[..., None]) -> None:
    """Called once when plugins load, to collect agents (bots).

    :param register: call ``register(kind, factory, description)``; ``factory(seat, seed)``
        returns an object with ``select(view)`` and ``answer(view, question)``. ``seed`` is
        the bot's own, derived one-way from the game's secret seed (``spoiler.seeds``).
        A factory that also takes ``options`` is given the bot options of the command line
        (``--bot-option KEY=VALUE``, ``--think MS`` for ``think=MS``) as a dict of names to
        text when there are any; it reads the keys it knows, ignores the others, and raises
        ``spoiler.agents.options.OptionError`` (one line) for a value it refuses. A
        ``spoiler.agents.process.Program("COMMAND")`` as the factory seats a program bot,
        as ``--bot exec:COMMAND`` does, under the kind's name.
    :return: ignored.
    """


# -- round phases ------------------------------------------------------------------------------
@hookspec
def spoiler_game_start(game: Game, rule: Rule) -> None:
    """After priorities are given and three cards dealt to each player, before round 1.

    :param game: the ``spoiler.Game``.
    :param rule: the verbs of this plugin's rule, whose cause is its id ``"<plugin>:rule"``
        (``rule.lose(seat)`` is ``game.lose(seat, cause="<plugin>:rule")``).
    :return: ignored.
    """


@hookspec
def spoiler_round_start(game: Game, rule: Rule) -> None:
    """At the start of each round, before players select their cards.

    :param game: the ``spoiler.Game``; ``game.round`` is the new round's number.
    :param rule: the verbs of this plugin's rule, whose cause is its id ``"<plugin>:rule"``
        (``rule.lose(seat)`` is ``game.lose(seat, cause="<plugin>:rule")``).
    :return: ignored.
    """


@hookspec
def spoiler_beginning_of_round(game: Game, rule: Rule) -> None:
    """After every selection is made, before the "At Beginning of Round" parts resolve.

    :param game: the ``spoiler.Game``; ``game.plays`` holds this round's plays.
    :param rule: the verbs of this plugin's rule, whose cause is its id ``"<plugin>:rule"``
        (``rule.lose(seat)`` is ``game.lose(seat, cause="<plugin>:rule")``).
    :return: ignored.
    """


@hookspec
def spoiler_end_of_round(game: Game, rule: Rule) -> None:
    """After the "At End of Round" parts resolved, before played cards are discarded.

    :param game: the ``spoiler.Game``.
    :param rule: the verbs of this plugin's rule, whose cause is its id ``"<plugin>:rule"``
        (``rule.lose(seat)`` is ``game.lose(seat, cause="<plugin>:rule")``).
    :return: ignored.
    """


@hookspec
def spoiler_after_draw(game: Game, rule: Rule) -> None:
    """After every player who has not lost drew a card, before priorities shift.

    :param game: the ``spoiler.Game``.
    :param rule: the verbs of this plugin's rule, whose cause is its id ``"<plugin>:rule"``
        (``rule.lose(seat)`` is ``game.lose(seat, cause="<plugin>:rule")``).
    :return: ignored.
    """


@hookspec
def spoiler_round_end(game: Game, rule: Rule) -> None:
    """After priorities shifted, just before the check for the end of the game.

    :param game: the ``spoiler.Game``; wins and losses made here count in that check.
    :param rule: the verbs of this plugin's rule, whose cause is its id ``"<plugin>:rule"``
        (``rule.lose(seat)`` is ``game.lose(seat, cause="<plugin>:rule")``).
    :return: ignored.
    """


@hookspec
def spoiler_game_end(game: Game, result: Result, rule: Rule) -> None:
    """Once, when the game has ended.

    :param game: the ``spoiler.Game``.
    :param result: the ``spoiler.Result`` (kind, winners, round).
    :param rule: the verbs of this plugin's rule, whose cause is its id ``"<plugin>:rule"``
        (``rule.lose(seat)`` is ``game.lose(seat, cause="<plugin>:rule")``).
    :return: ignored.
    """


# -- card effects ------------------------------------------------------------------------------
@hookspec
def spoiler_before_play(game: Game, play: Play, rule: Rule) -> None:
    """Before a play's main effect resolves (mid round, in priority order).

    :param game: the ``spoiler.Game``.
    :param play: the ``spoiler.Play``; cancel it with ``game.cancel(play, cause)``, change its
        targets with ``game.redirect(play, seats, cause)`` or its effect with
        ``game.replace(play, card, cause)``.
    :param rule: the verbs of this plugin's rule, whose cause is its id ``"<plugin>:rule"``
        (``rule.lose(seat)`` is ``game.lose(seat, cause="<plugin>:rule")``).
    :return: ignored.
    """


@hookspec
def spoiler_after_play(game: Game, play: Play, rule: Rule) -> None:
    """After a play's main effect resolved (not called for cancelled plays).

    :param game: the ``spoiler.Game``.
    :param play: the ``spoiler.Play`` that resolved.
    :param rule: the verbs of this plugin's rule, whose cause is its id ``"<plugin>:rule"``
        (``rule.lose(seat)`` is ``game.lose(seat, cause="<plugin>:rule")``).
    :return: ignored.
    """


@hookspec(firstresult=True)
def spoiler_would_lose(game: Game, seat: int, cause: Cause, rule: Rule) -> bool | None:
    """When a player would lose (move one step down), before it happens.

    :param game: the ``spoiler.Game``.
    :param seat: the player who would lose.
    :param cause: what makes them lose: a ``Play``, an ``Ongoing`` effect, a string or None.
    :param rule: the verbs of this plugin's rule, whose cause is its id ``"<plugin>:rule"``
        (``rule.lose(seat)`` is ``game.lose(seat, cause="<plugin>:rule")``).
    :return: True to prevent the loss (a replacement effect does its own thing first, through
        the verbs); None to let it happen. The first True stops the others.
    """


@hookspec(firstresult=True)
def spoiler_would_win(game: Game, seat: int, cause: Cause, rule: Rule) -> bool | None:
    """When a player would win (move one step up), before it happens.

    :param game: the ``spoiler.Game``.
    :param seat: the player who would win.
    :param cause: what makes them win: a ``Play``, an ``Ongoing`` effect, a string or None.
    :param rule: the verbs of this plugin's rule, whose cause is its id ``"<plugin>:rule"``
        (``rule.lose(seat)`` is ``game.lose(seat, cause="<plugin>:rule")``).
    :return: True to prevent the win; None to let it happen. The first True stops the others.
    """


@hookspec
def spoiler_card_drawn(game: Game, seat: int, card: Card, rule: Rule) -> None:
    """After a player drew a card (the end-of-round draw or a card's effect; not the deal).

    :param game: the ``spoiler.Game``.
    :param seat: who drew.
    :param card: the ``spoiler.Card`` drawn.
    :param rule: the verbs of this plugin's rule, whose cause is its id ``"<plugin>:rule"``
        (``rule.lose(seat)`` is ``game.lose(seat, cause="<plugin>:rule")``).
    :return: ignored.
    """


@hookspec
def spoiler_card_discarded(game: Game, seat: int, card: Card, cause: Cause, rule: Rule) -> None:
    """After a card was discarded from a hand by an effect (played cards are not "discarded").

    :param game: the ``spoiler.Game``.
    :param seat: whose hand it left.
    :param card: the ``spoiler.Card``.
    :param cause: the ``Play``, ``Ongoing`` effect or string that made it happen.
    :param rule: the verbs of this plugin's rule, whose cause is its id ``"<plugin>:rule"``
        (``rule.lose(seat)`` is ``game.lose(seat, cause="<plugin>:rule")``).
    :return: ignored.
    """


@hookspec
def spoiler_card_given(
    game: Game, giver: int, receiver: int, card: Card, cause: Cause, rule: Rule
) -> None:
    """After a card moved from one hand to another.

    :param game: the ``spoiler.Game``.
    :param giver: whose hand it left.
    :param receiver: whose hand it joined.
    :param card: the ``spoiler.Card``.
    :param cause: the ``Play``, ``Ongoing`` effect or string that made it happen.
    :param rule: the verbs of this plugin's rule, whose cause is its id ``"<plugin>:rule"``
        (``rule.lose(seat)`` is ``game.lose(seat, cause="<plugin>:rule")``).
    :return: ignored.
    """
