"""Long text (the rules, a game's log) through the reader's pager, colours and all."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paged(console) -> Iterator[None]:
    """``console.pager(styles=True)``, with ``less`` told to show colours (``LESS=-R``) unless
    the reader set ``LESS`` themselves: on Python 3.11 and 3.12 pydoc runs a bare ``less``,
    which shows rich's escape codes as text. The pager inherits the environment, so it is
    set only while the pager runs."""
    unset = "LESS" not in os.environ
    if unset:
        os.environ["LESS"] = "-R"
    try:
        with console.pager(styles=True):
            yield
    finally:
        if unset:
            os.environ.pop("LESS", None)
