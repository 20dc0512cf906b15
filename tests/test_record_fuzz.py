"""Fuzzing records (issue 13): whatever a record file holds, reading it gives a Record or one
RecordError, never another exception; a corrupted record that still reads replays, or stops
with one line, and is never changed by being read.

A seeded mutator corrupts real records of every installed set (tests/record_mutations.py);
hypothesis writes TOML of its own. benchmarks/hostile_records.py runs thousands of each and
measures time and memory; these run a few hundred, to stay fast.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from spoiler import plugins, records
from spoiler.cli import app, common

sys.path.insert(0, str(Path(__file__).parent))
from record_mutations import HOSTILE, mutate, real_records

CORRUPTED = 200


@pytest.fixture(scope="module")
def registry():
    return plugins.load()


@pytest.fixture(scope="module")
def originals(registry) -> list[bytes]:
    return real_records(registry, range(12))


def read_or_refuse(path: Path):
    """The only two outcomes of reading a record."""
    try:
        return records.load(path)
    except records.RecordError as exc:
        message = str(exc)
        assert message and "\n" not in message, message
        return None


def test_the_real_records_cover_every_installed_set(registry, originals):
    used = {s.name for data in originals for s in records.parse(_toml(data)).sets}
    assert used == set(registry.sets)


def _toml(data: bytes) -> dict:
    import tomllib

    return tomllib.loads(data.decode())


def test_corrupted_records_are_read_or_refused_in_one_line_and_never_changed(
    tmp_path, originals, registry, monkeypatch
):
    rng = random.Random(13)
    path = tmp_path / "game.toml"
    readable = []
    for _ in range(CORRUPTED):
        data = mutate(rng.choice(originals), rng)
        path.write_bytes(data)
        record = read_or_refuse(path)
        assert path.read_bytes() == data
        if record is not None:
            readable.append(data)
    # What still reads goes through the commands that use it: each ends in a line of its own.
    monkeypatch.setattr(common, "load_registry", lambda: registry)
    for data in readable[:40]:
        path.write_bytes(data)
        for command in (["replay", "--verify"], ["replay"]):
            result = CliRunner().invoke(app, [*command, str(path)])
            assert isinstance(result.exception, SystemExit | None), result.exception
            assert result.exit_code in (0, 1, 2), result.stderr
            assert "Traceback" not in result.stdout + result.stderr
            assert path.read_bytes() == data


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=2000) | st.sampled_from(HOSTILE))
def test_any_bytes_are_read_or_refused(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("bytes") / "game.toml"
    path.write_bytes(data)
    read_or_refuse(path)


TOML_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)
FIELDS = st.sampled_from(
    ["format", "checksum", "spoiler_game", "seed", "options", "sets", "players", "rounds", "x"]
)


def _no_none(value):
    if isinstance(value, dict):
        return {k: _no_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_no_none(v) for v in value if v is not None]
    return value


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(FIELDS, TOML_VALUES, max_size=9), st.sampled_from(['"edited"', None]))
def test_any_toml_document_is_read_or_refused(tmp_path_factory, fields, checksum):
    """Well-formed TOML of any shape, with the checks behind the checksum reached too."""
    data = _no_none(fields)
    data.setdefault("format", 1)
    if checksum:
        data["checksum"] = "edited"
    path = tmp_path_factory.mktemp("toml") / "game.toml"
    path.write_text(tomli_w.dumps(data))
    read_or_refuse(path)
