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


def repack(dist: metadata.Distribution, target: Path) -> Path:
    """A wheel of an installed distribution, made again from the files its RECORD lists
    (scripts left out: installers write them anew from entry_points.txt). Lets pipx and uv
    build environments of their own without the network."""
    import base64
    import hashlib
    import zipfile

    info = next(Path(str(f)).parts[0] for f in dist.files or [] if str(f).endswith("/METADATA"))
    wheel_file = Path(dist.locate_file(f"{info}/WHEEL")).read_text()
    tags = [
        line.split(":", 1)[1].strip() for line in wheel_file.splitlines() if line.startswith("Tag:")
    ]
    name = dist.metadata["Name"].replace("-", "_").replace(".", "_")
    python, abi, platform = (
        ".".join(dict.fromkeys(t.split("-")[i] for t in tags)) for i in range(3)
    )
    path = target / f"{name}-{dist.version}-{python}-{abi}-{platform}.whl"
    records = []
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as whl:
        for file in dist.files or []:
            relative = str(file)
            parts = Path(relative).parts
            if parts[0] == ".." or "__pycache__" in parts or relative == f"{info}/RECORD":
                continue
            if parts[0] == info and parts[-1] in ("INSTALLER", "REQUESTED", "direct_url.json"):
                continue
            source = Path(dist.locate_file(file))
            if not source.is_file():
                continue
            data = source.read_bytes()
            whl.writestr(relative, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            records.append(f"{relative},sha256={digest},{len(data)}")
        records.append(f"{info}/RECORD,,")
        whl.writestr(f"{info}/RECORD", "\n".join(records) + "\n")
    return path


def wheelhouse(names: tuple[str, ...], target: Path) -> Path:
    """A folder of wheels, remade from this environment, of these distributions and all
    they need: what ``--no-index --find-links`` installs from."""
    target.mkdir(parents=True, exist_ok=True)
    for dist in closure(*names):
        repack(dist, target)
    return target


def bumped(wheel: Path, version: str, target: Path) -> Path:
    """A copy of ``wheel`` that says it is ``version``: an upgrade to install, offline."""
    import base64
    import hashlib
    import zipfile

    name, old = wheel.name.split("-")[:2]
    target.mkdir(parents=True, exist_ok=True)
    path = target / wheel.name.replace(f"-{old}-", f"-{version}-", 1)
    old_info, new_info = f"{name}-{old}.dist-info", f"{name}-{version}.dist-info"
    records = []
    with zipfile.ZipFile(wheel) as source, zipfile.ZipFile(path, "w") as copy:
        for item in source.infolist():
            if item.filename == f"{old_info}/RECORD":
                continue
            data = source.read(item)
            filename = item.filename.replace(old_info, new_info, 1)
            if filename == f"{new_info}/METADATA":
                data = data.replace(
                    f"\nVersion: {old}\n".encode(), f"\nVersion: {version}\n".encode()
                )
            copy.writestr(filename, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            records.append(f"{filename},sha256={digest},{len(data)}")
        records.append(f"{new_info}/RECORD,,")
        copy.writestr(f"{new_info}/RECORD", "\n".join(records) + "\n")
    return path
