"""Events told as sentences, for any front end (the terminal, a hosted seat, a record)."""
