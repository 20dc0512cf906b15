"""A spoiler-bot/1 program that misbehaves as told by its first argument, for
tests/test_process_bots.py and tests/test_bot_options.py. It plays legal[0] otherwise;
``tell FILE`` behaves, and appends each hello it gets to FILE."""

import json
import os
import subprocess
import sys
import time

HOW = sys.argv[1]
decisions = 0
if HOW == "crash-at-start":
    sys.exit(3)
if HOW == "fork":  # a child that would outlive the game, were it not ended with it
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    with open(sys.argv[2], "w") as out:
        out.write(str(child.pid))
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "game_over":
        continue
    if message["type"] == "hello":
        reply = {"name": HOW}
        if HOW == "tell":  # what it was told, for the test to read
            with open(sys.argv[2], "a") as out:
                out.write(line)
    else:
        decisions += 1
        if HOW == "crash-mid-game" and decisions == 3:
            os._exit(1)
        if HOW == "garbage":
            sys.stdout.write("this is not json\n")
            sys.stdout.flush()
            continue
        if HOW == "sleep":
            time.sleep(3)
        if HOW == "flood":
            sys.stdout.write("x" * (3 << 20))
            sys.stdout.flush()
            continue
        if message["type"] == "select":
            reply = {"card": "no-such-card"} if HOW == "illegal" else message["legal"][0]
        else:
            reply = {"answer": message["question"]["options"][0]}
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
