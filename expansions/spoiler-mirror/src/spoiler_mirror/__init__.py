"""Mirror, an expansion for Spoiler: replacement effects.

While Mirror is in the game, its rules hold for every player (they are card-effect hooks,
so they run only in games that use this set):

* a player with a hand mirror turns back the next card another player plays that targets
  them: it targets its own player instead (or is cancelled, if its player is already one of
  its targets), and one mirror breaks; Shatter is never turned back;
* a player with a crystal heart who would lose does not: one heart breaks instead.
"""

from __future__ import annotations

from spoiler import hookimpl
from spoiler_mirror.cards import CRYSTAL_HEART, HAND_MIRROR, mirror

SHATTER = "mirror:shatter"

__all__ = ["mirror", "spoiler_register_sets", "spoiler_before_play", "spoiler_would_lose"]
__version__ = mirror.version


@hookimpl
def spoiler_register_sets(register):
    register(mirror)


@hookimpl
def spoiler_before_play(game, play):
    """Hand mirrors turn a card back on its player (but not Shatter, which breaks them)."""
    if play.card.id == SHATTER:
        return
    for seat in play.targets:
        if seat != play.player and game.counter(seat, HAND_MIRROR) > 0:
            game.add_counter(seat, HAND_MIRROR, -1, cause="mirror:hand-mirror")
            if play.player in play.targets:
                game.cancel(play, cause="mirror:hand-mirror")
            else:
                turned = tuple(play.player if t == seat else t for t in play.targets)
                game.redirect(play, turned, cause="mirror:hand-mirror")
            return


@hookimpl
def spoiler_would_lose(game, seat, cause):
    """A crystal heart breaks instead of its player losing."""
    if game.counter(seat, CRYSTAL_HEART) > 0:
        game.add_counter(seat, CRYSTAL_HEART, -1, cause="mirror:crystal-heart")
        return True
    return None
