"""A human at the keyboard, as an agent: it shows the player their view (the table of
players, their hand with each card's text) and asks for a card, its targets and the
information it needs, by number or by name. An answer that cannot be used is explained and
asked again, here or (when the engine refuses it) through ``view.error``.

At a shared keyboard (``hot_seat``) each turn starts by asking the others to look away, shows
the player the private events they have not seen yet, and ends by clearing the screen and its
scrollback. Once every other human has lost, the player still in the game plays on without
handing the keyboard over (a lost human asked a question still gets it handed over).

Every prompt also takes the in-game commands (``COMMANDS``): help, a card's text, the game so
far, the rules the game's sets add, going back to the card prompt, and quitting.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.columns import Columns
from rich.table import Table
from rich.text import Text

from spoiler.console.screen import QuitGame, Screen
from spoiler.model.cards import NameANumber
from spoiler.model.state import Status
from spoiler.model.views import PlayerView, Question, Selection
from spoiler.narration.narrate import card_label, shared_names

#: What a player can type at any prompt, besides an answer.
COMMANDS = (
    ("?", "this help"),
    ("? NAME", "a card's text and rulings (any card of this game), e.g. ? Accuse"),
    ("log", "the game so far, as you saw it"),
    ("rules", "the rules this game's sets add to Spoiler's own"),
    ("back", "choose your card again (when asked for a target or a name)"),
    ("q", "quit the game (you are offered to save it, to resume later)"),
)
HINT = "Type ? for help, ? NAME for a card, q to quit."
#: Words that are a command whole at any prompt; a line starting with ``?`` or ``help`` is one
#: too. A player's name must not be one (``is_command``), or naming them would run it.
COMMAND_WORDS = frozenset({"log", "rules", "back", "q", "quit"})
HELP_WORDS = ("?", "help")
#: A whole number as the prompts take it: ASCII digits only (``²``, ``①`` or ``٣`` are
#: refused like any other text), at most nine, with a minus sign for the negative.
_NUMBER = re.compile(r"-?[0-9]{1,9}")


def is_command(text: str) -> bool:
    """Is ``text`` read as an in-game command at every prompt (so never as an answer)?"""
    text = text.strip().lower()
    return text.startswith("?") or text.partition(" ")[0] in HELP_WORDS or text in COMMAND_WORDS


def number(text: str) -> int | None:
    """The whole number ``text`` is, typed in ASCII digits, or None. A total function: no
    text raises (``str.isdigit`` is also true of ``²``, which ``int`` refuses)."""
    text = text.strip()
    return int(text) if _NUMBER.fullmatch(text) else None


class Back(Exception):
    """``back`` at a target or information prompt: the card is chosen again."""


class HumanAgent:
    #: The in-game commands and the first prompt's hint (a hosted seat words ``q`` its way).
    commands: tuple[tuple[str, str], ...] = COMMANDS
    hint = HINT

    def __init__(self, screen: Screen, *, hot_seat: bool = False):
        self.screen = screen
        self.hot_seat = hot_seat
        self._private_told = 0  # at a shared keyboard: my events already shown to me
        self._hinted = False  # the first prompt says how to get help and quit
        self._view: PlayerView | None = None
        self._back = False  # may this prompt go back to the card prompt?

    @property
    def console(self):
        """Where this player's prompts are printed: the screen's console of the moment (a
        full-screen table gives what they print a place in its frame)."""
        return self.screen.console

    # -- the agent protocol ------------------------------------------------------------------
    def select(self, view: PlayerView) -> Selection:
        try:
            self._sit_down(view)
            self._view = view
            if self.screen.draws_table:  # the table and the hand are in every frame
                self.screen.deciding(view, self._shared())
            else:
                self._show_table(view)
                self._show_hand(view)
            if view.error:
                self._refused(f"That selection was refused: {view.error}.")
            while True:
                card = self._choose_card(view)
                self._back = True
                try:
                    targets = self._choose_targets(view, card)
                    info = self._choose_info(view, card)
                except Back:
                    if not self.screen.draws_table:
                        self._show_hand(view)
                    continue
                finally:
                    self._back = False
                break
            self._stand_up(view)
        finally:
            self.screen.decided()
        return Selection(card, targets, info)

    def answer(self, view: PlayerView, question: Question) -> str:
        try:
            self._sit_down(view)
            self._view = view
            if self.screen.draws_table:
                self.screen.deciding(view, self._shared())
            if view.error:
                self._refused(f"That answer was refused: {view.error}.")
            asker = self.screen.game.cards_by_id.get(question.cause or "")
            prompt = question.prompt
            if asker is not None and prompt.lower().startswith(asker.name.lower() + ":"):
                prompt = prompt[len(asker.name) + 1 :].strip()  # "Standoff asks you: name a …"
            source = f"{asker.name} asks you" if asker is not None else "A question for you"
            self.console.print(Text(f"{source}: {prompt}", style="bold"))
            answer = self._pick(list(question.options), list(question.options), "Your answer?")
            self._stand_up(view)
        finally:
            self.screen.decided()
        return answer

    # -- turns at a shared keyboard ------------------------------------------------------------
    def _handing_over(self, view: PlayerView) -> bool:
        """Must the others look away? Yes at a shared keyboard, unless this player is the
        only human who has not lost (the others are out of the game)."""
        if not self.hot_seat:
            return False
        if view.me.status is Status.LOST:
            return True
        kinds = self.screen.game.table().kinds
        in_game = [p for p in view.players if kinds[p.seat] == "human" and p.status != Status.LOST]
        return len(in_game) > 1

    def _sit_down(self, view: PlayerView) -> None:
        self.screen.catch_up()
        self.screen.begin_decision(view.seat)
        if self.screen.quiet:  # skipping to the result, but a card brought this player back
            self.screen.quiet = False
            self.console.print()
            self.console.print(Text(f"{view.me.name}, the game needs you again.", style="bold"))
        if not self.hot_seat:
            return
        me = view.me.name
        if self._handing_over(view):
            self.console.print()
            self.console.print(Text(f"{me}'s turn. Everyone else, please look away.", style="bold"))
            self.screen.read(f"{me}, press Enter when only you can see the screen.")
        events = view.events
        # What only this player saw since their last turn (not the selection they just made).
        mine = [
            e for e in events[self._private_told :] if e.secret is not None and e.kind != "selected"
        ]
        self._private_told = len(events)
        if mine:
            self.console.print(Text("Only you saw:", style="bold"))
            for event in mine:
                self.screen.say(event, view.seat)

    def _stand_up(self, view: PlayerView) -> None:
        if self._handing_over(view):
            self.screen.clear()

    # -- showing the view ----------------------------------------------------------------------
    def _show_table(self, view: PlayerView) -> None:
        kinds = self.screen.game.table().kinds
        self.console.print()
        self.console.print(
            self.screen.players_table(
                view.players,
                you=view.seat,
                kinds=kinds,
                title=f"Round {view.round}: {view.me.name} to choose",
            )
        )
        top = f" (top: {view.discard[-1].name})" if view.discard else ""
        self.console.print(
            f"Deck: {view.deck_size} cards. Discard pile: {len(view.discard)} cards{top}.",
            markup=False,
        )
        for name, owner, rounds in view.ongoing:
            self.console.print(in_effect(view, name, owner, rounds), markup=False)
        for seat, (seen_in, cards) in sorted(view.known.items()):
            shown = ", ".join(c.name for c in cards) or "no cards"
            self.console.print(
                f"You saw {view.name_of(seat)}'s hand in round {seen_in}: {shown}.", markup=False
            )

    def _shared(self) -> frozenset[str]:
        """Names that cards of two sets in this game share: shown with their set."""
        game = getattr(self.screen, "game", None)
        return shared_names(game.cards) if game is not None else frozenset()

    def _show_hand(self, view: PlayerView) -> None:
        table = Table(title="Your hand", title_justify="left", show_edge=False, pad_edge=False)
        table.add_column("#", justify="right")
        table.add_column("Card", style="bold")
        table.add_column("What it does")
        for number, card in enumerate(view.hand, 1):
            text = Text(card.text)
            needs = [t.description for t in card.targets]
            if card.ask is not None:
                needs.append(card.ask.prompt.lower())
            if needs:
                text.append(f"\nYou choose: {'; '.join(needs)}.", style="dim")
            if card not in view.playable:
                text.append("\nCannot be played now: no legal target.", style="red")
            table.add_row(str(number), card_label(card, self._shared()), text)
        self.console.print()
        self.console.print(table)

    def _refused(self, message: str) -> None:
        self.console.print(Text(message, style="yellow"))

    # -- the in-game commands ----------------------------------------------------------------
    def _read(self, prompt: str, answers: Sequence[str] = ()) -> str:
        """Read an answer to ``prompt`` (Tab completes ``answers`` and the commands where the
        line can be edited); the commands any prompt takes are done here, and the prompt
        asked again."""
        if not self._hinted:
            self._hinted = True
            self.console.print(Text(self.hint, style="dim"))
        offered = [*answers, *COMMAND_WORDS - {"quit"}, "?"]
        while True:
            answer = self.screen.read(prompt, offered)
            word, _, rest = answer.partition(" ")
            word, rest = word.lower(), rest.strip()
            if word in HELP_WORDS and not rest:
                self._help()
            elif word in HELP_WORDS:
                self._card_help(rest)
            elif word.startswith("?"):  # "?accuse"
                self._card_help(answer[1:].strip())
            elif not is_command(answer):
                return answer
            elif answer.lower() == "log":
                self.screen.show_log(self._view)
            elif answer.strip().lower() == "rules":
                self.screen.show_rules()
            elif answer.lower() in ("q", "quit"):
                raise QuitGame
            elif answer.lower() == "back":
                if self._back:
                    raise Back
                self._refused("There is nothing to go back to here: please answer.")

    def _help(self) -> None:
        table = Table.grid(padding=(0, 2))
        for command, meaning in self.commands:
            if command == "back" and not self._back:
                meaning += "; not here"
            table.add_row(Text("  " + command, style="bold"), meaning)
        self.console.print("At any prompt you can type:")
        self.console.print(table)
        self.console.print(
            "Otherwise answer with one of the numbers shown, or a name (a card, a player).",
            markup=False,
        )

    def _card_help(self, name: str) -> None:
        from spoiler.console.cards import card_panel, suggestion

        cards = list(self.screen.game.cards_by_id.values())
        wanted = name.lower()
        found = [c for c in cards if c.name.lower() == wanted or c.id == wanted]
        if not found:
            close = suggestion(name, sorted({c.name for c in cards}))
            self._refused(f"No card named {name!r} in this game.{close}")
            return
        for card in found:
            self.console.print(card_panel(card, self.console.width))

    # -- asking ------------------------------------------------------------------------------
    def _pick(self, labels: list[str], values: list, prompt: str):
        """Show numbered options and read one, by number or by its label."""
        if len(values) == 1:
            self.console.print(Text(f"  {labels[0]} (the only choice)"))
            return values[0]
        if all(label.isdigit() for label in labels):
            # Options that are numbers are typed as themselves, never as a position.
            while True:
                answer = self._read(f"{prompt} [{', '.join(labels)}]", labels)
                if answer in labels:
                    return values[labels.index(answer)]
                self._refused(f"Please answer with one of: {', '.join(labels)}.")
        items = [Text(f"{n}) {label}") for n, label in enumerate(labels, 1)]
        self.console.print(
            Columns(items, padding=(0, 3))
            if len(items) > 6
            else Text("  " + "   ".join(str(i) for i in items))
        )
        while True:
            answer = self._read(f"{prompt} [1-{len(values)}]", labels)
            chosen = _match(answer, labels)
            if chosen is not None:
                return values[chosen]
            self._refused(
                f"Please answer with a number from 1 to {len(values)}, or one of the names "
                f"shown.{_closest(answer, labels)}"
            )

    def _choose_card(self, view: PlayerView):
        names = [card.name for card in view.hand]
        while True:
            answer = self._read(f"Play which card? [1-{len(names)}]", names)
            chosen = _match(answer, names)
            if chosen is None:
                self._refused(
                    f"Please answer with a card's number (1 to {len(names)}) or its name."
                    f"{_closest(answer, names)}"
                )
                continue
            card = view.hand[chosen]
            if card not in view.playable:
                wants = ", ".join(t.description for t in card.targets)
                self._refused(
                    f"{card.name} cannot be played now: it needs {wants}, and there "
                    f"is none. Choose another card."
                )
                continue
            return card

    def _choose_targets(self, view: PlayerView, card) -> tuple[int, ...]:
        chosen: list[int] = []
        for kind, legal in zip(card.targets, view.legal_targets(card), strict=True):
            seats = [s for s in legal if s not in chosen] or list(legal)
            self.console.print(Text(f"{card.name}: choose {kind.description}."))
            # Players are numbered as in the table (seat + 1), so the numbers stay the same.
            labels = [view.name_of(s) for s in seats]
            if len(seats) == 1:
                self.console.print(Text(f"  {labels[0]} (the only choice)"))
                chosen.append(seats[0])
                continue
            self.console.print(
                Text("  " + "   ".join(f"{s + 1}) {view.name_of(s)}" for s in seats))
            )
            while True:
                answer = self._read(f"Target? [{', '.join(str(s + 1) for s in seats)}]", labels)
                seat = _match_seat(answer, seats, view)
                if seat is not None:
                    chosen.append(seat)
                    break
                self._refused(
                    f"Please answer with one of the numbers shown, or a player's name "
                    f"({kind.description}).{_closest(answer, labels)}"
                )
        return tuple(chosen)

    def _choose_info(self, view: PlayerView, card):
        ask = card.ask
        if ask is None:
            return None
        self.console.print(Text(f"{card.name}: {ask.prompt.lower()}."))
        if isinstance(ask, NameANumber):
            while True:
                answer = self._read(f"{ask.prompt}? [{ask.low}-{ask.high}]")
                if number(answer) is None:
                    self._refused(f"{answer!r} is not a whole number. Try again.")
                    continue
                try:
                    return ask.check(number(answer), view.card_names)
                except ValueError as exc:
                    self._refused(f"{_sentence(str(exc))} Try again.")
        choices = list(ask.choices(view.card_names))
        while True:
            value = self._pick([str(c) for c in choices], choices, ask.prompt + "?")
            try:
                return ask.check(value, view.card_names)
            except ValueError as exc:
                self._refused(f"{_sentence(str(exc))} Try again.")


def in_effect(view: PlayerView, name: str, owner: int, rounds: int | None) -> str:
    """An ongoing effect as the table tells it: whose, on whom, for how long, what it does.
    "In effect: Ada's Hex on Cog, this round and 2 more: For this round and the next two,
    the hexed player cannot win." (Who it is on: the targets of the card that made it.)"""
    you = view.seat
    if owner == you:
        whose = "your"
    elif 0 <= owner < len(view.players):
        whose = f"{view.name_of(owner)}'s"
    else:  # an effect a set's rule put into play: no player owns it (ruling 13)
        whose = "the rules'"
    seat = owner if owner >= 0 else None  # how the engine's events name an owner
    text = ""
    targets: tuple[int, ...] = ()
    for event in reversed(view.events):
        if event.kind == "ongoing_added" and event.seat == seat and event.data["name"] == name:
            text, targets = event.data.get("text") or "", event.data.get("targets") or ()
            break
    on = ", ".join("you" if s == you else view.name_of(s) for s in targets)
    if rounds is None:
        left = "until it is removed"
    elif rounds <= 1:
        left = "until the end of this round"
    else:
        left = f"this round and {rounds - 1} more"
    return f"In effect: {whose} {name}{f' on {on}' if on else ''}, {left}" + (
        f": {text}" if text else "."
    )


def _sentence(message: str) -> str:
    message = message[:1].upper() + message[1:]
    return message if message.endswith(".") else message + "."


def _closest(answer: str, names: list[str]) -> str:
    """' Did you mean: Accuse?' for a name typed almost right (never for a number)."""
    from spoiler.console.cards import suggestion

    return "" if not answer.strip() or number(answer) is not None else suggestion(answer, names)


def _match(answer: str, labels: list[str]) -> int | None:
    """The index chosen by a 1-based number or a (case-insensitive) label, or None."""
    answer = answer.strip()
    typed = number(answer)
    if typed is not None:
        return typed - 1 if 1 <= typed <= len(labels) else None
    wanted = answer.lower()
    for index, label in enumerate(labels):
        if label.lower() == wanted:
            return index
    return None


def _match_seat(answer: str, seats: list[int], view: PlayerView) -> int | None:
    answer = answer.strip()
    typed = number(answer)
    if typed is not None:
        return typed - 1 if typed - 1 in seats else None
    for seat in seats:
        if view.name_of(seat).lower() == answer.lower():
            return seat
    return None
