"""The compiled engine's hints (hatch_compile.py), at no cost to the pure one.

mypyc reads ``mypyc_attr`` (from mypy_extensions) while it compiles the engine; when the
engine runs, compiled or not, the decorator does nothing, so mypy_extensions need not be
installed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
else:

    def mypyc_attr(*args, **kwargs):
        """(Does nothing when the engine runs: mypyc has read it already.)"""
        return lambda cls: cls
