"""Game records: a game saved as TOML, replayed exactly, or resumed where it stopped.

A record holds what a game needs to be played again: the seed, the sets (with their
versions), the players, the options, and every decision, round by round. The game's own RNG
and the bots' streams (``spoiler.agents.bot_rng``) both follow from the seed, so replaying
the recorded decisions replays the game. Each round also stores a digest of the event log
so far, and a finished game its result, so a replay can prove it matches the game as played.

The file carries a checksum of its contents: a truncated or damaged file is refused. To edit
a record by hand on purpose, set ``checksum = "edited"``; every other check still applies.

Everything that is wrong with a record raises ``RecordError`` with one line that names the
field or the round at fault. The format is documented field by field in docs/records.md.
"""

from __future__ import annotations

import hashlib
import json
import threading
import tomllib
import unicodedata
from dataclasses import dataclass, field, replace
from typing import Any

import tomli_w

from spoiler import __version__
from spoiler.model.views import Selection
from spoiler.rules.game import Game, GameError, Seat

#: The newest record format this module reads and writes. A record is written in the oldest
#: format that holds it: format 2 adds the chat (``rounds.chat``) and the seats a bot took over
#: (``players.replaced_in``, ``players.replaced_by``); a record with neither is format 1.
FORMAT = 2
#: The formats this module reads.
FORMATS = (1, 2)
HUMAN = "human"
#: The checksum of a record edited by hand on purpose: it is then read without one.
EDITED = "edited"
#: The most wins a match plays to (``--match N``), and so the most games it holds.
MAX_MATCH_WINS = 10
MAX_MATCH_GAMES = 100
#: The highest round limit a record may have (``spoiler.recordfile.MAX_ROUNDS``).
MAX_ROUNDS = 500
#: The longest thinking time per decision an older record may ask of its bots
#: (``options.think_ms``, which records now keep as the bot option ``think``).
MAX_THINK_MS = 60_000
#: The longest line a record keeps for one fault of a bot (``RoundEntry.faults``).
MAX_FAULT = 500
#: The longest chat line (``RoundEntry.chat``), and the longest name it is said by.
MAX_CHAT_TEXT, MAX_CHAT_BY = 200, 80


class RecordError(GameError):
    """A record that cannot be read, or whose decisions do not replay. The message is one
    line naming the field or round at fault. (A ``GameError``, so that it passes through
    card effects when a recorded answer is missing mid-round.)"""


# ==============================================================================================
# The record
# ==============================================================================================
@dataclass(frozen=True)
class SetEntry:
    name: str
    version: str
    distribution: str
    distribution_version: str


@dataclass(frozen=True)
class PlayerEntry:
    name: str
    kind: str  # "human" or the bot kind
    #: A human's seat a bot took over (a hosted player who left): from which round on, and
    #: the bot's kind. None: the seat's own player played it throughout.
    replaced_in: int | None = None
    replaced_by: str | None = None


@dataclass
class RoundEntry:
    """One round's decisions, and the event log as it stood when the round ended."""

    round: int
    selections: dict[int, dict]  # seat -> {"card": id, "targets": [...], "info": ...}
    answers: list[dict]  # {"seat", "prompt", "answer"}, in the order asked
    events: int  # the length of the event log
    log: str  # digest of the event log
    #: What went wrong with the bots in this round (``spoiler.agents.Fault``), in order:
    #: {"seat", "fault"}, the line the screen showed. Not part of the game: nothing replays it.
    faults: list[dict] = field(default_factory=list)
    #: The chat lines said at the table while the round was played (or before it began):
    #: {"by", "text"}, in order, ``by`` as everyone saw it ("ann", "zed (watching)"). Not
    #: part of the game either.
    chat: list[dict] = field(default_factory=list)

    @property
    def decisions(self) -> dict:
        """In the shape of ``Game.decisions`` entries, for comparison."""
        return {"round": self.round, "selections": self.selections, "answers": self.answers}


@dataclass
class GameEntry:
    """A finished game of a match, kept in its record: its seed, rounds and result."""

    seed: int
    rounds: list[RoundEntry]
    result: dict


@dataclass
class Match:
    """What makes a record a match's: the wins that take it, the match's seed (each game's
    seed follows from it, ``spoiler.match.game_seed``) and the games finished before the
    record's current one."""

    wins: int
    seed: int
    games: list[GameEntry] = field(default_factory=list)


