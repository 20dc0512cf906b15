"""The rules: the engine that moves a game's state from the deal to its result."""
