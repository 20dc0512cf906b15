"""Checking card sets before players meet their bugs: what ``spoiler sets validate`` runs.

Two kinds of checks, each problem naming the set, the card (when one is to blame) and, for
games, the seed that reproduces it:

* static: the declarations, by the check loading runs (``spoiler.cards.declaration_problems``:
  a set that loaded can still have a card with no printed text, a text that does not say
  "At Beginning/End of Round" exactly when the card has that part, two cards of one name, a
  question that leaves no card of the game to name), card names shared with another set, and
  hook implementations that pluggy will really call;
* games: seeded games of random bots with the set mixed into the base set, checking the
  engine's invariants after every round, that no effect or rule fails, that no round runs
  forever (an effect stuck in a loop), that games end, and (given a ``watch``) that no card
  or hook shows a seat's screen what that seat may not know.

Game ``i`` of a run from seed ``S`` uses seed ``S + i`` and ``2 + (S + i) % 4`` players, so
``spoiler sets validate NAME --games 1 --seed S+i`` plays exactly that game again.
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field

from spoiler.model.cards import CardSet, declaration_problems

BASE = "base"
#: A round of a validation game that takes longer than this is reported as stuck (and the
#: set's remaining games are not played: each would be stuck as long).
ROUND_SECONDS = 2.0


@dataclass(frozen=True)
class Problem:
    set: str
    card: str | None  # the card's name, when one card is to blame
    check: str  # broken, static, hook, fizzled, rule_failed, invariant, crashed, no_end, leak
    message: str
    seed: int | None = None
    #: The set whose validation games found it (the games to replay), when not ``set``: a
    #: base card failing in a game of another set is reproduced by validating that set.
    validated: str | None = None

    def reproduce(self) -> str | None:
        if self.seed is None:
            return None
        return f"spoiler sets validate {self.validated or self.set} --games 1 --seed {self.seed}"

    def as_dict(self) -> dict:
        return {
            "set": self.set,
            "card": self.card,
            "check": self.check,
            "message": self.message,
            "seed": self.seed,
            "reproduce": self.reproduce(),
        }

    def describe(self) -> str:
        where = f"{self.set} · {self.card}" if self.card else self.set
        seed = f" (seed {self.seed})" if self.seed is not None else ""
        return f"{where}: {self.message}{seed}"


@dataclass
class SetReport:
    name: str
    cards: int
    games: int = 0
    rounds: int = 0
    draws: int = 0
    problems: list[Problem] = field(default_factory=list)
    #: The set's cards that no game played: not a problem, but a card whose targets or
    #: timing can never be met shows up here.
    unplayed: list[str] = field(default_factory=list)
    #: Worth a look, not a failure: a set that cannot end a game on its own, say.
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


# -- static checks -----------------------------------------------------------------------------
def check_registry(registry) -> list[Problem]:
    """Broken plugins, and card names shared by two usable sets. (Ids cannot be shared: a
    card's id starts with its set's name, which loading checks, and set names are unique.)"""
    problems = [
        Problem(p.key, None, "broken", f"plugin is broken: {p.error}") for p in registry.broken()
    ]
    # Each set sharing a name gets the problem, so validating either one finds it.
    by_name: dict[str, list] = {}
    for card_set in registry.sets.values():
        for card in card_set.cards:
            by_name.setdefault(card.name.lower(), []).append((card_set.name, card))
    for holders in by_name.values():
        for set_name, card in holders:
            others = sorted({s for s, _ in holders if s != set_name})
            if others:
                problems.append(
                    Problem(
                        set_name,
                        card.name,
                        "static",
                        f"card name {card.name!r} is also in set "
                        f"{', '.join(map(repr, others))}: a card that names a card cannot tell "
                        "them apart",
                    )
                )
    return problems


def check_set(card_set: CardSet, card_names: tuple[str, ...]) -> list[Problem]:
    """The static checks of one set: its declarations, as loading checks them
    (``spoiler.cards.declaration_problems``; a set that loaded has none that loading refuses,
    so what is left is what misleads players). ``card_names``: the names in a game of this set
    and the base set (what a card's question may offer)."""
    return [
        Problem(card_set.name, problem.card, "static", problem.message)
        for problem in declaration_problems(card_set, card_names)
    ]


def check_hooks(registry, plugin_name: str, set_name: str) -> list[Problem]:
    """Hook implementations that do not match the specs. pluggy already refused unknown hooks
    and unknown parameters (the plugin is then broken); what is left is a function named like
    a hook but not marked ``@spoiler.hookimpl``, which pluggy silently ignores."""
    info = registry.plugins.get(plugin_name)
    if info is None or info.plugin is None:
        return []
    problems = []
    for attr in sorted(dir(info.plugin)):
        if not attr.startswith("spoiler_"):
            continue
        value = getattr(info.plugin, attr, None)
        if callable(value) and registry.pm.parse_hookimpl_opts(info.plugin, attr) is None:
            problems.append(
                Problem(
                    set_name,
                    None,
                    "hook",
                    f"{attr} is not marked @spoiler.hookimpl, so it is never called",
                )
            )
    return problems


# -- games ------------------------------------------------------------------------------------
def players_for(seed: int) -> int:
    return 2 + seed % 4


def play_games(
    registry, set_name: str, games: int, first_seed: int, progress=None, watch=None
) -> SetReport:
    """Seeded random-bot games of ``set_name`` mixed into the base set; ``progress(set_name)``
    is called after each game. ``watch``: makes, for each game, what checks every seat's
    screen text for hidden information (``spoiler.leaks.Watch``, which this layer cannot
    import: the command gives it)."""
    from spoiler.agents import RandomAgent
    from spoiler.rules.game import Game, GameError, RoundTooLong, Seat
    from spoiler.rules.invariants import check_invariants

    card_set = registry.sets[set_name]
    names = sorted({set_name, BASE} & set(registry.sets)) or [set_name]
    card_sets = registry.card_sets(names)
    report = SetReport(set_name, len(card_set.cards))
    seen: set[tuple] = set()
    played: set[str] = set()
    leaked: set[str | None] = set()  # the causes of text that showed a secret

    def found(problem: Problem) -> None:
        key = (problem.set, problem.card, problem.check, problem.message)
        if key not in seen:  # one buggy card would otherwise fill the report
            seen.add(key)
            report.problems.append(problem)

    for seed in range(first_seed, first_seed + games):
        seats = [Seat(f"Bot {i + 1}", RandomAgent(seed, i)) for i in range(players_for(seed))]
        screens = watch() if watch is not None else None
        if screens is not None:
            seats = [Seat(s.name, screens.agent(i, s.agent)) for i, s in enumerate(seats)]
        try:
            game = Game(card_sets, seats, seed, hooks=registry.game_hooks(names))
        except GameError as exc:
            found(Problem(set_name, None, "crashed", f"cannot start a game: {exc}", seed))
            break
        if screens is not None:
            screens.follow(game)
        game.max_round_seconds = ROUND_SECONDS  # the engine's guard (a watchdog, any thread)
        stopped = stuck = False
        for _ in range(game.max_rounds):
            start = len(game.state.log)
            try:
                with _time_limit(_backstop()):
                    game.play_round()
                check_invariants(game)
            except (_Stuck, RoundTooLong) as exc:
                if isinstance(exc, RoundTooLong):  # the engine's guard: steps, or its clock
                    why = f"round {game.round} ran past its limit ({exc.why})"
                    running = exc.running
                else:  # the backstop: code the guard could not stop (a C call)
                    why = f"round {game.round} ran for over {_backstop():g} s"
                    running = None
                found(
                    _blame_running(
                        registry,
                        set_name,
                        running,
                        _selected(game),
                        "stuck",
                        f"{why}: an effect that never returns? The set's other games were "
                        "not played",
                        seed,
                    )
                )
                stopped = stuck = True
                break
            except AssertionError as exc:
                found(
                    _blame(
                        registry,
                        set_name,
                        _selected(game),
                        "invariant",
                        f"invariant broken after round {game.round}: {exc}",
                        seed,
                    )
                )
                stopped = True
                break
            except Exception as exc:  # the engine itself could not go on
                found(
                    _blame(
                        registry,
                        set_name,
                        _selected(game),
                        "crashed",
                        f"the game stopped in round {game.round}: {type(exc).__name__}: {exc}",
                        seed,
                    )
                )
                stopped = True
                break
            for event in game.state.log[start:]:
                if event.kind == "played" and event.cause is not None:
                    played.add(event.cause)
                elif event.kind == "fizzled":
                    card = game.cards_by_id.get(event.data.get("card", ""))
                    found(
                        Problem(
                            event.data.get("set") or set_name,
                            card.name if card else None,
                            "fizzled",
                            f"effect failed: {event.data.get('error')}",
                            seed,
                            set_name,
                        )
                    )
                elif event.kind == "target_failed":
                    for card_id in event.data.get("cards", ()):
                        card = game.cards_by_id.get(card_id)
                        found(
                            Problem(
                                card.set_name if card else set_name,
                                card.name if card else None,
                                "target_failed",
                                f"its target kind {event.data.get('target')!r} failed in "
                                f"allows ({event.data.get('error')}), so it could not be played",
                                seed,
                                set_name,
                            )
                        )
                elif event.kind == "rule_failed":
                    found(
                        Problem(
                            _set_of_plugin(registry, event.data.get("plugin"), set_name),
                            None,
                            "rule_failed",
                            f"hook {event.data.get('hook')} of plugin "
                            f"{event.data.get('plugin')!r} failed: {event.data.get('error')}",
                            seed,
                            set_name,
                        )
                    )
            if screens is not None:
                for cause, seat, shown in screens.round_leaks():
                    if cause not in leaked:  # its first leak says enough
                        leaked.add(cause)
                        found(_leak(registry, set_name, game, cause, seat, shown, seed))
            if game.over:
                break
        if stopped:
            pass
        elif not game.over:
            found(
                Problem(
                    set_name,
                    None,
                    "no_end",
                    f"the game did not end within {game.max_rounds} rounds",
                    seed,
                )
            )
        else:
            report.rounds += game.round
            assert game.result is not None  # the game is over
            report.draws += game.result.kind == "draw"
        report.games += 1
        if progress is not None:
            progress(set_name)
        if stuck:  # every game that plays the card would be stuck as long
            break
    if report.games:
        # A card a problem names was played (its code ran): never "never played" too.
        named = {p.card for p in report.problems if p.set == set_name}
        report.unplayed = [
            c.name for c in card_set.cards if c.id not in played and c.name not in named
        ]
    return report


def _backstop() -> float:
    """The alarm behind the engine's guard, for code it cannot stop (a C call that does not
    return): later than the guard, so that the guard names what it stopped."""
    return ROUND_SECONDS * 2 + 1


class _Stuck(BaseException):
    """Raised by the alarm inside a round that runs too long (a BaseException, so that no
    effect or hook wrapper mistakes it for the card's own failure)."""


@contextmanager
def _time_limit(seconds: float):
    """Interrupt the block after ``seconds`` with _Stuck, where the platform has interval
    timers and this is the main thread; elsewhere, run it unguarded."""
    if (
        not hasattr(signal, "setitimer")
        or threading.current_thread() is not threading.main_thread()
    ):
        yield
        return

    def on_alarm(signum, frame):
        raise _Stuck()

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _selected(game) -> list[str]:
    """The ids of the cards selected in the game's last round."""
    if not game.decisions:
        return []
    return [choice["card"] for choice in game.decisions[-1]["selections"].values()]


def _blame(registry, set_name: str, causes: list, check: str, message: str, seed: int) -> Problem:
    """A problem after a round: blamed on the set's own cards played in it, if any."""
    cards = [c for c in causes if isinstance(c, str) and c.startswith(set_name + ":")]
    by_id = {c.id: c for s in registry.sets.values() for c in s.cards}
    names = sorted({by_id[c].name for c in cards if c in by_id})
    card = names[0] if len(names) == 1 else None
    if len(names) > 1:
        message += f" (cards of {set_name} played that round: {', '.join(names)})"
    return Problem(set_name, card, check, message, seed)


def _blame_running(
    registry, set_name: str, running, causes: list, check: str, message: str, seed: int
) -> Problem:
    """A problem of code the guard stopped: blamed on the hook (plugin and hook) or the card
    that was running, if known; else on the set's cards played that round (``_blame``)."""
    if running is not None and running.plugin is not None:
        return Problem(
            _set_of_plugin(registry, running.plugin, set_name),
            None,
            check,
            f"hook {running.hook} of plugin {running.plugin!r}: {message}",
            seed,
            set_name,
        )
    if running is not None and running.target is not None:  # a target kind's allows
        cards = [
            c
            for c in registry.sets[set_name].cards
            if any(k.description == running.target for k in c.targets)
        ]
        if cards:
            return Problem(
                set_name,
                cards[0].name if len(cards) == 1 else None,
                check,
                f"target kind {running.target!r}: {message}",
                seed,
            )
    if running is not None and running.card is not None:
        by_id = {c.id: (s.name, c) for s in registry.sets.values() for c in s.cards}
        if running.card in by_id:
            owner, card = by_id[running.card]
            return Problem(owner, card.name, check, message, seed, set_name)
    return _blame(registry, set_name, causes, check, message, seed)


def _leak(registry, set_name: str, game, cause, seat: int | None, shown: str, seed: int) -> Problem:
    """A screen shown what its seat may not know: blamed on the card whose text it was, or
    the rule (a hook: its cause, and the plugin it is named after)."""
    who = "every player" if seat is None else game.state.players[seat].name
    card = game.cards_by_id.get(cause) if isinstance(cause, str) else None
    if card is not None:
        return Problem(
            card.set_name,
            card.name,
            "leak",
            f"{card.name} showed {who} what they may not know: {shown}",
            seed,
            set_name,
        )
    plugin = cause.partition(":")[0] if isinstance(cause, str) else None
    if plugin is not None and plugin in registry.plugins:
        blamed = f"the rule {cause!r} (a hook of plugin {plugin!r})"
        where = _set_of_plugin(registry, plugin, set_name)
    else:
        blamed = f"the rule {cause!r}" if cause is not None else "a hook (its verbs gave no cause)"
        where = set_name
    return Problem(
        where,
        None,
        "leak",
        f"{blamed} showed {who} what they may not know: {shown}",
        seed,
        set_name,
    )


def _set_of_plugin(registry, plugin: str | None, default: str) -> str:
    info = registry.plugins.get(plugin or "")
    return info.sets[0] if info is not None and info.sets else default


def validate(
    registry, set_names: list[str], games: int, first_seed: int, progress=None, watch=None
) -> tuple[list[SetReport], list[Problem]]:
    """Validate the named usable sets; the second list holds problems of the installation as a
    whole (broken plugins, names shared between sets). ``watch``: as ``play_games``."""
    general = check_registry(registry)
    reports = []
    base = registry.sets.get(BASE)
    for name in set_names:
        card_set = registry.sets[name]
        names = tuple(sorted({c.name for s in (card_set, base) if s is not None for c in s.cards}))
        static = check_set(card_set, names)
        plugin = next(i.plugin for i in registry.set_infos if i.name == name and i.status == "ok")
        static += check_hooks(registry, plugin, name)
        report = play_games(registry, name, games, first_seed, progress, watch)
        report.problems[:0] = static
        report.problems += _required_problems(registry, card_set)
        alone = games and report.ok and name != BASE and not card_set.requires
        if alone and not ends_alone(registry, name):
            report.notes.append(
                f"{name} cannot end a game on its own ({ALONE_GAMES} random-bot games of it "
                f"alone all reached the round limit): if it is meant to be played with "
                f'another set, declare it, e.g. CardSet(..., requires=("base",))'
            )
        reports.append(report)
    return reports, general


def validate_named(
    registry, names: list[str] | None, games: int, first_seed: int, progress=None, watch=None
) -> tuple[list[SetReport], list[Problem]]:
    """What ``spoiler sets validate [NAMES]`` checks: the named sets (every usable set when
    none is named, the base set first), and the problems of the installation that concern
    them (every one when none is named). A name that is no set at all raises
    ``spoiler.plugins.UnknownName``; a named set that is disabled or broken is a problem."""
    from spoiler.plugins import UnknownName, unknown_set

    if names:
        known = {info.name: info for info in registry.set_infos}
        missing = [n for n in names if n not in known]
        if missing:
            raise UnknownName(unknown_set(missing[0], known))
    chosen = chosen_sets(registry, names)
    reports, general = validate(registry, chosen, games, first_seed, progress, watch)
    return reports, concerning(registry, names, general)


def concerning(registry, names: list[str] | None, general: list[Problem]) -> list[Problem]:
    """The installation's problems that concern the named sets (all, when none is named),
    and a problem for each named set that is disabled."""
    if not names:
        return general
    general = [p for p in general if p.set in names]
    general += [
        Problem(i.name, None, i.status, f"set is {i.status}: {i.error}")
        for i in registry.set_infos
        if i.name in names and i.status == "disabled"
    ]
    return general


def chosen_sets(registry, names: list[str] | None) -> list[str]:
    """The sets ``validate_named`` plays games of, in order."""
    if names:
        return [n for n in dict.fromkeys(names) if n in registry.sets]
    return sorted(registry.sets, key=lambda n: (n != BASE, n))


#: Random-bot games of a set alone that decide whether it can end a game on its own.
ALONE_GAMES = 10


def ends_alone(registry, set_name: str, first_seed: int = 0) -> bool:
    """Does any of ALONE_GAMES seeded random-bot games of this set alone end before its round
    limit? (A set alone that cannot deal a table counts as ending none.)"""
    from spoiler.agents import RandomAgent
    from spoiler.rules.game import Game, GameError, Seat

    card_sets = registry.card_sets([set_name])
    for seed in range(first_seed, first_seed + ALONE_GAMES):
        seats = [Seat(f"Bot {i + 1}", RandomAgent(seed, i)) for i in range(players_for(seed))]
        try:
            game = Game(card_sets, seats, seed, hooks=registry.game_hooks([set_name]))
            result = game.play()
        except GameError:
            return False
        if result.kind != "draw":
            return True
    return False


def _required_problems(registry, card_set) -> list[Problem]:
    return [
        Problem(card_set.name, None, "requires", f"requires set {name!r}, which is not usable")
        for name in card_set.requires
        if name not in registry.sets
    ]
