"""``spoiler install`` / ``spoiler uninstall`` with the real installers: spoiler-game put in an
environment of its own by pipx and by uv (``uv tool install``), then expansions added and
removed through spoiler, an upgrade of spoiler-game in between: the expansions are still there.

No network: every wheel comes from one folder (``--no-index`` / ``UV_OFFLINE`` with
``--find-links``), spoiler-game and the expansions built from this checkout, their
dependencies remade from this environment's installed copies (``offline_install.repack``),
and the upgrade a copy of spoiler-game's wheel that says it is a later version.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from spoiler import installer

ROOT = Path(__file__).resolve().parents[1]
EXPANSIONS = [ROOT / "expansions" / "spoiler-chrono", ROOT / "expansions" / "spoiler-mirror"]
BIN = Path(sys.executable).parent

sys.path.insert(0, str(Path(__file__).parent))
import offline_install  # noqa: E402

pytestmark = pytest.mark.skipif(
    not all((e / "pyproject.toml").is_file() for e in EXPANSIONS),
    reason="needs a source checkout with expansions/",
)


def tool(name: str) -> str:
    found = shutil.which(name, path=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    if found is None:
        pytest.skip(f"{name} is not installed (it comes with spoiler-game's test extra)")
    return found


@pytest.fixture(scope="module")
def wheels(tmp_path_factory):
    """A folder with wheels of spoiler-game, both expansions and all spoiler-game needs;
    and a folder with spoiler-game 0.1.99 (within the expansions' range, <0.2) alone, to upgrade to."""
    folder = tmp_path_factory.mktemp("wheels")
    needs = [r for r in metadata.requires("spoiler-game") or [] if "extra ==" not in r]
    offline_install.wheelhouse(("pip", *needs), folder)
    offline_install.run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--quiet",
        "--no-deps",
        "--no-build-isolation",
        "--no-index",
        "--wheel-dir",
        folder,
        ROOT,
        *EXPANSIONS,
        timeout=180,
    )
    [game] = folder.glob("spoiler_game-*.whl")
    newer = offline_install.bumped(game, "0.1.99", tmp_path_factory.mktemp("newer"))
    return folder, newer.parent


@pytest.fixture
def offline(tmp_path, wheels):
    """The environment variables that keep pip, pipx and uv offline, inside tmp_path, and
    on this environment's Python."""
    folder, _ = wheels
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PIP_", "PIPX_", "UV_", "VIRTUAL_ENV", "SPOILER_", "PYTHON"))
    }
    env.update(
        PATH=f"{tmp_path / 'bin'}{os.pathsep}{BIN}{os.pathsep}{env.get('PATH', '')}",
        PIP_CONFIG_FILE=os.devnull,
        PIP_NO_INDEX="1",
        PIP_FIND_LINKS=str(folder),
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        PIPX_HOME=str(tmp_path / "pipx"),
        PIPX_BIN_DIR=str(tmp_path / "bin"),
        PIPX_MAN_DIR=str(tmp_path / "man"),
        PIPX_DEFAULT_PYTHON=sys.executable,
        UV_NO_CONFIG="1",
        UV_OFFLINE="1",
        UV_FIND_LINKS=str(folder),
        UV_CACHE_DIR=str(tmp_path / "uv-cache"),
        UV_TOOL_DIR=str(tmp_path / "uv-tools"),
        UV_TOOL_BIN_DIR=str(tmp_path / "bin"),
        UV_PYTHON=sys.executable,
        UV_PYTHON_DOWNLOADS="never",
    )
    return env


def run(env, *args, ok: bool = True) -> subprocess.CompletedProcess:
    result = subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, env=env, timeout=180
    )
    if ok:
        assert result.returncode == 0, f"{args}\n{result.stdout}\n{result.stderr}"
    return result


def sets_of(env) -> set[str]:
    listed = json.loads(run(env, "spoiler", "sets", "list", "--json").stdout)
    return {s["name"] for s in listed["sets"] if s["status"] == "ok"}


def version_in(env, python: Path) -> str:
    return run(
        env, python, "-c", "import importlib.metadata as m; print(m.version('spoiler-game'))"
    ).stdout.strip()


def upgrade_to_newer(env, wheels) -> None:
    """Make spoiler-game 0.1.99 (within the expansions' range, <0.2) available to the installers."""
    folder, newer = wheels
    env["PIP_FIND_LINKS"] = f"{newer} {folder}"
    env["UV_FIND_LINKS"] = f"{newer},{folder}"  # uv: commas, pip: spaces


