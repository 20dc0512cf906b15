"""Installing into a fresh virtual environment without the network, for the end-to-end
tests (tests/test_install_e2e.py, tests/test_new_set.py): run a command and fail with its
output, and link this environment's installed distributions into a folder that the fresh
one can use instead of downloading them."""

from __future__ import annotations

import os
import subprocess
from importlib import metadata
from pathlib import Path


def run(*args, timeout: float = 300, **kwargs) -> subprocess.CompletedProcess:
    """Run a command outside this test run's plugin and path settings; it must succeed."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("SPOILER_PLUGINS", "PYTHONPATH", "PIP_REQUIRE_VIRTUALENV")
    }
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    result = subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, env=env, timeout=timeout, **kwargs
    )
    assert result.returncode == 0, f"{' '.join(map(str, args))}\n{result.stdout}\n{result.stderr}"
    return result


def closure(*names: str) -> list[metadata.Distribution]:
    """These installed distributions and those they need (markers evaluated, no extras)."""
    from packaging.requirements import Requirement

    seen: dict[str, metadata.Distribution] = {}
    todo = [Requirement(n) for n in names]
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


def link(dists: list[metadata.Distribution], target: Path) -> None:
    """A folder with links to these distributions' installed files and metadata."""
    target.mkdir()
    for dist in dists:
        for top in {Path(str(f)).parts[0] for f in dist.files or []}:
            source = Path(dist.locate_file(top))
            if top not in ("..", "__pycache__") and source.exists() and not (target / top).exists():
                (target / top).symlink_to(source)
