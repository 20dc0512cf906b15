"""Seeds: the game's secret, and the one-way seeds bots get from it.

A game's seed decides everything random in it: the priorities, the deck's order, every
reshuffle. Whoever knows it knows every hand, so it stays secret while the game runs (it is
told when the game ends, and kept in the game's record).

Bots need seeded randomness too, so that a game of bots replays exactly. Each bot gets its
own seed, derived one-way from the game's seed, the seat and the bot's kind by a keyed hash
(BLAKE2b keyed with the game's seed): nothing a bot is handed leads back to the game's seed
or the deck. A seed drawn at random has 64 bits, too many to search; a seed a user gives
(``--seed 7``) is theirs, and so is the risk of a small one, unless the bot seeds are also
keyed by a secret of the run the bots never see (``key``: ``play``, ``host``, ``simulate``
and ``ladder`` draw one for every run, and a record keeps it so the game replays).
"""

from __future__ import annotations

import hashlib
import re
import secrets

#: Bits of a seed drawn at random.
SEED_BITS = 64
#: Bits of a key for bot seeds (``new_key``).
KEY_BITS = 128


def new_seed() -> int:
    """A fresh game seed from the operating system's randomness: 64 bits, as a signed
    64-bit number (what a TOML record can hold, and what ``--seed`` accepts)."""
    return secrets.randbits(SEED_BITS) - 2 ** (SEED_BITS - 1)


def new_key() -> str:
    """A fresh secret to key bot seeds with (``bot_seed``): 128 random bits, as hex."""
    return secrets.token_hex(KEY_BITS // 8)


def check_key(key: str) -> str:
    """``key`` if it can key bot seeds (1 to 64 letters, digits, ``-`` or ``_``: it goes on
    command lines and into records), else ValueError saying what a key is."""
    if not re.fullmatch(r"[0-9a-zA-Z_-]{1,64}", key):
        raise ValueError(f"{key!r} is not a bot key: 1 to 64 letters, digits, - or _")
    return key


def bot_seed(game_seed: int, seat: int, kind: str, key: str | None = None) -> int:
    """The seed a bot of ``kind`` at ``seat`` gets in the game seeded ``game_seed``: 64 bits
    of a keyed hash, the same every time (records replay), and no way back to the game's
    seed.

    ``key`` is a secret of the run (``new_key``) that the bot is never given: with it, a bot
    cannot tabulate ``bot_seed`` over likely game seeds (a small ``--seed``, the game seeds a
    simulation derives from it) to find its game's seed, since it would need the key too.
    None: the seed is keyed by the game's seed alone, as before keys (runs made so replay)."""
    # The key is a digest of the seed, so seeds of any size make a key of the allowed length.
    secret = f"spoiler-seed:{game_seed}" if key is None else f"spoiler-seed:{key}:{game_seed}"
    digest = hashlib.blake2b(
        f"bot:{seat}:{kind}".encode(),
        key=hashlib.sha256(secret.encode()).digest(),
        digest_size=SEED_BITS // 8,
    ).digest()
    return int.from_bytes(digest, "big")