@dataclass
class Record:
    seed: int
    sets: list[SetEntry]
    players: list[PlayerEntry]
    max_rounds: int = 100
    strict: bool = False
    rounds: list[RoundEntry] = field(default_factory=list)
    #: Once over: {"kind", "winners", "round", "events", "log"}.
    result: dict | None = None
    spoiler_game: str = __version__
    #: False when the file was marked as edited by hand (``checksum = "edited"``).
    signed: bool = True
    #: A match's record: the games before this one (the top level is the current game).
    match: Match | None = None
    #: The bots' options (``--bot-option``, ``--think``): names to text. A resumed game's
    #: bots are given them again.
    bot_options: dict[str, str] = field(default_factory=dict)
    #: Seconds a program bot may take over a decision (``--bot-time-limit``); None: the default.
    bot_time_limit: float | None = None
    #: The secret the bots' seeds are keyed by (``spoiler.seeds.bot_seed``), so a resumed
    #: game's bots go on as they would have; None in records made before keys.
    bot_key: str | None = None

    @classmethod
    def of(
        cls,
        game: Game,
        registry,
        bot_options: dict[str, str] | None = None,
        bot_time_limit: float | None = None,
        bot_key: str | None = None,
    ) -> Record:
        """A new, empty record for a game about to be played, with the bots' options, time
        limit and key."""
        sets = []
        for card_set in game.sets:
            info = next((i for i in registry.set_infos if i.name == card_set.name), None)
            plugin = registry.plugins.get(info.plugin) if info is not None else None
            sets.append(
                SetEntry(
                    card_set.name,
                    card_set.version,
                    info.distribution if info else "unknown",
                    plugin.version if plugin else "",
                )
            )
        players = [PlayerEntry(s.name, s.kind) for s in game.seats]
        if game.seed is None:
            raise ValueError("a determinization is never recorded")
        return cls(
            game.seed,
            sets,
            players,
            game.max_rounds,
            game.strict,
            bot_options=dict(bot_options or {}),
            bot_time_limit=bot_time_limit,
            bot_key=bot_key,
        )

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.players]

    @property
    def over(self) -> bool:
        return self.result is not None

    # -- matches -----------------------------------------------------------------------------
    def games(self) -> list[Record]:
        """Every game in the record as a record of its own: the match's finished games, then
        the current one (just this one for a record of a single game)."""
        if self.match is None:
            return [self]
        # Each game keeps the match's sets, players and options (whatever fields those are).
        earlier = [
            replace(self, seed=g.seed, rounds=g.rounds, result=g.result, match=None)
            for g in self.match.games
        ]
        current = replace(self, match=None)
        return [*earlier, current]

    def next_game(self, seed: int) -> None:
        """A match goes on: the current (finished) game joins the match's games, and the
        record's current game is a new one with ``seed``."""
        assert self.match is not None and self.result is not None
        self.match.games.append(GameEntry(self.seed, self.rounds, self.result))
        self.seed, self.rounds, self.result = seed, [], None

    # -- TOML ------------------------------------------------------------------------------
    def format(self) -> int:
        """The oldest format that holds this record."""
        games = self.match.games if self.match is not None else []
        rounds = [*self.rounds, *(r for g in games for r in g.rounds)]
        newer = any(r.chat for r in rounds) or any(p.replaced_in for p in self.players)
        return 2 if newer else 1

    def to_toml(self) -> dict:
        body: dict = {
            "format": self.format(),
            "spoiler_game": self.spoiler_game,
            "seed": self.seed,
            "options": {"max_rounds": self.max_rounds, "strict": self.strict},
        }
        if self.bot_options:
            body["options"]["bot_options"] = dict(self.bot_options)
        if self.bot_time_limit is not None:
            body["options"]["bot_time_limit"] = self.bot_time_limit
        if self.bot_key is not None:
            body["options"]["bot_key"] = self.bot_key
        if self.result is not None:
            body["result"] = dict(self.result)
        body["sets"] = [
            {
                "name": s.name,
                "version": s.version,
                "distribution": s.distribution,
                "distribution_version": s.distribution_version,
            }
            for s in self.sets
        ]
        body["players"] = [_player_to_toml(p) for p in self.players]
        body["rounds"] = [_round_to_toml(r) for r in self.rounds]
        if self.match is not None:
            body["match"] = {
                "wins": self.match.wins,
                "seed": self.match.seed,
                "games": [
                    {
                        "seed": g.seed,
                        "result": dict(g.result),
                        "rounds": [_round_to_toml(r) for r in g.rounds],
                    }
                    for g in self.match.games
                ],
            }
        # The checksum goes first, so that every truncation leaves it in the file.
        return {"checksum": checksum(body), **body}

    def dumps(self) -> str:
        return tomli_w.dumps(self.to_toml())

    def save(self, target) -> None:
        """Write the record atomically (``spoiler.recordfile.replace``): to ``target``, a
        held ``RecordFile`` or a path (a regular file, or none yet)."""
        from spoiler.session import recordfile

        data = self.dumps().encode("utf-8")
        if isinstance(target, recordfile.RecordFile):
            target.write(data)
        else:
            recordfile.replace(target, data)


