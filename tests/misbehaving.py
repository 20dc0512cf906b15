"""Misbehaving plugins, installed for real (a ``*.dist-info`` directory and a module on a
path that ``PYTHONPATH`` adds), for tests/test_plugin_matrix.py and
benchmarks/plugin_matrix.py.

Each case is a distribution ``spoiler-<case>`` with one entry point and the module behind it;
``EXPECT`` says, per command, which exit codes are right and what its output must mention.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

SET = """
from spoiler import CardSet, hookimpl

cards = CardSet("{name}", "1.0.0")

def _effect(play):
    {effect}

cards.card(type("{card}", (), {"text": "Does something.", "copies": 12, "main": _effect}))

@hookimpl
def spoiler_register_sets(register):
    register(cards)
"""

HOOK = """
@hookimpl
def spoiler_round_start(game):
    {hook}
"""

BOT = """
class Wild:
    def __init__(self, seat, seed):
        {factory}

    def select(self, view):
        {select}

    def answer(self, view, question):
        return question.options[0]

@hookimpl
def spoiler_register_agents(register):
    register("wild", Wild, "a bot that misbehaves")
"""

PASS = "pass"
#: A pure-Python loop that never calls the engine.
SPIN = "n = 0\n    while True: n += 1"
#: The runaway guard's clock cut to 1 s for the games of this process (10 s by default).
FAST_GUARD = "import spoiler.rules.game as _game; _game.MAX_ROUND_SECONDS = 1.0\n"
LAUNCH = "from spoiler.launch import main; main()"


def plugin(
    *,
    top: str = "",
    effect: str = PASS,
    hook: str = "",
    card: str = "Thing",
    bot: dict | None = None,
):
    """The source of a plugin module for a case named later (``{name}`` is its set)."""
    source = (
        "import os, sys, time\n" + top + SET.replace("{effect}", effect).replace("{card}", card)
    )
    if hook:
        source += HOOK.replace("{hook}", hook)
    if bot is not None:
        source += BOT.replace("{factory}", bot.get("factory", PASS)).replace(
            "{select}", bot.get("select", "raise ValueError('no idea')")
        )
    return source


#: case -> (entry point name, distribution, module source)
CASES = {
    "exit_at_import": ("exitimport", "spoiler-exitimport", plugin(top="sys.exit(0)\n")),
    "interrupt_at_import": (
        "interruptimport",
        "spoiler-interruptimport",
        plugin(top="raise KeyboardInterrupt\n"),
    ),
    "prints_at_import": ("loud", "spoiler-loud", plugin(top="print('hello from loud')\n")),
    "prints_in_game": (
        "chatty",
        "spoiler-chatty",
        plugin(hook="print('hello from a hook')", effect="print('hello from a card')"),
    ),
    "exit_in_hook": ("exithook", "spoiler-exithook", plugin(hook="sys.exit(0)")),
    "interrupt_in_hook": (
        "interrupthook",
        "spoiler-interrupthook",
        plugin(hook="raise KeyboardInterrupt"),
    ),
    "exit_in_card": ("exitcard", "spoiler-exitcard", plugin(effect="sys.exit(0)")),
    "raising_bot": ("wildbot", "spoiler-wildbot", plugin(bot={})),
    "exiting_bot": ("exitbot", "spoiler-exitbot", plugin(bot={"select": "sys.exit(0)"})),
    "raising_bot_factory": (
        "wildfactory",
        "spoiler-wildfactory",
        plugin(bot={"factory": "raise RuntimeError('cannot start')"}),
    ),
    "card_named_accuse": ("lookalike", "spoiler-lookalike", plugin(card="Accuse")),
    "impostor_chrono": ("chrono", "aaa-evil", plugin()),
    "impostor_base": ("base", "aaa-evil-base", plugin()),
    "os_exit_at_import": ("osexit", "spoiler-osexit", plugin(top="os._exit(0)\n")),
    "hang_at_import": ("hang", "spoiler-hang", plugin(top="time.sleep(600)\n")),
    "loop_in_card": ("loop", "spoiler-loop", plugin(top=FAST_GUARD, effect=SPIN)),
    "loop_in_hook": ("loophook", "spoiler-loophook", plugin(top=FAST_GUARD, hook=SPIN)),
    "memory_hog": ("hog", "spoiler-hog", plugin(effect="b = bytearray(8 * 1024**3)")),
    "kills_itself": ("killer", "spoiler-killer", plugin(effect="os.kill(os.getpid(), 9)")),
}

#: The environment each case needs beyond its distribution.
ENVIRON = {
    "impostor_chrono": {"SPOILER_PLUGINS": "spoiler-chrono,aaa-evil"},
    "impostor_base": {"SPOILER_PLUGINS": ""},
}

COMMANDS = {
    "sets list": ["sets", "list", "--json"],
    "plugins": ["plugins", "--json"],
    "sets validate": ["sets", "validate", "--games", "20", "--json"],
    "play": ["play", "--bots", "3", "--seed", "3", "--max-rounds", "30"],
    "simulate": ["simulate", "--games", "8", "--jobs", "1", "--max-rounds", "30", "--json"],
    "simulate in processes": ["simulate", "--games", "8", "--jobs", "2", "--json"],
}

# What each command must do: exit codes allowed, and a pattern its output must show. A case
# left out of a command is out of reach there (the trust model: os._exit and hangs in the
# process that imports the plugin) or has nothing to show.
BROKEN = ({0}, r'"status": "broken"')
#: A game stopped by the runaway guard: one line naming the code, the seed and the record.
RUNAWAY = (
    r"Error: round \d+ ran past its limit \(1\.\d s of card code with no player deciding "
    r"anything\) in {running}: an effect that never ends\? Cards played that round: .* "
    r"Seed 3\. The record .* is saved in spoiler-3\.toml"
)
RUNAWAY_SIMULATED = (
    r"Error: round \d+ ran past its limit \(1\.\d s of card code with no player deciding "
    r"anything\) in {running}: an effect that never ends\? .* Seed \d+\."
)
#: Both what a hook and what a card printed reached the output.
PRINTED_IN_GAME = r"(?=.*hello from a hook)(?=.*hello from a card)"
FAILS_VALIDATE = ({1}, r'"ok": false')
EXPECT: dict[str, dict[str, tuple[set[int], str]]] = {
    "exit_at_import": {
        "sets list": BROKEN,
        "plugins": BROKEN,
        "sets validate": ({1}, r"failed to import: SystemExit"),
        "play": ({0}, r"plugin 'exitimport' is broken"),
    },
    "interrupt_at_import": {
        "sets list": BROKEN,
        "plugins": BROKEN,
        "sets validate": ({1}, r"failed to import: KeyboardInterrupt"),
        "play": ({0}, r"plugin 'interruptimport' is broken"),
    },
    "prints_at_import": {
        "sets list": ({0}, r'"name": "loud"'),
        "plugins": ({0}, r'"name": "loud"'),
        "sets validate": ({0}, r'"ok": true'),
        "play": ({0}, r"Final table"),
    },
    "prints_in_game": {  # plugin code printing during games: stdout of --json stays JSON
        "sets list": ({0}, r'"name": "chatty"'),
        "plugins": ({0}, r'"name": "chatty"'),
        "sets validate": ({0}, r'"ok": true'),
        "play": ({0}, r"Final table"),
    },
    "exit_in_hook": {
        "sets validate": ({1}, r"SystemExit"),
        "play": ({0}, r"SystemExit: 0\); the game goes on without it"),
    },
    "interrupt_in_hook": {
        "sets validate": ({1}, r"KeyboardInterrupt"),
        "play": ({0}, r"KeyboardInterrupt.*the game goes on without it"),
    },
    "exit_in_card": {
        "sets validate": ({1}, r"effect failed: SystemExit"),
        "play": ({0}, r"fizzled: its effect failed \(SystemExit: 0\)"),
    },
    "raising_bot": {"play": ({1}, r"bot 'wild' of plugin 'wildbot' failed in select")},
    "exiting_bot": {"play": ({1}, r"bot 'wild' of plugin 'exitbot' failed in select: SystemExit")},
    "raising_bot_factory": {
        "play": ({2}, r"bot 'wild' of plugin 'wildfactory' failed in its factory")
    },
    "card_named_accuse": {
        "sets validate": ({1}, r"card name 'Accuse' is also in set"),
        "play": ({0}, r"Final table"),
    },
    "impostor_chrono": {
        "sets list": ({0}, r"also claimed by distribution"),
        "plugins": ({0}, r"also claimed by distribution"),
        "sets validate": ({1}, r"also claimed by distribution"),
        "play": ({0}, r"plugin 'chrono \((aaa-evil|spoiler-chrono)\)' is broken"),
    },
    "impostor_base": {
        "sets list": ({0}, r'"status": "disabled"'),
        "plugins": ({0}, r'"status": "disabled"'),
        "sets validate": ({0}, r'"ok": true'),
        "play": ({0}, r"Final table"),
    },
    "os_exit_at_import": {
        "sets validate": ({1}, r"osexit.*exited the validation process while importing"),
    },
    "hang_at_import": {
        "sets validate": ({1}, r"hang.*did not finish importing within"),
    },
    "loop_in_card": {
        "sets validate": ({1}, r'"card": "Thing",\s*"check": "stuck"'),
        "play": ({1}, RUNAWAY.format(running="card 'loop:thing'")),
        "simulate": ({1}, RUNAWAY_SIMULATED.format(running="card 'loop:thing'")),
        "simulate in processes": ({1}, RUNAWAY_SIMULATED.format(running="card 'loop:thing'")),
    },
    "loop_in_hook": {
        "sets validate": ({1}, r"hook spoiler_round_start of plugin 'loophook': round 1 ran"),
        "play": ({1}, RUNAWAY.format(running=r"plugin 'loophook' \(in spoiler_round_start\)")),
        "simulate": (
            {1},
            RUNAWAY_SIMULATED.format(running=r"plugin 'loophook' \(in spoiler_round_start\)"),
        ),
    },
    "memory_hog": {"sets validate": ({1}, r"MemoryError")},
    "kills_itself": {"sets validate": ({1}, r"killed the validation process in a game")},
}

#: Cases whose plugin is at fault (a command that exits 0 must say so).
FAULTY = set(CASES) - {"prints_at_import", "prints_in_game", "card_named_accuse", "impostor_base"}


def install(case: str, root: Path) -> Path:
    """A directory holding the case's distribution, to put on PYTHONPATH."""
    entry, dist, source = CASES[case]
    site = root / case
    module = f"spoiler_case_{case}"
    info = site / f"{dist.replace('-', '_')}-1.0.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[spoiler]\n{entry} = {module}\n")
    (site / f"{module}.py").write_text(textwrap.dedent(source).replace("{name}", entry))
    return site


