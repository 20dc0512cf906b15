"""The plugins spoiler-game ships, loaded like anyone's: the base set (``spoiler_game.base``),
the bots (``spoiler_game.bots``) and the commands not every player needs (``host``,
``simulate``, ``ladder``, ``new``, ``install``).

They live inside the import package named after the distribution, so that no one else's
``spoiler-*`` distribution can take their names; their source stays in the top-level
``plugins/`` folder. The old top-level names (``spoiler_base`` ...) still import, for one
release (``spoiler.moved``).
"""
