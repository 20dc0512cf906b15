"""Chrono's cards and rules, one test per card and ruling, as the players would see them."""

from __future__ import annotations

import pytest

import spoiler_chrono
from spoiler.plugins import hooks_for
from spoiler.state import Status
from spoiler.testing import ScriptError, check_invariants, kinds, play_round, table
from spoiler_chrono.cards import APPOINTMENT, FUSE, SUNDIAL, TIME, chrono

HOOKS = hooks_for(spoiler_chrono)
FILLER = "Hourglass"  # what the other players play when a test does not care


def chrono_table(hands, **options):
    """A Chrono game (its rules included) with a deck of fillers to draw from."""
    options.setdefault("deck", [FILLER] * 12)
    return table([chrono], hands, hooks=HOOKS, **options)


def quiet_round(game, **selections):
    """A round where every seat not named plays the filler card (``s1=None``: seat 1 is not
    scripted, for a seat that loses before it selects)."""
    chosen = {
        seat: (FILLER,)
        for seat, p in enumerate(game.state.players)
        if p.status is not Status.LOST and p.hand
    }
    chosen.update({int(k[1:]): v for k, v in selections.items()})
    return play_round(game, {seat: v for seat, v in chosen.items() if v is not None})


def test_hourglass_gains_two_time_tokens():
    """Hourglass: "Gain 2 time tokens." """
    game = chrono_table([["Hourglass"], ["Hourglass"]])
    play_round(game, {0: ("Hourglass",), 1: ("Hourglass",)})
    assert game.counter(0, TIME) == 2 and game.counter(1, TIME) == 2


def test_sundial_gives_one_time_token_per_sundial_at_each_round_start():
    """Sundial: "from now on, at the start of each round, you gain 1 time token for each
    sundial you have." """
    game = chrono_table([["Sundial", "Sundial"], [FILLER, FILLER]])
    quiet_round(game, s0=("Sundial",))
    assert game.counter(0, SUNDIAL) == 1 and game.counter(0, TIME) == 0
    quiet_round(game, s0=("Sundial",))  # the first sundial shines before the second is put up
    assert game.counter(0, SUNDIAL) == 2 and game.counter(0, TIME) == 1
    quiet_round(game)
    assert game.counter(0, TIME) == 1 + 2 + 2  # two sundials, and the filler's 2


def test_sundial_ruling_keeps_shining_for_a_player_who_has_lost():
    """Sundial ruling: "Sundials stay all game, and keep shining for a player who has lost." """
    game = chrono_table([[], [FILLER], [FILLER]], statuses={0: Status.LOST})
    game.add_counter(0, SUNDIAL, 1)
    quiet_round(game)
    assert game.counter(0, TIME) == 1


def test_time_bomb_burns_out_and_its_target_loses():
    """Time Bomb: "Light a 3-round fuse on them: at the start of each round it burns down by 1,
    and when it burns out they lose." """
    game = chrono_table([["Time Bomb"], [FILLER], [FILLER]])
    quiet_round(game, s0=("Time Bomb", 1))
    assert game.counter(1, FUSE) == 3
    quiet_round(game)
    quiet_round(game)
    assert game.counter(1, FUSE) == 1 and game.status(1) is Status.IN_PLAY
    events = quiet_round(game, s1=None)  # the fuse burns out before seat 1 could select
    lost = [e for e in events if e.kind == "lost"]
    assert [(e.seat, e.cause) for e in lost] == [(1, "chrono:time-bomb")]
    assert game.status(1) is Status.LOST


def test_time_bomb_ruling_a_second_bomb_relights_the_fuse():
    """Time Bomb ruling: "A player has one fuse at a time: a second Time Bomb relights it to its
    full length." """
    game = chrono_table([["Time Bomb", "Time Bomb"], [FILLER, FILLER], [FILLER, FILLER]])
    quiet_round(game, s0=("Time Bomb", 1))
    quiet_round(game, s0=("Time Bomb", 1))
    assert game.counter(1, FUSE) == 3


def test_time_bomb_ruling_burns_out_before_anyone_selects():
    """Time Bomb ruling: "The fuse burns out at the start of the third round after the one it was
    lit in, before anyone selects." The player who lost selects nothing that round."""
    game = chrono_table([["Time Bomb"], [FILLER, FILLER, FILLER, FILLER], [FILLER] * 4])
    quiet_round(game, s0=("Time Bomb", 1))
    quiet_round(game)
    quiet_round(game)
    events = quiet_round(game, s1=None)
    assert game.status(1) is Status.LOST
    assert 1 not in game.decisions[-1]["selections"]
    assert kinds(events).index("lost") < kinds(events).index("selected")