def _player_to_toml(player: PlayerEntry) -> dict:
    out: dict = {"name": player.name, "kind": player.kind}
    if player.replaced_in is not None:
        out["replaced_in"], out["replaced_by"] = player.replaced_in, player.replaced_by
    return out


def _round_to_toml(entry: RoundEntry) -> dict:
    selections = []
    for seat, sel in sorted(entry.selections.items()):
        item = {"seat": seat, "card": sel["card"], "targets": list(sel["targets"])}
        if sel.get("info") is not None:
            item["info"] = sel["info"]
        selections.append(item)
    out = {"round": entry.round, "events": entry.events, "log": entry.log, "selections": selections}
    if entry.answers:
        out["answers"] = [dict(a) for a in entry.answers]
    if entry.faults:
        out["faults"] = [dict(f) for f in entry.faults]
    if entry.chat:
        out["chat"] = [dict(c) for c in entry.chat]
    return out


def checksum(body: dict) -> str:
    """The digest of a record's contents (everything but the checksum itself)."""
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class LogDigest:
    """A running digest of a game's event log, fed as the log grows."""

    def __init__(self):
        self._hash = hashlib.sha256()
        self.events = 0

    def update(self, log: list) -> str:
        for event in log[self.events :]:
            line = json.dumps(event.as_dict(), sort_keys=True, default=str, ensure_ascii=False)
            self._hash.update(line.encode("utf-8") + b"\n")
        self.events = len(log)
        return self._hash.hexdigest()[:16]


# ==============================================================================================
# Reading and checking
# ==============================================================================================
def load(path) -> Record:
    """Read and check a record file; RecordError says what is wrong, in one line. Only a
    regular file of bounded size is read, and its shape is checked before it is parsed
    (``spoiler.recordfile``), so that no file costs more than about a second."""
    from spoiler.session import recordfile

    try:
        raw = recordfile.read(path)
        text = raw.decode("utf-8")
        recordfile.check_shape(text)
    except recordfile.FileProblem as exc:
        raise RecordError(str(exc)) from None
    except UnicodeDecodeError as exc:
        raise RecordError(f"not a record: byte {exc.start} is not UTF-8 text") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RecordError(f"not a valid TOML file: {exc}") from None
    except (ValueError, RecursionError) as exc:  # a number too long to convert, say
        raise RecordError(f"not a valid TOML file: {str(exc).splitlines()[0]}") from None
    return parse(data)


