"""Record files on disk: what is read cannot hurt, what is written never clobbers.

Reading: only a regular file is read (a FIFO, a device or a directory is refused without
waiting on it), at most ``MAX_BYTES`` of it, and its text is scanned for what makes a TOML
parser slow or deep (nested brackets, keys of many dotted parts, very long numbers) before
it is parsed. So no file, however hostile, costs more than about a second or a few tens of MB.

Writing: a game's record is a ``RecordFile``, created exclusively (an existing path is refused
unless ``force``) and held with an advisory lock (``flock``) for as long as its game runs, so
a second game or ``spoiler resume`` on the same file is refused instead of racing it. Every
save goes to a temporary file beside the record (locked before it is renamed, so the lock
never lapses), which is fsynced and renamed over the record, and the directory is fsynced.
A symlink is followed: the file it points to is the record. Only a regular file is ever
replaced; a device, a FIFO or a directory is refused, even with ``force``.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
from itertools import accumulate
from pathlib import Path
from typing import NoReturn

try:
    import fcntl
except ImportError:  # not a POSIX system: records are written without a lock
    fcntl = None  # type: ignore[assignment]

#: The largest record file read, in bytes (1 MiB). A game of 8 players that reaches the
#: highest round limit (``spoiler.records.MAX_ROUNDS``, 500) takes about 0.5 MB; the TOML of
#: this size that is slowest to parse (an array of a million numbers) takes under a second.
MAX_BYTES = 1024 * 1024
#: Deepest nesting of brackets and braces, most dots in one line of keys, longest number:
#: far beyond what a record holds (depth 2, one dot, 20 digits), far below what hurts.
MAX_DEPTH = 16
MAX_DOTS = 16
MAX_DIGITS = 40


class FileProblem(Exception):
    """A record file that cannot be read or written; the message is one line."""


# ==============================================================================================
# Reading
# ==============================================================================================
def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _open_for_a_look(path, failure: str) -> int:
    """A read-only descriptor of ``path``, whatever it is, so that its kind can be checked
    before anything is read; FileProblem("<failure>: <why>") if it cannot be opened."""
    # O_NONBLOCK: opening a FIFO must not wait for a writer; the caller refuses it next.
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        return os.open(path, flags)
    except OSError as exc:
        raise FileProblem(f"{failure}: {exc.strerror or exc}") from None


def read(path) -> bytes:
    """The bytes of a record file: a regular file of at most MAX_BYTES, or FileProblem."""
    fd = _open_for_a_look(path, "cannot read it")
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileProblem(f"cannot read it: it is {_kind(info.st_mode)}, not a record file")
        if info.st_size > MAX_BYTES:
            raise FileProblem(f"{_too_big(info.st_size)}")
        chunks, size = [], 0
        while size <= MAX_BYTES:  # the file may grow while it is read
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > MAX_BYTES:
            raise FileProblem(_too_big(size))
        return b"".join(chunks)
    except OSError as exc:
        raise FileProblem(f"cannot read it: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def _too_big(size: int) -> str:
    return (
        f"{size:,} bytes is over the limit of {MAX_BYTES:,} bytes for a record "
        "(not a spoiler game record?)"
    )


# Strings and comments (skipped whole), and the characters that count outside them.
# Outside strings and comments, what counts: quotes and comments (skipped), runs of
# brackets, dots, and over-long numbers. Newlines are not tokens: a line number is worked
# out only for the message.
_SPECIAL = re.compile(r"[\"'#]|[\[\]{}]+|\.|\d{" + str(MAX_DIGITS + 1) + ",}")
_DEPTH = {"[": 1, "{": 1, "]": -1, "}": -1}


def check_shape(text: str) -> None:
    """Refuse, before parsing, TOML text that would make the parser deep or slow: brackets
    nested deeper than MAX_DEPTH, a line of keys with more than MAX_DOTS dots, a number
    longer than MAX_DIGITS digits. Only text outside strings and comments counts. The cost
    is one pass over the text, with no more memory than the text."""
    depth, dots, dots_line = 0, 0, -2
    pos, end = 0, len(text)

    def refuse(at: int, message: str) -> NoReturn:
        raise FileProblem(f"line {text.count(chr(10), 0, at) + 1}: {message}")

    while True:
        match = _SPECIAL.search(text, pos)
        if match is None:
            return
        token, pos = match.group(), match.end()
        first = token[0]
        if first == "#":
            newline = text.find("\n", pos)
            pos = end if newline < 0 else newline
        elif first in "\"'":
            pos = _string_end(text, pos, first)
        elif first in "[]{}":
            if len(token) == 1:
                depth = max(depth + _DEPTH[first], 0)
                deepest = depth
            else:
                steps = list(accumulate(map(_DEPTH.__getitem__, token), initial=depth))
                deepest, depth = max(steps), max(steps[-1], 0)
            if deepest > MAX_DEPTH:
                refuse(match.start(), f"nested deeper than {MAX_DEPTH} levels")
        elif first == ".":
            line = text.rfind("\n", 0, match.start())
            dots = dots + 1 if line == dots_line else 1
            dots_line = line
            if dots > MAX_DOTS:
                refuse(match.start(), f"a key of more than {MAX_DOTS} dotted parts")
        else:
            refuse(match.start(), f"a number of more than {MAX_DIGITS} digits")


def _string_end(text: str, pos: int, quote: str) -> int:
    """Where a string that opened with ``quote`` just before ``pos`` ends (past its closing
    quotes); an unterminated one ends where TOML says it is wrong (the line, or the text)."""
    triple = text.startswith(quote * 2, pos)
    closing = quote * 3 if triple else quote
    start = pos + 2 if triple else pos
    while True:
        found = text.find(closing, start)
        if found < 0:
            return len(text)
        if not triple and text.find("\n", start, found) >= 0:
            return found  # unterminated on its line: TOML refuses it
        if quote == '"':  # a quote after an odd number of backslashes is escaped
            before = found
            while text[before - 1] == "\\":
                before -= 1
            if (found - before) % 2:
                start = found + 1
                continue
        return found + len(closing)


# ==============================================================================================
# Writing
# ==============================================================================================
def real_path(path) -> Path:
    """Where the record really lives: symlinks followed (a dangling one names the file to
    create)."""
    return Path(os.path.realpath(path))


def _lock(fd: int, path) -> None:
    if fcntl is None:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise FileProblem("it is in use by another spoiler game (which holds its lock)") from None
    except OSError:
        pass  # a file system without locks: go on unguarded


def _nofollow() -> int:
    """Not following a symlink put at the new record's path after it was checked. Where the
    platform lacks the flag (Windows), O_EXCL alone refuses that path all the same: an
    exclusive create fails on any existing name, a symlink included, and creates nothing
    where it points."""
    return getattr(os, "O_NOFOLLOW", 0)


class RecordFile:
    """A record file held by this process while its game runs (see the module docstring)."""

    def __init__(self, path: Path, fd: int, given=None):
        self.path = path  # the real path (symlinks followed)
        self.given = Path(given) if given is not None else path  # as the user named it
        self._fd: int | None = fd

    @classmethod
    def create(cls, path, force: bool = False) -> RecordFile:
        """A new record at ``path``; an existing one is refused unless ``force`` (and is then
        replaced, atomically, at the first write). FileProblem says why it cannot be."""
        real = real_path(path)
        try:
            info = os.stat(real)
        except FileNotFoundError:
            info = None
        except OSError as exc:
            raise FileProblem(f"cannot write it: {exc.strerror or exc}") from None
        if info is None:
            try:
                fd = os.open(real, os.O_RDONLY | os.O_CREAT | os.O_EXCL | _nofollow(), 0o666)
            except FileExistsError:
                raise FileProblem("it exists (created just now by someone else)") from None
            except OSError as exc:
                raise FileProblem(f"cannot write it: {exc.strerror or exc}") from None
            try:
                _lock(fd, path)
            except FileProblem:
                os.close(fd)
                raise
            return cls(real, fd, path)
        if not stat.S_ISREG(info.st_mode):
            raise FileProblem(f"it is {_kind(info.st_mode)}; a record is written to a file only")
        if not force:
            raise FileProblem(
                "it exists; a record is never written over another file "
                "(choose another name, or add --force to replace it)"
            )
        return cls.open(path)

    @classmethod
    def open(cls, path) -> RecordFile:
        """An existing regular record file, locked, to be rewritten (``spoiler resume``)."""
        real = real_path(path)
        fd = _open_for_a_look(real, "cannot open it")
        try:
            mode_bits = os.fstat(fd).st_mode
            if not stat.S_ISREG(mode_bits):
                raise FileProblem(f"it is {_kind(mode_bits)}; a record is written to a file only")
            if not os.access(real, os.W_OK):
                raise FileProblem("cannot write it: it is read-only")
            if not os.access(real.parent, os.W_OK | os.X_OK):
                raise FileProblem(f"cannot write it: its directory {real.parent} is read-only")
            _lock(fd, path)
        except BaseException:
            os.close(fd)
            raise
        return cls(real, fd, path)

    def write(self, data: bytes) -> None:
        """Replace the record with ``data``, atomically; OSError when the disk says no."""
        replace(self.path, data, self)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> RecordFile:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def replace(path, data: bytes, held: RecordFile | None = None) -> None:
    """Write ``data`` to a temporary file beside ``path`` and rename it over ``path`` (a
    regular file, or nothing yet): a crash or a full disk leaves the old record whole. With
    ``held``, the new file is locked before the rename and becomes the one held."""
    path = real_path(path)
    try:
        mode_bits = os.stat(path).st_mode
    except FileNotFoundError:
        mode_bits = None
    if mode_bits is not None and not stat.S_ISREG(mode_bits):
        raise FileProblem(f"it is {_kind(mode_bits)}; a record is written to a file only")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        if held is not None:
            _lock(fd, path)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
        os.chmod(tmp, _mode_for(mode_bits))
        os.replace(tmp, path)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(path.parent)
    if held is not None:
        held.close()
        held._fd = fd
    else:
        os.close(fd)


def _mode_for(mode_bits: int | None) -> int:
    """The permissions the record keeps (or, when new, gets from the umask, as any file
    would); a temporary file is created readable by its owner only."""
    if mode_bits is not None:
        return mode_bits & 0o777
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _fsync_dir(directory: Path) -> None:
    """Make the rename itself durable; a platform that cannot open directories skips it."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
