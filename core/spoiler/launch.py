"""The ``spoiler`` console script. It is kept apart from the CLI so that Ctrl-C while the CLI
and its libraries are still being imported (the first fraction of a second) ends the program
quietly with exit code 130, as it does later, instead of printing a traceback."""

from __future__ import annotations

import sys


def main() -> None:
    from spoiler.model import interrupts

    interrupts.on_ctrl_c()
    try:
        from spoiler.commands import main as cli

        cli()
    except KeyboardInterrupt as exc:
        sys.stderr.write("\n")
        raise SystemExit(interrupts.exit_code(exc)) from None
    except SystemExit:
        try:  # what is left to write, written now: a reader gone is a broken pipe too
            sys.stdout.flush()
        except BrokenPipeError:
            from spoiler.commands.group import quiet_broken_pipe

            raise SystemExit(quiet_broken_pipe()) from None
        raise
