"""The optional compiled engine: ``spoiler.rules`` and ``spoiler.search`` built with mypyc.

A wheel is pure Python unless the build is asked to compile, with the environment variable
``SPOILER_COMPILE``:

* ``SPOILER_COMPILE=1``: compile if this machine can (mypy's mypyc and a C compiler); if
  compiling fails, say so in one line and build the pure-Python wheel instead;
* ``SPOILER_COMPILE=require``: compile, or fail the build (CI, and wheels for release).

The compiled modules sit beside their sources in the wheel (an extension module is imported
before a ``.py`` of the same name), so card code, hooks and bots, which stay plain Python, see
the same names either way. ``spoiler --version`` says which engine runs. An editable install is
never compiled: its sources are the ones you edit. docs/architecture.md, "The compiled
engine", says what it buys.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: The modules compiled: the engine's parts and the search, what every round and rollout runs.
#: Left out, as mypyc cannot compile them: ``spoiler.rules.invariants`` (its error is an
#: ``AssertionError`` subclass; it runs only in tests), ``spoiler.search.transfer`` (its
#: picklers subclass the C ones; it runs once a decision at most), and the packages'
#: ``__init__`` (a compiled package finds no plain submodule: mypyc sets its ``__path__``
#: wrongly); and ``spoiler.rules.native``, whose decorator does nothing at run time: a
#: compiled copy would take that branch for dead code.
COMPILED = ("core/spoiler/rules", "core/spoiler/search")
LEFT_OUT = (
    "core/spoiler/rules/invariants.py",
    "core/spoiler/rules/native.py",
    "core/spoiler/search/transfer.py",
)
#: The module that holds the compiled modules' shared code: inside the package, so the
#: wheel's top level stays ``spoiler/`` and ``spoiler_game/``.
GROUP = "spoiler.compiled"
#: What the build environment needs to compile (``dependencies`` below).
NEEDS = ["mypy>=2.4.1", "setuptools>=70"]


def wanted() -> str:
    """``""`` (pure Python), ``"1"`` (compile if possible) or ``"require"``."""
    value = os.environ.get("SPOILER_COMPILE", "").strip().lower()
    if value in ("", "0", "no", "false"):
        return ""
    return "require" if value == "require" else "1"


def sources(root: Path) -> list[str]:
    """The files compiled, relative to ``root``, in a stable order."""
    left_out = {root / path for path in LEFT_OUT}
    found = [p for folder in COMPILED for p in sorted((root / folder).glob("*.py"))]
    return [
        str(p.relative_to(root)) for p in found if p not in left_out and p.name != "__init__.py"
    ]


def compile_engine(root: Path, work: Path) -> dict[str, str]:
    """Compile the engine in ``work``: {built extension file: its path in the wheel}."""
    from mypyc.build import mypycify
    from setuptools import Distribution

    cwd = os.getcwd()
    os.chdir(root)  # mypy names the modules from the paths (core/spoiler/... is spoiler....)
    try:
        extensions = mypycify(sources(root), target_dir=str(work / "c"), group_name=GROUP)
        dist = Distribution({"ext_modules": extensions})
        build = dist.get_command_obj("build_ext")
        build.build_lib, build.build_temp = str(work / "lib"), str(work / "temp")
        build.ensure_finalized()
        build.run()
    finally:
        os.chdir(cwd)
    lib = work / "lib"
    return {str(path): path.relative_to(lib).as_posix() for path in sorted(lib.rglob("*.so"))}


class CompileHook(BuildHookInterface):
    def dependencies(self) -> list[str]:
        return list(NEEDS) if wanted() else []

    def initialize(self, version: str, build_data: dict) -> None:
        mode = wanted()
        if not mode or self.target_name != "wheel" or version == "editable":
            return
        work = Path(tempfile.mkdtemp(prefix="spoiler-compile-"))
        self._work = work
        try:
            built = compile_engine(Path(self.root), work)
        except Exception as error:  # no compiler, no mypyc, a mypyc error: pure Python
            shutil.rmtree(work, ignore_errors=True)  # (finalize is not called after a raise)
            self._work = None
            if mode == "require":
                raise
            message = str(error).strip().splitlines()
            self.app.display_warning(
                f"spoiler: the engine was not compiled ({type(error).__name__}: "
                f"{message[-1] if message else ''}); building the pure-Python wheel"
            )
            return
        if not built:
            raise RuntimeError("spoiler: mypyc built no extension module")
        build_data["pure_python"] = False
        build_data["infer_tag"] = True  # cp311-cp311-linux_x86_64 and the like
        build_data["force_include"].update(built)
        print(f"spoiler: compiled {len(built) - 1} engine modules with mypyc", file=sys.stderr)

    def finalize(self, version: str, build_data: dict, artifact_path: str) -> None:
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
