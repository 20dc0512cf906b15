"""``spoiler host``: one game served over SSH, each player at their own terminal.

* ``safety``: names, typed lines, the join code and the host key (no asyncssh needed);
* ``terminal``: one player's connection as the game's threads see it;
* ``table``: the hosted seats, their questions, drop-outs, come-backs and bots taking over;
* ``server``: the asyncssh server, the lobby and the game's thread.
"""
