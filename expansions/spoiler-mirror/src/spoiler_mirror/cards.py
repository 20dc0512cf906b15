"""Mirror: replacement effects. "If you would lose, instead …", "the first card that targets
you …".

Hand mirrors and crystal hearts are public tokens the set's own rules act on
(hooks, in ``spoiler_mirror``); the other cards put ongoing effects into play whose handlers
replace what would happen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spoiler.model.cards import ANOTHER_PLAYER, CardSet, NameACard
from spoiler.model.verbs import Ongoing

if TYPE_CHECKING:
    from spoiler.rules.game import Play

#: The distribution's version (pyproject.toml reads it here) and the set's.
__version__ = "0.1.0"

mirror = CardSet(
    "mirror",
    __version__,
    title="Mirror",
    description=(
        "Replacement effects: cards turned back, cancelled or sent elsewhere, and "
        "losses that fall on someone else. Hand mirrors and crystal hearts are public "
        "tokens that last until they break."
    ),
    rules=(
        "A player with a hand mirror turns back the next card another player plays that "
        "targets them: it targets its own player instead (or is cancelled, if its player is "
        "already one of its targets), and one mirror breaks; Shatter is never turned back. "
        "A player with a crystal heart who would lose does not: one heart breaks instead."
    ),
    labels={"mirror:hand-mirror": "hand mirrors", "mirror:crystal-heart": "crystal hearts"},
    api=">=1,<2",
    # Its cards turn plays back and stop losses, but none makes anyone win or lose: alone, it
    # cannot end a game.
    requires=("base",),
)

#: Public counters, namespaced by the set's name.
HAND_MIRROR = "mirror:hand-mirror"
CRYSTAL_HEART = "mirror:crystal-heart"


def _targets_owner(effect: Ongoing, play) -> bool:
    """Is this a card another player plays that targets the effect's owner (and that
    nothing has cancelled yet)?"""
    return not play.cancelled and play.player != effect.owner and effect.owner in play.targets


# -- ongoing effects: each acts once, then is spent until the round ends ----------------------
# (Spent rather than ended at once: the engine is still walking its list of handlers.)
class OnceEffect(Ongoing):
    spent = False


class DecoyEffect(OnceEffect):
    name = "Decoy"
    text = "This round, the first card another player plays that targets its owner is cancelled."
    rounds = 1

    def before_play(self, play):
        if not self.spent and _targets_owner(self, play):
            self.spent = True
            self.cancel(play)


class MisdirectionEffect(OnceEffect):
    name = "Misdirection"
    text = (
        "This round, the first card another player plays that targets its owner targets "
        "a player of the owner's choice instead."
    )
    rounds = 1

    def before_play(self, play):
        if self.spent or not _targets_owner(self, play):
            return
        self.spent = True
        slot = play.targets.index(self.owner)
        kind = play.acting_as.targets[slot] if slot < len(play.acting_as.targets) else None
        # Whom that card's player could have chosen (the engine's table: public facts only).
        allowed = self.game.legal_targets(play.player)[kind] if kind is not None else self.seats
        candidates = [
            seat
            for seat in allowed
            if seat not in (self.owner, play.player) and seat not in play.targets
        ]
        choice = self.ask(
            self.owner,
            f"Misdirect {play.card.name} to whom?",
            [self.name_of(seat) for seat in candidates],
        )
        if choice is not None:
            seat = next(seat for seat in candidates if self.name_of(seat) == choice)
            self.redirect(play, tuple(seat if t == self.owner else t for t in play.targets))


class SmokeEffect(OnceEffect):
    name = "Smoke and Mirrors"
    text = "This round, the first card of the named name that another player plays is cancelled."
    rounds = 1

    def __init__(self, card_name: str):
        super().__init__()
        self.card_name = card_name

    def before_play(self, play):
        if (
            not self.spent
            and not play.cancelled
            and play.player != self.owner
            and play.card.name == self.card_name
        ):
            self.spent = True
            self.cancel(play)


class ScapegoatEffect(OnceEffect):
    name = "Scapegoat"
    text = "This round, the first time its owner would lose, the scapegoat loses instead."
    rounds = 1

    def __init__(self, scapegoat: int):
        super().__init__()
        self.scapegoat = scapegoat

    def would_lose(self, seat, cause):
        if self.spent or seat != self.owner:
            return False
        self.spent = True
        self.lose(self.scapegoat)
        return True


class MartyrEffect(OnceEffect):
    name = "Martyr"
    text = "This round, the first time the protected player would lose, its owner loses instead."
    rounds = 1

    def __init__(self, protected: int):
        super().__init__()
        self.protected = protected

    def would_lose(self, seat, cause):
        if self.spent or seat != self.protected:
            return False
        self.spent = True
        self.lose(self.owner)
        return True


class EnvyEffect(OnceEffect):
    name = "Envy"
    text = "This round, the first time the envied player would win, its owner wins instead."
    rounds = 1

    def __init__(self, envied: int):
        super().__init__()
        self.envied = envied

    def would_win(self, seat, cause):
        if self.spent or seat != self.envied:
            return False
        self.spent = True
        self.win(self.owner)
        return True


class LastStandEffect(OnceEffect):
    name = "Last Stand"
    text = (
        "This round, the first time its owner would lose while holding cards, they "
        "discard their whole hand instead."
    )
    rounds = 1

    def would_lose(self, seat, cause):
        if self.spent or seat != self.owner or not self.hand(seat):
            return False
        self.spent = True
        for card in self.hand(seat):
            self.discard(seat, card)
        return True


# -- the cards -------------------------------------------------------------------------------
@mirror.card
class HandMirror:
    text = (
        "Put up a hand mirror. The next card another player plays that targets you targets "
        "that card's player instead, and the mirror breaks."
    )
    copies = 3
    rulings = (
        "Hand mirrors stay until they break, across rounds; each turns back one card.",
        "A card with several targets has only you replaced by its player; if its player is "
        "already one of its targets, it is cancelled instead.",
        "A hand mirror turns a card back before any ongoing effect sees it.",
    )

    @staticmethod
    def main(play: Play) -> None:
        play.add_counter(play.player, HAND_MIRROR, 1)


@mirror.card
class CrystalHeart:
    text = "Put a crystal heart on yourself. The next time you would lose, you don't: the heart breaks instead."
    copies = 2
    rulings = (
        "A crystal heart breaks only when no ongoing effect has already prevented the loss.",
        "Crystal hearts stay until they break, across rounds; each prevents one loss.",
    )

    @staticmethod
    def main(play: Play) -> None:
        play.add_counter(play.player, CRYSTAL_HEART, 1)


@mirror.card
class Decoy:
    text = (
        "At Beginning of Round: this round, the first card another player plays that "
        "targets you is cancelled."
    )
    copies = 2

    @staticmethod
    def at_beginning(play: Play) -> None:
        play.add_ongoing(DecoyEffect())


@mirror.card
class Misdirection:
    text = (
        "At Beginning of Round: this round, the first card another player plays that "
        "targets you targets a player of your choice instead (not you, nor that card's player)."
    )
    copies = 2
    rulings = (
        "You may choose only a player that card could have targeted, and not one it "
        "already targets; with no one to choose, the card reaches you.",
    )

    @staticmethod
    def at_beginning(play: Play) -> None:
        play.add_ongoing(MisdirectionEffect())


@mirror.card
class SmokeAndMirrors:
    name = "Smoke and Mirrors"
    text = (
        "Name a card other than Smoke and Mirrors. At Beginning of Round: this round, the "
        "first card of that name another player plays is cancelled."
    )
    copies = 1
    ask = NameACard(excluding=("Smoke and Mirrors",))

    @staticmethod
    def at_beginning(play: Play) -> None:
        play.add_ongoing(SmokeEffect(play.info))


@mirror.card
class Scapegoat:
    text = (
        "Choose another player. At Beginning of Round: this round, the first time you "
        "would lose, they lose instead."
    )
    copies = 2
    target = ANOTHER_PLAYER
    rulings = ("If the scapegoat's own loss is prevented, you still do not lose.",)

    @staticmethod
    def at_beginning(play: Play) -> None:
        play.add_ongoing(ScapegoatEffect(play.target))


@mirror.card
class Martyr:
    text = (
        "Choose another player. At Beginning of Round: this round, the first time they "
        "would lose, you lose instead."
    )
    copies = 1
    target = ANOTHER_PLAYER

    @staticmethod
    def at_beginning(play: Play) -> None:
        play.add_ongoing(MartyrEffect(play.target))


@mirror.card
class Envy:
    text = (
        "Choose another player. At Beginning of Round: this round, the first time they "
        "would win, you win instead."
    )
    copies = 1
    target = ANOTHER_PLAYER

    @staticmethod
    def at_beginning(play: Play) -> None:
        play.add_ongoing(EnvyEffect(play.target))


@mirror.card
class LastStand:
    text = (
        "At Beginning of Round: this round, the first time you would lose while holding "
        "cards, you discard your whole hand instead."
    )
    copies = 2

    @staticmethod
    def at_beginning(play: Play) -> None:
        play.add_ongoing(LastStandEffect())


@mirror.card
class Shatter:
    text = (
        "Choose another player. Break all their hand mirrors and crystal hearts; you draw "
        "a card for each one broken, at most 2."
    )
    copies = 2
    target = ANOTHER_PLAYER
    rulings = ("A hand mirror does not turn Shatter back: Shatter breaks it.",)
    unmet = "{target} had no hand mirror or crystal heart to break"

    @staticmethod
    def main(play: Play) -> None:
        broken = 0
        for token in (HAND_MIRROR, CRYSTAL_HEART):
            count = play.counter(play.target, token)
            if count:
                play.add_counter(play.target, token, -count)
                broken += count
        if broken:
            play.draw(play.player, min(2, broken))


@mirror.card
class LookingGlass:
    text = "Choose another player. You look at their hand, and they look at yours."
    copies = 1
    target = ANOTHER_PLAYER

    @staticmethod
    def main(play: Play) -> None:
        play.reveal(play.target, play.player)
        play.reveal(play.player, play.target)
