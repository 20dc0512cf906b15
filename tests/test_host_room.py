"""A hosted table that feels like a room (issue 20, item 5): chat, a lobby that shows who is
ready, notices drawn above the prompt, spectators, a rematch, seats a bot took over. Real
asyncssh clients on 127.0.0.1, as in tests/test_host.py."""

from __future__ import annotations

import asyncio
import contextvars
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import scripted_player
from test_host import BASE_ONLY, PATIENCE, Player, connect, flat, host, in_order, play_in_order, run

from spoiler_game.host.room import CHAT_BURST, MAX_CHAT, Chat
from spoiler_game.host.terminal import Throttle

asyncssh = pytest.importorskip("asyncssh")
__all__ = ["host"]  # the fixture, used by name


def screen_lines(raw: str) -> list[str]:
    """What a terminal shows for ``raw``, line by line: a carriage return goes back to the
    line's start, ``ESC [ 2 K`` clears the line, backspace steps back, other escapes draw
    nothing. (Enough of a terminal to see where a notice landed.)"""
    lines, line, col = [], [], 0
    i = 0
    while i < len(raw):
        ch = raw[i]
        if ch == "\x1b":
            found = re.match(r"\x1b\[([0-9;?]*)([A-Za-z@])", raw[i:])
            if found and found.group(2) == "K" and found.group(1) == "2":
                line, col = [], 0
            i += found.end() if found else 2
            continue
        if ch == "\r":
            col = 0
        elif ch == "\n":
            lines.append("".join(line).rstrip())
            line, col = [], 0
        elif ch == "\b":
            col = max(0, col - 1)
        else:
            if col < len(line):
                line[col] = ch
            else:
                line.append(ch)
            col += 1
        i += 1
    lines.append("".join(line).rstrip())
    return lines


# ==============================================================================================
# Chat
# ==============================================================================================
def test_a_chat_line_reaches_every_player_and_the_host_after_its_senders_name_and_cleaned(host):
    """ann types /say with escape sequences at her first prompt: ben and the host see
    "ann: hello ben" (nothing of the escapes), ann is asked her card again, the game goes on."""
    hosted = host("--seats", "2", "--seed", "9", "--max-rounds", "2")
    ann, ben = Player(hosted, "ann"), Player(hosted, "ben")
    said = "/say hello \x1b[31mben\x1b]0;pwned\x07\u202e\n"
    play_in_order(hosted, (ann, ann.play(send={1: said})), (ben, ben.play()))
    assert hosted.finish() == 0
    for screen in (ann.transcript, ben.transcript, hosted.output):
        assert "ann: hello ben\n" in screen
        assert "pwned" not in screen and "\x1b]" not in screen and "\u202e" not in screen
    assert ann.transcript.count("Play which card?") >= 2  # asked again after her chat line
    assert "Final table" in ben.transcript


def test_chat_at_a_terminal_is_drawn_above_the_open_prompt_never_into_it(host):
    """At a pseudo-terminal, with the server's line editor: ben's chat line arrives while
    ann's card prompt is open; ann's screen shows it on a line of its own, and the prompt
    drawn again under it."""
    hosted = host("--plain", "--seats", "2", "--seed", "9", "--max-rounds", "1")

    async def ann_waits(player, prompt):
        while "ben: good luck" not in hosted.output:  # her prompt stays open meanwhile
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.2)  # (the line on its way to her screen too)

    async def ben_waits(player, prompt):
        while "Play which card?" not in ann.transcript:  # until ann's prompt is open
            await asyncio.sleep(0.02)

    ann, ben = Player(hosted, "ann"), Player(hosted, "ben")

    async def scenario():
        await asyncio.gather(
            *await in_order(
                hosted,
                (ann, ann.play(term_type="xterm", before=ann_waits)),
                (ben, ben.play(send={1: "/say good luck\n"}, before=ben_waits)),
            )
        )
        return ann

    ann = run(scenario())[0]
    assert hosted.finish() == 0
    lines = screen_lines(ann.transcript)
    assert "ben: good luck" in lines
    said = lines.index("ben: good luck")
    assert lines[said + 1].startswith("Play which card? [1-")
    assert not any("Play which card?" in line and "ben:" in line for line in lines)