def parse(data: dict) -> Record:
    """Check a record's data (as read from TOML) field by field."""
    r = _Reader(data, "")
    version = data.get("format")
    if "format" not in data:
        raise RecordError("format: missing (is this a spoiler game record?)")
    if type(version) is not int or version < 1:
        raise RecordError(f"format: {_show(version)} is not a record format version")
    if version > FORMAT:
        raise RecordError(
            f"format: this record uses format {version}, but this spoiler-game "
            f"({__version__}) reads formats up to {FORMAT}; upgrade spoiler-game to read it"
        )
    if version not in FORMATS:
        raise RecordError(
            f"format: format {version} is no longer supported (this spoiler-game "
            f"reads formats {', '.join(map(str, FORMATS))})"
        )
    r.only(
        "format",
        "checksum",
        "spoiler_game",
        "seed",
        "options",
        "result",
        "sets",
        "players",
        "rounds",
        "match",
    )
    spoiler_game = r.get("spoiler_game", str)
    seed = r.get("seed", int)
    options = _Reader(r.get("options", dict), "options.")
    options.only("max_rounds", "strict", "think_ms", "bot_options", "bot_time_limit", "bot_key")
    max_rounds = options.get("max_rounds", int)
    if not 1 <= max_rounds <= MAX_ROUNDS:
        raise RecordError(
            f"options.max_rounds: {max_rounds} is not a round limit (1 to {MAX_ROUNDS})"
        )
    strict = options.get("strict", bool)
    think_ms = options.data.get("think_ms")
    if think_ms is not None and (
        type(think_ms) not in (int, float) or not 0 < think_ms <= MAX_THINK_MS
    ):
        raise RecordError(
            f"options.think_ms: {_show(think_ms)} is not a thinking time "
            f"(more than 0, at most {MAX_THINK_MS} ms)"
        )
    bot_options = _bot_options(options)
    if think_ms is not None:  # an older record's --think: the option think, as now
        from spoiler.agents.options import number

        bot_options.setdefault("think", number(think_ms))
    bot_time_limit = options.data.get("bot_time_limit")
    if bot_time_limit is not None:
        from spoiler.agents.options import OptionError, time_limit

        try:
            bot_time_limit = time_limit(bot_time_limit, "options.bot_time_limit")
        except OptionError as exc:
            raise RecordError(str(exc)) from None
    bot_key = options.get("bot_key", str, None)
    if bot_key is not None:
        from spoiler.model.seeds import check_key

        try:
            check_key(bot_key)
        except ValueError as exc:
            raise RecordError(f"options.bot_key: {exc}") from None

    sets = []
    for i, item in enumerate(r.get("sets", list), 1):
        s = _Reader(item, f"sets[{i}].", dict)
        s.only("name", "version", "distribution", "distribution_version")
        sets.append(
            SetEntry(
                s.get("name", str),
                s.get("version", str),
                s.get("distribution", str),
                s.get("distribution_version", str),
            )
        )
    if not sets:
        raise RecordError("sets: the game has no card set")
    if len({s.name for s in sets}) != len(sets):
        raise RecordError("sets: a set is listed twice")

    players = [_parse_player(item, i, version) for i, item in enumerate(r.get("players", list), 1)]
    if not 2 <= len(players) <= 8:
        raise RecordError(f"players: a game has 2 to 8 players, not {len(players)}")

    listed = r.get("rounds", list)
    if len(listed) > MAX_ROUNDS:
        raise RecordError(f"rounds: {len(listed)} rounds, more than any game has ({MAX_ROUNDS})")
    rounds = [
        _parse_round(item, i, len(players), version=version) for i, item in enumerate(listed, 1)
    ]
    result = None
    if "result" in data:
        result = _parse_result(r.get("result", dict), len(players), len(rounds))
    elif len(rounds) >= max_rounds:
        raise RecordError(
            f"rounds: {len(rounds)} rounds reach the round limit of {max_rounds}, "
            "but the record has no result"
        )
    # Last, so that a field that is wrong in itself is named; this catches the rest (a file
    # cut at the end of a round, a changed number).
    if "checksum" not in data:
        raise RecordError(
            f'checksum: missing (a record edited by hand on purpose says checksum = "{EDITED}")'
        )
    signed = data["checksum"] != EDITED
    if signed and data["checksum"] != checksum({k: v for k, v in data.items() if k != "checksum"}):
        raise RecordError(
            f"checksum: does not match the contents: the file was truncated or "
            f'changed (to accept hand edits, set checksum = "{EDITED}")'
        )
    match = None
    if "match" in data:
        match = _parse_match(r.get("match", dict), len(players), seed, version)
    return Record(
        seed,
        sets,
        players,
        max_rounds,
        strict,
        rounds,
        result,
        spoiler_game,
        signed,
        match,
        bot_options,
        bot_time_limit,
        bot_key,
    )


def _bot_options(options: _Reader) -> dict[str, str]:
    from spoiler.agents.options import OptionError, checked

    given = options.get("bot_options", dict, {})
    try:
        return checked(given, "options.bot_options")
    except OptionError as exc:
        raise RecordError(str(exc)) from None


