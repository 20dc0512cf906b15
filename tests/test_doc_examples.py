"""The shell blocks of README.md and docs/ run (issue 22: "every example in them runs").

Every fenced block whose language is ``sh`` (or ``bash``, ``shell``, ``console``) runs here,
as it is written, with ``bash -e``: the ``spoiler`` and ``python`` of this environment on the
PATH, in an empty folder beside ``examples/`` and ``expansions/``, with no standard input. A
block that cannot run (it installs into the environment, seats a human at the table, needs
other machines, or takes minutes) says so on the line before it, with its reason:

    <!-- not run: installs into the environment it runs in -->

and a test checks that every such mark gives one.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELL = {"sh", "bash", "shell", "console"}
NOT_RUN = re.compile(r"^<!-- not run: (.*?) -->$")


@dataclass(frozen=True)
class Block:
    page: Path
    line: int  # of the opening fence, counted from 1
    code: str
    not_run: str | None  # the reason given, or None: it runs

    def __str__(self) -> str:
        return f"{self.page.relative_to(ROOT).as_posix()}:{self.line}"


def shell_blocks(page: Path) -> list[Block]:
    lines = page.read_text(encoding="utf-8").splitlines()
    found, i = [], 0
    while i < len(lines):
        fence = re.match(r"^```(\w*)", lines[i])
        if not fence:
            i += 1
            continue
        start, end = i, next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
        if fence.group(1) in SHELL:
            mark = NOT_RUN.match(lines[start - 1]) if start else None
            code = "\n".join(lines[start + 1 : end]) + "\n"
            found.append(Block(page, start + 1, code, mark.group(1) if mark else None))
        i = end + 1
    return found


BLOCKS = [block for page in PAGES for block in shell_blocks(page)]
RUNNABLE = [block for block in BLOCKS if block.not_run is None]


def test_the_pages_hold_blocks_that_run():
    """The README, simulate.md, installing.md and sets.md each have a block that runs (the
    check cannot pass by finding nothing)."""
    pages = {block.page.name for block in RUNNABLE}
    assert {"README.md", "simulate.md", "installing.md", "sets.md"} <= pages, pages


def test_every_block_marked_not_run_says_why():
    marks = [
        f"{page.relative_to(ROOT)}:{n}"
        for page in PAGES
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
        if line.startswith("<!-- not run") and not (NOT_RUN.match(line) and len(line) > 20)
    ]
    assert marks == [], "a not-run mark needs its reason: <!-- not run: REASON -->"


def test_a_not_run_mark_stands_right_before_a_shell_block():
    """A mark anywhere else would mark nothing (and a block meant to be skipped would run)."""
    marked = {(block.page, block.line - 1) for block in BLOCKS if block.not_run is not None}
    stray = [
        f"{page.relative_to(ROOT)}:{n}"
        for page in PAGES
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
        if NOT_RUN.match(line) and (page, n) not in marked
    ]
    assert stray == []


@pytest.mark.parametrize("block", RUNNABLE, ids=str)
def test_the_shell_block_runs(block, tmp_path):
    for folder in ("examples", "expansions"):
        (tmp_path / folder).symlink_to(ROOT / folder)
    bin_dir = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("SPOILER_PLUGINS", None)
    done = subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", block.code],
        cwd=tmp_path,
        env={**env, "COLUMNS": "100", "NO_COLOR": "1"},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=300,  # a harness bound against a hang, not a timing check
        check=False,
    )
    assert done.returncode == 0, f"{block} exited {done.returncode}:\n{done.stderr[-2000:]}"