def test_defuse_puts_out_a_fuse_and_gains_two_time_tokens():
    """Defuse: "Put out their fuse; if they had one, you gain 2 time tokens." """
    game = chrono_table([["Defuse"], [FILLER]])
    game.add_counter(1, FUSE, 2)
    quiet_round(game, s0=("Defuse", 1))
    assert game.counter(1, FUSE) == 0 and game.counter(0, TIME) == 2


def test_defuse_without_a_fuse_gains_nothing():
    """Defuse: "if they had one, you gain 2 time tokens" — and only then."""
    game = chrono_table([["Defuse"], [FILLER]])
    quiet_round(game, s0=("Defuse", 0))
    assert game.counter(0, TIME) == 0


def test_time_thief_takes_up_to_two_time_tokens():
    """Time Thief: "Take up to 2 of their time tokens." """
    game = chrono_table([["Time Thief", "Time Thief"], ["Defuse", "Defuse"]])
    game.add_counter(1, TIME, 3)
    play_round(game, {0: ("Time Thief", 1), 1: ("Defuse", 1)})
    assert (game.counter(0, TIME), game.counter(1, TIME)) == (2, 1)
    play_round(game, {0: ("Time Thief", 1), 1: ("Defuse", 1)})
    assert (game.counter(0, TIME), game.counter(1, TIME)) == (3, 0)


def test_rewind_spends_three_time_tokens_and_wins():
    """Rewind: "At End of Round: if you have 3 or more time tokens, spend 3 and win." """
    game = chrono_table([["Rewind"], [FILLER], [FILLER]])
    game.add_counter(0, TIME, 4)
    quiet_round(game, s0=("Rewind",))
    assert game.counter(0, TIME) == 1
    assert game.status(0) is Status.WON and game.result.winners == (0,)


def test_rewind_with_fewer_than_three_time_tokens_does_nothing():
    """Rewind: "if you have 3 or more time tokens" — with 2 nothing happens."""
    game = chrono_table([["Rewind"], [FILLER], [FILLER]])
    game.add_counter(0, TIME, 2)
    quiet_round(game, s0=("Rewind",))
    assert game.counter(0, TIME) == 2 and game.status(0) is Status.IN_PLAY


def test_rewind_ruling_a_player_who_lost_this_round_is_back_in_play():
    """Rewind ruling: "A player who has lost this round and rewinds is back in play (win and
    lose cancel out)." """
    game = chrono_table([["Rewind"], ["Paradox"], [FILLER]], priority=[1, 0, 2])
    game.add_counter(0, TIME, 3)
    events = play_round(game, {0: ("Rewind",), 1: ("Paradox", 0), 2: (FILLER,)})
    assert [e.kind for e in events if e.seat == 0 and e.kind in ("lost", "won")] == ["lost", "won"]
    assert game.status(0) is Status.IN_PLAY


def test_stopwatch_gains_one_time_token_and_one_more_when_first():
    """Stopwatch: "At Beginning of Round: gain 1 time token, and 1 more if you are 1st in
    priority." """
    game = chrono_table([["Stopwatch"], ["Stopwatch"]], priority=[0, 1])
    play_round(game, {0: ("Stopwatch",), 1: ("Stopwatch",)})
    assert (game.counter(0, TIME), game.counter(1, TIME)) == (2, 1)


def test_head_start_spends_a_time_token_to_become_first_from_now_on():
    """Head Start: "If you have a time token, spend it: you become 1st in priority from now
    on." After the shift at the round's end the player is last, as the shift says."""
    game = chrono_table([["Head Start"], [FILLER], [FILLER]], priority=[1, 2, 0])
    game.add_counter(0, TIME, 1)
    events = quiet_round(game, s0=("Head Start",))
    assert "priority_changed" in kinds(events)
    assert game.counter(0, TIME) == 0 and game.state.priority == [1, 2, 0]


def test_head_start_without_a_time_token_does_nothing():
    """Head Start: "If you have a time token" — without one, nothing moves."""
    game = chrono_table([["Head Start"], [FILLER], [FILLER]], priority=[1, 2, 0])
    events = quiet_round(game, s0=("Head Start",))
    assert "priority_changed" not in kinds(events)


def test_paradox_the_player_with_more_time_tokens_loses():
    """Paradox: "If they have more time tokens than you, they lose; if they have fewer, you
    lose." """
    richer = chrono_table([["Paradox"], [FILLER], [FILLER]])
    richer.add_counter(1, TIME, 1)
    play_round(richer, {0: ("Paradox", 1), 1: (FILLER,), 2: (FILLER,)})
    assert richer.status(1) is Status.LOST and richer.status(0) is Status.IN_PLAY
    poorer = chrono_table([["Paradox"], ["Defuse"], [FILLER]])
    poorer.add_counter(0, TIME, 1)
    play_round(poorer, {0: ("Paradox", 1), 1: ("Defuse", 1), 2: (FILLER,)})
    assert poorer.status(0) is Status.LOST and poorer.status(1) is Status.IN_PLAY