def _parse_match(item, players: int, seed: int, version: int = FORMAT) -> Match:
    from spoiler.session.match import game_seed

    r = _Reader(item, "match.", dict)
    r.only("wins", "seed", "games")
    wins = r.get("wins", int)
    if wins < 1:
        raise RecordError(f"match.wins: {wins} is not a number of wins (1 or more)")
    if wins > MAX_MATCH_WINS:
        raise RecordError(f"match.wins: {wins} is more than a match plays to ({MAX_MATCH_WINS})")
    match = Match(wins, r.get("seed", int))
    games = r.get("games", list)
    if len(games) > MAX_MATCH_GAMES:
        raise RecordError(f"match.games: {len(games)} games, more than a match has")
    for number, game in enumerate(games, 1):
        g = _Reader(game, f"match.games[{number}].", dict)
        g.only("seed", "result", "rounds")
        where = f"match.games[{number}]"
        if g.get("seed", int) != game_seed(match.seed, number):
            raise RecordError(f"{where}.seed: not the seed of game {number} of this match")
        rounds = [
            _parse_round(item, i, players, f"{where}, ", version)
            for i, item in enumerate(g.get("rounds", list), 1)
        ]
        result = _parse_result(g.get("result", dict), players, len(rounds), f"{where}.")
        match.games.append(GameEntry(game["seed"], rounds, result))
    if seed != game_seed(match.seed, len(match.games) + 1):
        raise RecordError(f"seed: not the seed of game {len(match.games) + 1} of this match")
    return match


class _Reader:
    """Reads typed fields of one TOML table, naming the field in every error."""

    def __init__(self, data, prefix: str, kind: type[Any] = dict):
        if not isinstance(data, kind):
            raise RecordError(f"{prefix.rstrip('.') or 'record'}: expected a table")
        self.data, self.prefix = data, prefix

    def only(self, *names: str) -> None:
        unknown = [k for k in self.data if k not in names]
        if unknown:
            raise RecordError(f"{self.prefix}{unknown[0]}: unknown field")

    def get(self, name: str, kind: type, default=...):
        where = f"{self.prefix}{name}"
        if name not in self.data:
            if default is not ...:
                return default
            raise RecordError(f"{where}: missing")
        value = self.data[name]
        # bool is an int in Python, never in a record.
        if not isinstance(value, kind) or (kind is int and not _whole(value)):
            expected = {
                int: "a whole number",
                str: "a string",
                bool: "true or false",
                list: "a list",
                dict: "a table",
            }[kind]
            raise RecordError(f"{where}: expected {expected}, found {_show(value)}")
        return value


