"""What a hosted game lets in from the outside: players' names, the lines they type, the join
code that lets them in, and the server's own key.

Everything here is plain Python (no asyncssh), so it is tested on its own.
"""

from __future__ import annotations

import hmac
import os
import re
import secrets
import stat
import unicodedata
from pathlib import Path

#: The longest name a player may take (longer ones are cut).
MAX_NAME = 20
#: The longest answer line kept; anything longer is refused whole.
MAX_LINE = 200

# Terminal escape sequences: CSI (ESC [ ... final), OSC (ESC ] ... BEL or ESC \), DCS, SOS,
# PM and APC strings (ESC P/X/^/_ ... ESC \), then any other two-character escape.
_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]?"
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"
    r"|\x9b[0-?]*[ -/]*[@-~]?"
    r"|\x1b.?",
    re.DOTALL,
)


def printable(text: str) -> str:
    """``text`` without terminal escape sequences or control/format characters, with every
    run of whitespace made one space."""
    text = _ESCAPES.sub("", text)
    kept = "".join(
        " " if ch.isspace() else ch
        for ch in text
        if ch.isspace() or unicodedata.category(ch)[0] != "C"
    )
    return " ".join(kept.split())


class BadName(ValueError):
    """A name a player cannot take (the message says why, to the player)."""


def clean_name(raw: str) -> str:
    """The name a joining player is given for the username they sent: printable, at most
    ``MAX_NAME`` characters. Raises ``BadName`` for one that cannot be a name."""
    from spoiler.console.human import is_command

    name = printable(raw)[:MAX_NAME].strip()
    if not name:
        raise BadName("a name needs letters: join as NAME@host, e.g. ssh alice@host")
    if name.isdigit():
        # Target prompts take a player's number or name; a name that is a number is both.
        raise BadName(f"{name!r} is a number; choose a name with letters")
    if is_command(name):
        # Typed at a target prompt it would run the command (q: leave) instead of naming them.
        raise BadName(f"{name!r} is a command at the game's prompts; choose another name")
    return name


# Letters of other scripts drawn like Latin ones (upper case first: case folding would lose
# that Cyrillic capital ve reads as B), then shapes that read alike in most fonts.
_LOOKALIKE_CASED = str.maketrans(
    "АВЕКМНОРСТХУІЈЅԚԜΑΒΕΖΗΙΚΜΝΟΡΤΥΧаеорсухіјѕԁԛԝһӏкмтαορνικυχϲıɑɡ",
    "ABEKMHOPCTXYIJSQWABEZHIKMNOPTYXaeopcyxijsdqwhlkmtaopvikuxciag",
)
_LOOKALIKE = str.maketrans("l10|5", "iiois")


def name_key(name: str) -> str:
    """What player names are compared by: two names with the same key read alike, so the
    second is refused. Compatibility forms (NFKC: fullwidth, ligatures, styled letters),
    case, accents, letters of other scripts drawn like Latin ones, digits that read as
    letters, and everything but letters and digits do not count."""
    text = unicodedata.normalize("NFKC", name).translate(_LOOKALIKE_CASED).casefold()
    text = "".join(
        ch for ch in unicodedata.normalize("NFD", text) if unicodedata.category(ch)[0] in "LN"
    )
    return text.translate(_LOOKALIKE).replace("rn", "m").replace("vv", "w")


def clean_line(raw: str) -> str | None:
    """An answer line as the game reads it, or None for one that is too long to be an
    answer (it is refused whole, never cut into something the player did not mean)."""
    if len(raw) > MAX_LINE:
        return None
    return printable(raw)


# -- the join code ------------------------------------------------------------------------------
#: Crockford's base32: digits and letters without I, L, O and U, easy to read aloud and type.
_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"
_READS_AS = str.maketrans({"o": "0", "i": "1", "l": "1"})
CODE_GROUPS, GROUP_SIZE = 3, 4  # 12 characters of 5 bits: 60 bits


def join_code() -> str:
    """A new random join code, e.g. ``k7dq-m2xa-p9rt`` (60 bits)."""
    chars = [secrets.choice(_ALPHABET) for _ in range(CODE_GROUPS * GROUP_SIZE)]
    return "-".join("".join(chars[i : i + GROUP_SIZE]) for i in range(0, len(chars), GROUP_SIZE))


def seat_key() -> str:
    """A new random seat key, e.g. ``4f9k-x2mq`` (40 bits): handed to a player at first
    join, and asked for when someone takes their seat back."""
    chars = [secrets.choice(_ALPHABET) for _ in range(2 * GROUP_SIZE)]
    return "".join(chars[:GROUP_SIZE]) + "-" + "".join(chars[GROUP_SIZE:])


def normal_code(code: str) -> str:
    """A code as typed, made comparable: case, spaces and dashes do not matter, and the
    letters o, i and l read as the digits they look like."""
    return "".join(code.lower().split()).replace("-", "").translate(_READS_AS)


def code_matches(typed: str, code: str) -> bool:
    """Does what a player typed match the join code? (In constant time.)"""
    return hmac.compare_digest(normal_code(typed).encode(), normal_code(code).encode())


# -- the host key -------------------------------------------------------------------------------
#: Where the host key lives when ``SPOILER_HOST_KEY`` does not say.
KEY_NAME = "host_key_ed25519"


class BadKey(OSError):
    """A host key that cannot be used (the message says why)."""


def key_path() -> Path:
    """The host key file: ``$SPOILER_HOST_KEY``, or ``host_key_ed25519`` in the app's own
    directory (``typer.get_app_dir("spoiler")``)."""
    override = os.environ.get("SPOILER_HOST_KEY")
    if override:
        return Path(override)
    import typer

    return Path(typer.get_app_dir("spoiler")) / KEY_NAME


#: A key file larger than this is not a key (and is not read whole).
MAX_KEY_FILE = 1 << 16


def load_or_make_key(path: Path):
    """The server's host key (ed25519, made on first use with file mode 0600, directory
    0700; a key of another kind the host put there is used as it is). A key file that
    others may read is refused: it is the server's identity. So is anything but a regular
    file: opened without waiting, so a FIFO there is one error, not a host that hangs."""
    import asyncssh

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except FileNotFoundError:
        fd = None
    if fd is not None:
        with os.fdopen(fd, "rb") as held:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise BadKey(f"{path} is not a regular file; move it away to make a new key")
            mode = stat.S_IMODE(info.st_mode)
            if mode & 0o077:
                raise BadKey(
                    f"{path} can be read by other users (mode {mode:o}); "
                    f"make it private with: chmod 600 {path}"
                )
            data = held.read(MAX_KEY_FILE + 1)
        try:
            if len(data) > MAX_KEY_FILE:
                raise ValueError("the file is too large")
            return asyncssh.import_private_key(data)
        except (asyncssh.KeyImportError, ValueError) as exc:
            raise BadKey(
                f"{path} is not a private key ({exc}); move it away to make a new one"
            ) from None
    key = asyncssh.generate_private_key("ssh-ed25519", comment="spoiler host")
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(key.export_private_key())
    return key
