"""Every ``--json`` answer: one object that says its schema version and the spoiler-game that
made it, valid against its schema in docs/schemas/ (docs/json.md), with the same type for a
key wherever it appears (``problems`` is a list everywhere)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spoiler import __version__
from spoiler.cli import app
from spoiler.commands.common import JSON_SCHEMA

SCHEMAS = Path(__file__).resolve().parents[1] / "docs" / "schemas"
runner = CliRunner()


def problems_with(value, schema: dict, root: dict, where: str = "$") -> list[str]:
    """What in ``value`` the JSON Schema ``schema`` does not allow (the keywords our schemas
    use: $ref, type, const, enum, properties, required, additionalProperties, items)."""
    if "$ref" in schema:
        schema = root["$defs"][schema["$ref"].rsplit("/", 1)[1]]
    found = []
    types = schema.get("type")
    if types is not None:
        names = [types] if isinstance(types, str) else types
        python = {
            "object": dict,
            "array": list,
            "string": str,
            "integer": int,
            "number": (int, float),
            "boolean": bool,
            "null": type(None),
        }
        ok = any(
            isinstance(value, python[t]) and not (t in ("integer", "number") and value is True)
            for t in names
        )
        if not ok or (isinstance(value, bool) and "boolean" not in names):
            return [f"{where}: {value!r} is not {' or '.join(names)}"]
    if "const" in schema and value != schema["const"]:
        found.append(f"{where}: {value!r} is not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        found.append(f"{where}: {value!r} is not one of {schema['enum']}")
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        for key in schema.get("required", []):
            if key not in value:
                found.append(f"{where}: {key!r} is missing")
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if key in properties:
                found += problems_with(item, properties[key], root, f"{where}.{key}")
            elif extra is False:
                found.append(f"{where}: {key!r} is not in the schema")
            elif isinstance(extra, dict):
                found += problems_with(item, extra, root, f"{where}.{key}")
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            found += problems_with(item, schema["items"], root, f"{where}[{i}]")
    return found


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    path = tmp_path_factory.mktemp("json") / "game.toml"
    result = runner.invoke(
        app, ["play", "--bots", "3", "--seed", "5", "--sets", "base", "--record", str(path)]
    )
    assert result.exit_code == 0, result.output
    return path


COMMANDS = {
    "sets-list": ["sets", "list", "--json"],
    "sets-show": ["sets", "show", "base", "--json"],
    "sets-validate": ["sets", "validate", "base", "--games", "2", "--json"],
    "cards-list": ["cards", "list", "--json"],
    "cards-show": ["cards", "show", "Accuse", "--json"],
    "plugins": ["plugins", "--json"],
    "replay-verify": ["replay", "RECORD", "--verify", "--json"],
    "simulate": ["simulate", "--games", "3", "--jobs", "1", "--sets", "base", "--json"],
    "ladder": ["ladder", "--bots", "random,greedy", "--games", "2", "--jobs", "1", "--json"],
}


def test_every_command_with_json_has_a_schema_and_every_schema_a_command():
    assert sorted(p.name.removesuffix(".schema.json") for p in SCHEMAS.glob("*.json")) == sorted(
        COMMANDS
    )


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_json_answer_is_valid_against_its_documented_schema(name, record):
    args = [str(record) if a == "RECORD" else a for a in COMMANDS[name]]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
    assert problems_with(data, schema, schema) == []
    assert list(data)[:2] == ["schema", "spoiler_game"]
    assert data["schema"] == JSON_SCHEMA and data["spoiler_game"] == __version__


def test_the_checker_finds_what_a_schema_refuses():
    schema = json.loads((SCHEMAS / "cards-show.schema.json").read_text())
    bad = {"schema": 1, "spoiler_game": "x", "cards": [{"id": 3}], "more": True}
    found = problems_with(bad, schema, schema)
    assert "$.cards[0].id: 3 is not string" in found
    assert "$: 'more' is not in the schema" in found
    assert "$.cards[0]: 'name' is missing" in found


def test_problems_is_a_list_for_the_report_and_for_each_set(record):
    result = runner.invoke(app, ["sets", "validate", "base", "--games", "1", "--json"])
    data = json.loads(result.stdout)
    assert isinstance(data["problems"], list)
    assert all(isinstance(s["problems"], list) for s in data["sets"])


def test_replay_verify_json_says_the_record_matches(record):
    data = json.loads(runner.invoke(app, ["replay", str(record), "--verify", "--json"]).stdout)
    assert data["ok"] is True and data["difference"] is None and data["over"] is True
    assert data["rounds"] >= 1 and data["result"]


def test_json_without_verify_is_refused_in_one_line(record):
    result = runner.invoke(app, ["replay", str(record), "--json"])
    assert result.exit_code == 2
    assert (
        result.stderr.strip() == "Error: --json goes with --verify (a replay is watched, not read)"
    )


def test_cards_show_json_gives_each_card_of_that_name_with_its_rulings():
    data = json.loads(runner.invoke(app, ["cards", "show", "accuse", "--json"]).stdout)
    [card] = data["cards"]
    assert card["id"] == "base:accuse" and card["rulings"] and card["ask"] == "Name a card"


def test_sets_list_available_json_is_valid_against_the_sets_list_schema():
    """--available adds the known expansions (docs/sets.md) to the same layout."""
    result = runner.invoke(app, ["sets", "list", "--available", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    schema = json.loads((SCHEMAS / "sets-list.schema.json").read_text())
    assert problems_with(data, schema, schema) == []
    assert {k["distribution"] for k in data["available"]} >= {"spoiler-chrono", "spoiler-mirror"}
