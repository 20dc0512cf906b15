"""The base set: 21 cards, 53 in the deck.

Each card's ``text`` is what its code does, no more and no less; ``rulings`` settle what the
text leaves open. docs/cards.md lists them all, and tests/test_base_cards.py has a test for
every card and ruling.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spoiler.model.cards import (
    ANOTHER_ACTIVE_PLAYER,
    ANOTHER_PLAYER,
    LOST_PLAYER,
    CardSet,
    NameACard,
    NameANumber,
)
from spoiler.model.state import Status
from spoiler.model.verbs import Ongoing

if TYPE_CHECKING:
    from spoiler.model.verbs import Play

base = CardSet(
    "base",
    "1.0.0",
    title="Base set",
    description="The cards every game of Spoiler starts with.",
)

#: The counter Treasure keeps on each player (public, like every counter).
TREASURE = "base:treasure"
TREASURE_TO_WIN = 3


def _choose_from_hand(play, seat: int, prompt: str) -> str | None:
    """Ask ``seat`` to pick one card name from their own hand (None if it is empty)."""
    names = sorted({card.name for card in play.hand(seat)})
    return play.ask(seat, prompt, names)


# -- ongoing effects -------------------------------------------------------------------------
class ShieldEffect(Ongoing):
    name = "Shield"
    text = "Until the end of this round, nothing can make its owner lose."
    rounds = 1

    def would_lose(self, seat, cause):
        return seat == self.owner


class MirrorEffect(Ongoing):
    name = "Mirror"
    text = (
        "This round, the first card another player plays that targets its owner "
        "targets that card's player instead."
    )
    rounds = 1

    def __init__(self):
        super().__init__()
        self.used = False

    def before_play(self, play):
        if self.used or play.player == self.owner or self.owner not in play.targets:
            return
        self.used = True
        self.redirect(play, tuple(play.player if t == self.owner else t for t in play.targets))


class HexEffect(Ongoing):
    name = "Hex"
    text = "For this round and the next two, the hexed player cannot win."
    rounds = 3

    def __init__(self, victim: int):
        super().__init__()
        self.victim = victim

    def would_win(self, seat, cause):
        return seat == self.victim


# -- making a player lose: never unconditionally ---------------------------------------------
@base.card
class Accuse:
    text = "Choose another player who has not lost and name a card other than Accuse. If they hold it, they lose."
    copies = 5
    target = ANOTHER_ACTIVE_PLAYER
    ask = NameACard(excluding=("Accuse",))
    rulings = (
        "The hand is checked when Accuse resolves: a card they selected this round is no "
        "longer in their hand and does not count.",
    )
    unmet = "{info} is not in {target_s} hand"

    @staticmethod
    def main(play: Play) -> None:
        if play.holds(play.target, play.info):
            play.lose(play.target)


@base.card
class Standoff:
    text = (
        "Choose another player who has not lost and name a number from 1 to 3. They name a "
        "number from 1 to 3 without seeing yours. If the numbers match, they lose."
    )
    copies = 3
    target = ANOTHER_ACTIVE_PLAYER
    ask = NameANumber(1, 3, secret=True)
    rulings = (
        "The chosen player answers when Standoff resolves, even if they have lost by then.",
        "Your number stays hidden from everyone else until Standoff has resolved.",
    )
    unmet = "the numbers did not match"

    @staticmethod
    def main(play: Play) -> None:
        answer = play.ask(play.target, "Standoff: name a number from 1 to 3", ("1", "2", "3"))
        if answer == str(play.info):
            play.lose(play.target)


@base.card
class Ambush:
    text = (
        "Choose another player who has not lost. If the card they selected this round "
        "targets you, they lose."
    )
    copies = 2
    target = ANOTHER_ACTIVE_PLAYER
    rulings = (
        "It does not matter whether their card resolves before or after Ambush.",
        "A cancelled card still counts: it is the card they selected.",
    )
    unmet = "{target_s} card does not target {player}"

    @staticmethod
    def main(play: Play) -> None:
        theirs = play.play_of(play.target)
        if theirs is not None and play.player in theirs.targets:
            play.lose(play.target)


@base.card
class Assassin:
    text = "Choose another player who has not lost. If you are 1st in priority when Assassin resolves, they lose."
    copies = 2
    target = ANOTHER_ACTIVE_PLAYER
    rulings = ("Priority changes made earlier this round (Haste, Delay) count.",)
    unmet = "{player_s} priority is not 1st"

    @staticmethod
    def main(play: Play) -> None:
        if play.priority_of(play.player) == 1:
            play.lose(play.target)


# -- protection, reflection, cancelling ------------------------------------------------------
@base.card
class Shield:
    text = "At Beginning of Round: until the end of this round, nothing can make you lose."
    copies = 3
    rulings = (
        "The shield is up before any mid-round card resolves, and is gone next round.",
        "A Spoiler that cancels Shield comes too late: the shield is already up.",
    )

    @staticmethod
    def at_beginning(play: Play) -> None:
        play.add_ongoing(ShieldEffect())


@base.card
class Mirror:
    text = (
        "At Beginning of Round: this round, the first card another player plays that "
        "targets you targets that card's player instead."
    )
    copies = 2
    rulings = (
        "Only the first such card is turned back; any later one reaches you.",
        "A card with several targets has only you replaced by its player.",
        "A Spoiler turned back onto its own player finds that player's card already "
        "resolving, so it cancels nothing.",
    )

    @staticmethod
    def at_beginning(play: Play) -> None:
        play.add_ongoing(MirrorEffect())


@base.card
class Spoiler:
    text = (
        "Choose another player who has not lost. If their card this round has not "
        "resolved yet, cancel it: it does nothing at all."
    )
    copies = 4
    target = ANOTHER_ACTIVE_PLAYER
    rulings = (
        "Spoiler only catches cards of players after you in this round's priority order.",
        "At Beginning of Round parts resolve before Spoiler, so they still happen; the "
        "cancelled card's mid-round effect and At End of Round part do not.",
    )
    unmet = "{target_s} card had already resolved, or there was none"

    @staticmethod
    def main(play: Play) -> None:
        theirs = play.play_of(play.target)
        if theirs is not None:
            play.cancel(theirs)


# -- ways to win -----------------------------------------------------------------------------
@base.card
class Jewel:
    text = "If you hold another Jewel, you win."
    copies = 5
    rulings = (
        "The Jewel you play does not count; one more must be in your hand when it resolves.",
    )
    unmet = "there is no other Jewel in {player_s} hand"

    @staticmethod
    def main(play: Play) -> None:
        if play.holds(play.player, "Jewel"):
            play.win(play.player)


@base.card
class Prophecy:
    text = (
        "Choose another player who has not lost and name a card. At End of Round, if "
        "the card they selected this round has that name, you win."
    )
    copies = 2
    target = ANOTHER_ACTIVE_PLAYER
    ask = NameACard()
    rulings = ("A cancelled card still counts: it is the card they selected.",)
    unmet = "{target_s} card this round is not {info}"

    @staticmethod
    def at_end(play: Play) -> None:
        theirs = play.play_of(play.target)
        if theirs is not None and theirs.card.name == play.info:
            play.win(play.player)


@base.card
class Crown:
    text = (
        "At End of Round: if you hold more cards than every other player who has not lost, you win."
    )
    copies = 2
    rulings = (
        "Hands are counted after every At End of Round part before Crown's, and "
        "before anyone draws.",
    )
    unmet = "{player_s} hand is not bigger than every other hand still in play"

    @staticmethod
    def at_end(play: Play) -> None:
        mine = len(play.hand(play.player))
        others = [
            len(play.hand(seat))
            for seat in play.seats
            if seat != play.player and play.status(seat) is not Status.LOST
        ]
        if all(mine > theirs for theirs in others):
            play.win(play.player)


@base.card
class Treasure:
    text = (
        f"Put a treasure token on yourself. Then, if you have {TREASURE_TO_WIN} or more, you win."
    )
    copies = 3
    rulings = ("Tokens are public and stay all game, even when the win is prevented.",)

    @staticmethod
    def main(play: Play) -> None:
        if play.add_counter(play.player, TREASURE) >= TREASURE_TO_WIN:
            play.win(play.player)


@base.card
class Hex:
    text = "Choose another player. For this round and the next two, they cannot win."
    copies = 2
    target = ANOTHER_PLAYER
    rulings = ("A hexed lost player cannot be brought back by Revive either: that is a win too.",)

    @staticmethod
    def main(play: Play) -> None:
        play.add_ongoing(HexEffect(play.target))


@base.card
class Revive:
    text = "Choose a lost player. If they are still lost, they win: they are back in play."
    copies = 2
    target = LOST_PLAYER
    rulings = ("Revive can be selected only when some player has lost.",)
    unmet = "{target} had already come back into play"

    @staticmethod
    def main(play: Play) -> None:
        if play.status(play.target) is Status.LOST:
            play.win(play.target)


# -- priority --------------------------------------------------------------------------------
@base.card
class Haste:
    text = "At Beginning of Round: you are 1st in priority for the rest of this round."
    copies = 2
    rulings = ("From next round on, priorities shift as if Haste had not been played.",)

    @staticmethod
    def at_beginning(play: Play) -> None:
        play.change_priority(play.player, 1, this_round=True)


@base.card
class Delay:
    text = (
        "Choose another player. From now on, they are last in priority (this round too: "
        "if their card has not resolved yet, it resolves last)."
    )
    copies = 2
    target = ANOTHER_PLAYER
    rulings = (
        "At the end of the round priorities shift as usual, so next round they are second to last.",
    )

    @staticmethod
    def main(play: Play) -> None:
        play.change_priority(play.target, len(play.seats))


# -- hands -----------------------------------------------------------------------------------
@base.card
class Swap:
    text = "Choose another player. Swap hands with them."
    copies = 2
    target = ANOTHER_PLAYER

    @staticmethod
    def main(play: Play) -> None:
        play.swap_hands(play.player, play.target)


@base.card
class Tribute:
    text = "Choose another player. They choose a card from their hand and give it to you."
    copies = 2
    target = ANOTHER_PLAYER
    rulings = ("If their hand is empty, nothing happens.",)
    unmet = "{target_s} hand is empty"

    @staticmethod
    def main(play: Play) -> None:
        choice = _choose_from_hand(
            play, play.target, f"Give {play.name_of(play.player)} which card?"
        )
        if choice is not None:
            play.give(play.target, play.player, choice)


@base.card
class Purge:
    text = "Choose another player. They choose a card from their hand and discard it."
    copies = 2
    target = ANOTHER_PLAYER
    rulings = ("If their hand is empty, nothing happens.",)
    unmet = "{target_s} hand is empty"

    @staticmethod
    def main(play: Play) -> None:
        choice = _choose_from_hand(play, play.target, "Discard which card?")
        if choice is not None:
            play.discard(play.target, choice)


@base.card
class Supply:
    text = "Draw two cards."
    copies = 2

    @staticmethod
    def main(play: Play) -> None:
        play.draw(play.player, 2)


# -- information and copying -----------------------------------------------------------------
@base.card
class Spyglass:
    text = "Choose another player. Look at their hand."
    copies = 2
    target = ANOTHER_PLAYER

    @staticmethod
    def main(play: Play) -> None:
        play.reveal(play.target, play.player)


@base.card
class Echo:
    text = (
        "Choose another player who has not lost. If their card this round has already "
        "resolved and is not an Echo, its mid-round effect happens again as if you had "
        "played it, with the same targets and information."
    )
    copies = 2
    target = ANOTHER_ACTIVE_PLAYER
    rulings = (
        "Echo only copies cards of players before you in this round's priority order.",
        "At Beginning and At End of Round parts are not copied: echoing Shield, Mirror, "
        "Haste, Prophecy or Crown does nothing.",
        "The same targets means a card that targeted you now targets you from your own play.",
        "A cancelled card did nothing, so there is nothing to copy: echoing it does nothing.",
    )
    unmet = "{target_s} card had not resolved yet, was cancelled, or is an Echo"

    @staticmethod
    def main(play: Play) -> None:
        theirs = play.play_of(play.target)
        if (
            theirs is not None
            and theirs.resolved
            and not theirs.cancelled
            and theirs.acting_as.name != "Echo"
        ):
            play.copy(theirs)
