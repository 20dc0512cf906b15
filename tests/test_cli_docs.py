"""docs/cli.md cannot drift from the CLI: every command has a section, and every option of
every command and subcommand is named in the reference."""

from __future__ import annotations

import re
from pathlib import Path

import typer.main

from spoiler.cli import app

REFERENCE = (Path(__file__).resolve().parents[1] / "docs" / "cli.md").read_text(encoding="utf-8")


def commands():
    """(path, click command) for every command and subcommand."""
    root = typer.main.get_command(app)
    for name, command in root.commands.items():
        yield name, command
        for sub, subcommand in getattr(command, "commands", {}).items():
            yield f"{name} {sub}", subcommand


def test_every_command_has_a_section_in_the_reference():
    headings = {h.strip().lower() for h in re.findall(r"^## (.+)$", REFERENCE, re.M)}
    for name, _ in commands():
        top = name.split()[0]
        assert top in headings or any(top in h.split() for h in headings), (
            f"docs/cli.md has no section for `spoiler {top}`"
        )


def test_every_option_is_named_in_the_reference():
    for name, command in commands():
        for param in command.params:
            for opt in param.opts:
                if opt.startswith("--") and opt != "--help":
                    assert opt in REFERENCE, f"`spoiler {name} {opt}` is not in docs/cli.md"
