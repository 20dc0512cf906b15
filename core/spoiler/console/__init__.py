"""The rich terminal UI shared by ``spoiler play`` and ``spoiler host``: the screen, the
human's dialogue, columns and card panels."""
