"""``spoiler ladder``: bot kinds rated (OpenSkill, Plackett-Luce) from free-for-all games on
a seeded schedule, with head-to-head shares; and what it needs of ``spoiler simulate``: a kind
per seat per game (``Plan.seating``) and kinds with options of their own (``expert@think=800``).

(tests/test_ladder.py is another ladder: the rules' lost / in play / won ruling.)
"""

from __future__ import annotations

import pytest

from spoiler.session import simulate as sim


def test_a_kind_may_carry_options_of_its_own():
    assert sim.variant("expert") == ("expert", {})
    assert sim.variant("expert@think=800") == ("expert", {"think_ms": 800.0})
    assert sim.variant("exec:python3 bot.py@depth=3") == ("exec:python3 bot.py", {"depth": "3"})
    # an @ that is not followed by KEY=VALUE is the command's own
    assert sim.variant("exec:python3 a@b.py") == ("exec:python3 a@b.py", {})
    for bad in ("expert@think=0", "expert@think=fast", "expert@think=inf"):
        with pytest.raises(sim.PlanError, match="not a thinking time"):
            sim.variant(bad)


def test_a_seating_plan_seats_its_kinds_game_by_game():
    seating = (("greedy", "random"), ("random", "greedy"), ("random", "random@x=1"))
    plan = sim.Plan(5, ("greedy", "random"), ("base",), seed=3, seating=seating)
    assert plan.players == 2 and plan.kinds() == ["greedy", "random", "random@x=1"]
    sim.check(plan)
    games = sim.run(plan)
    assert [g["bots"] for g in games] == [list(seating[n % 3]) for n in range(5)]
    with pytest.raises(sim.PlanError, match="as many players"):
        sim.check(sim.Plan(2, ("greedy",), seating=(("greedy", "random"), ("greedy",))))
