"""What a hosted table offers besides the game's own prompts: the chat line (``/say TEXT``),
the lobby's words (``ready``, help, the rules, a card), and the screen of a spectator.

Chat lines are cleaned as names are (``safety.printable``: no escape sequences, no control or
format characters), bounded in length and in pace, and always shown after their sender's
name, so that no line typed can pass for one of the host's.
"""

from __future__ import annotations

from collections.abc import Iterable

from spoiler_game.host.safety import printable
from spoiler_game.host.terminal import HostedScreen, Terminal, Throttle

#: The longest chat line sent (longer ones are refused whole, and the sender told).
MAX_CHAT = 160
#: Chat lines a player may send: a few at once, then one every few seconds.
CHAT_PER_SECOND, CHAT_BURST = 0.5, 4.0
#: Spectators one table lets in.
MAX_SPECTATORS = 20
SAY = "/say"
#: The heading of a spectator's ``log``.
LOG_TITLE = "The game so far, as a spectator sees it"


class Chat:
    """One person's chat line: what they may send, and how fast."""

    def __init__(self, throttle: Throttle | None = None):
        self.rate = throttle or Throttle(CHAT_PER_SECOND, CHAT_BURST)

    def message(self, line: str) -> tuple[str | None, str | None]:
        """(the text to send, None) for a chat command typed, or (None, why it is refused,
        in one line, for its sender)."""
        word, _, rest = line.partition(" ")
        if word.lower() != SAY:
            shown = printable(word)[:20]
            return None, f"There is no command {shown}: type /say TEXT to talk to the table."
        text = printable(rest)
        if not text:
            return None, "Type what to say after /say, e.g. /say good luck."
        if len(text) > MAX_CHAT:
            return None, f"A chat line is at most {MAX_CHAT} characters: that one was not sent."
        if not self.rate.take():
            every = 1 / CHAT_PER_SECOND
            return None, (
                f"You are chatting too fast (at most {CHAT_BURST:g} lines at once, then one "
                f"every {every:g} s): that line was not sent."
            )
        return text, None


def chat_line(name: str, text: str, *, watching: bool = False) -> str:
    """A chat line as everyone sees it: always after its sender's name."""
    return f"{name}{' (watching)' if watching else ''}: {text}"


# -- what the lobby and spectators may type --------------------------------------------------
LOBBY_HELP = (
    ("ready", "say you are ready (the game begins once everyone here is)"),
    ("wait", "not ready after all"),
    ("/say TEXT", "talk to everyone at the table (players and spectators)"),
    ("rules", "the rules this game's sets add to Spoiler's own"),
    ("? NAME", "a card's text and rulings, e.g. ? Accuse"),
    ("q", "leave"),
)
WATCH_HELP = (
    ("/say TEXT", "talk to everyone at the table"),
    ("log", "the game so far, as a spectator sees it"),
    ("rules", "the rules this game's sets add to Spoiler's own"),
    ("? NAME", "a card's text and rulings, e.g. ? Accuse"),
    ("q", "stop watching"),
)


def show_help(terminal: Terminal, title: str, commands: Iterable[tuple[str, str]]) -> None:
    lines = [title] + [f"  {command:<10} {meaning}" for command, meaning in commands]
    terminal.notice("\n".join(lines), "", own=True)


def show_rules(terminal: Terminal, card_sets) -> None:
    """The rules the sets add (or that they add none), as ``rules`` at a prompt says them."""
    told = [f"{s.title} rules: {s.rules}" for s in card_sets if getattr(s, "rules", "")]
    terminal.notice(
        "\n".join(told)
        or "The sets of this game add no rules of their own (Spoiler's own: spoiler rules).",
        "",
        own=True,
    )


def show_card(terminal: Terminal, cards, name: str) -> None:
    """``? NAME``: the card's panel, or the closest name."""
    from spoiler.console.cards import card_panel, suggestion

    cards = list(cards)
    wanted = name.strip().lower()
    found = [c for c in cards if c.name.lower() == wanted or c.id == wanted]
    if not found:
        close = suggestion(name, sorted({c.name for c in cards}))
        terminal.notice(
            f"No card named {printable(name)[:40]!r} in this game.{close}", "yellow", own=True
        )
        return
    console = terminal.console
    with console.capture() as captured:
        for card in found:
            console.print(card_panel(card, console.width))
    terminal.notice_rendered(captured.get(), own=True)


def help_word(line: str) -> tuple[bool, str]:
    """(is it a help line, the card asked about or "")."""
    word, _, rest = line.partition(" ")
    word = word.lower()
    if word in ("?", "help"):
        return True, rest.strip()
    if word.startswith("?"):
        return True, line[1:].strip()
    return False, ""


class WatchScreen(HostedScreen):
    """A spectator's screen: the public events only (what every player may see), the table
    without a hand, the final table; it never asks anything."""

    def __init__(self, terminal: Terminal, game):
        super().__init__(terminal, None, game)  # type: ignore[arg-type]

    def table(self):
        return self.game.table(hands=False)

    def joined_late(self) -> None:
        """Tell from the start of the current round (a spectator who came in mid-game)."""
        self.start_of_round()
        if self.game.round:
            self.standings(f"The table in round {self.game.round}")
        self.catch_up()

    def after_round(self) -> None:
        self.catch_up()
        if not self.game.over:
            self.standings(f"After round {self.game.round}")

    def show_public_log(self) -> None:
        """``log``: the game so far as a spectator saw it (the public events)."""
        with self._lock:
            self.page(self.log_lines(self.events(), None), LOG_TITLE)

    def typed(self, line: str) -> bool:
        """A line the spectator typed that this screen takes (none: it never asks)."""
        return False


def spectator_refusal() -> str:
    return (
        "You are watching: spectators cannot play or answer. Type /say TEXT to talk, "
        "log, ? NAME for a card, rules, or q to stop watching."
    )
