"""Front ends read the table view, the events their reader saw and the game's catalogue:
never the engine's state (issue 18: "Front ends read a public table view (...) and the events
their seat has seen: never game.state")."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FRONT_ENDS = [
    *sorted((ROOT / "core" / "spoiler" / "console").glob("*.py")),
    *sorted((ROOT / "plugins" / "spoiler_game" / "host").glob("*.py")),
]


def reads_of_the_engine(path: Path) -> list[str]:
    """Every ``<something>.state`` and every private attribute read off a ``game``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not isinstance(node, ast.Attribute):
            continue
        owner = ast.unparse(node.value)
        if node.attr == "state" or (owner.endswith("game") and node.attr.startswith("_")):
            found.append(f"{path.name}:{node.lineno}: {owner}.{node.attr}")
    return found


def test_front_ends_never_read_the_game_state():
    assert FRONT_ENDS, "no front-end module found"
    assert [line for path in FRONT_ENDS for line in reads_of_the_engine(path)] == []


def test_the_check_finds_a_read_of_the_state(tmp_path):
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text("def peek(game):\n    return game.state.players, game._secrets\n")
    assert sorted(line.split(": ")[1] for line in reads_of_the_engine(sneaky)) == [
        "game._secrets",
        "game.state",
    ]
