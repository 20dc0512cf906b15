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

import functools
import json
import sys
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHRONO = ROOT / "expansions" / "spoiler-chrono"

sys.path.insert(0, str(Path(__file__).parent))
import offline_install  # noqa: E402
from offline_install import closure, link  # noqa: E402

run = functools.partial(offline_install.run, timeout=120)

pytestmark = pytest.mark.skipif(
    not (CHRONO / "pyproject.toml").is_file(), reason="needs a source checkout with expansions/"
)


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
    link(closure(*(metadata.requires("spoiler-game") or [])), tmp_path / "deps")
    (site / "spoiler-test-deps.pth").write_text(str(tmp_path / "deps") + "\n")
    pip = (sys.executable, "-m", "pip", "--python", python)

    run(*pip, "install", "--quiet", "--no-index", "--find-links", wheels, "spoiler-chrono")
    spoiler = venv / "bin" / "spoiler"
    listed = {
        s["name"]: s for s in json.loads(run(spoiler, "sets", "list", "--json").stdout)["sets"]
    }
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
    listed = {s["name"] for s in json.loads(run(spoiler, "sets", "list", "--json").stdout)["sets"]}
    assert "chrono" not in listed and "base" in listed
