"""A small card set for the core's tests: each card exists to exercise one rule.

The core knows no card by name, so its tests bring their own cards rather than the base set.
The fixtures are session-scoped so hypothesis property tests can use them too.
"""

from __future__ import annotations

import os

import pytest

# The wheels the tests build are pure Python, whatever the shell asks (hatch_compile.py); the
# ones that ask to compile say so themselves.
os.environ.pop("SPOILER_COMPILE", None)

from spoiler.cards import (
    ANOTHER_ACTIVE_PLAYER,
    ANOTHER_PLAYER,
    LOST_PLAYER,
    CardSet,
    Choose,
    NameACard,
    Ongoing,
)


class Sundial(Ongoing):
    name = "Sundial"
    text = "At Beginning of Round, for two rounds: note the hour."
    rounds = 2

    def at_beginning(self):
        self.note("the sundial turns")


class Banner(Ongoing):
    name = "Banner"
    text = "This card stays on the table until the end of next round."
    rounds = 2
    keeps_card = True


class Pennant(Ongoing):
    name = "Pennant"
    text = "This card stays on the table until the end of this round."
    rounds = 1
    keeps_card = True


class Aegis(Ongoing):
    name = "Aegis"
    text = "The next time you would lose this round, you don't."
    rounds = 1

    def would_lose(self, seat, cause):
        if seat == self.owner:
            self.end()
            return True
        return False


def build_toy() -> CardSet:
    """The test set: 22 kinds of card, 42 cards, each doing one thing the rules talk about."""
    toy = CardSet("toy", "1.0.0", description="Cards for the core's rule tests.")

    @toy.card
    class Blank:
        text = "No effect."
        copies = 8

    @toy.card
    class Doom:
        text = "Another player loses."
        copies = 3
        target = ANOTHER_PLAYER

        def main(play):
            play.lose(play.target)

    @toy.card
    class Strike:
        text = "Another player who has not lost loses."
        copies = 2
        target = ANOTHER_ACTIVE_PLAYER

        def main(play):
            play.lose(play.target)

    @toy.card
    class Crown:
        text = "You win."
        copies = 2

        def main(play):
            play.win(play.player)

    @toy.card
    class Bless:
        text = "Another player wins."
        copies = 1
        target = ANOTHER_PLAYER

        def main(play):
            play.win(play.target)

    @toy.card
    class Fall:
        text = "You lose."
        copies = 2

        def main(play):
            play.lose(play.player)

    @toy.card
    class Revive:
        text = "A lost player wins."
        copies = 2
        target = LOST_PLAYER

        def main(play):
            play.win(play.target)

    @toy.card
    class Guess:
        text = "Name a card other than Guess. If another player holds it, they lose."
        copies = 3
        target = ANOTHER_PLAYER
        ask = NameACard(excluding=("Guess",))

        def main(play):
            if play.holds(play.target, play.info):
                play.lose(play.target)

    @toy.card
    class Peek:
        text = "Look at another player's hand."
        copies = 2
        target = ANOTHER_PLAYER

        def main(play):
            play.reveal(play.target, play.player)

    @toy.card
    class Gift:
        text = "Another player gives you a card of their choice from their hand."
        copies = 2
        target = ANOTHER_PLAYER

        def main(play):
            names = sorted({c.name for c in play.hand(play.target)})
            choice = play.ask(play.target, "Which card do you give?", names)
            if choice is not None:
                play.give(play.target, play.player, choice)

    @toy.card
    class Swap:
        text = "Two other players swap hands."
        copies = 2
        targets = (ANOTHER_PLAYER, ANOTHER_PLAYER)

        def main(play):
            play.swap_hands(*play.targets)

    @toy.card
    class Veto:
        text = "At Beginning of Round: another player's card this round is cancelled."
        copies = 2
        target = ANOTHER_PLAYER

        def at_beginning(play):
            target_play = play.play_of(play.target)
            if target_play is not None:
                play.cancel(target_play)

    @toy.card
    class Herald:
        text = (
            "At Beginning of Round: announce yourself. Announce yourself again. "
            "At End of Round: announce yourself a third time."
        )
        copies = 2

        def at_beginning(play):
            play.note("herald, beginning")

        def main(play):
            play.note("herald, main")

        def at_end(play):
            play.note("herald, end")

    @toy.card
    class Dash:
        text = "At Beginning of Round: you become 1st in priority for this round."
        copies = 2

        def at_beginning(play):
            play.change_priority(play.player, 1, this_round=True)

    @toy.card
    class Usurp:
        text = "You become 1st in priority from now on."
        copies = 1

        def main(play):
            play.change_priority(play.player, 1)

    @toy.card
    class Poll:
        text = "Every player, lost ones too, answers yes or no. Each who says yes discards a card."
        copies = 2

        def main(play):
            for seat in play.seats:
                if play.ask(seat, "Discard a card?", ("yes", "no")) == "yes" and play.hand(seat):
                    play.discard(seat, play.hand(seat)[0])

    @toy.card
    class Sundial_:
        name = "Sundial"
        text = "For two rounds, At Beginning of Round: note the hour."
        copies = 1

        def main(play):
            play.add_ongoing(Sundial())

    @toy.card
    class Banner_:
        name = "Banner"
        text = "This card stays on the table until the end of next round."
        copies = 1

        def main(play):
            play.add_ongoing(Banner())

    @toy.card
    class Pennant_:
        name = "Pennant"
        text = "This card stays on the table until the end of this round."
        copies = 1

        def main(play):
            play.add_ongoing(Pennant())

    @toy.card
    class Aegis_:
        name = "Aegis"
        text = "The next time you would lose this round, you don't."
        copies = 1

        def main(play):
            play.add_ongoing(Aegis())

    @toy.card
    class Tally:
        text = "At Beginning of Round: say how many cards you hold."
        copies = 1

        def at_beginning(play):
            play.note(f"holds {len(play.hand(play.player))}")

    @toy.card
    class Choice:
        text = "Choose heads or tails. Nothing else happens."
        copies = 1
        ask = Choose(options=("heads", "tails"))

    return toy


def build_glitch() -> CardSet:
    """A set with a buggy card, for ruling 11."""
    glitch = CardSet("glitch", "0.1.0")

    @glitch.card
    class Glitch:
        text = "You win. (Its code is broken.)"
        copies = 2

        def main(play):
            raise RuntimeError("oops")

    return glitch


@pytest.fixture(scope="session")
def toy() -> CardSet:
    return build_toy()


@pytest.fixture(scope="session")
def glitch() -> CardSet:
    return build_glitch()


@pytest.fixture
def experts_cut_after_round_2(tmp_path):
    """A game of four experts played straight through with a record (base set, seed 4,
    --think 3): the record's path, and the record cut after round 2 (not saved), to resume."""
    from typer.testing import CliRunner

    from spoiler import records
    from spoiler.cli import app

    straight = tmp_path / "straight.toml"
    played = CliRunner().invoke(
        app,
        [
            *("play", "--bots", "4", "--bot", "expert", "--think", "3", "--seed", "4"),
            *("--sets", "base", "--record", str(straight)),
        ],
    )
    assert played.exit_code == 0, played.output
    record = records.load(straight)
    assert len(record.rounds) > 2
    record.rounds, record.result = record.rounds[:2], None
    return straight, record
