"""Stopping from outside: the user's Ctrl-C, SIGTERM and SIGHUP, told apart from plugin code.

The ``spoiler`` command turns SIGINT into ``Stop`` (a ``KeyboardInterrupt``) from its first
instant, and, while a game runs, SIGTERM and SIGHUP too: a game stopped so is saved, exactly as
one stopped by Ctrl-C. A plain ``KeyboardInterrupt`` (or ``SystemExit``) raised by plugin code
is not the user's: the engine and the plugin loader treat it as that plugin's failure, and let
only ``Stop`` through.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

#: What plugin code may raise that is its own failure: any Exception, and also SystemExit and
#: KeyboardInterrupt (``sys.exit()`` in a card, a hook that raises KeyboardInterrupt). Catch
#: these and let ``Stop`` through first: that one is the user's.
PLUGIN_FAILURES = (Exception, SystemExit, KeyboardInterrupt)


class Stop(KeyboardInterrupt):
    """A signal from outside asked the program to stop (``signum`` says which)."""

    def __init__(self, signum: int = signal.SIGINT):
        super().__init__(signum)
        self.signum = signum

    @property
    def asked_by_user(self) -> bool:
        """Ctrl-C: someone at the keyboard, who may be asked whether to save."""
        return self.signum == signal.SIGINT


#: The signal that last raised Stop (None: none yet), for whoever reports the stop.
received: int | None = None


def _raise_stop(signum: int, frame: object) -> NoReturn:
    global received
    received = signum
    raise Stop(signum)


def on_ctrl_c() -> None:
    """From now on, Ctrl-C raises Stop (the main thread only: signals are delivered there)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, _raise_stop)


#: SIGTERM and SIGHUP where the platform has them.
ENDING = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


@contextmanager
def game_signals() -> Iterator[None]:
    """While a game runs: Ctrl-C, SIGTERM and SIGHUP raise Stop, so the game is saved."""
    global received
    received = None
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, _raise_stop) for sig in (signal.SIGINT, *ENDING)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def exit_code(exc: BaseException | None = None) -> int:
    """The shell's exit code for a program stopped by a signal: 128 + its number (130 for
    Ctrl-C, and for end of input, which stops a game as Ctrl-C does)."""
    signum = getattr(exc, "signum", None) or received or signal.SIGINT
    return 128 + int(signum)


def terminal_gone() -> bool:
    """Was the last stop SIGTERM or SIGHUP (nobody left to ask whether to save)?"""
    return received in ENDING
