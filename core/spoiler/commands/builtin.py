"""The commands spoiler-game itself provides, in the order ``spoiler --help`` lists them.

Each is an entry point of the ``spoiler.commands`` group in pyproject.toml, as a third
party's command is; this table gives the same answer without reading any distribution's
metadata, so that ``spoiler play`` resolves its command at once, and ``spoiler --help``
lists these without importing them (tests/test_command_plugins.py keeps the two in step).
"""

#: name -> (entry point object, its one-line summary in ``spoiler --help``)
BUILTIN = {
    "play": (
        "spoiler.commands.play:app",
        "Play a game against bots or friends, or watch bots play.",
    ),
    "host": (
        "spoiler_game.host:app",
        "Host a game friends join over SSH, each at their own terminal.",
    ),
    "replay": (
        "spoiler.commands.records:replay_app",
        "Replay a recorded game or match, as it was played.",
    ),
    "resume": (
        "spoiler.commands.records:resume_app",
        "Continue a recorded game or match that is not over.",
    ),
    "cards": (
        "spoiler.commands.cards:cards_app",
        "The cards of the installed sets: list them, or show one.",
    ),
    "sets": (
        "spoiler.commands.sets:sets_app",
        "The card sets: list, show and validate them.",
    ),
    "rules": (
        "spoiler.commands.info:app",
        "Show the rules, and the rulings on what they leave open.",
    ),
    "simulate": (
        "spoiler_game.simulate:app",
        "Play many games of bots and report the figures, with warnings.",
    ),
    "ladder": (
        "spoiler_game.ladder:app",
        "Rate bot kinds against each other from many games of bots.",
    ),
    "new": (
        "spoiler_game.new:new_app",
        "Start something new: a card set of your own (for authors).",
    ),
    "plugins": (
        "spoiler.commands.plugins:app",
        "List the plugins: their commands, sets, bots, hooks and status.",
    ),
    "install": (
        "spoiler_game.install:install_app",
        "Add expansions, with the installer of spoiler's environment.",
    ),
    "uninstall": (
        "spoiler_game.install:uninstall_app",
        "Remove expansions, with the installer of spoiler's environment.",
    ),
}
