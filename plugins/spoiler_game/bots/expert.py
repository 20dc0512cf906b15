"""The expert bot: determinized Monte Carlo search, for any card set.

When it selects, the expert lists its legal selections (card, targets, information), and
tries each in many *determinizations*: copies of the game in which everything it cannot know
(other hands, the deck order) is dealt again at random, consistent with what it has seen
(``view.search``, see ``spoiler.search``). In each copy it plays the selection, then plays
the game out with the greedy policy for every seat (a rollout), and counts how often it
wins. Sequential halving spends the budget: every candidate gets a few rollouts, the better
half gets more, and so on until one is left. The same determinizations serve every
candidate, so they are compared on the same deals. The rollout policy's own choice is one
of them and is never halved away; the candidate that wins most often at the end is played.
(Playing another selection only when it won 3 points more often than the rollout policy's
choice cost the expert about 3 points of win rate against greedy bots.)

Answers to cards' questions are searched the same way: the round is played again from its
selection in fresh determinizations, with its own selection and the plays already revealed
this round fixed, and each possible answer given when the question comes.

It knows no card by name: it reads only its view and the results of rollouts, so it plays
every installed set. Its randomness comes from its own seeded stream, and a seeded expert
counts its budget in rollouts (``ROLLOUTS_PER_MS`` per millisecond of ``--think``), so a
game with experts replays exactly from its seed. With ``jobs`` (``--bot-option jobs=N``)
its rollouts are shared among N processes (``spoiler_game.bots.parallel``); each depends only on
its candidate and its deal, so it plays the same game, sooner. Its rollouts are about twice
as fast as when issue 24 was filed (2.0-2.1x, pure Python), with the same choices; on one
core of a quiet 2-core machine the default 200 ms (250 rollouts) took a median of 84 ms a
decision with the base set and 99 ms with every shipped set (``benchmarks/rollouts.py``;
docs/architecture.md has the figures).
"""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from typing import TYPE_CHECKING

from spoiler.agents import Fault, RandomAgent, bot_rng
from spoiler.model.state import Status
from spoiler.model.views import PlayerView, Question, Selection
from spoiler.rules.game import Game, random_in
from spoiler.search import Searcher, clone, play_out_round
from spoiler_game.bots.greedy import GreedyAgent

if TYPE_CHECKING:
    from spoiler_game.bots.parallel import Pool

#: Rollouts per millisecond of thinking time, for a seeded expert's budget.
ROLLOUTS_PER_MS = 1.25
DEFAULT_THINK_MS = 200
#: Rounds a rollout plays before it is scored as undecided.
HORIZON = 30
#: Information options (card names) tried per target, the likeliest ones.
NAMES_TRIED = 3
#: Determinizations looked at to judge which names are likely in a hand.
NAME_SAMPLES = 12
#: Chance that the expert's own seat plays a random legal move in a rollout instead of the
#: greedy one (the others play greedy: the opponents it meets most).
EXPLORE = 0.1


