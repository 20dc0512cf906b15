"""A screen watch for tests of the validation child: it finds one leak in every round, so a
test sees that the child plays its games with the watch it was given (by name)."""

from __future__ import annotations

from spoiler.narration.leaks import Watch


class EveryRound(Watch):
    def round_leaks(self):
        return [*super().round_leaks(), ("base:jewel", 0, "a test leak")]