def test_a_chat_line_too_long_or_empty_or_a_flood_is_refused_in_one_line():
    clock = [0.0]
    chat = Chat(Throttle(0.5, CHAT_BURST, clock=lambda: clock[0]))
    assert chat.message("/say " + "x" * (MAX_CHAT + 1)) == (
        None,
        f"A chat line is at most {MAX_CHAT} characters: that one was not sent.",
    )
    assert chat.message("/say   ")[1] == "Type what to say after /say, e.g. /say good luck."
    assert (
        chat.message("/shout hi")[1]
        == "There is no command /shout: type /say TEXT to talk to the table."
    )
    sent = [chat.message(f"/say {n}")[0] for n in range(6)]
    assert sent == ["0", "1", "2", "3", None, None]
    assert "chatting too fast" in (chat.message("/say again")[1] or "")
    clock[0] += 2.0  # one more every two seconds
    assert chat.message("/say later") == ("later", None)


def test_chat_lines_past_the_pace_reach_no_one_and_their_sender_is_told(host):
    hosted = host("--seats", "2", "--seed", "9", "--max-rounds", "1")
    ann, ben = Player(hosted, "ann"), Player(hosted, "ben")
    flood = "".join(f"/say spam{n}\n" for n in range(8))
    play_in_order(hosted, (ann, ann.play(send={1: flood})), (ben, ben.play()))
    assert hosted.finish() == 0
    assert "ann: spam3" in ben.transcript and "spam4" not in ben.transcript
    assert "spam4" not in hosted.output
    assert "You are chatting too fast" in flat(ann.transcript)


# ==============================================================================================
# The lobby
# ==============================================================================================
async def lobby_session(hosted, name: str):
    conn = await connect(hosted.port, name, hosted.code)
    proc = await conn.create_process(term_type=None, encoding="utf-8")
    player = Player(hosted, name)
    await player.wait_for(f"Welcome to Spoiler, {name}", proc)
    return conn, proc, player


def test_the_lobby_shows_who_is_ready_and_starts_when_everyone_there_is(host):
    """Four seats, two in the lobby: ann says ready (everyone sees it), chats, asks for the
    rules and a card; once ben is ready too the game starts, bots in the two seats left."""
    hosted = host("--seats", "4", "--seed", "3", "--max-rounds", "1")

    async def scenario():
        conn_a, ann_proc, ann = await lobby_session(hosted, "ann")
        conn_b, ben_proc, ben = await lobby_session(hosted, "ben")
        ann_proc.stdin.write("ready\n")
        await ben.wait_for("In the lobby: ann, ben. Ready: ann.", ben_proc)
        ann_proc.stdin.write("/say hi all\n? accuse\nrules\nplay now\n")
        await ben.wait_for("ann: hi all", ben_proc)
        await ann.wait_for("The game has not begun: type ready", ann_proc)
        await ann.wait_for("Accuse", ann_proc)
        ben_proc.stdin.write("ready\n")
        await ben.wait_for("Everyone here is ready: the game begins.", ben_proc)
        await ben.wait_for("The game begins: ann, ben and 2 greedy bot(s)", ben_proc)
        conn_a.close()
        conn_b.close()
        return ann, ben

    ann, ben = run(scenario())[0]
    assert "Ready: ann, ben." in ben.transcript
    assert "Choose another player" in flat(ann.transcript)  # Accuse's text, ? accuse
    assert "add no rules of their own" in flat(ann.transcript)  # the base set's rules


# ==============================================================================================
# Spectators
# ==============================================================================================
def watch_code(hosted) -> str:
    return hosted.wait_for(r"Watch code:\s+(\S+)").group(1)


class Spectator:
    """A spectator's ssh client: joins with the watch code, types ``typed`` once it sees
    ``after`` on its screen, and reads until the host closes the session."""

    def __init__(self, hosted, name: str, typed: str = "", after: str = "Welcome"):
        self.hosted, self.name, self.typed, self.after = hosted, name, typed, after
        self.transcript = ""

    async def watch(self, code: str | None = None):
        code = code or watch_code(self.hosted)
        async with await connect(self.hosted.port, self.name, code) as conn:
            proc = await conn.create_process(term_type=None, encoding="utf-8")
            typed = False
            while chunk := await asyncio.wait_for(proc.stdout.read(1 << 16), 2 * PATIENCE):
                self.transcript += chunk
                if not typed and self.after in self.transcript:
                    typed = True
                    proc.stdin.write(self.typed)
            await proc.wait()
        return self


