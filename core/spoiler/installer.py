"""Which installer put this copy of spoiler-game here, and the commands that add or remove
distributions with it: for ``spoiler install`` / ``spoiler uninstall`` and for every hint the
program prints ("install it with ..."). It imports nothing of spoiler, so it sits below every
layer (docs/installing.md).

The environment is told by its own markers, in ``sys.prefix``:

- ``pipx_metadata.json``: a pipx environment. Expansions are injected (``pipx inject``), which
  pipx records there, so ``pipx upgrade`` and ``pipx reinstall`` keep them.
- ``uv-receipt.toml``: a uv tool environment. uv builds it anew from the receipt's
  requirements on ``uv tool upgrade --reinstall``, so an expansion must be one of them:
  ``uv tool install spoiler-game --with ...`` is given every requirement already there and the
  new ones (each ``--with`` replaces the whole list, so one left out would be dropped).
- anything else: ``python -m pip`` of the interpreter running spoiler (a virtual environment,
  or a user's or the system's Python), or ``uv pip`` where that interpreter has no pip.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

#: The distribution whose environment this is.
GAME = "spoiler-game"

PIP, UV_PIP, PIPX, UV_TOOL = "pip", "uv pip", "pipx", "uv tool"


class InstallerError(Exception):
    """The environment's installer cannot be run (not on the PATH, an unreadable receipt)."""


@dataclass(frozen=True)
class Environment:
    """Where spoiler runs: the installer's ``kind``, the environment's folder, its name for
    pipx and uv (the folder's name), and for a uv tool the requirements its receipt holds, as
    ``uv tool install`` takes them (``(option, value, name)``: ``--with`` or
    ``--with-editable``, the requirement, the distribution's normalised name)."""

    kind: str
    prefix: Path
    python: str = sys.executable
    requirements: tuple[tuple[str, str, str], ...] = field(default=())

    @property
    def name(self) -> str:
        return self.prefix.name

    def describe(self) -> str:
        where = {
            PIP: "a Python environment with pip",
            UV_PIP: "a Python environment without pip (uv pip)",
            PIPX: f"pipx's environment {self.name!r}",
            UV_TOOL: f"uv's tool environment {self.name!r}",
        }
        return f"{where[self.kind]} at {self.prefix}"


def current(prefix: str | os.PathLike | None = None) -> Environment:
    """The environment spoiler runs from (or the one at ``prefix``), told by its markers."""
    root = Path(prefix if prefix is not None else sys.prefix)
    if (root / "pipx_metadata.json").is_file():
        return Environment(PIPX, root)
    receipt = root / "uv-receipt.toml"
    if receipt.is_file():
        return Environment(UV_TOOL, root, requirements=_receipt_requirements(receipt))
    if prefix is None and _has_pip():
        return Environment(PIP, root)
    if prefix is None and shutil.which("uv") is not None:
        return Environment(UV_PIP, root)
    return Environment(PIP, root)


def _has_pip() -> bool:
    from importlib.util import find_spec

    return find_spec("pip") is not None


def _receipt_requirements(receipt: Path) -> tuple[tuple[str, str, str], ...]:
    """The receipt's requirements, the tool's own first, as ``uv tool install`` takes them."""
    import tomllib

    try:
        entries = tomllib.loads(receipt.read_text(encoding="utf-8"))["tool"]["requirements"]
        return tuple(_requirement(entry) for entry in entries)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, KeyError, TypeError) as exc:
        raise InstallerError(f"cannot read uv's receipt {receipt}: {exc}") from None


def _requirement(entry: dict) -> tuple[str, str, str]:
    """One receipt entry (``{name, extras, specifier, marker}`` or a ``path``, ``directory``,
    ``url``, ``git`` or ``editable`` source) as a ``--with`` or ``--with-editable`` value."""
    name = entry["name"] + (f"[{','.join(entry['extras'])}]" if entry.get("extras") else "")
    marker = f" ; {entry['marker']}" if entry.get("marker") else ""
    key = normalise(entry["name"])
    if entry.get("editable"):
        return ("--with-editable", str(entry["editable"]), key)
    for source in ("path", "directory"):
        if entry.get(source):
            return ("--with", str(entry[source]), key)
    if entry.get("url"):
        return ("--with", f"{name} @ {entry['url']}{marker}", key)
    if entry.get("git"):
        return ("--with", f"{name} @ git+{entry['git']}{marker}", key)
    return ("--with", f"{name}{entry.get('specifier', '')}{marker}", key)


