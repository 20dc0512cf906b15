"""What holds between any two rounds of any game, whatever its cards: checked by the random
games of ``spoiler sets validate`` and of the card author's tests (``spoiler.testing``)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from spoiler.model.state import Status

if TYPE_CHECKING:
    from spoiler.rules.game import Game


class InvariantBroken(AssertionError):
    """An engine invariant does not hold. Raised explicitly (not by ``assert``), so the
    checks hold under ``python -O`` too; an AssertionError, so pytest reports it as one."""


def check_invariants(game: Game) -> None:
    """The engine's invariants between rounds; raises InvariantBroken naming the broken one."""
    st = game.state
    table_now = Counter(c.id for c in st.deck + st.discard + st.in_play)
    for p in st.players:
        table_now.update(c.id for c in p.hand)
    table_now.update(play.card.id for play in st.plays)
    built = Counter(c.id for c in st.built)
    if table_now != built:
        raise InvariantBroken(
            f"cards not conserved: {dict(table_now - built)} extra, "
            f"{dict(built - table_now)} missing"
        )
    if sorted(st.priority) != list(range(len(st.players))):
        raise InvariantBroken(f"priority {st.priority} is not a permutation")
    for p in st.players:
        if not isinstance(p.status, Status):
            raise InvariantBroken(f"{p.name} has status {p.status!r}")
    if st.result is None and st.round >= game.max_rounds:
        raise InvariantBroken("the game went past its round limit")
