"""``spoiler play`` and the human agent, as a player at the terminal sees them.

The game runs on the built-in plugins (the base set and the bots); the human agent's prompts
are tested on hand-built tables with a few cards of our own, so the hands are known.
"""

from __future__ import annotations

import io
import os
import re
import shlex
import subprocess
import sys
from importlib import metadata

import pytest
from rich.console import Console
from typer.testing import CliRunner

from spoiler import hookimpl, plugins
from spoiler.cards import ANOTHER_PLAYER, LOST_PLAYER, CardSet, NameACard, NameANumber
from spoiler.cli import app, common
from spoiler.cli.human import HumanAgent
from spoiler.cli.screen import Screen
from spoiler.state import Status
from spoiler.testing import FakeEntryPoint, table
from spoiler.views import Question

BUILTINS_ONLY = {"SPOILER_PLUGINS": "", "COLUMNS": "80", "NO_COLOR": "1"}


@pytest.fixture(scope="module")
def registry():
    return plugins.load(environ={"SPOILER_PLUGINS": ""})


@pytest.fixture(autouse=True)
def builtin_plugins(monkeypatch, registry, tmp_path):
    monkeypatch.setattr(common, "load_registry", lambda: registry)
    monkeypatch.chdir(tmp_path)  # a stopped game is saved in the current directory
    # The console is made once per process and keeps the width it was made with: make it
    # afresh, under this test's COLUMNS.
    common.console.cache_clear()
    yield
    common.console.cache_clear()


def spoiler(*args, input: str | None = None):
    return CliRunner().invoke(app, ["play", *map(str, args)], input=input, env=BUILTINS_ONLY)


def answers(*lines: str, repeat: int = 1) -> str:
    return "".join(f"{line}\n" for line in lines) * repeat


#: Typed by a player who tries every number in turn: each prompt takes the first that fits.
FUMBLING_PLAYER = answers(*map(str, range(1, 9)), repeat=300)


# -- watching bots -------------------------------------------------------------------------
def test_a_bots_only_game_with_a_seed_prints_the_same_text_every_time():
    """Issue 3: "A bots-only game with a seed prints exactly the same text every time." """
    first = spoiler("--bots", 4, "--seed", 11, "--sets", "base")
    second = spoiler("--bots", 4, "--seed", 11, "--sets", "base")
    assert first.exit_code == 0, first.output
    assert first.stdout == second.stdout
    assert "watching 4 greedy bots" in first.stdout
    assert "Seed: 11" in first.stdout
    assert "Game over" in first.stdout


