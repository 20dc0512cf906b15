"""Game records (issue 5): a game saved as TOML replays exactly, resumes where it stopped, and
a record that is bad in any way is refused with one line, exit code 2, and left untouched.

Most games here are bots-only games with the built-in sets (``SPOILER_PLUGINS=""``), so the
tests do not depend on which expansions happen to be installed.
"""

from __future__ import annotations

import io
import os
import random
import re
import sys
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

from spoiler import __version__, plugins, records
from spoiler.cli import app, common
from spoiler.cli.records import save_stopped
from spoiler.cli.screen import Screen
from spoiler.engine import Game, Seat
from spoiler.installer import install_hint
from spoiler.session.recording import play_command

BUILTINS_ONLY = {"SPOILER_PLUGINS": ""}


@pytest.fixture(scope="module")
def registry():
    return plugins.load(environ=BUILTINS_ONLY)


@pytest.fixture(autouse=True)
def same_plugins_for_the_cli(monkeypatch, registry):
    """The CLI loads plugins once per command; these tests give it the built-ins, loaded once."""
    monkeypatch.setattr(common, "load_registry", lambda: registry)


def bots_game(
    registry,
    seed: int,
    kind: str = "random",
    players: int = 4,
    max_rounds: int = 100,
    names=None,
    key: str | None = None,
) -> Game:
    names = names or [f"Bot{i}" for i in range(players)]
    seats = [
        Seat(name, registry.agent(kind, i, seed, key=key), kind) for i, name in enumerate(names)
    ]
    sets = registry.card_sets(None)
    return Game(
        sets, seats, seed, max_rounds=max_rounds, hooks=registry.game_hooks([s.name for s in sets])
    )


def play_recorded(
    registry, game: Game, rounds: int | None = None, path=None, key: str | None = None
) -> records.Record:
    """Play ``rounds`` rounds (all, when None), recording each (``key``: the bots' key)."""
    recorder = records.Recorder(records.Record.of(game, registry, bot_key=key), path)
    while not game.over and (rounds is None or game.round < rounds):
        game.play_round()
        recorder.round_played(game)
    return recorder.record


def reread(record: records.Record) -> records.Record:
    """The record as written to a file and read back."""
    return records.parse(tomllib.loads(record.dumps()))


def log_of(game: Game) -> list[dict]:
    return [e.as_dict() for e in game.state.log]


def cli(*args, input=None):
    return CliRunner().invoke(app, list(map(str, args)), input=input, env=BUILTINS_ONLY)


def assert_refused(result, *fragments: str) -> None:
    """A bad file: exit 2, one line on stderr naming what is wrong, no traceback."""
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    assert isinstance(result.exception, SystemExit), result.exception  # not a crash
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def snapshot(path: Path) -> tuple[bytes, int]:
    return path.read_bytes(), path.stat().st_mtime_ns


# ==============================================================================================
# The format
# ==============================================================================================
def test_a_record_holds_the_seed_sets_players_options_decisions_and_result(registry):
    """Issue 5: "a format version, the spoiler-game version, every set in the game with its
    version and distribution, the seed, the players (names, human or bot kind), the options,
    each round's selections (card id, targets, information) and answers … and, once over,
    the result"."""
    game = bots_game(registry, seed=3, kind="greedy")
    data = tomllib.loads(play_recorded(registry, game).dumps())
    assert data["format"] == 1  # (no chat, no seat a bot took over: the oldest format)
    assert data["spoiler_game"] == __version__
    assert data["seed"] == 3
    assert data["options"] == {"max_rounds": 100, "strict": False}
    assert {
        "name": "base",
        "version": "1.0.0",
        "distribution": "spoiler-game",
        "distribution_version": __version__,
    } in data["sets"]
    assert data["players"] == [{"name": f"Bot{i}", "kind": "greedy"} for i in range(4)]
    assert [r["round"] for r in data["rounds"]] == list(range(1, game.round + 1))
    first = data["rounds"][0]["selections"][0]
    assert first["card"] in game.cards_by_id and isinstance(first["targets"], list)
    assert data["result"]["kind"] == game.result.kind
    assert data["result"]["winners"] == list(game.result.winners)
    assert data["result"]["events"] == len(game.state.log)


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    seed=st.integers(0, 2**32),
    kind=st.sampled_from(["random", "greedy"]),
    players=st.integers(2, 8),
    max_rounds=st.sampled_from([3, 10, 100]),
)
def test_any_recorded_bots_game_replays_to_the_same_event_log_and_result(
    registry, seed, kind, players, max_rounds
):
    """Issue 5: "any seeded bots game, recorded, replays to the same event log and result"."""
    game = bots_game(registry, seed, kind, players, max_rounds)
    record = reread(play_recorded(registry, game))
    again, _, difference = records.replay(record, registry)
    assert difference is None
    assert log_of(again) == log_of(game)
    assert again.result == game.result


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    seed=st.integers(0, 2**32),
    kind=st.sampled_from(["random", "greedy"]),
    players=st.integers(2, 6),
    data=st.data(),
)
def test_a_game_saved_at_round_k_and_resumed_is_the_game_played_straight_through(
    registry, seed, kind, players, data
):
    """Issue 5: "a game saved at round k and resumed gives the same game as one played
    straight through". The bots go on as they would have: each one saw every recorded
    decision again while the record replayed, so its own random stream is where it was."""
    straight = bots_game(registry, seed, kind, players)
    whole = play_recorded(registry, straight)
    k = data.draw(st.integers(0, straight.round - 1), label="saved after round")

    saved = reread(play_recorded(registry, bots_game(registry, seed, kind, players), rounds=k))
    live = [registry.agent(kind, seat, seed) for seat in range(players)]
    resumed = records.build_game(saved, registry, live)
    recorder = records.Recorder(saved)
    while not resumed.over:
        resumed.play_round()
        assert recorder.round_played(resumed) is None
    assert log_of(resumed) == log_of(straight)
    assert resumed.result == straight.result
    assert saved.dumps() == whole.dumps()


