"""``spoiler play --match N``: games at the same table until someone has won N, the score
told between games, the whole match kept in one record (``spoiler.records.Match``).

``play_match`` serves ``play`` and ``resume`` alike: it is given the first game to play and a
``setup(seed)`` that seats the table for each next one.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from spoiler.session.match import game_seed, scores, winners


def results(record) -> list[dict]:
    """The results of the match's games so far, the current one included once it is over."""
    done = [g.result for g in record.match.games]
    return done + ([record.result] if record.result is not None else [])


def match_over(record) -> bool:
    done = results(record)
    return winners(scores(done, len(record.players)), record.match.wins, len(done)) is not None


def score_table(names: list[str], wins: list[int], needed: int, games: int) -> Table:
    table = Table(
        title=f"The match after {games} game{'s' * (games != 1)}, first to {needed}",
        title_justify="left",
        show_edge=False,
        pad_edge=False,
    )
    table.add_column("Player", min_width=len("The match after 10 games, first to 5") - 7)
    table.add_column("Wins", justify="right")
    for seat in sorted(range(len(names)), key=lambda s: -wins[s]):
        table.add_row(names[seat], str(wins[seat]))
    return table


def tell_score(console, record, done: list[dict] | None = None) -> list[int] | None:
    """Print the score after the games ``done`` (by default all those played); returns the
    match's winners once it is decided, else None."""
    names = record.names
    done = results(record) if done is None else done
    wins = scores(done, len(names))
    console.print()
    console.print(score_table(names, wins, record.match.wins, len(done)))
    won = winners(wins, record.match.wins, len(done))
    if won is not None:
        console.print()
        best = max(wins)
        each = f"{best} win{'s' * (best != 1)}"
        if len(won) == 1:
            console.print(Text(f"{names[won[0]]} won the match, with {each}.", style="bold"))
        elif won:
            who = " and ".join(names[s] for s in won)
            console.print(Text(f"The match is shared by {who}, with {each} each.", style="bold"))
        else:
            console.print(Text(f"The match ends after {len(done)} games with no winner."))
    return won


def play_match(game, recorder, screen, setup, run, stopped) -> None:
    """Play ``game`` and the match's next games until it is decided. ``run(game, recorder)``
    plays one game (None when stopped), ``stopped(game, recorder, seed)`` ends the command,
    ``setup(seed)`` seats the next game."""
    from spoiler.session import records

    console = screen.console
    record = recorder.record
    while True:
        number = len(record.match.games) + 1
        console.print()
        console.rule(Text(f"Game {number} of the match", style="bold"))
        if run(game, recorder) is None:
            stopped(game, recorder, game.seed)
        if tell_score(console, record) is not None:
            seed, wins = record.match.seed, record.match.wins
            again = screen.again(seed)
            if again is None:
                console.print(
                    f"Match seed: {seed} (play it again with --seed {seed} --match {wins}).",
                    markup=False,
                )
            else:
                console.print(
                    f"Match seed: {seed}. Play it again: {again} --match {wins}",
                    markup=False,
                    soft_wrap=True,
                )
            return
        seed = game_seed(record.match.seed, number + 1)
        record.next_game(seed)
        recorder = records.Recorder(record, recorder.path)
        if recorder.path is not None:
            recorder.record.save(recorder.path)
        game = setup(seed)
        if screen.stdin.isatty():
            try:
                answer = screen.read(f"Press Enter for game {number + 1} (q: stop the match).")
            except (EOFError, KeyboardInterrupt):
                answer = "q"
            if answer.lower() in ("q", "quit"):
                stopped(game, recorder, seed)