def test_a_spectator_sees_the_game_never_a_hand_talks_and_cannot_play(host, tmp_path):
    """zed joins with the watch code before the game, tries to play (1, q is not typed), asks
    for help, a card and the log, and chats; the players see the chat line after "zed (watching)".
    zed's screen, round by round, holds none of the facts hidden from a spectator
    (spoiler.leaks), and no hand at all; the game, recorded, is the two players'."""
    from spoiler import plugins, records
    from spoiler.leaks import assert_keeps_secrets

    sys.path.insert(0, str(Path(__file__).parent))
    from test_host import upto_round

    hosted = host(
        "--seats", "2", "--seed", "8446744073709551", "--max-rounds", "8",
        "--record", "game.toml",
    )  # fmt: skip
    zed = Spectator(hosted, "zed", "1\nplay Accuse\n?\n? jewel\nlog\n/say go ann\n", "Round 1")
    ann, ben = Player(hosted, "ann"), Player(hosted, "ben")

    async def scenario():
        watching = asyncio.ensure_future(zed.watch())
        while "zed is watching." not in hosted.output:
            await asyncio.sleep(0.01)
        await asyncio.gather(*await in_order(hosted, (ann, ann.play()), (ben, ben.play())))
        await watching

    run(scenario())
    assert hosted.finish() == 0
    screen = zed.transcript
    assert "You are watching: spectators cannot play or answer." in flat(screen)
    assert "Watching, you can type:" in screen
    assert "The game so far, as a spectator sees it" in screen
    assert "If you hold another Jewel, you win." in flat(screen)
    for player in (ann, ben):
        assert "zed (watching): go ann" in player.transcript
    assert "Final table" in screen and "Your hand" not in screen
    assert not re.search(r"You got|You drew|You selected", screen)

    record = records.load(tmp_path / "game.toml")
    assert [p.name for p in record.players] == ["ann", "ben"] and record.over
    game = records.build_game(record, plugins.load())
    game.start()
    while True:
        assert_keeps_secrets(upto_round(screen, game.round + 1), game, None)
        if game.over:
            break
        game.play_round()
    assert "ann drew a card." in screen and not re.search(r"ann drew [A-Z]", screen)


def test_a_spectator_who_comes_in_mid_game_sees_this_round_and_the_table(host):
    hosted = host("--seats", "2", "--seed", "5", "--max-rounds", "6")
    ann, ben = Player(hosted, "ann"), Player(hosted, "ben")
    late = Spectator(hosted, "zed")
    watching = []

    async def ben_later(player, prompt):
        if prompt == 2:  # a spectator comes in while the game runs
            watching.append(asyncio.ensure_future(late.watch()))
            while "zed is watching." not in hosted.output:
                await asyncio.sleep(0.01)

    async def scenario():
        await asyncio.gather(
            *await in_order(hosted, (ann, ann.play()), (ben, ben.play(before=ben_later)))
        )
        await asyncio.gather(*watching)

    run(scenario())
    assert hosted.finish() == 0
    assert re.search(r"The table in round \d", late.transcript)
    assert "Final table" in late.transcript and "Your hand" not in late.transcript
    assert "zed is watching." in ann.transcript


def test_a_wrong_watch_code_or_a_players_name_keeps_a_spectator_out(lobby_host):
    hosted = lobby_host

    async def scenario():
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(hosted.port, "zed", "0000-0000-0000")
        conn, _, _ = await lobby_session(hosted, "ann")
        as_ann = await connect(hosted.port, "Ann", watch_code(hosted))
        refused = await as_ann.run(term_type=None, check=False)
        as_ann.close()
        conn.close()
        return refused

    refused = run(scenario())[0]
    assert refused.exit_status == 1
    assert "the name 'Ann' is a player's at this table" in refused.stdout


@pytest.fixture
def lobby_host(host):
    return host("--seats", "8")


# ==============================================================================================
# A rematch
# ==============================================================================================
AGAIN: contextvars.ContextVar[list[str]] = contextvars.ContextVar("again")


