"""Checking that a screen keeps a game's secrets: for tests of anything that shows a game to
a player (the local screen, a hot seat, a hosted game's screens).

``leaks(text, game, seat)`` lists the facts hidden from ``seat`` that appear in ``text``, the
screen text that seat was shown (plain text, as a recording rich ``Console`` exports it);
``assert_keeps_secrets`` raises ``AssertionError`` naming them. ``seat=None`` is a screen every
player may see (a shared screen between turns, a spectator of a game with humans).

The hidden facts, at the moment of the check:

* every secret event of the log that ``seat`` may not see (another player's hand as dealt,
  drawn, given or shown; a selection before it resolves; an answer given in private; a card's
  secret information before it resolves), told in full the way the screen would tell it
  (``Bix drew Jewel.``, ``Ada selected Accuse on you, naming Jewel.``);
* another player's hand of three or more cards, listed as the players table lists hands
  (``Jewel, Crown, Shield``), unless ``seat`` was shown exactly that hand;
* the deck's order: its next four cards named in order;
* the game's seed, while the game runs (only a seed of six digits or more is looked for:
  a small number on a screen is no sign of anything).

Text is compared with all runs of white space made one space, so that a sentence wrapped
over several lines is still found.
"""

from __future__ import annotations

import re

from spoiler.narration.narrate import narrate


def _flat(text: str) -> str:
    return " ".join(text.split())


def hidden_facts(game, seat: int | None) -> list[tuple[str, object]]:
    """(what, how a screen would show it) for every fact hidden from ``seat`` now: a text,
    a list of card names (in that order, however joined) or a regular expression."""
    st = game.state
    names = [p.name for p in st.players]
    facts: list[tuple[str, object]] = []
    for event in st.log:
        if event.secret is not None and seat not in event.secret_to:
            sentence = narrate(event, names, game.cards_by_id, seat)
            facts.append((f"the secret of a {event.kind!r} event of round {event.round}", sentence))
    for player in st.players:
        if player.seat == seat or len(player.hand) < 3:
            continue
        hand = tuple(player.hand)
        if seat is not None and st.players[seat].known.get(player.seat, (None, ()))[1] == hand:
            continue  # shown to this seat, and unchanged since
        listed = ", ".join(card.name for card in hand)
        facts.append((f"{player.name}'s hand", listed))
    if len(st.deck) >= 4:
        top = [card.name for card in reversed(st.deck[-4:])]
        facts.append(("the deck's order", top))
    if not game.over and game.seed is not None and len(str(abs(game.seed))) >= 6:
        facts.append(("the seed", re.compile(rf"(?<!\d){game.seed}(?!\d)")))
    return facts


def leaks(text: str, game, seat: int | None) -> list[str]:
    """The facts hidden from ``seat`` that ``text`` shows, each as "what: the text found"."""
    flat = _flat(text)
    found = []
    for what, shows in hidden_facts(game, seat):
        if isinstance(shows, re.Pattern):
            hit = shows.search(flat)
            if hit:
                found.append(f"{what}: {hit.group(0)}")
        elif isinstance(shows, list):  # names in this order, however they are joined
            pattern = r"\W+(?:and\W+)?".join(re.escape(name) for name in shows)
            hit = re.search(pattern, flat)
            if hit:
                found.append(f"{what}: {hit.group(0)}")
        elif _flat(str(shows)) in flat:
            found.append(f"{what}: {_flat(str(shows))}")
    return found


def assert_keeps_secrets(text: str, game, seat: int | None) -> None:
    """Raise AssertionError naming every fact hidden from ``seat`` that ``text`` shows."""
    found = leaks(text, game, seat)
    who = "a shared screen" if seat is None else f"{game.state.players[seat].name}'s screen"
    assert not found, f"{who} shows what it may not know: " + "; ".join(found)
