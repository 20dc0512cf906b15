"""`spoiler play --match N` (issue 11): games until someone has won N, the score between
games, one record for the whole match that `replay`, `replay --verify` and `resume` read."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from spoiler import plugins, records
from spoiler.cli import app, common
from spoiler.match import game_seed, scores, winners

BUILTINS_ONLY = {"SPOILER_PLUGINS": "", "COLUMNS": "100", "NO_COLOR": "1"}
# Seed 3, three greedy bots, base set, first to 2: the match takes three games.
MATCH = ("play", "--bots", "3", "--sets", "base", "--seed", "3", "--match", "2")


@pytest.fixture(autouse=True)
def builtins_only(monkeypatch):
    registry = plugins.load({})
    monkeypatch.setattr(common, "load_registry", lambda: registry)


def cli(*args, input=None):
    return CliRunner().invoke(app, [str(a) for a in args], input=input, env=BUILTINS_ONLY)


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """The match, played once and recorded (module-scoped: a match is many games)."""
    path = tmp_path_factory.mktemp("match") / "match.toml"
    result = CliRunner().invoke(app, [*MATCH, "--record", str(path)], env=BUILTINS_ONLY)
    assert result.exit_code == 0, result.output
    return path, result.stdout


def test_a_match_plays_games_until_someone_has_won_n_with_the_score_between(played):
    _, out = played
    assert [line.strip("─ ") for line in out.splitlines() if "of the match" in line] == [
        "Game 1 of the match",
        "Game 2 of the match",
        "Game 3 of the match",
    ]
    assert "The match after 1 game, first to 2" in out
    assert "The match after 3 games, first to 2" in out
    assert out.rstrip().splitlines()[-2].endswith("won the match, with 2 wins.")
    assert (
        "Match seed: 3. Play it again: spoiler play --seed 3 --sets base --bots 3 --bot greedy "
        "--match 2" in out
    )


def test_the_whole_match_is_one_record_and_replays_with_verify(played):
    path, _ = played
    record = records.load(path)
    assert record.match.wins == 2 and record.match.seed == 3
    assert len(record.games()) == 3 and all(g.over for g in record.games())
    assert [g.seed for g in record.games()] == [game_seed(3, n) for n in (1, 2, 3)]
    result = cli("replay", "--verify", path)
    assert result.exit_code == 0, result.output
    assert "OK: 3 games" in result.stdout and "(the match is over)" in result.stdout


def test_a_replayed_match_shows_every_game_and_ends_with_the_match_winner(played):
    path, out = played
    result = cli("replay", path)
    assert result.exit_code == 0, result.output
    assert "Game 3 of the match" in result.stdout
    winner_line = next(line for line in out.splitlines() if "won the match" in line)
    assert result.stdout.rstrip().splitlines()[-1] == winner_line


def test_a_stopped_match_resumes_where_it_stopped_and_ends_as_played_straight(played, tmp_path):
    """Cut the record in the middle of game 2 (as a stop would leave it): `resume` plays
    the rest of game 2 and game 3, and the record ends exactly as the straight match's."""
    path, _ = played
    straight = records.load(path)
    cut = records.load(path)
    second = cut.match.games[1]
    cut.match.games = cut.match.games[:1]
    cut.seed, cut.rounds, cut.result = second.seed, second.rounds[:1], None
    cut.save(tmp_path / "cut.toml")

    result = cli("resume", tmp_path / "cut.toml")
    assert result.exit_code == 0, result.output
    assert "That was round 1, where the record stopped. The game goes on." in result.stdout
    assert records.load(tmp_path / "cut.toml").to_toml() == straight.to_toml()
    assert cli("resume", tmp_path / "cut.toml").exit_code == 2  # the match is over


def test_a_match_record_whose_game_seed_was_changed_is_refused(played, tmp_path):
    path, _ = played
    record = records.load(path)
    record.match.games[0].seed += 1
    record.save(tmp_path / "bad.toml")
    result = cli("replay", tmp_path / "bad.toml")
    assert result.exit_code == 2
    assert "match.games[1].seed: not the seed of game 1 of this match" in result.stderr


def test_wins_count_for_every_winner_and_a_draw_for_no_one():
    results = [{"winners": [0]}, {"winners": [1, 2]}, {"winners": []}, {"winners": [0]}]
    assert scores(results, 3) == [2, 1, 1]
    assert winners([2, 1, 1], 2, 4) == [0]
    assert winners([1, 1, 1], 2, 4) is None
    assert winners([0, 0, 0], 2, 20) == []  # no winner after 10 games per win needed
