"""What came of each play: read from the event log as it grows, for the screens that tell it.

``Story`` is fed a game's events one at a time (as one reader saw them) and answers two
questions the bare events leave to the reader:

* **Did a part change anything?** A card's part (its mid-round effect, or its "At Beginning /
  At End of Round" part) opens with a ``played``, ``at_beginning`` or ``at_end`` event; what
  it causes follows, up to the next part or the end of the resolutions. A part that caused
  nothing is an ``Idle``: the screen then says "nothing happens" and why, from the card's
  ``unmet`` text ("{info} is not in {target_s} hand").
* **Who knocked out whom, and who won how?** Each ``lost`` event that leaves a player lost is
  a knockout, each ``won`` event that leaves a player won a win: an ``Outcome`` with the round,
  the player, the card that caused it and the player whose card (or ongoing effect) it was.

It needs no game: only the events and the cards by id, so it serves a live game, a replay and
a record alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

#: Events that open a card's part.
PARTS = frozenset({"played", "at_beginning", "at_end"})
#: Events after which no part is resolving any more (and an ongoing effect that expires as the
#: table is cleared, which no part caused).
CLOSERS = frozenset({"cleared", "round_started", "priorities_shifted", "game_over"})
#: Events that change nothing by themselves (an answer, a secret choice made public).
UNCHANGING = frozenset({"answered", "revealed"})
#: Events told on the card that stopped or redirected a play, which may come from an ongoing
#: effect reacting to the *next* play: they count for a part only when its card caused them.
INTERVENING = frozenset({"cancelled", "redirected", "replaced"})
#: Events that explain themselves whatever card caused them (a shield, a failure).
EXPLAINED = frozenset({"loss_prevented", "win_prevented", "fizzled"})


@dataclass(frozen=True)
class Part:
    """A card's part as it resolves: whose, which card, its targets and information."""

    round: int
    kind: str  # played, at_beginning or at_end
    seat: int
    card: str  # the card id
    targets: tuple[int, ...] = ()
    info: object = None


@dataclass(frozen=True)
class Outcome:
    round: int
    seat: int  # who lost (or won)
    card: str | None  # the card that made it happen (its id)
    by: int | None  # whose card (or ongoing effect) it was, when known


