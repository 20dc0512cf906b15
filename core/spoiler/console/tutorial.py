"""``spoiler play --tutorial``: a first game with a guide.

A short game of the base set against two bots, played by the real engine, in which the
screen explains each idea of the game the first time the game shows it: priority, choosing at
the same time, a card that resolves, the end of a round, losing, a loss and a win cancelling
out, winning, and how the game ended. Every explanation is set off by an event of the game
itself (or the first card prompt), never by the seed: played another way, or with other
cards, the guide still tells what happens as it happens.
"""

from __future__ import annotations

from rich.padding import Padding
from rich.panel import Panel
from rich.text import Text

from spoiler.console.screen import Screen
from spoiler.narration.narrate import ordinal
from spoiler.narration.story import Story

#: The tutorial's table: one human against two bots, the base set, a short round limit.
PLAYER = "You"
BOTS = 2
BOT_KIND = "random"  # a gentle opponent: any legal card
SETS = ["base"]
#: A deal in which, played the way the guide suggests (the first card that can be played),
#: the first rounds show the ideas in turn (a card that stops another, a loss, the end).
SEED = 9
MAX_ROUNDS = 12

INTRO = (
    "Welcome to Spoiler. This is a short game against two bots ({bots}), with the base "
    "set's cards. Everyone holds 3 cards; each round, everyone plays one. You win by "
    "a card that says you win, or by being the last player who has not lost. The guide "
    "explains each idea the first time it happens; type ? NAME at any prompt to read a card."
)
PRIORITY = (
    "Priority is the order of the table: {order}. The cards chosen in a round resolve in "
    "this order, 1st first, so an early card can stop or change a later one. It shifts at "
    "the end of every round: 1st goes last and everyone else moves up."
)
SELECTING = (
    "Choosing is simultaneous and secret: everyone picks one card now, and nothing happens "
    "until all have chosen. The card you pick leaves your hand at once, and nobody sees it "
    "until it resolves. Pick a card by its number; a card that needs a target asks next."
)
OTHERS_CHOSE = (
    "{name} chose too: you see only that they selected a card, not which, until it resolves."
)
RESOLVING = (
    "Now the cards resolve one by one, in priority order. Each does what its text says, "
    "with the targets chosen for it, whatever happened earlier in the round."
)
NOTHING = (
    "A card can do nothing: its condition was not met, or an earlier card stopped it. The "
    "screen always says so, and why."
)
CANCELLED = (
    "A cancelled card does nothing at all, not even its later parts: this is why priority matters."
)
END_OF_ROUND = (
    "The round is over: played cards went to the discard pile, everyone still in drew a "
    "card, and priority shifted. Next round: {order}."
)
YOU_LOST = (
    "You have lost. A player who has lost no longer chooses cards or draws, but cards still "
    "affect them: if a card makes you win now, the win and the loss cancel out and you are "
    "back in the game. You may watch the rest."
)
THEY_LOST = (
    "{name} has lost: they no longer choose cards or draw, but cards can still target them, "
    "and a win would bring them back. The game ends when only one player has not lost "
    "(they win by default), or when someone wins."
)
CANCEL_OUT = (
    "A win and a loss cancel out: {name} is back in play. A player is always one of lost, in "
    "play or won, and each win or loss moves them one step."
)
WON = (
    "{name} has won. When this round ends the game is over: every winner wins and everyone "
    "else loses, unless a later card this round makes a winner lose again."
)
ENDINGS = {
    "win": "The game ended at the end of a round in which someone had won.",
    "default": "The game ended because only one player had not lost: they win by default.",
    "all_lost": "The game ended because every player had lost: everyone loses equally.",
    "draw": "The round limit was reached with no winner: the game is a draw.",
}
AFTER = (
    "That is the whole game. Next: spoiler play (you against three bots, every installed "
    "set), spoiler rules for the rules in full, spoiler cards list for every card."
)


class _Counted(Story):
    """The story of the game, counting the cards it told did nothing."""

    nothing = 0

    def why(self, part, names, you=None) -> str:
        self.nothing += 1
        return super().why(part, names, you)


class TutorialScreen(Screen):
    """The screen of one human's game that explains each idea the first time it happens."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.explained: set[str] = set()

    def follow(self, game) -> None:
        super().follow(game)
        self.story = _Counted(game.cards_by_id)

    def explain(self, key: str, text: str) -> None:
        """The guide's word on ``key``, once a game."""
        if key in self.explained or self.quiet:
            return
        self.explained.add(key)
        panel = Panel(Text(text), title="Guide", title_align="left", border_style="cyan")
        self.console.print(Padding(panel, (0, 0, 0, 2)))

    def _order(self, seats) -> str:
        return ", ".join(f"{ordinal(i + 1)} {self._who(s)}" for i, s in enumerate(seats))

    def _who(self, seat: int) -> str:
        return "you" if seat == self.you() else self.names[seat]

    def set_rules(self) -> None:
        bots = ", ".join(n for seat, n in enumerate(self.names) if seat != self.you())
        self.explain("intro", INTRO.format(bots=bots))
        super().set_rules()

    def say(self, event, reader, *, indent: int = 2) -> None:
        super().say(event, reader, indent=indent)
        if isinstance(self.story, _Counted) and self.story.nothing:
            self.explain("nothing", NOTHING)  # the screen just said a card did nothing
        kind, you = event.kind, self.you()
        if kind == "priorities":
            self.explain("priority", PRIORITY.format(order=self._order(event.data["order"])))
        elif kind == "selected" and event.seat != you:
            self.explain("others", OTHERS_CHOSE.format(name=self.names[event.seat]))
        elif kind == "played":
            self.explain("resolving", RESOLVING)
        elif kind == "cancelled":
            self.explain("cancelled", CANCELLED)
        elif kind == "priorities_shifted":
            self.explain("shift", END_OF_ROUND.format(order=self._order(event.data["order"])))
        elif kind == "lost" and event.data.get("after") == "lost":
            if event.seat == you:
                self.explain("you lost", YOU_LOST)
            else:
                self.explain("lost", THEY_LOST.format(name=self.names[event.seat]))
        elif kind in ("lost", "won") and event.data.get("after") == "in_play":
            self.explain("cancel out", CANCEL_OUT.format(name=self._who(event.seat)))
        elif kind == "won" and event.data.get("after") == "won":
            name = "You" if event.seat == you else self.names[event.seat]
            self.explain("won", WON.format(name=name))

    def read(self, prompt: str, answers=()) -> str:
        if prompt.startswith("Play which card"):
            self.explain("selecting", SELECTING)
        return super().read(prompt, answers)

    def end(self) -> None:
        super().end()
        result = self.game.table().result
        if result is not None:
            self.explain("ending", ENDINGS.get(result.kind, ""))
        self.explain("after", AFTER)