def test_a_bots_only_game_is_the_same_in_a_fresh_process_with_another_hash_seed():
    """Reproducible from the seed alone: no set or dict order leaks into the game, so a new
    Python process (with different string hashing) prints the very same game."""
    in_process = spoiler("--bots", 3, "--bot", "random", "--seed", 5, "--sets", "base").stdout
    code = "import sys; from spoiler.cli import main; sys.argv[0] = 'spoiler'; main()"
    for hash_seed in ("1", "2"):
        env = {**os.environ, **BUILTINS_ONLY, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run(
            [
                sys.executable,
                "-c",
                code,
                "play",
                "--bots",
                "3",
                "--bot",
                "random",
                "--seed",
                "5",
                "--sets",
                "base",
            ],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )
        assert out.returncode == 0, out.stderr
        assert out.stdout == in_process


def test_a_game_written_to_a_file_or_a_pipe_has_no_spaces_at_line_ends():
    """Rich pads wrapped lines, titles and table cells with spaces: invisible on a terminal,
    noise in a file (and in every diff of one)."""
    narrow = {**BUILTINS_ONLY, "COLUMNS": "50"}
    result = CliRunner().invoke(app, ["play", "--bots", "4", "--seed", "3"], env=narrow)
    assert result.exit_code == 0, result.output
    assert max(map(len, result.stdout.splitlines())) > 40  # wrapped lines were printed
    assert [line for line in result.stdout.splitlines() if line.endswith(" ")] == []


def test_spectators_see_every_hand_and_every_draw():
    """A watched game of bots hides nothing: the table lists each bot's cards, and draws are
    named."""
    result = spoiler("--bots", 2, "--seed", 3, "--sets", "base", "--max-rounds", 2)
    assert "Cards" in result.stdout
    assert re.search(r"\b(Ada|Bix) drew (?!a card)\w+", result.stdout)


def test_the_seed_is_printed_when_not_given_and_replays_the_game():
    """`spoiler play` without --seed picks one and prints it, so the game can be replayed."""
    first = spoiler("--bots", 2, "--sets", "base", "--max-rounds", 3)
    seed = re.search(r"Seed: (-?\d+)\. Play it again: spoiler play --seed \1 ", first.stdout)
    again = spoiler("--bots", 2, "--sets", "base", "--max-rounds", 3, "--seed", seed.group(1))
    assert again.stdout == first.stdout


def test_the_command_told_at_the_end_plays_the_very_same_game_again():
    """Issue 20: "Seed: N (replay with --seed N)" left out --sets and --bot, which give a
    different game. The command told names every option that decides the game."""
    first = spoiler(
        "--players", "Ann", "--bots", 2, "--bot", "random", "--bot-option", "note=x",
        "--sets", "base", "--max-rounds", 5, input=FUMBLING_PLAYER,
    )  # fmt: skip
    told = first.stdout.rstrip().splitlines()[-1]
    command = re.fullmatch(r"Seed: -?\d+\. Play it again: spoiler play (.*)", told).group(1)
    assert command.split()[2:] == [
        "--sets", "base", "--players", "Ann", "--bots", "2", "--bot", "random",
        "--bot-option", "note=x", "--max-rounds", "5",
    ]  # fmt: skip
    again = spoiler(*shlex.split(command), input=FUMBLING_PLAYER)
    assert again.stdout == first.stdout


def test_the_round_limit_ends_the_game_as_a_draw():
    """Ruling 9: reaching --max-rounds with no winner is a draw, and the result says so."""
    result = spoiler(
        "--bots", 8, "--bot", "random", "--seed", 1, "--sets", "base", "--max-rounds", 1
    )
    assert result.exit_code == 0
    *_, last, seed = result.stdout.strip().splitlines()
    assert last == "Draw: the round limit of 1 was reached with no winner." or " won " in last
    assert seed == (
        "Seed: 1. Play it again: spoiler play --seed 1 --sets base --bots 8 --bot random "
        "--max-rounds 1"
    )


# -- a human against bots ------------------------------------------------------------------
def test_a_human_game_driven_by_typed_answers_plays_to_the_end():
    """One human ("You") against three greedy bots by default; answers are read line by
    line from a stdin that is not a terminal, and the game ends with its result."""
    result = spoiler("--seed", 21, "--sets", "base", input=FUMBLING_PLAYER)
    assert result.exit_code == 0, result.output[-2000:]
    out = result.stdout
    assert "for You against 3 greedy bots" in out
    assert "Play which card? [1-3]" in out
    assert "Your hand" in out
    assert "Game over" in out and "Final table" in out
    assert "Cards" not in out, "a human must not see the bots' hands"
    assert "Ada got a hand of cards." in out


def test_a_human_sees_their_own_draws_but_not_the_bots_draws():
    """Hidden information stays hidden: a human is told which card they drew, and only that
    a bot drew one."""
    out = spoiler("--seed", 4, "--sets", "base", "--max-rounds", 2, input=FUMBLING_PLAYER).stdout
    assert re.search(r"^  You drew (?!a card)\w+", out, re.M)
    assert re.search(r"^  (Ada|Bix|Cog) drew a card\.", out, re.M)
    assert not re.search(r"^  (Ada|Bix|Cog) drew (?!a card)", out, re.M)


def test_invalid_answers_are_explained_and_asked_again():
    """An answer that is not one of the choices is explained and the question asked again."""
    result = spoiler("--seed", 8, "--sets", "base", input=answers("seven", "9", ""))
    out = result.stdout
    assert out.count("Play which card? [1-3]") == 4
    assert out.count("Please answer with a card's number (1 to 3) or its name.") == 3


def test_end_of_input_ends_the_game_cleanly_with_exit_code_130():
    """End of input ends the game: exit code 130, a closing line, no traceback."""
    result = spoiler("--seed", 2, "--sets", "base", input="")
    assert result.exit_code == 130
    assert "Game stopped in round 1. Seed 2." in result.stdout
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)