def test_pipx_spoiler_install_injects_and_pipx_upgrade_keeps_the_expansion(offline, wheels):
    pipx = tool("pipx")
    tool("uv")  # pipx uses uv where it finds it: offline too
    run(offline, pipx, "install", "spoiler-game")
    python = Path(offline["PIPX_HOME"]) / "venvs" / "spoiler-game" / "bin" / "python"

    dry = run(offline, "spoiler", "install", "spoiler-chrono", "--dry-run").stdout
    assert dry.strip() == "pipx inject spoiler-game spoiler-chrono"
    assert "chrono" not in sets_of(offline)

    run(offline, "spoiler", "install", "spoiler-chrono")
    assert {"base", "chrono"} <= sets_of(offline)

    upgrade_to_newer(offline, wheels)
    run(offline, pipx, "upgrade", "spoiler-game")
    assert version_in(offline, python) == "0.1.99"
    assert {"base", "chrono"} <= sets_of(offline)

    run(offline, "spoiler", "uninstall", "spoiler-chrono")
    assert "chrono" not in sets_of(offline)


def test_uv_tool_spoiler_install_keeps_every_expansion_through_an_upgrade(offline, wheels):
    uv = tool("uv")
    run(offline, uv, "tool", "install", "spoiler-game")
    python = Path(offline["UV_TOOL_DIR"]) / "spoiler-game" / "bin" / "python"

    run(offline, "spoiler", "install", "spoiler-chrono")
    dry = run(offline, "spoiler", "install", "spoiler-mirror", "--dry-run").stdout
    assert dry.strip() == "uv tool install spoiler-game --with spoiler-chrono --with spoiler-mirror"
    run(offline, "spoiler", "install", "spoiler-mirror")
    assert {"base", "chrono", "mirror"} <= sets_of(offline)

    upgrade_to_newer(offline, wheels)
    newer = wheels[1]
    run(offline, uv, "tool", "upgrade", "--reinstall", "--find-links", newer, "spoiler-game")
    assert version_in(offline, python) == "0.1.99"
    assert {"base", "chrono", "mirror"} <= sets_of(offline)

    run(offline, "spoiler", "uninstall", "spoiler-mirror")
    assert "mirror" not in sets_of(offline) and "chrono" in sets_of(offline)


def test_uv_tool_uninstall_of_what_is_not_there_names_the_closest(offline):
    uv = tool("uv")
    run(offline, uv, "tool", "install", "spoiler-game", "--with", "spoiler-chrono")
    result = run(offline, "spoiler", "uninstall", "spoiler-chrno", ok=False)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert "did you mean 'spoiler-chrono'?" in result.stderr


@pytest.mark.parametrize("kind", ["pipx", "uv"])
def test_the_hint_for_a_missing_extra_names_the_installer_of_the_environment(offline, kind):
    """spoiler host without asyncssh says how to add it, with this environment's installer."""
    if kind == "pipx":
        tool("uv")
        run(offline, tool("pipx"), "install", "spoiler-game")
        expected = "pipx inject spoiler-game 'spoiler-game[host]'"
    else:
        run(offline, tool("uv"), "tool", "install", "spoiler-game", "--with", "spoiler-chrono")
        expected = "uv tool install 'spoiler-game[host]' --with spoiler-chrono"
    result = run(offline, "spoiler", "host", ok=False)
    assert result.returncode == 1
    assert result.stderr.strip() == (
        f"Error: spoiler host needs asyncssh: install it with: {expected}"
    )


def test_in_a_venv_without_pip_spoiler_install_uses_uv_pip(offline, tmp_path):
    tool("uv")
    venv = tmp_path / "venv"
    run(offline, sys.executable, "-m", "venv", "--without-pip", venv)
    python = venv / "bin" / "python"
    run(offline, tool("uv"), "pip", "install", "--python", python, "spoiler-game")
    spoiler = venv / "bin" / "spoiler"
    dry = run(offline, spoiler, "install", "spoiler-mirror", "--dry-run").stdout
    assert dry.strip() == f"uv pip install --python {python} spoiler-mirror"
    run(offline, spoiler, "install", "spoiler-mirror")
    listed = json.loads(run(offline, spoiler, "sets", "list", "--json").stdout)
    assert "mirror" in {s["name"] for s in listed["sets"]}