def answering(answers: list[str]):
    """``answer_for``, but "Play again?" is answered from this player's ``answers``."""
    import test_host

    plain = scripted_player.answer_for

    def answer_for(since, tries):
        if re.search(r"Play again at this table.*\? \[y/n\] ", since):
            return AGAIN.get().pop(0), tries
        return plain(since, tries)

    test_host.answer_for = answer_for

    async def play(coro):
        AGAIN.set(list(answers))
        return await coro

    return play


def test_players_who_say_yes_play_again_in_the_same_lobby_with_a_new_seed(host, tmp_path):
    """After the first game both are asked; ann says yes, ben no: ben's session ends, ann
    plays a second game (a new seed, a bot in ben's seat) without reconnecting, then says
    no. Each game has its own record, and both replay."""
    import test_host
    from typer.testing import CliRunner

    from spoiler import records
    from spoiler.cli import app

    hosted = host("--seats", "2", "--seed", "9", "--max-rounds", "2", "--record", "game.toml")
    ann, ben = Player(hosted, "ann"), Player(hosted, "ben")
    plain = test_host.answer_for
    try:
        play_in_order(
            hosted,
            (ann, answering(["y", "n"])(ann.play())),
            (ben, answering(["n"])(ben.play())),
        )
    finally:
        test_host.answer_for = plain
    assert hosted.finish() == 0
    assert ann.transcript.count("Play again at this table") == 2
    assert "Thanks for playing." in ben.transcript and ben.exit_status == 0
    assert ben.transcript.count("The game begins") == 1
    second = ann.transcript.split("The game begins")[2]
    assert second.startswith(": ann and 1 greedy bot(s)")
    assert "Final table" in second
    first, again = records.load(tmp_path / "game.toml"), records.load(tmp_path / "game-2.toml")
    assert [p.kind for p in first.players] == ["human", "human"]
    assert [p.kind for p in again.players] == ["human", "greedy"]
    assert first.seed == 9 and again.seed != 9
    for name in ("game.toml", "game-2.toml"):
        verified = CliRunner().invoke(
            app, ["replay", "--verify", str(tmp_path / name)], env=BASE_ONLY
        )
        assert verified.exit_code == 0, verified.output
    assert "Saved to game.toml." in hosted.output and "Saved to game-2.toml." in hosted.output


def test_an_answer_to_play_again_that_is_neither_yes_nor_no_is_asked_again(host):
    hosted = host("--seats", "2", "--seed", "9", "--max-rounds", "1")
    ann, ben = Player(hosted, "ann"), Player(hosted, "ben")
    import test_host

    plain = test_host.answer_for
    try:
        play_in_order(
            hosted,
            (ann, answering(["maybe", "n"])(ann.play())),
            (ben, answering(["n"])(ben.play())),
        )
    finally:
        test_host.answer_for = plain
    assert hosted.finish() == 0
    assert "Please answer y (play again) or n (leave)." in ann.transcript
    assert ann.transcript.count("The game begins") == 1


# ==============================================================================================
# A seat a bot took over
# ==============================================================================================
def once_ann_is_a_bot(hosted, at_prompt: int):
    """A player's ``before`` hook: at prompt ``at_prompt``, wait until a bot took ann's seat."""

    async def before(player, prompt):
        if prompt == at_prompt:
            while "ann did not come back" not in hosted.output:
                await asyncio.sleep(0.02)

    return before


def test_a_seat_a_bot_took_over_is_named_as_a_bot_to_the_end_and_the_end_screen_says_so(host):
    """ann drops at her first prompt and does not come back: from then on ben's screen names
    her seat "ann (bot)", in the table, the round's events and the result, and the end
    screen says she was replaced."""
    hosted = host("--seats", "2", "--seed", "8", "--max-rounds", "6", "--wait", "0.2")

    after_the_bot = once_ann_is_a_bot(hosted, at_prompt=1)
    ann, ben = Player(hosted, "ann"), Player(hosted, "ben")
    play_in_order(hosted, (ann, ann.play(leave_after=1)), (ben, ben.play(before=after_the_bot)))
    assert hosted.finish() == 0
    after = ben.transcript.split("ann did not come back")[1]
    end = after.split("Final table")[1]
    assert re.search(r"ann \(bot\) (played|selected|drew|lost|won)", after)
    assert "ann (bot)" in end
    assert re.search(r"Replaced by a bot: ann, from round 1 on\.", end)
    assert re.search(r"Replaced by a bot: ann", hosted.output)
    for line in after.splitlines():
        assert not re.search(r"\bann (played|selected|drew|lost|won)", line), line


