"""Real records and a seeded mutator that corrupts them, shared by the fuzz tests
(tests/test_record_fuzz.py, a few hundred records) and benchmarks/hostile_records.py (thousands).
"""

from __future__ import annotations

import random

from spoiler import records
from spoiler.engine import Game, Seat

#: What a hostile file may splice in: deep brackets, long dotted keys, huge numbers, control
#: characters, bytes that are not UTF-8, TOML that fights the format.
HOSTILE = [
    b"[" * 1000 + b"]" * 1000,
    b"{a=" * 300 + b"1" + b"}" * 300,
    b"a" + b".a" * 12_000 + b" = 1",
    b"seed = " + b"9" * 4400,
    b"9" * 30,
    b"-9223372036854775809",
    b"1e400",
    b"nan",
    b'"\\uD800"',
    b"\x00",
    b"\xff\xfe",
    b"\r\n",
    b'"""',
    b"[[rounds]]\nround = 1\n",
    b"[[players]]\nname = 'x'\nkind = 'human'\n",
    b"[options]\nmax_rounds = 1000000\n",
    b'checksum = "edited"\n',
    b"x = 1\n" * 2000,
    b"[[rounds]]\n" * 500,
    b"targets = [" + b"0," * 5000 + b"]",
]


def real_records(registry, seeds: range) -> list[bytes]:
    """Records of bots games, finished and stopped part-way, with every usable set mixed into
    the base set (so every shipped set's cards, questions and answers appear)."""
    out = []
    names = sorted(registry.sets)
    for seed in seeds:
        chosen = sorted({"base", names[seed % len(names)]} & set(names))
        kind = "greedy" if seed % 2 and "greedy" in registry.agents else "random"
        players = 2 + seed % 7
        seats = [Seat(f"Bot{i}", registry.agent(kind, i, seed), kind) for i in range(players)]
        game = Game(
            registry.card_sets(chosen),
            seats,
            seed,
            max_rounds=100,
            hooks=registry.game_hooks(chosen),
            strict=seed % 5 == 0,
        )
        recorder = records.Recorder(records.Record.of(game, registry))
        stop_at = None if seed % 3 else 1 + seed % 4
        while not game.over and (stop_at is None or game.round < stop_at):
            game.play_round()
            recorder.round_played(game)
        out.append(recorder.record.dumps().encode("utf-8"))
    return out


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One to three random corruptions of ``data``."""
    for _ in range(rng.randint(1, 3)):
        data = rng.choice(MUTATIONS)(bytearray(data), rng)
    return bytes(data)


def _at(data, rng) -> int:
    return rng.randrange(len(data) + 1)


def _flip(data, rng):
    if data:
        i = rng.randrange(len(data))
        data[i] ^= 1 << rng.randrange(8)
    return data


def _byte(data, rng):
    if data:
        data[rng.randrange(len(data))] = rng.randrange(256)
    return data


def _truncate(data, rng):
    return data[: _at(data, rng)]


def _delete(data, rng):
    i = _at(data, rng)
    return data[:i] + data[i + rng.randint(1, 200) :]


def _duplicate(data, rng):
    i = _at(data, rng)
    j = min(len(data), i + rng.randint(1, 400))
    return data[:j] + data[i:j] * rng.randint(1, 50) + data[j:]


def _splice(data, rng):
    i = _at(data, rng)
    return data[:i] + rng.choice(HOSTILE) + data[i:]


def _swap_lines(data, rng):
    lines = bytes(data).split(b"\n")
    if len(lines) > 2:
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    return bytearray(b"\n".join(lines))


def _number(data, rng):
    """A number in the file becomes another: 0, negative, huge, or a neighbour."""
    digits = [i for i, b in enumerate(data) if 48 <= b <= 57]
    if not digits:
        return data
    i = rng.choice(digits)
    new = rng.choice([b"0", b"-1", b"7", b"99", b"18446744073709551616", b"9" * 400])
    return data[:i] + new + data[i + 1 :]


def _resign(data, rng):
    """Mark the record as edited by hand, so that the checks past the checksum are reached."""
    text = bytes(data)
    start = text.find(b'checksum = "')
    if start < 0:
        return data
    end = text.find(b'"', start + 12)
    return bytearray(text[: start + 12] + b"edited" + text[end:])


MUTATIONS = [
    _flip,
    _byte,
    _truncate,
    _delete,
    _duplicate,
    _splice,
    _swap_lines,
    _number,
    _resign,
    _resign,
]