def _show(value) -> str:
    """A value from the file, for an error message: its repr, cut short."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _whole(value) -> bool:
    """An integer a record may hold: 64 bits, signed or not (a seed has 64 random bits).
    (bool is an int in Python, never here.)"""
    return type(value) is int and -(2**63) <= value < 2**64


def _seat(value, where: str, players: int) -> int:
    if type(value) is not int or not 0 <= value < players:
        raise RecordError(f"{where}: {_show(value)} is not a seat (0 to {players - 1})")
    return value


def _parse_player(item, i: int, version: int) -> PlayerEntry:
    p = _Reader(item, f"players[{i}].", dict)
    p.only("name", "kind", *(("replaced_in", "replaced_by") if version >= 2 else ()))
    name, kind = p.get("name", str), p.get("kind", str)
    if not name.strip() or not kind.strip():
        raise RecordError(f"players[{i}]: a player needs a name and a kind")
    if "replaced_in" not in item and "replaced_by" not in item:
        return PlayerEntry(name, kind)
    since, by = p.get("replaced_in", int), p.get("replaced_by", str)
    if kind != HUMAN or not 1 <= since <= MAX_ROUNDS or not by.strip():
        raise RecordError(
            f"players[{i}]: replaced_in and replaced_by name the round (1 to {MAX_ROUNDS}) "
            "from which a bot, of a kind, played a human's seat"
        )
    return PlayerEntry(name, kind, since, by)


def _one_line(text: str, limit: int) -> bool:
    """Is ``text`` one line of at most ``limit`` characters that draws nothing but itself
    (no escape sequence, control or format character)?"""
    return len(text) <= limit and not any(
        unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") for ch in text
    )


def _parse_round(
    item, number: int, players: int, game: str = "", version: int = FORMAT
) -> RoundEntry:
    where = f"{game}round {number}"
    r = _Reader(item, f"{where}: ", dict)
    fields = ["round", "events", "log", "selections", "answers", "faults"]
    r.only(*fields, *(["chat"] if version >= 2 else []))
    if r.get("round", int) != number:
        raise RecordError(
            f"{where}: numbered {_show(item['round'])}, but rounds must be numbered 1, 2, 3 … in order"
        )
    selections: dict[int, dict] = {}
    for i, sel in enumerate(r.get("selections", list), 1):
        s = _Reader(sel, f"{where}, selection {i}: ", dict)
        s.only("seat", "card", "targets", "info")
        seat = _seat(s.get("seat", int), f"{where}, selection {i}: seat", players)
        if seat in selections:
            raise RecordError(f"{where}: seat {seat} selects twice")
        targets = s.get("targets", list)
        for target in targets:
            _seat(target, f"{where}, selection {i}: targets", players)
        info = sel.get("info")
        if info is not None and not (type(info) is str or _whole(info)):
            raise RecordError(
                f"{where}, selection {i}: info: expected a name or a number, found {_show(info)}"
            )
        selections[seat] = {"card": s.get("card", str), "targets": list(targets), "info": info}
    answers = []
    for i, ans in enumerate(r.get("answers", list, []), 1):
        a = _Reader(ans, f"{where}, answer {i}: ", dict)
        a.only("seat", "prompt", "answer")
        answers.append(
            {
                "seat": _seat(a.get("seat", int), f"{where}, answer {i}: seat", players),
                "prompt": a.get("prompt", str),
                "answer": a.get("answer", str),
            }
        )
    faults = []
    for i, item in enumerate(r.get("faults", list, []), 1):
        f = _Reader(item, f"{where}, fault {i}: ", dict)
        f.only("seat", "fault")
        seat = _seat(f.get("seat", int), f"{where}, fault {i}: seat", players)
        text = f.get("fault", str)
        if len(text) > MAX_FAULT or "\n" in text:
            raise RecordError(f"{where}, fault {i}: fault: not one line of at most {MAX_FAULT}")
        faults.append({"seat": seat, "fault": text})
    chat = []
    for i, item in enumerate(r.get("chat", list, []), 1):
        c = _Reader(item, f"{where}, chat {i}: ", dict)
        c.only("by", "text")
        by, text = c.get("by", str), c.get("text", str)
        if not by.strip() or not _one_line(by, MAX_CHAT_BY) or not _one_line(text, MAX_CHAT_TEXT):
            raise RecordError(
                f"{where}, chat {i}: not a name (at most {MAX_CHAT_BY}) and one line of at most "
                f"{MAX_CHAT_TEXT} printable characters"
            )
        chat.append({"by": by, "text": text})
    events = r.get("events", int)
    return RoundEntry(number, selections, answers, events, r.get("log", str), faults, chat)


def _parse_result(item, players: int, rounds: int, prefix: str = "") -> dict:
    r = _Reader(item, f"{prefix}result.", dict)
    r.only("kind", "winners", "round", "events", "log")
    kind = r.get("kind", str)
    if kind not in ("win", "default", "all_lost", "draw"):
        raise RecordError(
            f"{prefix}result.kind: {_show(kind)} is not one of win, default, all_lost, draw"
        )
    winners = [_seat(w, f"{prefix}result.winners", players) for w in r.get("winners", list)]
    number = r.get("round", int)
    if number != rounds:
        raise RecordError(
            f"{prefix}result.round: the game ended in round {number}, but the record "
            f"holds {rounds} rounds (truncated?)"
        )
    return {
        "kind": kind,
        "winners": winners,
        "round": number,
        "events": r.get("events", int),
        "log": r.get("log", str),
    }


def check_installed(record: Record, registry) -> dict:
    """The recorded sets, as installed: name -> CardSet. RecordError names every set that is
    missing, unusable, from another distribution or at another version, with the command
    that installs the right one. (A set of the same name from another distribution is
    another set: it is never replayed in the recorded one's place.)"""
    from spoiler.installer import install_hint
    from spoiler.plugins import normalise

    problems = []
    for entry in record.sets:
        named = [i for i in registry.set_infos if i.name == entry.name]
        info = next((i for i in named if i.status == "ok"), named[0] if named else None)
        wanted = install_hint(f"{entry.distribution}=={entry.distribution_version}")
        if info is None:
            problems.append(f"set {entry.name!r} {entry.version} is not installed ({wanted})")
        elif info.status != "ok":
            problems.append(f"set {entry.name!r} is {info.status}: {info.error}")
        elif normalise(info.distribution) != normalise(entry.distribution):
            problems.append(
                f"set {entry.name!r} came from distribution {entry.distribution!r} in this "
                f"game, but {info.distribution!r} provides it here ({wanted})"
            )
        elif info.version != entry.version:
            problems.append(
                f"set {entry.name!r} was {entry.version} in this game, but "
                f"{info.version} is installed ({wanted})"
            )
    if problems:
        raise RecordError("sets: " + "; ".join(problems))
    sets = registry.sets
    cards = {c.id for entry in record.sets for c in sets[entry.name].cards}
    for played in record.rounds:
        for seat, sel in played.selections.items():
            if sel["card"] not in cards:
                raise RecordError(
                    f"round {played.round}: {record.names[seat]} selects "
                    f"{_show(sel['card'])}, which is not a card of this game's sets"
                )
    return {entry.name: sets[entry.name] for entry in record.sets}


# ==============================================================================================
# Replaying
# ==============================================================================================
class RecordedAgent:
    """Plays a seat's recorded decisions; after the last recorded round, hands over to
    ``live`` (the human or bot who goes on playing, when a game is resumed).

    A recorded decision that the replay refuses, or one the record lacks, is a RecordError
    naming the round. With ``shadow``, the live agent is asked too, and its answer ignored:
    a bot then sees every decision it saw in the original game, so its own random stream is
    where it was, and a resumed game goes on as if it had never stopped.
    """

    def __init__(
        self,
        name: str,
        decisions: list[dict],
        seat: int,
        live=None,
        shadow: bool = False,
        faults: list | None = None,
    ):
        """``decisions``: the rounds' decisions in the shape of ``Game.decisions``;
        ``faults``: the seat's recorded faults (``spoiler.agents.Fault``), told again by a
        screen that replays the game."""
        self.name = name
        self.recorded_faults = list(faults or [])
        self.recorded = len(decisions)
        self.selections = {
            r["round"]: Selection(s["card"], tuple(s["targets"]), s["info"])
            for r in decisions
            for st, s in r["selections"].items()
            if st == seat
        }
        self.answers = {
            r["round"]: [a["answer"] for a in r["answers"] if a["seat"] == seat] for r in decisions
        }
        self.live = live
        self.shadow = shadow and live is not None
        #: A live bot that searches is handed the searcher even while it shadows the record.
        self.searches = getattr(live, "searches", False)

    @property
    def faults(self) -> list:
        """The recorded faults, then the live bot's (``spoiler.agents.Fault``)."""
        return self.recorded_faults + list(getattr(self.live, "faults", None) or [])

    def close(self, result=None) -> None:
        """The game is over or stopped: the live agent is told so (a bot ends its workers)."""
        if self.live is not None:
            from spoiler.agents import close_agent

            close_agent(self.live, result)

    def _past_the_record(self, view) -> bool:
        if view.round <= self.recorded:
            return False
        if self.live is None:
            raise RecordError(f"round {view.round}: the record stops after round {self.recorded}")
        return True

    def select(self, view):
        if self._past_the_record(view):
            return self.live.select(view)
        if view.error is not None:
            raise RecordError(
                f"round {view.round}: the recorded selection of {self.name} is illegal: {view.error}"
            )
        if view.round not in self.selections:
            raise RecordError(
                f"round {view.round}: the record holds no selection for "
                f"{self.name}, who must select"
            )
        if self.shadow:
            self.live.select(view)
        return self.selections.pop(view.round)

    def answer(self, view, question):
        if self._past_the_record(view):
            return self.live.answer(view, question)
        if view.error is not None:
            raise RecordError(
                f"round {view.round}: the recorded answer of {self.name} is illegal: {view.error}"
            )
        queued = self.answers.get(view.round)
        if not queued:
            raise RecordError(
                f"round {view.round}: the record holds no answer for "
                f"{self.name} to {question.prompt!r}"
            )
        if self.shadow:
            self.live.answer(view, question)
        return queued.pop(0)


def build_game(record: Record, registry, live: list | None = None) -> Game:
    """A new game with the record's seed, sets, players and options, whose agents play the
    recorded decisions (then hand over to ``live[seat]``, when given)."""
    from spoiler.agents import Fault

    sets = check_installed(record, registry)
    seats = []
    for seat, player in enumerate(record.players):
        then = live[seat] if live is not None else None
        faults = [
            Fault(r.round, seat, f["fault"])
            for r in record.rounds
            for f in r.faults
            if f["seat"] == seat
        ]
        agent = RecordedAgent(
            player.name,
            [r.decisions for r in record.rounds],
            seat,
            then,
            shadow=player.kind != HUMAN,
            faults=faults,
        )
        seats.append(Seat(player.name, agent, player.kind))
    try:
        return Game(
            list(sets.values()),
            seats,
            record.seed,
            max_rounds=record.max_rounds,
            hooks=registry.game_hooks(list(sets)),
            strict=record.strict,
        )
    except GameError as exc:
        raise RecordError(f"players: {exc}") from None


class Recorder:
    """Keeps a record in step with a game, round by round.

    Call ``round_played(game)`` after each round. For a round the record already holds, it
    checks that the game made the same decisions and returns a description of any
    difference in the event log (None when it matches); for a new round it adds it to the
    record, and saves the record to ``path`` when there is one.
    """

    def __init__(self, record: Record, path=None):
        self.record = record
        self.path = path
        self.digest = LogDigest()
        self._faults: dict[int, int] = {}  # faults taken from each seat's agent
        self._chat: list[dict] = []  # said since the last round was recorded
        self._lock = threading.Lock()  # (chat comes from the host's loop, rounds from the game)

    def chat(self, by: str, text: str) -> None:
        """A chat line said at the table now: kept with the round being played."""
        with self._lock:
            self._chat.append({"by": by[:MAX_CHAT_BY], "text": text[:MAX_CHAT_TEXT]})

    def replaced(self, seat: int, since: int, kind: str) -> None:
        """A bot of ``kind`` plays ``seat`` from round ``since`` on (saved with the next
        round)."""
        with self._lock:
            player = self.record.players[seat]
            self.record.players[seat] = replace(player, replaced_in=since, replaced_by=kind)

    def round_played(self, game: Game) -> str | None:
        record, number = self.record, game.round
        log = game.state.log
        digest = self.digest.update(log)
        made = game.decisions[number - 1]
        from spoiler.agents import new_faults

        faults = [
            {"seat": f.seat, "fault": f.text[:MAX_FAULT]} for f in new_faults(game, self._faults)
        ]
        if number <= len(record.rounds):  # (a recorded round played again keeps its faults)
            entry = record.rounds[number - 1]
            if _normal(made) != _normal(entry.decisions):
                raise RecordError(
                    f"round {number}: the replay made other decisions than the record holds"
                )
            if (entry.events, entry.log) != (len(log), digest):
                return f"round {number}: the event log differs from the record"
            if game.over and not (number == len(record.rounds) and record.over):
                return f"round {number}: the game ended here in the replay, but the record goes on"
            if game.over and record.result != _result(game, digest):
                return f"round {number}: the result differs from the record"
            return None
        with self._lock:
            chat, self._chat = self._chat, []
        record.rounds.append(
            RoundEntry(number, made["selections"], made["answers"], len(log), digest, faults, chat)
        )
        if game.over:
            record.result = _result(game, digest)
        if self.path is not None:
            record.save(self.path)
        return None


def _result(game: Game, digest: str) -> dict:
    result = game.result
    assert result is not None  # only finished games are summed up
    return {
        "kind": result.kind,
        "winners": list(result.winners),
        "round": result.round,
        "events": len(game.state.log),
        "log": digest,
    }


def _normal(decisions: dict) -> dict:
    """Decisions in a comparable form (tuples as lists, no empty info)."""
    return {
        "selections": {
            seat: {"card": s["card"], "targets": list(s["targets"]), "info": s.get("info")}
            for seat, s in decisions["selections"].items()
        },
        "answers": [dict(a) for a in decisions["answers"]],
    }


def replay(record: Record, registry) -> tuple[Game, Recorder, str | None]:
    """Replay every recorded round. Returns the game, its Recorder, and the first
    difference from the record (None when the replay matches it)."""
    game = build_game(record, registry)
    recorder = Recorder(record)
    first = None
    for _ in record.rounds:
        if game.over:
            break
        game.play_round()
        first = first or recorder.round_played(game)
    return game, recorder, first or ending_difference(record, game)


def ending_difference(record: Record, game: Game) -> str | None:
    """After the recorded rounds: does the game end where the record says it did?"""
    if record.over and not game.over:
        return f"round {game.round}: the record says the game ended, but the replay goes on"
    return None