def test_a_record_is_written_through_a_temporary_file_renamed_over_it(
    registry, tmp_path, monkeypatch
):
    """Issue 5: the record is rewritten "by writing a temporary file and renaming it over the
    old one", so a crash "never leaves a half-written file"."""
    path = tmp_path / "game.toml"
    game = bots_game(registry, seed=5)
    record = play_recorded(registry, game, rounds=2, path=path)
    before = path.read_bytes()
    game.play_round()
    record.rounds.append(records.RoundEntry(3, {}, [], 0, "x"))

    from spoiler import recordfile

    real_write = os.write

    def half_write(fd, data):
        """Writes half of what it is given, then the disk is 'full'."""
        if len(data) > 1:
            real_write(fd, bytes(data[: len(data) // 2]))
            raise OSError(28, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(recordfile.os, "write", half_write)
    with pytest.raises(OSError):
        record.save(path)
    monkeypatch.setattr(recordfile.os, "write", real_write)
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["game.toml"]  # no temporary file left behind

    monkeypatch.setattr(records.tomli_w, "dumps", lambda data: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        record.save(path)
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["game.toml"]


def test_a_rewritten_record_keeps_its_permissions(registry, tmp_path):
    """The temporary file is private while written; the record keeps the permissions it had
    (or the usual ones, when new)."""
    path = tmp_path / "game.toml"
    game = bots_game(registry, seed=5)
    record = play_recorded(registry, game, rounds=1, path=path)
    umask = os.umask(0)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask
    path.chmod(0o640)
    record.save(path)
    assert path.stat().st_mode & 0o777 == 0o640


# ==============================================================================================
# The command line: play --record, replay, resume
# ==============================================================================================
def test_play_record_then_replay_ends_with_the_same_lines(tmp_path):
    """Issue 5: "The last lines of a replay match the last lines of the game as played"."""
    path = tmp_path / "game.toml"
    played = cli("play", "--bots", 4, "--seed", 21, "--record", path)
    assert played.exit_code == 0, played.stderr
    replayed = cli("replay", path)
    assert replayed.exit_code == 0, replayed.stderr
    tail = played.stdout.splitlines()[-20:]
    assert replayed.stdout.splitlines()[-20:] == tail
    assert "won" in tail[-2] or "lost" in tail[-2] or "Draw" in tail[-2]
    assert tail[-1].startswith("Seed: 21. Play it again: spoiler play --seed 21 --sets ")


def test_replay_verify_says_the_record_matches(tmp_path, registry):
    """Issue 5: "`--verify` only checks that the replayed result and event log match the
    record and says so"."""
    path = tmp_path / "game.toml"
    game = bots_game(registry, seed=8, kind="greedy")
    play_recorded(registry, game).save(path)
    result = cli("replay", "--verify", path)
    assert result.exit_code == 0, result.stderr
    names = [p.name for p in game.state.players]
    assert result.stdout.strip() == (
        f"{path}: OK: {game.round} rounds, {len(game.state.log)} events and the result match "
        f"the record (result: {game.result.describe(names)})"
    )


def test_an_unfinished_record_replays_up_to_where_it_stops(tmp_path, registry):
    """A record of a stopped game replays its whole rounds and says how to go on."""
    path = tmp_path / "game.toml"
    game = bots_game(registry, seed=8, kind="greedy")
    play_recorded(registry, game, rounds=2).save(path)
    replayed = cli("replay", path)
    assert replayed.exit_code == 0
    assert replayed.stdout.splitlines()[-1] == (
        f"The record stops after round 2; the game is not over. Continue it with: "
        f"spoiler resume {path}"
    )
    verified = cli("replay", "--verify", path)
    assert verified.exit_code == 0
    assert verified.stdout.strip() == (
        f"{path}: OK: 2 rounds, {len(game.state.log)} events match the record (the game is "
        f"not over; continue it with: spoiler resume {path})"
    )


def test_replay_verify_exits_1_when_the_replay_differs(tmp_path, registry):
    """Issue 5: "--verify … (exit 1 when not)": here the record's event log for round 2 is
    not the one this installation produces (as after an upgrade that changed a card)."""
    path = tmp_path / "game.toml"
    record = play_recorded(registry, bots_game(registry, seed=8, kind="greedy"))
    record.rounds[1].log = "0" * 16
    record.save(path)
    before = snapshot(path)
    result = cli("replay", "--verify", path)
    assert result.exit_code == 1
    assert "does not match: round 2: the event log differs from the record" in result.stdout
    plain = cli("replay", path)
    assert plain.exit_code == 1
    assert "this replay differs from the record: round 2" in plain.stderr
    assert snapshot(path) == before


def test_replay_step_waits_for_enter_between_rounds(tmp_path, registry):
    """Issue 5: "`--step` waits for Enter between rounds"; closing the input stops it, and
    so does `q` (issue 11)."""
    path = tmp_path / "game.toml"
    game = bots_game(registry, seed=8, kind="greedy")
    play_recorded(registry, game).save(path)
    result = cli("replay", "--step", path, input="\n" * game.round)
    assert result.exit_code == 0
    prompts = [
        line.rstrip() for line in result.stdout.splitlines() if line.startswith("Press Enter")
    ]
    assert prompts == [f"Press Enter for round {n} (q: stop)." for n in range(2, game.round + 1)]

    stopped = cli("replay", "--step", path, input="")
    assert stopped.exit_code == 130
    assert "Round 2" not in stopped.stdout

    quit = cli("replay", "--step", path, input="\nq\n")
    assert quit.exit_code == 130
    assert "Round 2" in quit.stdout and "Round 3" not in quit.stdout


def test_resume_finishes_a_bots_game_exactly_as_played_straight_through(tmp_path, registry):
    """Issue 5: "`spoiler resume FILE` continues a game recorded before its end … bots as
    recorded, appending to the same record": the finished record is the straight one."""
    straight, saved = tmp_path / "straight.toml", tmp_path / "saved.toml"
    assert cli("play", "--bots", 4, "--seed", 33, "--record", straight).exit_code == 0
    rounds = len(records.load(straight).rounds)
    assert rounds > 2
    # The same game as `spoiler play --bots 4` seats it, stopped after round 2.
    game = bots_game(registry, seed=33, kind="greedy", names=["Ada", "Bix", "Cog", "Dot"])
    play_recorded(registry, game, rounds=2, path=saved)

    result = cli("resume", saved)
    assert result.exit_code == 0, result.stderr
    assert "That was round 2, where the record stopped." in result.stdout
    assert saved.read_bytes() == straight.read_bytes()
    assert cli("replay", "--verify", saved).exit_code == 0


def test_a_game_with_a_bot_key_resumes_with_the_bots_it_had(tmp_path, registry):
    """Issue 23: bots seeded by a key no bot can derive; the record keeps the key, so the
    resumed bots choose as the straight game's did, and the end tells the key to play again."""
    straight, saved = tmp_path / "straight.toml", tmp_path / "saved.toml"
    play = ("play", "--bots", 4, "--seed", 33, "--bot-key", "k33", "--record", straight)
    finished = cli(*play)
    assert finished.exit_code == 0
    assert "--bot greedy --bot-key k33" in finished.stdout
    assert records.load(straight).bot_key == "k33"
    names = ["Ada", "Bix", "Cog", "Dot"]
    game = bots_game(registry, seed=33, kind="greedy", names=names, key="k33")
    play_recorded(registry, game, rounds=2, path=saved, key="k33")
    assert cli("resume", saved).exit_code == 0
    assert saved.read_bytes() == straight.read_bytes()
    unkeyed = cli("play", "--bots", 4, "--seed", 33, "--record", tmp_path / "unkeyed.toml")
    assert unkeyed.stdout != finished.stdout  # the key changes what the bots choose


def test_a_bot_key_in_a_record_must_be_a_key(tmp_path, registry):
    game = bots_game(registry, seed=3, max_rounds=2)
    data = tomllib.loads(play_recorded(registry, game, key="k").dumps())
    data["options"]["bot_key"] = "not a key!"
    data["checksum"] = "edited"
    with pytest.raises(
        records.RecordError, match=r"options.bot_key: 'not a key!' is not a bot key"
    ):
        records.parse(data)


def test_a_human_game_stopped_mid_game_is_resumed_and_replayed_to_the_same_end(tmp_path):
    """Issue 5, done when: "play with --record, quit mid-game, resume, finish, replay the
    whole game and see the same end"."""
    path = tmp_path / "game.toml"
    stopped = cli(
        "play", "--players", "Ann", "--bots", 2, "--seed", 1, "--record", path, input="2\n" * 4
    )
    assert stopped.exit_code == 130
    assert f"continue with: spoiler resume {path}" in stopped.stdout
    recorded = len(records.load(path).rounds)
    assert recorded == 2  # the input ran out in round 3

    resumed = cli("resume", path, input="2\n1\n" * 400)  # "1" when "2" is refused
    assert resumed.exit_code == 0, resumed.stderr
    assert f"That was round {recorded}, where the record stopped." in resumed.stdout
    record = records.load(path)
    assert record.over and len(record.rounds) > recorded
    replayed = cli("replay", path)
    assert replayed.exit_code == 0
    end = resumed.stdout.splitlines()[-2]  # the last line says where the record was saved
    assert replayed.stdout.splitlines()[-1] == end
    assert cli("replay", "--verify", path).exit_code == 0


def test_a_stopped_game_is_not_saved_when_input_is_closed(tmp_path, monkeypatch):
    """Issue 20 (replacing issue 5's "saves without asking when input is closed"): "the save
    prompt saves only on an explicit yes, and end of input means no", so a piped game leaves
    no file behind."""
    monkeypatch.chdir(tmp_path)
    result = cli("play", "--players", "Ann", "--bots", 2, "--seed", 1, input="1\n" * 4)
    assert result.exit_code == 130
    assert "to resume later?" in result.stdout and "[y/N]" in result.stdout
    assert "Not saved." in result.stdout
    assert os.listdir(tmp_path) == []


def test_a_stopped_game_is_saved_on_an_explicit_yes(tmp_path, monkeypatch, registry):
    monkeypatch.chdir(tmp_path)
    game = bots_game(registry, seed=2)
    recorder = records.Recorder(records.Record.of(game, registry))
    game.play_round()
    recorder.round_played(game)
    for answer in ("y", "yes"):
        out = io.StringIO()
        save_stopped(recorder, Screen(Console(file=out), stdin=io.StringIO(answer + "\n")))
    assert "Saved to spoiler-2-2.toml" in out.getvalue()  # never over another file
    assert sorted(os.listdir(tmp_path)) == ["spoiler-2-2.toml", "spoiler-2.toml"]
    assert not records.load(tmp_path / "spoiler-2.toml").over


def test_a_stopped_game_is_not_saved_when_the_player_says_no(tmp_path, monkeypatch, registry):
    """The offer to save is a question: "n" declines it."""
    monkeypatch.chdir(tmp_path)
    game = bots_game(registry, seed=2)
    recorder = records.Recorder(records.Record.of(game, registry))
    game.play_round()
    recorder.round_played(game)
    out = io.StringIO()
    screen = Screen(Console(file=out), stdin=io.StringIO("n\n"))
    save_stopped(recorder, screen)
    assert "Save the game (the 1 whole round played) to spoiler-2.toml" in out.getvalue()
    assert os.listdir(tmp_path) == []


def test_a_record_path_that_cannot_be_written_is_refused_before_the_game(tmp_path):
    """Bad input gets one line and exit 2, before any round is played."""
    result = cli("play", "--bots", 4, "--seed", 1, "--record", tmp_path / "no" / "such" / "g.toml")
    assert_refused(result, "--record", "cannot write it")
    assert result.stdout == ""


def test_a_record_that_cannot_be_written_mid_game_stops_it_with_one_line(tmp_path, monkeypatch):
    """A full disk in round 2: the game stops with a one-line error, and the record keeps
    round 1 whole."""
    path = tmp_path / "game.toml"
    real_save, calls = records.Record.save, []

    def save(record, where):
        calls.append(len(record.rounds))
        if len(calls) == 3:  # the empty record, round 1, then round 2
            raise OSError(28, "No space left on device")
        real_save(record, where)

    monkeypatch.setattr(records.Record, "save", save)
    result = cli("play", "--bots", 4, "--seed", 21, "--record", path)
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        f"Error: --record {path}: cannot write it: No space left on "
        f"device; the game stops here (seed 21)"
    )
    assert len(records.load(path).rounds) == 1


def test_resume_refuses_a_game_that_is_over(tmp_path, registry):
    path = tmp_path / "game.toml"
    play_recorded(registry, bots_game(registry, seed=4)).save(path)
    before = snapshot(path)
    assert_refused(cli("resume", path), "this game is over", "spoiler replay")
    assert snapshot(path) == before


def test_resume_refuses_a_bot_kind_that_is_not_installed(tmp_path, registry):
    """Bots play on as recorded, so their kind must be installed."""
    path = tmp_path / "game.toml"
    data = tomllib.loads(play_recorded(registry, bots_game(registry, seed=4), rounds=1).dumps())
    data["players"][2]["kind"] = "oracle"
    path.write_text(tomli_w.dumps(resign(data)))
    before = snapshot(path)
    assert_refused(cli("resume", path), "players[3].kind", "no bot kind 'oracle'")
    assert snapshot(path) == before


# ==============================================================================================
# Bad files
# ==============================================================================================
def resign(data: dict) -> dict:
    """A hand-edited record with a correct checksum, so the edit itself is what is judged."""
    body = {k: v for k, v in data.items() if k != "checksum"}
    return {"checksum": records.checksum(body), **body}


@pytest.fixture(scope="module")
def unfinished(registry) -> bytes:
    """A record of a game stopped after round 4, with answers to a question in it."""
    for seed in range(200):
        record = play_recorded(registry, bots_game(registry, seed, players=3), rounds=4)
        if len(record.rounds) == 4 and any(r.answers for r in record.rounds):
            return record.dumps().encode()
    raise AssertionError("no game with answers")


@pytest.fixture(scope="module")
def finished(registry) -> bytes:
    return play_recorded(registry, bots_game(registry, 7, players=3, max_rounds=6)).dumps().encode()


def refused_everywhere(path: Path, *fragments: str) -> None:
    """Every command that reads the record refuses it, and none changes it."""
    before = snapshot(path)
    for command in (["replay"], ["replay", "--verify"], ["resume"]):
        assert_refused(cli(*command, path), *fragments)
    assert snapshot(path) == before


def test_a_file_that_is_not_toml_is_refused(tmp_path):
    path = tmp_path / "game.toml"
    path.write_text("this is not [a record\n")
    refused_everywhere(path, "not a valid TOML file", "line 1")


def test_a_file_that_is_not_text_is_refused(tmp_path):
    path = tmp_path / "game.toml"
    path.write_bytes(b"format = 1\n\xff\xfe")
    refused_everywhere(path, "not UTF-8")


def test_a_missing_file_is_refused(tmp_path):
    assert_refused(cli("replay", tmp_path / "nope.toml"), "cannot read it")


@pytest.mark.parametrize("record", ["unfinished", "finished"])
def test_truncated_records_are_refused_at_every_offset(tmp_path, request, record):
    """Issue 5: "truncations at many offsets … none gives a traceback, each gives exit 2,
    none changes the file"."""
    whole = request.getfixturevalue(record)
    path = tmp_path / "game.toml"
    offsets = set(range(0, len(whole), max(1, len(whole) // 120))) | {
        i + 1 for i, b in enumerate(whole) if b == ord("\n")
    }
    # Neither the whole file nor the whole file but its final newline is a truncation.
    offsets -= {len(whole), len(whole) - 1}
    for offset in sorted(offsets):
        path.write_bytes(whole[:offset])
        before = snapshot(path)
        assert_refused(cli("replay", path))
        assert snapshot(path) == before
    refused_everywhere(path)  # the last one, by every command


def test_random_byte_changes_are_refused(tmp_path, unfinished):
    """Issue 5: "random byte flips": each change that alters the record is refused (a change
    TOML does not see, such as a space turned into a tab, leaves the same record)."""
    path = tmp_path / "game.toml"
    original = tomllib.loads(unfinished.decode())
    rng = random.Random(5)
    checked = 0
    for _ in range(150):
        damaged = bytearray(unfinished)
        offset = rng.randrange(len(damaged))
        damaged[offset] = rng.choice(
            [damaged[offset] ^ (1 << rng.randrange(8)), rng.randrange(256)]
        )
        try:
            if tomllib.loads(damaged.decode()) == original:
                continue
        except (UnicodeDecodeError, tomllib.TOMLDecodeError):
            pass
        path.write_bytes(bytes(damaged))
        before = snapshot(path)
        assert_refused(cli("replay", path))
        assert snapshot(path) == before
        checked += 1
    assert checked > 100


def test_a_comment_hiding_the_checksum_is_refused(tmp_path, unfinished):
    """One changed byte can turn the checksum line into a comment: that is no way to say a
    record was edited on purpose."""
    path = tmp_path / "game.toml"
    path.write_bytes(b"#" + unfinished[1:])
    refused_everywhere(path, "checksum: missing")


def _first_selection(data):
    return data["rounds"][0]["selections"][0]


def _answered_round(data):
    return next(r for r in data["rounds"] if r.get("answers"))


# (what is edited, the edit, what the one-line error must say)
HAND_EDITS = [
    ("format, future", lambda d: d.update(format=3), "format: this record uses format 3"),
    ("format, not a number", lambda d: d.update(format="1"), "format: '1' is not a record format"),
    ("format, missing", lambda d: d.pop("format"), "format: missing"),
    ("spoiler_game", lambda d: d.update(spoiler_game=1), "spoiler_game: expected a string"),
    ("seed", lambda d: d.update(seed="lucky"), "seed: expected a whole number"),
    ("seed, missing", lambda d: d.pop("seed"), "seed: missing"),
    ("unknown field", lambda d: d.update(colour="red"), "colour: unknown field"),
    ("options.max_rounds", lambda d: d["options"].update(max_rounds=0), "options.max_rounds: 0"),
    (
        "options.strict",
        lambda d: d["options"].update(strict="yes"),
        "options.strict: expected true or false",
    ),
    ("options, unknown", lambda d: d["options"].update(speed=2), "options.speed: unknown field"),
    (
        "options.think_ms, zero",
        lambda d: d["options"].update(think_ms=0),
        "options.think_ms: 0 is not a thinking time (more than 0, at most 60000 ms)",
    ),
    (
        "options.think_ms, text",
        lambda d: d["options"].update(think_ms="long"),
        "options.think_ms: 'long' is not a thinking time",
    ),
    (
        "options.think_ms, a day",
        lambda d: d["options"].update(think_ms=86_400_000),
        "options.think_ms: 86400000 is not a thinking time",
    ),
    (
        "sets, another version",
        lambda d: d["sets"][0].update(version="9.9.9"),
        "sets: set 'base' was 9.9.9 in this game, but 1.0.0 is installed ("
        + install_hint("spoiler-game==").rstrip("="),
    ),
    (
        "sets, not installed",
        lambda d: d["sets"].append(
            {
                "name": "nebula",
                "version": "2.0.0",
                "distribution": "spoiler-nebula",
                "distribution_version": "2.0.0",
            }
        ),
        f"sets: set 'nebula' 2.0.0 is not installed ({install_hint('spoiler-nebula==2.0.0')})",
    ),
    ("sets, empty", lambda d: d.update(sets=[]), "sets: the game has no card set"),
    ("sets[1].name", lambda d: d["sets"][0].pop("name"), "sets[1].name: missing"),
    (
        "players, one",
        lambda d: d.update(players=d["players"][:1]),
        "players: a game has 2 to 8 players, not 1",
    ),
    (
        "players, same name",
        lambda d: d["players"][1].update(name="Bot0"),
        "players: player names must differ",
    ),
    (
        "players[2].name",
        lambda d: d["players"][1].update(name=""),
        "players[2]: a player needs a name",
    ),
    (
        "players[2].kind",
        lambda d: d["players"][1].update(kind=5),
        "players[2].kind: expected a string",
    ),
    (
        "chat, in format 1",
        lambda d: d["rounds"][0].update(chat=[{"by": "ann", "text": "hi"}]),
        "round 1: chat: unknown field",
    ),
    (
        "chat, an escape sequence",
        lambda d: (
            d.update(format=2),
            d["rounds"][0].update(chat=[{"by": "ann", "text": "\x1b[2Jgone"}]),
        ),
        "round 1, chat 1: not a name (at most 80) and one line",
    ),
    (
        "replaced_in, in format 1",
        lambda d: d["players"][0].update(replaced_in=1, replaced_by="greedy"),
        "players[1].replaced_in: unknown field",
    ),
    (
        "replaced_in, a bot's seat",
        lambda d: (
            d.update(format=2),
            d["players"][0].update(kind="greedy", replaced_in=1, replaced_by="greedy"),
        ),
        "players[1]: replaced_in and replaced_by name the round",
    ),
    ("rounds, renumbered", lambda d: d["rounds"][1].update(round=7), "round 2: numbered 7"),
    ("rounds, round missing", lambda d: d["rounds"][1].pop("round"), "round 2: round: missing"),
    (
        "selection, unknown card",
        lambda d: _first_selection(d).update(card="base:joker"),
        "'base:joker', which is not a card of this game's sets",
    ),
    (
        "selection, seat",
        lambda d: _first_selection(d).update(seat=9),
        "round 1, selection 1: seat: 9 is not a seat",
    ),
    (
        "selection, targets",
        lambda d: _first_selection(d).update(targets=["Bob"]),
        "round 1, selection 1: targets: 'Bob' is not a seat",
    ),
    (
        "selection, info",
        lambda d: _first_selection(d).update(info=1.5),
        "round 1, selection 1: info: expected a name or a number",
    ),
    (
        "selection, missing",
        lambda d: d["rounds"][0]["selections"].pop(0),
        "round 1: the record holds no selection for",
    ),
    (
        "answer, missing",
        lambda d: _answered_round(d).pop("answers"),
        "the record holds no answer for",
    ),
    (
        "answer, not a string",
        lambda d: _answered_round(d)["answers"][0].update(answer=3),
        "answer 1: answer: expected a string",
    ),
    (
        "rounds, past the limit",
        lambda d: d["options"].update(max_rounds=2),
        "rounds: 4 rounds reach the round limit of 2",
    ),
    (
        "result, invented",
        lambda d: d.update(
            result={"kind": "win", "winners": [0], "round": 4, "events": 1, "log": "0"}
        ),
        "round 4: the record says the game ended",
    ),
    (
        "result.kind",
        lambda d: d.update(
            result={"kind": "maybe", "winners": [], "round": 4, "events": 1, "log": "0"}
        ),
        "result.kind: 'maybe' is not one of",
    ),
    (
        "result.round",
        lambda d: d.update(
            result={"kind": "draw", "winners": [], "round": 9, "events": 1, "log": "0"}
        ),
        "result.round: the game ended in round 9, but the record holds 4 rounds",
    ),
]


@pytest.mark.parametrize("edit", HAND_EDITS, ids=[e[0] for e in HAND_EDITS])
def test_a_hand_edit_of_each_field_is_refused_naming_the_field(tmp_path, unfinished, edit):
    """Issue 5: "hand edits of each field": a field that is wrong in itself is named even
    with a correct checksum; any edit without one is refused by the checksum."""
    _, change, message = edit
    data = tomllib.loads(unfinished.decode())
    change(data)
    path = tmp_path / "game.toml"
    path.write_text(tomli_w.dumps(resign(data)))
    before = snapshot(path)
    result = cli("replay", "--verify", path)
    if "record says the game ended" in message:  # a sound file that replays otherwise
        assert result.exit_code == 1 and message in result.stdout
    else:
        assert_refused(result, message)
    assert snapshot(path) == before

    path.write_text(
        tomli_w.dumps({**data, "checksum": tomllib.loads(unfinished.decode())["checksum"]})
    )
    assert_refused(cli("replay", path))


def test_an_illegal_recorded_selection_names_the_round(tmp_path, unfinished, registry):
    """Issue 5: "holds an illegal selection" gets a line saying which round is wrong."""
    data = tomllib.loads(unfinished.decode())
    record = records.parse(data)
    game = records.build_game(record, registry)
    game.start()
    # A card from the deck, which no one holds at the start of round 1.
    seat = data["rounds"][0]["selections"][0]["seat"]
    held = {c.id for c in game.state.players[seat].hand}
    stranger = next(
        c for c in game.state.deck if c.id not in held and not c.targets and c.ask is None
    )
    data["rounds"][0]["selections"][0].update(card=stranger.id, targets=[])
    data["rounds"][0]["selections"][0].pop("info", None)
    path = tmp_path / "game.toml"
    path.write_text(tomli_w.dumps(resign(data)))
    refused_everywhere(
        path, f"round 1: the recorded selection of Bot{seat} is illegal:", "is not in your hand"
    )


def test_a_record_marked_as_edited_is_played_as_it_stands(tmp_path, unfinished):
    """docs/records.md: a record edited on purpose says checksum = "edited"; it is read
    without a checksum, and every other check still applies."""
    data = tomllib.loads(unfinished.decode())
    data["checksum"] = records.EDITED
    path = tmp_path / "game.toml"
    path.write_text(tomli_w.dumps(data))
    result = cli("replay", "--verify", path)
    assert result.exit_code == 0
    assert "edited by hand" in result.stderr


# ==============================================================================================
# The documentation
# ==============================================================================================
DOC = Path(__file__).resolve().parents[1] / "docs" / "records.md"


def test_the_example_in_the_records_doc_is_a_valid_record():
    """docs/records.md: its example is a record this version reads, checksum included."""
    text = DOC.read_text(encoding="utf-8")
    example = text.split("```toml\n", 1)[1].split("```", 1)[0]
    record = records.parse(tomllib.loads(example))
    assert record.signed and record.over


def test_the_records_doc_describes_every_field_a_record_has(registry):
    """docs/records.md documents the format field by field: no field is written undocumented."""
    text = DOC.read_text(encoding="utf-8")
    record = play_recorded(registry, bots_game(registry, seed=9, players=3))
    record.rounds[0].selections[0] = {"card": "base:x", "targets": [], "info": 1}
    record.rounds[0].answers.append({"seat": 0, "prompt": "?", "answer": "yes"})

    def fields(value):
        if isinstance(value, dict):
            for key, inner in value.items():
                yield key
                yield from fields(inner)
        elif isinstance(value, list):
            for inner in value:
                yield from fields(inner)

    missing = {f for f in fields(record.to_toml()) if f"`{f}`" not in text}
    assert not missing


# ==============================================================================================
# In a real terminal
# ==============================================================================================
def terminal(*args: str, cwd: Path):
    pexpect = pytest.importorskip("pexpect")
    if args[:1] in (("resume",), ("replay",)):  # their transcript (a terminal gets the table)
        args = (args[0], "--plain", *args[1:])
    script = Path(sys.executable).with_name("spoiler")
    command, argv = (
        (str(script), list(args))
        if script.exists()
        else (sys.executable, ["-c", "from spoiler.cli import main; main()", *args])
    )
    env = {**os.environ, **BUILTINS_ONLY, "TERM": "xterm", "NO_COLOR": "1"}
    return pexpect.spawn(
        command, argv, cwd=str(cwd), env=env, encoding="utf-8", dimensions=(40, 100), timeout=20
    )


def answer_everything(child, until: str | None = None) -> None:
    """Answer every prompt as a person would (the first card that can be played, the first
    target, the first option), until ``until`` appears or the program ends."""
    EOF = pytest.importorskip("pexpect").EOF
    patterns = [
        r"Play which card\? \[1-\d+\]",
        r"Target\? \[(\d+)",
        r"\? \[(\d+)-\d+\]",
        r"\? \[1-\d+\]",
        r"\? \[(\d+)(?:, \d+)+\]",
        r"Watch the rest\? \[Y/n\]|Play again\? s: same seed",  # watch; at the end, leave
        EOF,
    ]
    if until is not None:
        patterns.append(until)
    tries = 1
    for _ in range(300):
        which = child.expect(patterns)
        if which == 5:
            child.sendline("")
            continue
        if which >= 6:
            return
        if which == 0:
            tries = tries + 1 if "cannot be played now" in child.before else 1
            child.sendline(str(tries))
        elif which in (1, 2, 4):
            child.sendline(child.match.group(1))
        else:
            child.sendline("1")
    raise AssertionError("the game keeps asking")


def test_quit_with_ctrl_c_save_resume_finish_and_replay_in_a_terminal(tmp_path):
    """Issue 5, done when: "As a new user would try it: play …, quit mid-game, resume, finish,
    replay the whole game and see the same end" — with Ctrl-C in a real terminal."""
    EOF = pytest.importorskip("pexpect").EOF
    child = terminal("play", "--seed", "12", cwd=tmp_path)
    answer_everything(child, until=r"Round 2")
    child.expect(r"Play which card\?")
    child.sendintr()
    child.expect(
        r"Save the game \(the 1 whole round played\) to spoiler-12\.toml, to resume later\? "
        r"\[y/N\]"
    )
    child.sendline("y")
    child.expect(r"Saved to spoiler-12\.toml; continue with: spoiler resume spoiler-12\.toml")
    child.expect(EOF)
    child.close()
    assert child.exitstatus == 130

    child = terminal("resume", "spoiler-12.toml", cwd=tmp_path)
    child.expect(r"That was round 1, where the record stopped\. The game goes on\.")
    answer_everything(child)
    child.close()
    assert child.exitstatus == 0
    # The result, the seed (told now that the game is over), then "Saved to spoiler-12.toml."
    end, seed = (line.strip() for line in child.before.strip().splitlines()[-3:-1])
    assert re.search(r"won|Draw|Everyone lost", end), end
    assert seed == (
        "Seed: 12. Play it again: spoiler play --seed 12 --sets base --players You --bots 3 "
        "--bot greedy"
    )

    child = terminal("replay", "spoiler-12.toml", cwd=tmp_path)
    child.expect(EOF)
    child.close()
    assert child.exitstatus == 0
    assert [line.strip() for line in child.before.strip().splitlines()[-2:]] == [end, seed]
    assert "Traceback" not in child.before


def test_a_record_with_chat_or_a_seat_a_bot_took_over_is_format_2_and_reads_back(registry):
    """A record is written in the oldest format that holds it: format 1 without chat and
    without a seat a bot took over (so older versions of spoiler-game read it), format 2 with
    them; both read back as written."""
    record = play_recorded(registry, bots_game(registry, seed=3, kind="greedy"))
    assert tomllib.loads(record.dumps())["format"] == 1
    record.players[0] = replace(
        record.players[0], kind="human", replaced_in=2, replaced_by="greedy"
    )
    record.rounds[1].chat.append({"by": "zed (watching)", "text": "nice one"})
    data = tomllib.loads(record.dumps())
    assert data["format"] == 2
    assert data["players"][0] == {
        "name": record.players[0].name, "kind": "human", "replaced_in": 2, "replaced_by": "greedy"
    }  # fmt: skip
    assert data["rounds"][1]["chat"] == [{"by": "zed (watching)", "text": "nice one"}]
    again = records.parse(data)
    assert again.players == record.players and again.rounds[1].chat == record.rounds[1].chat


def test_a_table_play_cannot_seat_is_told_its_seed_alone(registry):
    """A hosted game where a bot took a player's seat (a bot between humans): `spoiler play`
    seats humans first, so no command of it plays that game again."""
    game = bots_game(registry, seed=4, players=3)
    record = records.Record.of(game, registry)
    assert play_command(record, 4) == "spoiler play --seed 4 --sets base --bots 3 --bot random"
    record.players = [
        replace(p, kind="human") if s != 1 else p for s, p in enumerate(record.players)
    ]
    assert play_command(record, 4) is None


ANY_ANSWER = "".join(f"{n}\n" for n in range(1, 9)) * 300  # each prompt takes the first that fits


def test_replay_reveal_shows_every_hand_and_choice_of_a_finished_game(tmp_path):
    """Issue 20: "a post-game reveal: replay can show every hand and selection of the game,
    round by round". Seed 74 deals You Spoiler, Purge and Assassin, and Bix Echo, Spoiler
    and Assassin."""
    path = tmp_path / "game.toml"
    played = cli(
        "play", "--seed", 74, "--sets", "base", "--max-rounds", 3, "--record", path,
        input=ANY_ANSWER,
    )  # fmt: skip
    assert records.load(path).over, played.stdout
    hidden, revealed = cli("replay", path).stdout, cli("replay", path, "--reveal").stdout
    assert "Bix got Echo, Spoiler and Assassin." in revealed
    assert "Bix got a hand of cards." in hidden and "Bix got Echo" not in hidden
    assert "Bix selected Assassin on You." in revealed
    assert "Bix selected a card." in hidden and "Bix selected Assassin" not in hidden


def test_replay_reveal_refuses_a_game_that_can_still_be_resumed(tmp_path):
    path = tmp_path / "game.toml"
    cli("play", "--seed", 74, "--sets", "base", "--record", path, input="1\n")
    result = cli("replay", path, "--reveal")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr.strip() == (
        f"Error: {path}: --reveal shows a finished game only, and this one is not over "
        "(its hands stay secret while it can be resumed)"
    )


def test_resume_names_a_seat_a_bot_took_over_as_the_bot_from_that_round(tmp_path, registry):
    """Issue 20: a hosted seat a bot took over is "ann (bot)" from the moment the bot plays
    it; a resumed record seats that bot again, and its screen names it so from that round."""
    path = tmp_path / "hosted.toml"
    game = bots_game(registry, seed=33, kind="greedy", names=["ann", "Bix", "Cog", "Dot"])
    record = play_recorded(registry, game, rounds=2)
    record.players[0] = replace(
        record.players[0], kind="human", replaced_in=2, replaced_by="greedy"
    )
    path.write_text(record.dumps())
    result = cli("resume", path, "--plain")
    assert result.exit_code == 0, result.stderr
    before, after = result.stdout.split("Round 2", 1)
    assert "ann (bot)" not in before and "ann (bot)" in after
    assert "Traceback" not in result.stdout + result.stderr