def environ(case: str, site: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "SPOILER_PLUGINS"}
    path = os.pathsep.join(filter(None, [str(site), env.get("PYTHONPATH")]))
    return {**env, "PYTHONPATH": path, "NO_COLOR": "1", "COLUMNS": "200", **ENVIRON.get(case, {})}


#: Cases whose plugin loads: `play` is given its set, so its cards and rules are in the game.
PLAY_ITS_SET = {"prints_at_import", "exit_in_hook", "interrupt_in_hook", "exit_in_card"}
PLAY_ITS_SET |= {"prints_in_game"}
PLAY_ITS_SET |= {"card_named_accuse", "loop_in_card", "loop_in_hook"}


def command_for(case: str, command: str) -> list[str]:
    args = list(COMMANDS[command])
    if command.startswith("simulate"):
        args += ["--sets", f"base,{CASES[case][0]}"]
    elif command == "play" and "bot" in case:
        args += ["--bot", "wild", "--sets", "base"]
    elif command == "play" and case in PLAY_ITS_SET:
        args += ["--sets", f"base,{CASES[case][0]}"]
    return args


def run(case: str, command: str, site: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", LAUNCH, *command_for(case, command)],
        env=environ(case, site),
        cwd=site,  # a game stopped by a failing bot is saved in the current directory
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
        check=False,
    )


def verdict(case: str, command: str, done: subprocess.CompletedProcess) -> str | None:
    """What is wrong with how the command dealt with the case (None: all is right)."""
    codes, pattern = EXPECT[case][command]
    output = done.stdout + done.stderr
    if "Traceback" in output:
        return "printed a traceback"
    if done.returncode not in codes:
        return f"exit code {done.returncode}, expected {sorted(codes)}: {done.stderr[-300:]}"
    if not re.search(pattern, output, re.S):
        return f"does not say {pattern!r}: {output[-400:]}"
    # (a command that fails with one line on stderr prints nothing on stdout: no JSON to read)
    if "--json" in COMMANDS[command] and (done.returncode == 0 or done.stdout):
        try:
            json.loads(done.stdout)
        except ValueError:
            return "its --json output is not JSON"
    return None