# -- several humans at one keyboard --------------------------------------------------------
def test_hot_seat_asks_the_others_to_look_away_and_hides_each_hand():
    """`--players alice,bob`: before each human chooses, the others are asked to look away
    and the player presses Enter; once they have chosen, their hand is cleared away."""
    result = spoiler(
        "--players",
        "alice,bob",
        "--seed",
        6,
        "--sets",
        "base",
        "--max-rounds",
        2,
        input=FUMBLING_PLAYER,
    )
    assert result.exit_code == 0, result.output[-2000:]
    out = result.stdout
    first = re.search(r"^(alice|bob)'s turn\. Everyone else, please look away\.$", out, re.M)
    turn, name = first.start(), first.group(1)
    other = "bob" if name == "alice" else "alice"
    pressed = out.index(f"{name}, press Enter when only you can see the screen.", turn)
    hand = out.index("Your hand", pressed)
    cleared = out.index("(screen cleared)", hand)
    assert out.index(f"{other}'s turn. Everyone else, please look away.") > cleared
    # The shared screen tells public events only: no one's drawn card is named on it.
    shared = out[:turn]
    assert "alice got a hand of cards." in shared and "bob got a hand of cards." in shared


def test_hot_seat_players_see_their_private_events_at_their_own_turn():
    """Several humans: the dealt cards are not on the shared screen, but each player is shown
    their own at their turn."""
    out = spoiler(
        "--players",
        "ann,ben",
        "--bots",
        1,
        "--seed",
        9,
        "--sets",
        "base",
        "--max-rounds",
        1,
        input=FUMBLING_PLAYER,
    ).stdout
    ann = out.index("ann, press Enter when only you can see the screen.")
    assert re.search(r"Only you saw:\n  You got \w+, \w+ and \w+\.", out[ann:])


# -- bad options -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "args, message",
    [
        (["--bots", "9"], "Spoiler is for 2 to 8 players, not 9 (9 bots)"),
        (["--players", "alice,bob", "--bots", "7"], "not 9 (2 player(s) and 7 bot(s))"),
        (["--players", "alice"], "alice cannot play alone: add --bots N or more --players"),
        (["--bots", "1"], "a game of bots needs at least 2 bots, not 1"),
        (["--bots", "-1"], "--bots must be 0 or more, not -1"),
        (["--players", "ann,,bob"], "has an empty name"),
        (["--players", "ann,Ann"], "names someone twice"),
        (["--sets", "nosuch"], "no set named 'nosuch'"),
        (["--sets", ","], "--sets is empty"),
        (["--bot", "nosuch"], "no bot kind 'nosuch'"),
        (["--max-rounds", "0"], "the round limit must be at least 1, not 0"),
    ],
)
def test_bad_options_give_a_one_line_error_and_exit_code_2(args, message):
    """Bad input: a clear one-line error naming what is wrong, exit code 2, no traceback."""
    result = spoiler(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0], result.stderr


# -- a card whose code fails ------------------------------------------------------------------
class Faulty:
    """A plugin whose only card raises when it resolves."""

    @staticmethod
    @hookimpl
    def spoiler_register_sets(register):
        faulty = CardSet("faulty", "0.1.0")

        @faulty.card
        class Glitch:
            text = "You win. (Its code is broken.)"
            copies = 8

            def main(play):
                raise RuntimeError("oops")

        register(faulty)


@pytest.fixture
def with_faulty_set(monkeypatch):
    builtins = [
        ep for ep in metadata.entry_points(group=plugins.GROUP) if ep.name in ("base", "bots")
    ]
    registry = plugins.load(environ={}, entry_points=[*builtins, FakeEntryPoint("faulty", Faulty)])
    monkeypatch.setattr(common, "load_registry", lambda: registry)


