"""Seeds: the game's secret, and the one-way seeds bots get from it.

A game's seed decides everything random in it: the priorities, the deck's order, every
reshuffle. Whoever knows it knows every hand, so it stays secret while the game runs (it is
told when the game ends, and kept in the game's record).

Bots need seeded randomness too, so that a game of bots replays exactly. Each bot gets its
own seed, derived one-way from the game's seed, the seat and the bot's kind by a keyed hash
(BLAKE2b keyed with the game's seed): nothing a bot is handed leads back to the game's seed
or the deck. A seed drawn at random has 64 bits, too many to search; a seed a user gives
(``--seed 7``) is theirs, and so is the risk of a small one.
"""

from __future__ import annotations

import hashlib
import secrets

#: Bits of a seed drawn at random.
SEED_BITS = 64


def new_seed() -> int:
    """A fresh game seed from the operating system's randomness: 64 bits, as a signed
    64-bit number (what a TOML record can hold, and what ``--seed`` accepts)."""
    return secrets.randbits(SEED_BITS) - 2 ** (SEED_BITS - 1)


def bot_seed(game_seed: int, seat: int, kind: str) -> int:
    """The seed a bot of ``kind`` at ``seat`` gets in the game seeded ``game_seed``: 64 bits
    of a keyed hash, the same every time (records replay), and no way back to the game's
    seed."""
    # The key is a digest of the seed, so seeds of any size make a key of the allowed length.
    key = hashlib.sha256(f"spoiler-seed:{game_seed}".encode()).digest()
    digest = hashlib.blake2b(
        f"bot:{seat}:{kind}".encode(), key=key, digest_size=SEED_BITS // 8
    ).digest()
    return int.from_bytes(digest, "big")