def normalise(name: str) -> str:
    """A distribution's name as packaging tools compare them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(requirement: str) -> str | None:
    """The distribution a requirement names (``spoiler-chrono>=1``, ``x[y] @ url``),
    normalised; None for a bare path or URL."""
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[|@|[<>=!~;]|$)", requirement)
    if match is None or "/" in requirement.split("@")[0] or requirement.endswith(".whl"):
        return _wheel_name(requirement)
    return normalise(match.group(1))


def _wheel_name(requirement: str) -> str | None:
    stem = Path(requirement.rstrip("/")).name
    if stem.endswith(".whl"):
        return normalise(stem.split("-")[0])
    return None


def install_command(
    requirements: list[str], env: Environment | None = None, editable: bool = False
) -> list[str]:
    """The command that adds ``requirements`` to the environment, keeping all that is there."""
    env = env or current()
    if env.kind == PIPX:
        return ["pipx", "inject", *(["--editable"] * editable), env.name, *requirements]
    if env.kind == UV_TOOL:
        return _uv_tool_install(env, requirements, [], editable)
    flag = ["--editable"] if editable else []
    pairs = [arg for requirement in requirements for arg in (*flag, requirement)]
    if env.kind == UV_PIP:
        return ["uv", "pip", "install", "--python", env.python, *pairs]
    return [env.python, "-m", "pip", "install", *pairs]


def uninstall_command(names: list[str], env: Environment | None = None) -> list[str]:
    """The command that removes the distributions ``names`` from the environment."""
    env = env or current()
    if env.kind == PIPX:
        return ["pipx", "uninject", env.name, *names]
    if env.kind == UV_TOOL:
        return _uv_tool_install(env, [], names, False)
    if env.kind == UV_PIP:
        return ["uv", "pip", "uninstall", "--python", env.python, *names]
    return [env.python, "-m", "pip", "uninstall", "--yes", *names]


def installed_names(env: Environment) -> set[str] | None:
    """For a uv tool: the distributions its receipt requires besides itself (what
    ``uv tool install`` would keep); None for the other kinds (they keep everything)."""
    if env.kind != UV_TOOL:
        return None
    return {name for _, _, name in env.requirements[1:]}


def _uv_tool_install(
    env: Environment, adding: list[str], removing: list[str], editable: bool
) -> list[str]:
    """``uv tool install`` with the tool's own requirement and every other one its receipt
    holds, less ``removing``, with ``adding`` in place of any of the same name."""
    if not env.requirements:
        raise InstallerError(f"uv's receipt in {env.prefix} lists no requirement")
    (_, tool, tool_name), *others = env.requirements
    replaced = {requirement_name(r) for r in adding} | {normalise(n) for n in removing}
    kept = [(option, r) for option, r, name in others if name not in replaced]
    if tool_name in replaced and adding:  # the tool itself, e.g. spoiler-game[host]
        tool = next(r for r in adding if requirement_name(r) == tool_name)
        adding = [r for r in adding if r != tool]
    option = "--with-editable" if editable else "--with"
    withs = [*kept, *((option, r) for r in adding)]
    return ["uv", "tool", "install", tool, *(arg for pair in withs for arg in pair)]


def check(command: list[str]) -> None:
    """InstallerError unless the command's program can be found."""
    if shutil.which(command[0]) is None:
        raise InstallerError(
            f"{command[0]} is not on the PATH, and spoiler runs in an environment it made"
        )


def shown(command: list[str]) -> str:
    """A command as a user would type it: ``pip`` for this interpreter's own ``-m pip`` when
    the ``pip`` on the PATH is that one."""
    if command[:3] == [sys.executable, "-m", "pip"]:
        found = shutil.which("pip")
        if found is not None and Path(found).parent == Path(sys.executable).parent:
            command = ["pip", *command[3:]]
    return shlex.join(command)


def install_hint(*requirements: str, editable: bool = False) -> str:
    """The command to type to install ``requirements`` here, for a message ("install it
    with: ..."). Never fails: with an unreadable receipt, it says to use ``spoiler install``,
    which explains."""
    try:
        return shown(install_command(list(requirements), editable=editable))
    except InstallerError:
        return shlex.join(["spoiler", "install", *requirements])


def python_hint() -> str:
    """How to run this environment's Python (``python`` when that is the one on the PATH)."""
    found = shutil.which("python")
    if found is not None and Path(found).parent == Path(sys.executable).parent:
        return "python"
    return shlex.quote(sys.executable)