def test_a_failing_card_fizzles_and_the_game_goes_on(with_faulty_set):
    """Ruling 11: a card whose effect fails fizzles; the log says why and the game goes on."""
    result = spoiler("--bots", 2, "--sets", "faulty", "--seed", 1, "--max-rounds", 2)
    assert result.exit_code == 0
    assert (
        "Ada's Glitch fizzled: its effect failed (RuntimeError: oops) and does nothing."
        in " ".join(result.stdout.split())
    )
    assert "Draw: the round limit of 2 was reached with no winner." in result.stdout


def test_strict_stops_the_game_at_the_first_failing_card_with_exit_code_1(with_faulty_set):
    """`--strict`: the first card that fails stops the game with a one-line error, exit 1."""
    result = spoiler("--bots", 2, "--sets", "faulty", "--seed", 1, "--strict")
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert lines == ["Error: --strict: faulty:glitch: RuntimeError: oops"]
    assert "Traceback" not in result.output


# -- the human agent's prompts, on hand-built tables ----------------------------------------
def prompt_cards() -> CardSet:
    cards = CardSet("prompts", "1.0.0")

    @cards.card
    class Guess:
        text = "Choose another player and name a card other than Guess. If they hold it, they lose."
        copies = 2
        target = ANOTHER_PLAYER
        ask = NameACard(excluding=("Guess",))

        def main(play):
            if play.holds(play.target, play.info):
                play.lose(play.target)

    @cards.card
    class Raise:
        text = "Choose a lost player. They win."
        target = LOST_PLAYER

        def main(play):
            play.win(play.target)

    @cards.card
    class Count:
        text = "Name a number from 2 to 4. Nothing happens."
        ask = NameANumber(2, 4)

    @cards.card
    class Stone:
        text = "No effect."
        copies = 6

    return cards


def human_at(game, seat: int, typed: str, hot_seat: bool = False):
    """Seat a human typing ``typed`` at ``seat``; returns what their screen shows."""
    out = io.StringIO()
    screen = Screen(
        Console(file=out, width=80, color_system=None), reader=seat, stdin=io.StringIO(typed)
    )
    screen.follow(game)
    game.seats[seat].agent = HumanAgent(screen, hot_seat=hot_seat)
    game.seats[seat].kind = "human"
    return out


def selection(game, seat: int) -> dict:
    return game.decisions[-1]["selections"][seat]


def test_a_card_its_target_and_a_card_name_are_chosen_by_number():
    """Numbered choices: the card by its place in the hand, the player by their number in
    the table, the card name by its place in the list."""
    game = table(
        [prompt_cards()], hands=[["Stone", "Guess"], ["Stone"], ["Stone"]], deck=["Stone"] * 6
    )
    screen = human_at(game, 0, answers("2", "3", "1"))
    game.play_round()
    assert selection(game, 0) == {"card": "prompts:guess", "targets": [2], "info": "Count"}
    shown = screen.getvalue()
    assert "Guess: choose another player." in shown
    assert "2) B   3) C" in shown
    assert "1) Count   2) Raise   3) Stone" in shown


def test_choices_may_be_typed_by_name_in_any_case():
    """A card, a player or a card name may be typed instead of its number."""
    game = table(
        [prompt_cards()], hands=[["Guess", "Stone"], ["Stone"], ["Stone"]], deck=["Stone"] * 6
    )
    human_at(game, 0, answers("guess", "b", "STONE"))
    game.play_round()
    assert selection(game, 0) == {"card": "prompts:guess", "targets": [1], "info": "Stone"}


def test_a_card_with_no_legal_target_is_refused_with_the_reason():
    """Ruling 3: an illegal selection is refused and asked again; the player is told why."""
    game = table([prompt_cards()], hands=[["Raise", "Stone"], ["Stone"]], deck=["Stone"] * 4)
    screen = human_at(game, 0, answers("1", "2"))
    game.play_round()
    assert selection(game, 0)["card"] == "prompts:stone"
    shown = " ".join(screen.getvalue().split())
    assert "Cannot be played now: no legal target." in shown
    assert (
        "Raise cannot be played now: it needs a lost player, and there is none. "
        "Choose another card."
    ) in shown


