"""The rich terminal UI shared by ``spoiler play`` and ``spoiler host``: the screen, the
human's dialogue, a game played on the screen (``game``), columns and card panels."""
