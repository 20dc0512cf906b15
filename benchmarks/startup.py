"""Start-up time of the ``spoiler`` command against the CLI framework alone, in a clean venv.

Makes a fresh virtual environment in a temporary folder, installs this checkout into it (not
editable, as a user would), and times, side by side (each round runs every command once, so
a busy machine slows them all alike):

- ``python -c "import typer"``, the baseline;
- ``spoiler --help`` (target: at most 1.2 times the baseline);
- ``spoiler play --help`` (reported);
- ``spoiler sets list`` and ``spoiler cards list`` (at most 2.0 times).

Then it installs 30 small generated card sets (one card each, each its own distribution) and
30 generated command plugins (one ``spoiler.commands`` entry point each, each its own
distribution: ``spoiler --help`` lists them all) and times them all again: ``spoiler --help``
must still be within 1.2 times the baseline (the other ratios are reported), and the
difference over 30 is the cost of each installed card set to ``sets list`` and ``cards list``
(target: under 1.5 ms).

Prints medians of CPU time (user + system: on a busy machine wall time is mostly waiting);
exit code 1 if a target is missed. The figures vary from machine to machine: this is a
script, not a timed test.

    python benchmarks/startup.py [--runs N] [--plugins N]
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Each command's target, as a multiple of the baseline (None: reported only).
RATIO_TARGETS = {
    "spoiler --help": 1.2,
    "spoiler play --help": None,
    "spoiler sets list": 2.0,
    "spoiler cards list": 2.0,
}
#: With the generated plugins installed: ``spoiler --help`` lists 30 more commands.
AFTER_TARGETS = {"spoiler --help": 1.2}
PER_PLUGIN_TARGET_MS = 1.5
BASELINE = 'python -c "import typer"'


def make_venv(where: Path) -> Path:
    """A fresh venv with this checkout installed; returns its bin folder."""
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True)
    bin_dir = where / "bin"
    pip = [str(bin_dir / "python"), "-m", "pip", "--disable-pip-version-check", "--quiet"]
    subprocess.run([*pip, "install", str(ROOT)], check=True)
    return bin_dir


def plugin_wheel(out: Path, n: int) -> Path:
    """A wheel of a tiny card set plugin, ``spoiler-bench-NN``: one module, one card."""
    module = (
        "from spoiler import ANY_PLAYER, CardSet, hookimpl\n\n"
        f'bench = CardSet("bench{n:02d}", "1.0.0", description="A benchmark set.")\n\n\n'
        "@bench.card\n"
        "class Pebble:\n"
        '    text = "Choose any player. They draw a card."\n'
        "    target = ANY_PLAYER\n\n"
        "    def main(play):\n"
        "        play.draw(play.target)\n\n\n"
        "@hookimpl\n"
        "def spoiler_register_sets(register):\n"
        "    register(bench)\n"
    )
    return wheel(out, f"spoiler_bench_{n:02d}", module, f"[spoiler]\nbench{n:02d} = {{module}}\n")


def command_wheel(out: Path, n: int) -> Path:
    """A wheel of a tiny command plugin, ``spoiler-benchcmd-NN``: a Typer app adding the
    command ``bench-NN``."""
    module = (
        "import typer\n\n"
        "app = typer.Typer()\n\n\n"
        "@app.command()\n"
        f"def bench_{n:02d}() -> None:\n"
        '    """A benchmark command."""\n'
        '    typer.echo("bench")\n'
    )
    entry = f"[spoiler.commands]\nbench-{n:02d} = {{module}}:app\n"
    return wheel(out, f"spoiler_benchcmd_{n:02d}", module, entry)


def wheel(out: Path, name: str, module: str, entry_points: str) -> Path:
    """A wheel of one module, ``name`` (its distribution: the same with dashes), with these
    entry points (``{module}`` stands for the module's name).

    Written directly (a wheel is a zip with its metadata), so that making 60 needs no build
    backend; pip installs it like any other."""
    version = "1.0.0"
    info = f"{name}-{version}.dist-info"
    files = {
        f"{name}/__init__.py": module,
        f"{info}/METADATA": (
            f"Metadata-Version: 2.1\nName: {name.replace('_', '-')}\nVersion: {version}\n"
            "Summary: A benchmark plugin.\nRequires-Dist: spoiler-game\n"
        ),
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: startup.py\nRoot-Is-Purelib: true\n"
        "Tag: py3-none-any\n",
        f"{info}/entry_points.txt": entry_points.format(module=name),
    }
    record = []
    for path, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=")
        record.append(f"{path},sha256={digest.decode()},{len(text.encode())}")
    files[f"{info}/RECORD"] = "\n".join([*record, f"{info}/RECORD,,"]) + "\n"
    made = out / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(made, "w") as zf:
        for path, text in files.items():
            zf.writestr(path, text)
    return made


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def side_by_side(commands: dict[str, list[str]], runs: int) -> dict[str, float]:
    """The median CPU time (user + system) of each command, run in turn ``runs`` times after
    one warm-up round. CPU time, not wall time: on a shared machine the wall time of a
    process this short is mostly waiting for a core, while its CPU time stays put."""
    env = dict(os.environ, COLUMNS="100")
    env.pop("SPOILER_PLUGINS", None)
    times: dict[str, list[float]] = {label: [] for label in commands}
    for round_ in range(runs + 1):
        for label, command in commands.items():
            start = child_cpu()
            subprocess.run(command, capture_output=True, env=env, check=True)
            if round_:  # the first round only warms the file cache
                times[label].append(child_cpu() - start)
    return {label: statistics.median(t) for label, t in times.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs per command (default 15)")
    parser.add_argument(
        "--plugins",
        type=int,
        default=30,
        help="generated card sets, and command plugins, to install (default 30 of each)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="spoiler-startup-") as tmp:
        print(f"Installing {ROOT.name} into a clean venv ...", flush=True)
        bin_dir = make_venv(Path(tmp) / "venv")
        python, spoiler = str(bin_dir / "python"), str(bin_dir / "spoiler")
        commands = {BASELINE: [python, "-c", "import typer"]}
        commands.update({label: [spoiler, *label.split()[1:]] for label in RATIO_TARGETS})
        before = side_by_side(commands, args.runs)

        wheels = Path(tmp) / "wheels"
        wheels.mkdir()
        made = [str(plugin_wheel(wheels, n)) for n in range(args.plugins)]
        made += [str(command_wheel(wheels, n)) for n in range(args.plugins)]
        pip = [python, "-m", "pip", "--disable-pip-version-check", "--quiet", "install"]
        subprocess.run([*pip, "--no-deps", *made], check=True)
        listed = [spoiler, "sets", "list"]
        shown = subprocess.run(listed, capture_output=True, text=True, check=True).stdout
        assert shown.count("bench") >= args.plugins, shown  # every generated set is loaded
        helped = subprocess.run([spoiler, "--help"], capture_output=True, text=True, check=True)
        listed_commands = helped.stdout.count("A benchmark plugin. (spoiler-benchcmd-")
        assert listed_commands == args.plugins, helped.stdout  # every command is listed
        ran = subprocess.run([spoiler, "bench-00"], capture_output=True, text=True, check=True)
        assert ran.stdout == "bench\n", ran  # and runs
        after = side_by_side(commands, args.runs)

    missed = 0
    for title, times, targets in (
        ("in a clean venv", before, RATIO_TARGETS),
        (
            f"with {args.plugins} more card sets and {args.plugins} command plugins installed",
            after,
            # The listings load every plugin: their cost per plugin is measured below.
            {label: AFTER_TARGETS.get(label) for label in RATIO_TARGETS},
        ),
    ):
        baseline = times[BASELINE]
        print(f"\nCPU time, medians of {args.runs} runs side by side, {title}")
        print(f"{BASELINE:<28} {baseline * 1000:7.1f} ms")
        for label, target in targets.items():
            ratio = times[label] / baseline
            if target is None:
                verdict = "(reported)"
            else:
                missed += ratio > target
                verdict = f"(target <= {target}x) " + ("ok" if ratio <= target else "SLOW")
            print(f"{label:<28} {times[label] * 1000:7.1f} ms  {ratio:4.2f}x  {verdict}")
    print(f"\neach of the {args.plugins} card sets, to commands that load the plugins")
    for label in ("spoiler sets list", "spoiler cards list"):
        # Scaled by the baseline of the same rounds, so that a change in load cancels out.
        extra = after[label] / after[BASELINE] * before[BASELINE] - before[label]
        each = extra / args.plugins * 1000
        missed += each >= PER_PLUGIN_TARGET_MS
        verdict = "ok" if each < PER_PLUGIN_TARGET_MS else "SLOW"
        print(
            f"{label:<28} {each:5.2f} ms per plugin  (target < {PER_PLUGIN_TARGET_MS} ms) {verdict}"
        )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
