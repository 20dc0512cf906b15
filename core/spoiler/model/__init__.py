"""The model: state, events, the card model, plays and verbs, views. Plain data and the
vocabulary card authors write with; it imports nothing else of spoiler."""
