"""Installing and uninstalling an expansion changes the game, with no other step.

Builds wheels of spoiler-game and the Chrono expansion, installs Chrono into a fresh virtual
environment with pip and no network (``--no-index --find-links``: spoiler-game comes from the
same folder, as Chrono's dependency), checks that ``spoiler sets list`` shows it and that a
game deals its cards, then uninstalls it and checks it is gone.

spoiler-game's own dependencies (typer, rich, pluggy …) are not rebuilt: the fresh
environment sees them through a folder of links to this environment's copies, so the test
needs no network and only the packages under test are installed from wheels.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHRONO = ROOT / "expansions" / "spoiler-chrono"

pytestmark = pytest.mark.skipif(
    not (CHRONO / "pyproject.toml").is_file(), reason="needs a source checkout with expansions/"
)


def run(*args, **kwargs) -> subprocess.CompletedProcess:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("SPOILER_PLUGINS", "PYTHONPATH", "PIP_REQUIRE_VIRTUALENV")
    }
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    result = subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, env=env, timeout=120, **kwargs
    )
    assert result.returncode == 0, f"{' '.join(map(str, args))}\n{result.stdout}\n{result.stderr}"
    return result


def dependency_closure(name: str) -> list[metadata.Distribution]:
    """The installed distributions ``name`` needs (markers evaluated, extras left out)."""
    from packaging.requirements import Requirement

    seen: dict[str, metadata.Distribution] = {}
    todo = [Requirement(r) for r in metadata.requires(name) or []]
    while todo:
        req = todo.pop()
        if req.marker is not None and not req.marker.evaluate({"extra": ""}):
            continue
        key = req.name.lower().replace("_", "-")
        if key in seen:
            continue
        seen[key] = dist = metadata.distribution(req.name)
        todo.extend(Requirement(r) for r in dist.requires or [])
    return list(seen.values())


def link_dependencies(target: Path) -> None:
    """A folder with links to spoiler-game's installed dependencies and their metadata."""
    target.mkdir()
    for dist in dependency_closure("spoiler-game"):
        for top in {Path(str(f)).parts[0] for f in dist.files or []}:
            source = Path(dist.locate_file(top))
            if top not in ("..", "__pycache__") and source.exists() and not (target / top).exists():
                (target / top).symlink_to(source)


def test_installing_an_expansion_adds_its_cards_and_uninstalling_removes_them(tmp_path):
    wheels = tmp_path / "wheels"
    run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--quiet",
        "--no-deps",
        "--no-build-isolation",
        "--no-index",
        "--wheel-dir",
        wheels,
        ROOT,
        CHRONO,
    )
    assert {p.name.split("-")[0] for p in wheels.glob("*.whl")} == {
        "spoiler_game",
        "spoiler_chrono",
    }

    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv)
    python = venv / "bin" / "python"
    site = Path(
        run(
            python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"
        ).stdout.strip()
    )
    link_dependencies(tmp_path / "deps")
    (site / "spoiler-test-deps.pth").write_text(str(tmp_path / "deps") + "\n")
    pip = (sys.executable, "-m", "pip", "--python", python)

    run(*pip, "install", "--quiet", "--no-index", "--find-links", wheels, "spoiler-chrono")
    spoiler = venv / "bin" / "spoiler"
    listed = {s["name"]: s for s in json.loads(run(spoiler, "sets", "list", "--json").stdout)}
    assert (
        listed["chrono"]["status"] == "ok" and listed["chrono"]["distribution"] == "spoiler-chrono"
    )
    assert listed["base"]["status"] == "ok"

    game = run(
        spoiler,
        "play",
        "--bots",
        "3",
        "--sets",
        "base,chrono",
        "--seed",
        "4",
        "--max-rounds",
        "6",
        cwd=tmp_path,
    ).stdout
    assert any(
        name in game for name in ("Hourglass", "Sundial", "Time Bomb", "Stopwatch", "Rewind")
    )

    run(*pip, "uninstall", "--quiet", "--yes", "spoiler-chrono")
    listed = {s["name"] for s in json.loads(run(spoiler, "sets", "list", "--json").stdout)}
    assert "chrono" not in listed and "base" in listed
