"""The runaway guard: a round may take so many engine steps and so many seconds of card
code without a decision from a player; past either it stops with ``RoundTooLong``.

Checked inside the engine, never by a signal, so that it also guards games run off the main
thread. A step is an event, an effect run, or a read of a hand or a counter; every
``_STEP_CHUNK`` steps the guard adds them up and looks at the clock.
"""

from __future__ import annotations

from time import monotonic

from spoiler.model.errors import RoundTooLong
from spoiler.model.state import GameState

#: A round may take this many engine steps (a usual round takes under a hundred) and this
#: many seconds of card code without a decision from a player (``Game`` reads both when it
#: is made: ``spoiler.rules.game.MAX_ROUND_STEPS`` is the one to change).
MAX_ROUND_STEPS = 100_000
MAX_ROUND_SECONDS = 10.0
_STEP_CHUNK = 1000  # steps between two looks at the clock


class Guard:
    """The lowest part of the engine: its count of this round's steps and its clock.
    Every part above it counts a step with ``self._steps -= 1`` and calls ``_guard()``
    when the count reaches zero (inline: it runs on every event)."""

    #: Held by the game itself (``spoiler.rules.game.Game``), read by every part.
    state: GameState
    seed: int

    def _init_guard(self, max_round_steps: int, max_round_seconds: float) -> None:
        #: The limits (see MAX_ROUND_STEPS), and the count of this round.
        self.max_round_steps = max_round_steps
        self.max_round_seconds = max_round_seconds
        self._guard_reset()

    def _copy_into(self, new: Guard) -> None:
        """Copy what this part holds into ``new``, a clone being made. Every part above
        extends this (``super()._copy_into(new)``, then its own): a clone copies what each
        part declares, so nothing is shared by accident."""
        new.max_round_steps = self.max_round_steps
        new.max_round_seconds = self.max_round_seconds
        new._steps = self._steps
        new._steps_done = self._steps_done
        new._decided_at = self._decided_at
        new._runaway = self._runaway

    def _guard_reset(self) -> None:
        """A new round (or the game's start): its steps counted, its clock started."""
        self._steps = _STEP_CHUNK
        self._steps_done = 0
        self._decided_at = monotonic()
        self._runaway = ""

    def _guard(self) -> None:
        """Every _STEP_CHUNK steps: stop a round past its limits with RoundTooLong. Once
        tripped it stays tripped, so code that swallows the error meets it again at once."""
        self._steps_done += _STEP_CHUNK - self._steps
        self._steps = _STEP_CHUNK
        if not self._runaway:
            busy = monotonic() - self._decided_at
            if self._steps_done > self.max_round_steps:
                why = f"over {self.max_round_steps:,} steps"
            elif busy > self.max_round_seconds:
                why = f"{busy:.0f} s of card code with no player deciding anything"
            else:
                return
            st = self.state
            names = [p.name for p in st.players]
            played = ", ".join(f"{names[p.player]}'s {p.card.name}" for p in st.plays)
            when = f"round {st.round}" if st.round else "the game's start"
            self._runaway = (
                f"{when} ran past its limit ({why}): an effect that never ends? "
                f"Cards played that round: {played or 'none'}. Seed {self.seed}."
            )
        self._steps = 1  # tripped: the next step raises again
        raise RoundTooLong(self._runaway)