def test_paradox_ruling_equal_time_tokens_do_nothing():
    """Paradox ruling: "With equal time tokens nothing happens." """
    game = chrono_table([["Paradox"], ["Defuse"], [FILLER]])
    events = play_round(game, {0: ("Paradox", 1), 1: ("Defuse", 1), 2: (FILLER,)})
    assert "lost" not in kinds(events)


def test_borrowed_time_gains_four_and_lights_a_fuse_on_yourself():
    """Borrowed Time: "Gain 4 time tokens, and light a 3-round fuse on yourself." """
    game = chrono_table([["Borrowed Time"], [FILLER]])
    quiet_round(game, s0=("Borrowed Time",))
    assert game.counter(0, TIME) == 4 and game.counter(0, FUSE) == 3


def test_appointment_gains_five_time_tokens_that_many_rounds_later():
    """Appointment: "Name a number from 2 to 4. At the start of the round that many rounds from
    now, you gain 5 time tokens." """
    game = chrono_table([["Appointment"], [FILLER] * 3])
    quiet_round(game, s0=("Appointment", (), 2))  # round 1: due at the start of round 3
    quiet_round(game)
    assert game.counter(0, TIME) == 2  # only the filler drawn and played in round 2
    quiet_round(game)
    assert game.counter(0, TIME) == 2 + 5 + 2 and game.counter(0, APPOINTMENT) == 0


def test_appointment_refuses_a_number_outside_two_to_four():
    """Appointment asks for "a number from 2 to 4": 5 is refused (and a scripted round says
    so; a player would be asked again)."""
    game = chrono_table([["Appointment"], [FILLER]])
    with pytest.raises(ScriptError, match=r"refused: Appointment: 5 is not from 2 to 4$"):
        play_round(game, {0: ("Appointment", (), 5), 1: (FILLER,)})


def test_appointment_ruling_a_new_appointment_replaces_the_old():
    """Appointment ruling: "A player keeps one appointment at a time: a new one replaces the
    old." """
    game = chrono_table([["Appointment", "Appointment"], [FILLER] * 3])
    quiet_round(game, s0=("Appointment", (), 4))
    quiet_round(game, s0=("Appointment", (), 2))
    assert game.counter(0, APPOINTMENT) == 4


def test_appointment_ruling_is_kept_even_after_losing():
    """Appointment ruling: "The appointment is kept even if the player has lost." """
    game = chrono_table([["Appointment"], ["Paradox"], [FILLER] * 3], priority=[1, 0, 2])
    game.add_counter(0, TIME, 1)  # seat 0 is richer: seat 1's Paradox makes them lose
    play_round(game, {0: ("Appointment", (), 2), 1: ("Paradox", 0), 2: (FILLER,)})
    assert game.status(0) is Status.LOST
    quiet_round(game)
    quiet_round(game)
    assert game.counter(0, TIME) == 1 + 5


def test_hourglass_rule_ten_time_tokens_are_spent_to_win_at_the_round_end():
    """The Hourglass rule: "at each round's end, every player with 10 or more time tokens
    spends 10 and wins." """
    game = chrono_table([["Hourglass"], [FILLER], [FILLER]])
    game.add_counter(0, TIME, 9)
    events = quiet_round(game)
    won = [e for e in events if e.kind == "won"]
    assert [(e.seat, e.cause) for e in won] == [(0, "chrono:hourglass-rule")]
    assert game.counter(0, TIME) == 1 and game.result.winners == (0,)


def test_chrono_rules_hold_only_in_games_with_chrono():
    """The rules are the set's: a game without Chrono never calls them."""
    from spoiler.plugins import load

    registry = load(environ={"SPOILER_PLUGINS": "spoiler-chrono"})
    assert "spoiler_round_start" in registry.game_hooks(["base", "chrono"])
    assert "spoiler_round_start" not in registry.game_hooks(["base"])


@pytest.mark.parametrize("seed", range(30))
def test_chrono_plays_well_with_the_base_set_and_mirror(seed):
    """Random games of Chrono mixed with every other installed set keep the engine's
    invariants after every round, and end."""
    from spoiler.agents import RandomAgent
    from spoiler.engine import Game, Seat
    from spoiler.plugins import load

    registry = load(environ={})
    names = sorted(registry.sets)
    seats = [Seat(f"P{i}", RandomAgent(seed, i)) for i in range(2 + seed % 4)]
    game = Game(
        registry.card_sets(names), seats, seed, hooks=registry.game_hooks(names), strict=True
    )
    while not game.over:
        game.play_round()
        check_invariants(game)
    assert game.result is not None