# ==============================================================================================
# The environment, told from its markers (no installer run)
# ==============================================================================================
def test_a_pipx_environment_is_told_by_its_metadata(tmp_path):
    (tmp_path / "spoiler-game").mkdir()
    (tmp_path / "spoiler-game" / "pipx_metadata.json").write_text("{}")
    env = installer.current(tmp_path / "spoiler-game")
    assert env.kind == installer.PIPX
    assert installer.install_command(["spoiler-chrono"], env) == [
        "pipx",
        "inject",
        "spoiler-game",
        "spoiler-chrono",
    ]
    assert installer.uninstall_command(["spoiler-chrono"], env) == [
        "pipx",
        "uninject",
        "spoiler-game",
        "spoiler-chrono",
    ]


RECEIPT = """\
[tool]
requirements = [
    { name = "spoiler-game", extras = ["host"], specifier = ">=0.1" },
    { name = "spoiler-chrono" },
    { name = "spoiler-mirror", path = "/w/spoiler_mirror-0.1.0-py3-none-any.whl" },
    { name = "spoiler-heist", editable = "/code/heist" },
    { name = "spoiler-far", url = "https://example.org/far.whl" },
]
python = "3.11"
"""


def test_a_uv_tool_install_keeps_every_requirement_of_the_receipt(tmp_path):
    (tmp_path / "uv-receipt.toml").write_text(RECEIPT)
    env = installer.current(tmp_path)
    assert env.kind == installer.UV_TOOL
    assert installer.install_command(["spoiler-new>=2"], env) == [
        "uv",
        "tool",
        "install",
        "spoiler-game[host]>=0.1",
        "--with",
        "spoiler-chrono",
        "--with",
        "/w/spoiler_mirror-0.1.0-py3-none-any.whl",
        "--with-editable",
        "/code/heist",
        "--with",
        "spoiler-far @ https://example.org/far.whl",
        "--with",
        "spoiler-new>=2",
    ]


def test_a_uv_tool_uninstall_leaves_out_that_requirement_only(tmp_path):
    (tmp_path / "uv-receipt.toml").write_text(RECEIPT)
    env = installer.current(tmp_path)
    command = installer.uninstall_command(["spoiler_Mirror", "spoiler-heist"], env)
    assert command == [
        "uv",
        "tool",
        "install",
        "spoiler-game[host]>=0.1",
        "--with",
        "spoiler-chrono",
        "--with",
        "spoiler-far @ https://example.org/far.whl",
    ]


def test_installing_a_new_version_of_an_expansion_replaces_its_requirement(tmp_path):
    (tmp_path / "uv-receipt.toml").write_text(RECEIPT)
    env = installer.current(tmp_path)
    command = installer.install_command(["spoiler-chrono==2.0", "spoiler-game[host,cluster]"], env)
    assert command[3:] == [
        "spoiler-game[host,cluster]",
        "--with",
        "/w/spoiler_mirror-0.1.0-py3-none-any.whl",
        "--with-editable",
        "/code/heist",
        "--with",
        "spoiler-far @ https://example.org/far.whl",
        "--with",
        "spoiler-chrono==2.0",
    ]


def test_an_unreadable_receipt_is_one_line_and_the_hint_falls_back_to_spoiler_install(
    tmp_path, monkeypatch
):
    (tmp_path / "uv-receipt.toml").write_text("[tool\n")
    with pytest.raises(installer.InstallerError, match="cannot read uv's receipt"):
        installer.current(tmp_path)
    monkeypatch.setattr(sys, "prefix", str(tmp_path))
    assert installer.install_hint("spoiler-game[host]") == "spoiler install 'spoiler-game[host]'"


def test_in_a_venv_the_hint_is_pip_when_the_pip_on_the_path_is_this_one(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(Path(sys.executable).parent))
    if not (Path(sys.executable).parent / "pip").exists():
        pytest.skip("no pip beside this Python")
    assert installer.install_hint("spoiler-chrono") == "pip install spoiler-chrono"
    monkeypatch.setenv("PATH", str(tmp_path))  # another pip, or none: this Python's own
    assert installer.install_hint("spoiler-chrono") == (
        f"{sys.executable} -m pip install spoiler-chrono"
    )