def test_a_target_that_is_not_allowed_is_asked_again():
    """The player's own number is not "another player": asked again."""
    game = table([prompt_cards()], hands=[["Guess"], ["Stone"], ["Stone"]], deck=["Stone"] * 6)
    screen = human_at(game, 0, answers("1", "1", "9", "2", "Count"))
    game.play_round()
    assert selection(game, 0)["targets"] == [1]
    assert screen.getvalue().count("Please answer with one of the numbers shown") == 2


def test_a_number_out_of_range_is_explained_and_asked_again():
    """A number the card does not allow is refused with the card's own reason."""
    game = table([prompt_cards()], hands=[["Count"], ["Stone"]], deck=["Stone"] * 4)
    screen = human_at(game, 0, answers("1", "9", "x", "3"))
    game.play_round()
    assert selection(game, 0)["info"] == 3
    shown = screen.getvalue()
    assert "9 is not from 2 to 4. Try again." in shown
    assert "'x' is not a whole number. Try again." in shown


def test_a_question_is_answered_by_number_or_by_text():
    """Mid-round questions list numbered options; the answer may be a number or the text."""
    game = table([prompt_cards()], hands=[["Stone"], ["Stone"]], deck=["Stone"] * 4)
    screen = human_at(game, 1, answers("4", "2", "Heads"))
    human, question = game.seats[1].agent, Question("Heads or tails?", ("heads", "tails"))
    assert human.answer(game.view(1), question) == "tails"
    assert human.answer(game.view(1), question) == "heads"
    shown = screen.getvalue()
    assert "A question for you: Heads or tails?" in shown
    assert "Please answer with a number from 1 to 2, or one of the names shown." in shown


def test_options_that_are_numbers_are_typed_as_themselves():
    """A question whose options are numbers takes the number itself, never a position in
    the list (so "1" means 1 even when 1 is listed last)."""
    game = table([prompt_cards()], hands=[["Stone"], ["Stone"]], deck=["Stone"] * 4)
    screen = human_at(game, 1, answers("4", "1"))
    question = Question("Count: name a number", ("3", "2", "1"), "prompts:count")
    assert game.seats[1].agent.answer(game.view(1), question) == "1"
    shown = screen.getvalue()
    assert "Count asks you: name a number" in shown
    assert "Your answer? [3, 2, 1]" in shown
    assert "Please answer with one of: 3, 2, 1." in shown


def test_a_selection_the_engine_refused_is_explained():
    """When the engine refuses a selection, the view's error is shown before asking again."""
    game = table([prompt_cards()], hands=[["Stone"], ["Stone"]], deck=["Stone"] * 4)
    screen = human_at(game, 0, answers("1"))
    game.seats[0].agent.select(game.view(0, error="Stone is not in your hand"))
    assert "That selection was refused: Stone is not in your hand." in screen.getvalue()


def test_end_of_input_at_a_prompt_raises_eof_for_the_game_to_stop():
    """End of input is not an answer: the agent raises EOFError and the game stops."""
    game = table([prompt_cards()], hands=[["Stone"], ["Stone"]], deck=["Stone"] * 4)
    human_at(game, 0, "")
    with pytest.raises(EOFError):
        game.play_round()


def test_a_human_at_a_shared_keyboard_presses_enter_first_and_the_hand_is_hidden_after():
    """Hot seat: the turn starts by asking the others to look away (Enter to go on) and
    ends by clearing the screen."""
    game = table(
        [prompt_cards()], hands=[["Stone"], ["Stone"]], deck=["Stone"] * 4, names=["ann", "ben"]
    )
    screen = human_at(game, 0, answers("", "1"), hot_seat=True)
    game.seats[1].kind = "human"  # ben, at the same keyboard
    game.play_round()
    shown = screen.getvalue()
    assert shown.index("ann's turn. Everyone else, please look away.") < shown.index("Your hand")
    assert shown.rstrip().endswith("(screen cleared) " + "~" * 20)