class Story:
    def __init__(self, cards: Mapping):
        self.cards = cards
        self.knockouts: list[Outcome] = []
        self.wins: dict[int, Outcome] = {}  # seat -> their latest win
        self._part: Part | None = None
        self._acting: set[str] = set()  # the card ids the open part acts through
        self._changed = False
        self._plays: dict[tuple[int, int], Part] = {}  # (round, seat) -> its played part
        self._owners: dict[str, int] = {}  # card id -> owner of its latest ongoing effect
        #: (card id, seat) -> the player whose play of that card last did something to that
        #: seat: who a later outcome of the card (a fuse it lit burning out) is owed to.
        self._marks: dict[tuple[str, int], int] = {}
        self._instead: dict[tuple[int, int], str] = {}  # (round, seat) -> the card it acts as

    def feed(self, event) -> Part | None:
        """Take the next event. Returns the part this event closed if that part changed
        nothing (an idle part), else None."""
        kind = event.kind
        idle = None
        if (
            kind in PARTS
            or kind in CLOSERS
            or (kind == "ongoing_ended" and event.data.get("expired"))
        ):
            idle = self._close()
        if kind == "replaced":  # the play resolves as another card: that card is told
            self._instead[(event.round, event.seat)] = event.data.get("instead")
        if kind == "played":  # its targets and information, for its At End of Round part
            self._plays[(event.round, event.seat)] = self._part_of(event)
        if kind in PARTS and self._acts(event):
            self._open(event)
        elif kind == "revealed":  # a secret information, made public once its card resolved
            self._reveal(event)
        elif self._part is not None and kind not in UNCHANGING:
            if kind == "copied":
                self._acting.add(event.data.get("card"))
            if kind in EXPLAINED or kind not in INTERVENING or event.cause in self._acting:
                self._changed = True
            if event.cause in self._acting and event.seat is not None:
                self._marks[(event.cause, event.seat)] = self._part.seat
        if kind == "ongoing_added" and event.cause is not None:
            self._owners[event.cause] = event.seat
        if kind in ("lost", "won") and event.data.get("after") != event.data.get("before"):
            outcome = Outcome(event.round, event.seat, event.cause, self._by(event))
            if kind == "lost" and event.data.get("after") == "lost":
                self.knockouts.append(outcome)
            elif kind == "won" and event.data.get("after") == "won":
                self.wins[event.seat] = outcome
        return idle

    def resolving(self, event) -> str:
        """The id of the card whose effect a part event resolves: for a play that was
        replaced, the card it resolves as (not the one selected, which does not resolve)."""
        card = event.data.get("card") or event.cause
        if event.kind == "played":
            return self._instead.get((event.round, event.seat)) or card
        return card

    def _acts(self, event) -> bool:
        """Does this part do anything? A card with no mid-round effect is played all the
        same (its other parts did their work), and that is no idle play."""
        if event.kind != "played":
            return True
        card = self.cards.get(self.resolving(event))
        return card is None or card.main is not None

    def _reveal(self, event) -> None:
        info, key = event.data.get("info"), (event.round, event.seat)
        if key in self._plays:
            self._plays[key] = replace(self._plays[key], info=info)
        if self._part is not None and self._part.seat == event.seat:
            self._part = replace(self._part, info=info)

    @staticmethod
    def _part_of(event) -> Part:
        data = event.data
        card = data.get("card") or event.cause
        targets = tuple(data.get("targets") or ())
        return Part(event.round, "played", event.seat, card, targets, data.get("info"))

    def _open(self, event) -> None:
        card = event.data.get("card") or event.cause
        if event.kind == "played":
            part = self._plays[(event.round, event.seat)]
            acting = self.resolving(event)
            if acting != card:  # replaced: its reason is the resolving card's
                self._part, self._acting, self._changed = replace(part, card=acting), {card}, False
                self._acting.add(acting)
                return
        else:  # an At Beginning/End part: the targets are those the card was played with
            played = self._plays.get((event.round, event.seat))
            if played is None or played.card != card:
                played = Part(event.round, "played", event.seat, card)
            part = Part(event.round, event.kind, event.seat, card, played.targets, played.info)
        self._part, self._acting, self._changed = part, {card}, False

    def _close(self) -> Part | None:
        part, changed = self._part, self._changed
        self._part = None
        return part if part is not None and not changed else None

    def _by(self, event) -> int | None:
        """Whose card (or ongoing effect) caused ``event``: the player of the part resolving,
        else the owner of the card's ongoing effect, else whoever's play of that card last did
        something to this player (a delayed outcome: "Ada's Time Bomb")."""
        part = self._part
        if part is not None and event.cause in self._acting:
            return part.seat
        owner = self._owners.get(event.cause)
        if owner is None and event.seat is not None:
            owner = self._marks.get((event.cause, event.seat))
        return owner

    # -- telling -----------------------------------------------------------------------------
    def why(self, part: Part, names, you: int | None = None) -> str:
        """Why an idle part changed nothing, as a sentence ("Nothing happens: …")."""
        card = self.cards.get(part.card)
        unmet = getattr(card, "unmet", "") if card is not None else ""
        if not unmet:
            return "Nothing happens."
        return f"Nothing happens: {fill(unmet, part, names, you)}."


def fill(template: str, part: Part, names, you: int | None = None) -> str:
    """A card's ``unmet`` text with its placeholders filled for one reader:
    {player}, {player_s}, {target}, {target_s}, {info}."""

    def who(seat) -> str:
        if seat is None:
            return "their target"
        return "you" if seat == you else names[seat]

    def whose(seat) -> str:
        if seat is None:
            return "their target's"
        return "your" if seat == you else f"{names[seat]}'s"

    target = part.targets[0] if part.targets else None
    return template.format(
        player=who(part.seat),
        player_s=whose(part.seat),
        target=who(target),
        target_s=whose(target),
        info="" if part.info is None else part.info,
    )