def test_while_a_dropped_seat_waits_the_others_are_told_how_long_it_still_waits(host):
    """ann drops at her first prompt with --wait 5: ben, whose prompt stays open meanwhile,
    is told she dropped out, then (every quarter of the wait, at least 2 s) how long her seat
    still waits, then that a bot took it; never silence for the whole wait."""
    hosted = host("--seats", "2", "--seed", "8", "--max-rounds", "3", "--wait", "5")

    after_the_bot = once_ann_is_a_bot(hosted, at_prompt=1)
    ann, ben = Player(hosted, "ann"), Player(hosted, "ben")
    play_in_order(hosted, (ann, ann.play(leave_after=1)), (ben, ben.play(before=after_the_bot)))
    assert hosted.finish() == 0
    told = flat(ben.transcript)
    dropped = told.index("ann dropped out. Their seat waits 5 s for them to join again.")
    waiting = [
        int(left)
        for left in re.findall(
            r"Waiting for ann to come back: (\d+) s left, then a greedy bot plays for them\.",
            told,
        )
    ]
    assert waiting and all(0 < left < 5 for left in waiting)
    assert waiting == sorted(waiting, reverse=True)
    assert dropped < told.index("Waiting for ann") < told.index("ann did not come back")


def test_the_record_keeps_the_chat_and_the_seat_a_bot_took_over_and_replay_shows_both(
    host, tmp_path
):
    """ben says "/say well played" at his first prompt; ann drops and does not come back.
    The record (format 2) keeps ben's line with its round and marks ann's seat as a bot's
    from round 1; ``spoiler replay`` shows the chat line and names the seat "ann (bot)", and
    the record still replays exactly."""
    from typer.testing import CliRunner

    from spoiler import records
    from spoiler.cli import app

    hosted = host(
        "--seats", "2", "--seed", "8", "--max-rounds", "6", "--wait", "0.2",
        "--record", "game.toml",
    )  # fmt: skip

    after_the_bot = once_ann_is_a_bot(hosted, at_prompt=2)
    ann, ben = Player(hosted, "ann"), Player(hosted, "ben")
    said = {1: "/say well played\n"}
    play_in_order(
        hosted,
        (ann, ann.play(leave_after=1)),
        (ben, ben.play(send=said, before=after_the_bot)),
    )
    assert hosted.finish() == 0
    path = tmp_path / "game.toml"
    assert "format = 2" in path.read_text()
    record = records.load(path)
    assert record.players[0].replaced_in == 1 and record.players[0].replaced_by == "greedy"
    assert record.players[1].replaced_in is None
    assert [c for r in record.rounds for c in r.chat] == [{"by": "ben", "text": "well played"}]
    replayed = CliRunner().invoke(app, ["replay", str(path)], env=BASE_ONLY)
    assert replayed.exit_code == 0, replayed.output
    assert "ben: well played" in replayed.output
    assert re.search(r"ann \(bot\) (played|selected|drew|lost|won)", replayed.output)
    assert "Replaced by a bot: ann, from round 1 on." in replayed.output
    verified = CliRunner().invoke(app, ["replay", "--verify", str(path)], env=BASE_ONLY)
    assert verified.exit_code == 0, verified.output


# ==============================================================================================
# The rules and the cards, at every prompt
# ==============================================================================================
def test_the_sets_rules_and_a_cards_help_reach_a_hosted_player_at_a_prompt(host):
    """With every installed set (chrono adds rules of its own): the rules are on every
    screen when the game begins, `rules` at a prompt shows them again, `? Jewel` shows the
    card, and the prompt is asked again."""
    hosted = host("--seats", "2", "--seed", "9", "--max-rounds", "1", env={})
    ann, ben = Player(hosted, "ann"), Player(hosted, "ben")
    play_in_order(hosted, (ann, ann.play(send={1: "rules\n", 2: "? jewel\n"})), (ben, ben.play()))
    assert hosted.finish() == 0
    screen = flat(ann.transcript)
    assert screen.count("Chrono rules:") == 2 and "Chrono rules:" in flat(ben.transcript)
    assert "If you hold another Jewel, you win." in screen
    assert ann.transcript.count("Play which card?") >= 3