class ExpertAgent:
    builtin = True  # shipped with Spoiler: its selections are legal by construction
    searches = True  # it is handed view.search when it selects

    def __init__(
        self,
        seed: int | None = 0,
        seat: int = 0,
        think_ms: float = DEFAULT_THINK_MS,
        jobs: int = 1,
    ) -> None:
        self.seat = seat
        self.rng = bot_rng(seed, seat) if seed is not None else random.Random()
        self.think_ms = think_ms
        self.explore, self.explore_others, self.horizon = EXPLORE, EXPLORE, HORIZON
        #: A seeded expert counts rollouts (reproducible); an unseeded one watches the clock.
        self.rollouts = max(1, round(think_ms * ROLLOUTS_PER_MS)) if seed is not None else None
        #: (round, searcher, own selection): to search this round's answers.
        self._round: tuple[int, Searcher, Selection] | None = None
        #: How it plays in a game that offers no search.
        self._random = RandomAgent(self.rng.getrandbits(64), seat)
        #: Processes its rollouts are shared among (this one and jobs - 1 workers, started
        #: at its first search and ended by ``close``): the same rollouts, the same play.
        self.jobs = jobs
        self._pool: Pool | None = None
        #: What went wrong with its workers, for the screen and the record (spoiler.agents).
        self.faults: list[Fault] = []

    # -- selecting ---------------------------------------------------------------------------
    def select(self, view: PlayerView) -> Selection:
        search = view.search
        if not isinstance(search, Searcher):  # a game that offers none: play at random
            return self._random.select(view)
        base = self.rng.getrandbits(32)
        candidates = self._candidates(view, search, base)
        # The rollout policy's own choice comes first and stays to the end, so that it is
        # always weighed on the most deals.
        usual = Policy(base, view.seat, 0.0).select(view)
        key = (usual.card, tuple(usual.targets), usual.info)
        candidates = [usual] + [c for c in candidates if (c.card, c.targets, c.info) != key]
        if len(candidates) == 1:
            best = candidates[0]
        else:
            evaluate = self._evaluator(search, ("select", candidates), view.round)
            best = self._halve(candidates, evaluate, base, keep_first=True)
        self._round = (view.round, search, best)
        return best

    def _candidates(self, view: PlayerView, search, base: int) -> list[Selection]:
        """Every legal selection, information narrowed to the likeliest few names."""
        likely = None
        out: list[Selection] = []
        for card in view.playable:
            slots = view.legal_targets(card)
            aims: list[tuple[int, ...]]
            if not slots:
                aims = [()]
            elif len(slots) == 1:
                aims = [(seat,) for seat in slots[0]]
            else:
                aims = [c for c in itertools.product(*slots) if len(set(c)) == len(c)]
            choices = card.ask.choices(view.card_names) if card.ask is not None else (None,)
            for targets in aims:
                options = choices
                if len(choices) > NAMES_TRIED and all(isinstance(c, str) for c in choices):
                    if likely is None:
                        likely = self._likely_names(view, search, base)
                    options = _narrow(choices, likely, targets)
                out.extend(Selection(card, targets, info) for info in options)
        return out

    def _likely_names(self, view: PlayerView, search, base: int) -> dict:
        """For each seat (None: the deck), how likely each card name is to matter across a
        few determinizations: each card in its hand counts once, and the card the rollout
        policy would select from that hand counts twice more (a guess about what a player
        holds or plays is best made about what they would play)."""
        counts: dict = {None: Counter()}
        for i in range(NAME_SAMPLES):
            world_seed = base ^ (0x5EED + i)
            world = search.sample(random.Random(world_seed))
            for p in world.state.players:
                if p.seat == view.seat or p.status is Status.LOST:
                    continue
                seen = counts.setdefault(p.seat, Counter())
                seen.update(c.name for c in p.hand)
                seat_view = world.view(p.seat)
                if seat_view.playable:
                    chosen = Policy(world_seed, p.seat, 0.0).select(seat_view)
                    seen[chosen.card.name] += 2
            counts[None].update(c.name for c in world.state.deck)
        return counts

    # -- answering ---------------------------------------------------------------------------
    def answer(self, view: PlayerView, question: Question) -> str:
        options = question.options
        if self._round is None or self._round[0] != view.round:
            return options[self.rng.randrange(len(options))]
        _, search, mine = self._round
        base = self.rng.getrandbits(32)
        held, forced = _revealed_plays(view)
        job = ("answer", list(options), mine, question, held, forced)
        return self._halve(list(options), self._evaluator(search, job, view.round), base)

    # -- search ------------------------------------------------------------------------------
    def _halve(self, candidates: list, evaluate, base: int, keep_first: bool = False):
        """Sequential halving: share the budget over rounds, each keeping the better half.
        ``keep_first``: the first candidate is never halved away. ``evaluate(tasks)`` plays
        the rollouts (candidate index, world seed) and gives their values in that order;
        they are added up in that order, however many processes played them."""
        rounds = max(1, (len(candidates) - 1).bit_length())
        budget = self.rollouts
        start, seconds = time.perf_counter(), None
        if budget is None:  # unseeded: as many rollouts as the thinking time allows
            seconds, budget = self.think_ms / 1000, 10**9
        alive = list(range(len(candidates)))
        totals = [0.0] * len(candidates)
        counts = [0] * len(candidates)
        done = 0
        for r in range(rounds):
            each = max(1, budget // (len(alive) * rounds))
            # A seeded expert plays a halving round's rollouts in one go (shared among its
            # processes); an unseeded one looks at the clock after every few deals.
            step = each if seconds is None else self.jobs
            for first in range(0, each, step):
                deals = range(first, min(each, first + step))
                tasks = [(i, base + done + n) for n in deals for i in alive]
                for (i, _), value in zip(tasks, evaluate(tasks), strict=True):
                    if value is not None:
                        totals[i] += value
                        counts[i] += 1
                if seconds and time.perf_counter() - start > seconds * (r + 1) / rounds:
                    break
            done += each
            mean = {i: totals[i] / counts[i] if counts[i] else 0.0 for i in alive}
            alive.sort(key=lambda i: -mean[i])  # stable: ties keep the listed order
            if r < rounds - 1:
                alive = alive[: max(1, (len(alive) + 1) // 2)]
                if keep_first and 0 not in alive:
                    alive.append(0)
        return candidates[alive[0]]

    def _evaluator(self, search: Searcher, job: tuple, round: int):
        """``evaluate(tasks)`` for ``_halve``: the rollouts of ``job`` played here, or shared
        among this process and its workers (``jobs``)."""
        if self.jobs == 1:
            return lambda tasks: rollout_values(self, search, job, tasks)
        if self._pool is None:
            from spoiler_game.bots.parallel import Pool

            self._pool = Pool(self.jobs)

        def evaluate(tasks: list) -> list:
            assert self._pool is not None
            values = self._pool.map(
                lambda part: rollout_values(self, search, job, part),
                search,
                job,
                self.settings(),
                tasks,
            )
            if self._pool.broken is not None and not self.faults:
                self.faults.append(
                    Fault(
                        round, self.seat, f"expert: searching in one process: {self._pool.broken}"
                    )
                )
            return values

        return evaluate

    def settings(self) -> tuple:
        """What a worker needs to play this expert's rollouts as it does."""
        return (self.seat, self.explore, self.explore_others, self.horizon)

    @classmethod
    def for_rollouts(cls, settings: tuple) -> ExpertAgent:
        """An expert that plays rollouts with another's ``settings()`` (in a worker)."""
        seat, explore, explore_others, horizon = settings
        expert = cls(0, seat)
        expert.explore, expert.explore_others, expert.horizon = explore, explore_others, horizon
        return expert

    def close(self, result=None) -> None:
        """The game is over or stopped: its worker processes end."""
        if self._pool is not None:
            self._pool.close()
            self._pool = None

    def _select_rollout(
        self, search: Searcher, candidate: Selection, world_seed: int, dealt: Deal | None = None
    ) -> float:
        """``dealt``: the deal of ``world_seed``, already made (played on a copy of it)."""
        if dealt is None:
            dealt = Deal(search.sample(random.Random(world_seed)))
        return self._rollout(dealt, world_seed, Forced(candidate))

    def _answer_rollout(
        self,
        search: Searcher,
        mine,
        question,
        held,
        forced,
        option: str,
        world_seed: int,
        dealt: Deal | None = None,
    ) -> float | None:
        """``dealt``: the deal of ``world_seed`` (with ``held``), already made."""
        if dealt is None:
            dealt = Deal(search.sample(random.Random(world_seed), held))
        me = Forced(mine, question, option)
        value = self._rollout(dealt, world_seed, me, forced)
        return value if me.asked else None  # this deal never asked the question

    def _rollout(
        self, dealt: Deal, world_seed: int, me: Forced, forced: dict | None = None
    ) -> float:
        """Play a copy of a determinization out; 1 if this seat won, its share if undecided,
        else 0."""
        agents: list = []
        for seat in range(dealt.seats):
            policy = Policy(
                world_seed, seat, self.explore if seat == self.seat else self.explore_others
            )
            if seat == self.seat:
                me.policy = policy
                agents.append(me)
            elif forced and seat in forced:
                agents.append(Forced(forced[seat], policy=policy))
            else:
                agents.append(policy)
        world = dealt.copy(agents)
        play_out_round(world)
        st = world.state
        start = st.round
        while st.result is None and st.round - start < self.horizon:
            world.play_round()
        result = st.result
        if result is None or result.kind == "draw":
            alive = [p for p in world.state.players if p.status is not Status.LOST]
            mine = world.state.players[self.seat].status is not Status.LOST
            return 1 / len(alive) if mine else 0.0
        return 1.0 if self.seat in result.winners else 0.0


def rollout_values(expert: ExpertAgent, search: Searcher, job: tuple, tasks: list) -> list:
    """The values of rollouts (candidate index, world seed) of a ``job``: ``("select",
    candidates)``, or ``("answer", options, own selection, question, held, forced)``. Each
    depends on its task alone, so the same tasks give the same values in any process."""
    # The candidates of a halving round are tried on the same deals, one after another:
    # each deal is made once and every candidate plays a copy of it.
    values: list[float | None] = []
    seed_dealt, dealt = None, None
    if job[0] == "select":
        candidates = job[1]
        for i, seed in tasks:
            if seed != seed_dealt:
                seed_dealt, dealt = seed, Deal(search.sample(random.Random(seed)))
            values.append(expert._select_rollout(search, candidates[i], seed, dealt))
        return values
    _, options, mine, question, held, forced = job
    for i, seed in tasks:
        if seed != seed_dealt:
            seed_dealt, dealt = seed, Deal(search.sample(random.Random(seed), held))
        values.append(
            expert._answer_rollout(search, mine, question, held, forced, options[i], seed, dealt)
        )
    return values


class Deal:
    """A deal that several rollouts play, each on a copy of it (``copy()``). Its random
    stream's state is taken once for all of them: taking it is the costly half of copying
    a stream (``spoiler.rules.game.random_in``)."""

    def __init__(self, game: Game):
        self.game = game
        self.seats = len(game.seats)
        self._stream = game.state.rng.getstate()

    def copy(self, agents: list) -> Game:
        """A copy whose seats play with ``agents``."""
        return clone(self.game, agents, rng=random_in(self._stream))


def _narrow(choices, likely: dict, targets: tuple) -> tuple:
    """The names likeliest to be in the target's hand (or the deck's, with no target)."""
    counts = likely.get(targets[0] if targets else None, Counter())
    ranked = sorted(choices, key=lambda name: (-counts[name], choices.index(name)))
    return tuple(ranked[:NAMES_TRIED])


def _revealed_plays(view: PlayerView) -> tuple[dict, dict]:
    """Plays of other seats revealed this round: the cards (by seat) that were in their
    hands when selection began, and their selections as far as they are known."""
    held: dict = {}
    forced: dict = {}
    for event in view.events:
        if event.round != view.round or event.seat in (None, view.seat):
            continue
        if event.kind == "played":
            card = event.data["card"]
            held[event.seat] = [card]
            forced[event.seat] = (card, tuple(event.data.get("targets", ())), dict(event.data))
    return held, forced


class Policy(GreedyAgent):
    """How a seat plays in a rollout: greedy, now and then (``explore``) random."""

    def __init__(self, seed: int, seat: int, explore: float):
        super().__init__(seed, seat)
        self.seed, self.seat = seed, seat
        self.random: RandomAgent | None = None  # made when first needed: seeding costs
        self.explore = explore

    def select(self, view):
        if self.explore and self.rng.random() < self.explore:
            if self.random is None:  # (its own stream, from its seed: the same whenever made)
                self.random = RandomAgent(self.seed, self.seat)
            return self.random.select(view)
        return GreedyAgent.select(self, view)  # (not super(): this runs every decision)


class Forced:
    """A rollout's agent for a seat whose first selection is known: ``selection`` (a
    ``Selection``, or a revealed play as (card id, targets, public data)), then ``policy``.
    With ``question``, it gives ``option`` the first time that question comes."""

    builtin = True

    def __init__(self, selection, question: Question | None = None, option=None, policy=None):
        self.selection = selection
        self.question, self.option = question, option
        self.policy = policy
        self.asked = False

    def select(self, view):
        chosen, self.selection = self.selection, None
        if chosen is None:
            return self.policy.select(view)
        if isinstance(chosen, Selection):
            return chosen
        card_id, targets, data = chosen  # a play revealed this round
        card = next((c for c in view.playable if c.id == card_id), None)
        if card is None:
            return self.policy.select(view)
        slots = view.legal_targets(card)
        if len(targets) != len(slots) or any(
            t not in s for t, s in zip(targets, slots, strict=True)
        ):
            # Its targets changed as it resolved (turned back, redirected): any legal ones.
            targets = tuple(self.policy._distinct(slots)) if slots else ()
        if card.ask is None:
            info = None
        elif "info" in data and data["info"] is not None:
            info = data["info"]
        else:  # information the play kept secret: any legal one
            choices = card.ask.choices(view.card_names)
            info = choices[self.policy.rng.randrange(len(choices))]
        return Selection(card, targets, info)

    def answer(self, view, question):
        q = self.question
        if (
            q is not None
            and not self.asked
            and question.prompt == q.prompt
            and question.options == q.options
        ):
            self.asked = True
            return self.option
        return self.policy.answer(view, question)