def test_hot_seat_stops_asking_the_others_to_look_away_when_one_human_is_left():
    """Once every other human has lost, the one still playing is not asked to wait for the
    others to look away, and the screen is not cleared after each turn."""
    game = table(
        [prompt_cards()],
        hands=[["Stone"], ["Stone"], ["Stone"]],
        deck=["Stone"] * 6,
        names=["ann", "ben", "cy"],
        statuses={1: Status.LOST},
    )
    screen = human_at(game, 0, answers("1"), hot_seat=True)
    game.seats[1].kind = "human"  # ben has lost; cy is a bot
    game.play_round()
    shown = screen.getvalue()
    assert "look away" not in shown and "screen cleared" not in shown
    assert "Your hand" in shown


def test_clearing_a_terminal_at_a_shared_keyboard_clears_its_scrollback_too():
    """The next player cannot scroll back up to the last hand: after clearing the screen,
    the terminal is told to erase its scrollback (ED 3, ``ESC [ 3 J``)."""
    out = io.StringIO()
    Screen(Console(file=out, force_terminal=True)).clear()
    shown = out.getvalue()
    assert "\x1b[2J" in shown and "\x1b[3J" in shown
    assert shown.index("\x1b[3J") > shown.index("\x1b[2J")  # the screen first, then its past


def test_every_typed_line_is_consumed_in_order():
    """Answers are read one line at a time: a game never reads ahead of the prompt."""
    typed = io.StringIO(answers("1", "leftover"))
    game = table([prompt_cards()], hands=[["Stone"], ["Stone"]], deck=["Stone"] * 4)
    screen = Screen(Console(file=io.StringIO(), width=80), reader=0, stdin=typed)
    screen.follow(game)
    game.seats[0].agent = HumanAgent(screen)
    game.play_round()
    assert typed.readline() == "leftover\n"


# -- the in-game commands (issue 11) ---------------------------------------------------------
def test_back_at_an_information_prompt_chooses_the_card_again():
    """`back` when asked to name a card: the card prompt again, and the new choice stands."""
    game = table(
        [prompt_cards()], hands=[["Guess", "Stone"], ["Stone"], ["Stone"]], deck=["Stone"] * 6
    )
    screen = human_at(game, 0, answers("guess", "b", "back", "stone"))
    game.play_round()
    assert selection(game, 0) == {"card": "prompts:stone", "targets": [], "info": None}
    assert screen.getvalue().count("Play which card?") == 2


def test_back_at_the_card_prompt_is_refused_with_the_reason():
    game = table([prompt_cards()], hands=[["Stone"], ["Stone"]], deck=["Stone"] * 6)
    screen = human_at(game, 0, answers("back", "stone"))
    game.play_round()
    assert "There is nothing to go back to here: please answer." in screen.getvalue()


def test_q_at_a_question_mid_round_stops_the_game_like_end_of_input():
    """A question a card asks mid-round takes the commands too: `q` stops the game there
    (as end of input does, so that the stopped game can be saved)."""
    from spoiler.cli.screen import QuitGame
    from spoiler.testing import play_round
    from spoiler_base import base

    game = table([base], hands=[["Tribute"], ["Jewel", "Crown", "Supply"]], deck=["Supply"] * 6)
    screen = human_at(game, 1, answers("1", "q"))
    with pytest.raises(QuitGame):
        play_round(game, {0: ("Tribute", 1)})
    assert "Tribute asks you: Give A which card?" in screen.getvalue()


def test_a_misspelt_card_name_gets_the_closest_name_in_hand():
    """Issue 20: "Misspelt card names get the closest name." (Seed 74 deals You Spoiler,
    Purge and Assassin.)"""
    result = spoiler("--seed", 74, "--sets", "base", input="Purj\n")
    assert "or its name. Did you mean: Purge?" in " ".join(result.stdout.split())


def test_tab_offers_the_answers_a_line_begins_and_card_names_after_a_question_mark():
    from spoiler.console.lineedit import completions

    answers, cards = ["Purge", "Assassin", "log", "rules"], ["Accuse", "Assassin", "Jewel"]
    assert completions("a", answers, cards) == ["Assassin"]
    assert completions("", answers, cards) == ["Assassin", "Purge", "log", "rules"]
    assert completions("? a", answers, cards) == ["? Accuse", "? Assassin"]
    assert completions("?j", answers, cards) == ["? Jewel"]
