"""Records never clobber and never clash; files cannot hurt (issue 13, parts 1 and 2).

Every refusal is one line on stderr, exit code 2 (1 where a game already running has to
stop), no traceback, and the file that was there is left exactly as it was.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spoiler import plugins, recordfile, records
from spoiler.cli import app, common
from spoiler.engine import Game, Seat

BUILTINS_ONLY = {"SPOILER_PLUGINS": ""}


@pytest.fixture(scope="module")
def registry():
    return plugins.load(environ=BUILTINS_ONLY)


@pytest.fixture(autouse=True)
def same_plugins_for_the_cli(monkeypatch, registry):
    monkeypatch.setattr(common, "load_registry", lambda: registry)


def cli(*args, input=None):
    return CliRunner().invoke(app, list(map(str, args)), input=input, env=BUILTINS_ONLY)


def assert_one_line(result, code: int, *fragments: str) -> None:
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr)
    assert isinstance(result.exception, SystemExit), result.exception  # not a crash
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def unfinished_record(path: Path) -> bytes:
    """A bots game recorded after its first round (a game that is not over), at ``path``."""
    registry = plugins.load(environ=BUILTINS_ONLY)
    for seed in range(50):
        seats = [Seat(f"Bot{i}", registry.agent("random", i, seed), "random") for i in range(3)]
        sets = registry.card_sets(None)
        game = Game(sets, seats, seed, hooks=registry.game_hooks([s.name for s in sets]))
        recorder = records.Recorder(records.Record.of(game, registry))
        game.play_round()
        recorder.round_played(game)
        if not game.over:
            recorder.record.save(path)
            return path.read_bytes()
    raise AssertionError("every game ended in round 1")


# ==============================================================================================
# Never clobber
# ==============================================================================================
def test_record_onto_an_existing_file_is_refused_and_the_file_kept(tmp_path):
    path = tmp_path / "other.toml"
    path.write_text("another game's record\n")
    result = cli("play", "--bots", 3, "--seed", 1, "--record", path)
    assert_one_line(result, 2, "--record", "it exists", "--force")
    assert path.read_text() == "another game's record\n"
    assert result.stdout == ""


def test_record_with_force_replaces_an_existing_file(tmp_path):
    path = tmp_path / "old.toml"
    path.write_text("old\n")
    result = cli("play", "--bots", 3, "--seed", 1, "--record", path, "--force")
    assert result.exit_code == 0, result.stderr
    assert records.load(path).over


def test_force_never_replaces_a_read_only_file(tmp_path):
    path = tmp_path / "kept.toml"
    path.write_text("kept\n")
    path.chmod(0o444)
    if os.access(path, os.W_OK):
        pytest.skip("running as root: nothing is read-only")
    assert_one_line(cli("play", "--bots", 3, "--record", path, "--force"), 2, "read-only")
    assert path.read_text() == "kept\n"


@pytest.mark.parametrize("kind", ["directory", "fifo", "device"])
def test_a_directory_fifo_or_device_is_never_a_record_even_with_force(tmp_path, kind):
    path = tmp_path / kind
    if kind == "directory":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        path = Path("/dev/null")
    result = cli("play", "--bots", 3, "--seed", 1, "--record", path, "--force")
    assert_one_line(result, 2, "--record", "a record is written to a file only")
    assert path.is_dir() if kind == "directory" else not path.is_file()


def test_a_record_through_a_symlink_is_written_to_the_file_it_points_to(tmp_path):
    target, link = tmp_path / "real.toml", tmp_path / "link.toml"
    link.symlink_to(target)
    assert cli("play", "--bots", 3, "--seed", 2, "--record", link).exit_code == 0
    assert link.is_symlink() and records.load(target).over


def test_resume_through_a_symlink_writes_where_the_record_lives(tmp_path):
    target, link = tmp_path / "real.toml", tmp_path / "link.toml"
    unfinished_record(target)
    link.symlink_to(target)
    result = cli("resume", link)
    assert result.exit_code == 0, result.stderr
    assert link.is_symlink()
    assert records.load(target).over


def test_a_record_in_use_by_a_game_is_refused_to_a_second_writer(tmp_path):
    """The first game holds the record's lock: another `play --force` or a `resume` of the
    same file is refused instead of racing it."""
    path = tmp_path / "game.toml"
    unfinished_record(path)
    before = path.read_bytes()
    with recordfile.RecordFile.open(path):  # as a game in another process would hold it
        assert_one_line(cli("resume", path), 2, "in use by another spoiler game")
        result = cli("play", "--bots", 3, "--record", path, "--force")
        assert_one_line(result, 2, "in use by another spoiler game")
    assert path.read_bytes() == before


def test_two_games_creating_one_record_at_once_cannot_both_have_it(tmp_path):
    path = tmp_path / "game.toml"
    first = recordfile.RecordFile.create(path)
    with pytest.raises(recordfile.FileProblem, match="exists"):
        recordfile.RecordFile.create(path)
    with pytest.raises(recordfile.FileProblem, match="in use"):
        recordfile.RecordFile.create(path, force=True)
    first.write(b"x = 1\n")  # the lock moves to the new file with the rename
    with pytest.raises(recordfile.FileProblem, match="in use"):
        recordfile.RecordFile.open(path)
    first.close()
    recordfile.RecordFile.open(path).close()


def test_resume_onto_a_full_disk_stops_with_one_line_and_keeps_the_record(tmp_path, monkeypatch):
    path = tmp_path / "game.toml"
    before = unfinished_record(path)

    def full(fd, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(recordfile.os, "write", full)
    result = cli("resume", path)
    assert_one_line(result, 1, "cannot write it: No space left on device")
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["game.toml"]


def test_resume_into_a_directory_that_cannot_be_written_is_refused(tmp_path, monkeypatch):
    path = tmp_path / "game.toml"
    before = unfinished_record(path)
    real_access = os.access
    monkeypatch.setattr(
        recordfile.os,
        "access",
        lambda p, mode: False if Path(p) == tmp_path else real_access(p, mode),
    )
    assert_one_line(cli("resume", path), 2, "is read-only")
    assert path.read_bytes() == before


def test_a_strict_record_whose_card_now_raises_replays_to_one_line(tmp_path, registry):
    """The record is sound; the installed card behaves otherwise: exit 1, one line."""
    path = tmp_path / "game.toml"
    assert cli("play", "--bots", 3, "--seed", 3, "--strict", "--record", path).exit_code == 0
    played = {s["card"] for r in tomllib.loads(path.read_text())["rounds"] for s in r["selections"]}
    cards = [c for c in registry.sets["base"].cards if c.id in played and c.main is not None]

    def broken(play):
        raise RuntimeError("this card is broken now")

    originals = {card: card.main for card in cards}
    try:
        for card in cards:
            object.__setattr__(card, "main", broken)  # cards are frozen; this one breaks
        for command in (["replay"], ["replay", "--verify"]):
            assert_one_line(cli(*command, path), 1, "--strict", "this card is broken now")
    finally:
        for card, main in originals.items():
            object.__setattr__(card, "main", main)


# ==============================================================================================
# Files that cannot hurt
# ==============================================================================================
def refused_by_every_reader(path, *fragments: str) -> None:
    for command in (["replay"], ["replay", "--verify"], ["resume"]):
        started = time.monotonic()
        assert_one_line(cli(*command, path), 2, *fragments)
        assert time.monotonic() - started < 30  # no hang (a FIFO would block forever)


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    path = tmp_path / "pipe.toml"
    os.mkfifo(path)
    refused_by_every_reader(path, "it is a FIFO")


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_a_device_is_refused(device):
    refused_by_every_reader(device, "it is a device")


def test_a_directory_is_refused_in_one_line(tmp_path):
    refused_by_every_reader(tmp_path, "it is a directory")


def test_an_unreadable_record_is_one_line_not_a_usage_error(tmp_path):
    path = tmp_path / "secret.toml"
    path.write_text("format = 1\n")
    path.chmod(0)
    if os.access(path, os.R_OK):
        pytest.skip("running as root: every file is readable")
    refused_by_every_reader(path, "cannot read it", "Permission denied")


def test_a_record_over_the_size_limit_is_refused_unread(tmp_path):
    path = tmp_path / "huge.toml"
    with open(path, "wb") as out:
        out.truncate(recordfile.MAX_BYTES + 1)
    refused_by_every_reader(path, "over the limit of 1,048,576 bytes")


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("x = " + "[" * 1000 + "]" * 1000 + "\n", "nested deeper than 16 levels"),
        ("x = " + "{a = " * 600 + "1" + "}" * 600 + "\n", "nested deeper than 16 levels"),
        ("a" + ".a" * 20_000 + " = 1\n", "a key of more than 16 dotted parts"),
        ("seed = " + "9" * 5000 + "\n", "a number of more than 40 digits"),
    ],
    ids=["nested arrays", "nested tables", "long dotted key", "long integer"],
)
def test_a_record_that_would_make_the_parser_deep_or_slow_is_refused(tmp_path, text, fragment):
    path = tmp_path / "hostile.toml"
    path.write_text(text)
    refused_by_every_reader(path, fragment)


def test_a_number_over_64_bits_in_a_record_is_refused_naming_the_field(registry):
    data = tomllib.loads(
        'format = 1\nchecksum = "edited"\nspoiler_game = "0"\nseed = 18446744073709551616\n'
    )
    with pytest.raises(records.RecordError, match="seed: expected a whole number"):
        records.parse(data)


# ==============================================================================================
# Signals
# ==============================================================================================
def spoiler(*args, cwd: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", "from spoiler.launch import main; main()", *map(str, args)],
        cwd=cwd,
        env={**os.environ, **BUILTINS_ONLY, "NO_COLOR": "1", "COLUMNS": "100"},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_for(child: subprocess.Popen, text: str) -> str:
    seen = ""
    while text not in seen:
        char = child.stdout.read(1)
        assert char, f"the program ended before {text!r}: {seen[-500:]}"
        seen += char
    return seen


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_sigterm_and_sighup_save_the_game_like_ctrl_c(tmp_path, signum):
    """Without --record, the stopped game is saved without asking (the terminal may be
    gone); the exit code is the shell's for that signal."""
    child = spoiler("play", "--players", "Ann", "--bots", 2, "--seed", 1, cwd=tmp_path)
    wait_for(child, "Play which card?")
    child.send_signal(signum)
    out, err = child.communicate(timeout=30)
    assert child.returncode == 128 + signum, err
    assert "Traceback" not in out + err
    assert "Saved to spoiler-1.toml" in out
    assert not records.load(tmp_path / "spoiler-1.toml").over


#: Sends the program SIGINT the moment it starts importing ``module``: Ctrl-C at that exact
#: point of start-up, without racing the clock.
CTRL_C_AT = """
import os, signal, sys

AT = sys.argv.pop(1)

class CtrlC:
    def find_spec(self, name, path=None, target=None):
        if name == AT:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, CtrlC())
from spoiler.launch import main
main()
"""


@pytest.mark.parametrize(
    "module", ["typer", "pluggy", "spoiler_game.base", "spoiler.console.columns"]
)
def test_ctrl_c_while_the_program_starts_prints_no_traceback(tmp_path, module):
    """Ctrl-C in the first second: while the CLI's libraries load, or the plugins."""
    done = subprocess.run(
        [sys.executable, "-c", CTRL_C_AT, module, "sets", "list"],
        cwd=tmp_path,
        env={**os.environ, **BUILTINS_ONLY},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert "Traceback" not in done.stderr, done.stderr
    # 130: stopped quietly; 1: click's "Aborted!" once a command is under way.
    assert done.returncode in (1, 130), (done.returncode, done.stderr)
