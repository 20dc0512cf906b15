"""The card model: cards, card sets, what a card asks for (ongoing effects, which act
through the verbs, are in ``spoiler.model.verbs``).

A card is declared as a class whose attributes read like the printed card::

    base = CardSet("base", "1.0.0")

    @base.card
    class Guard:
        text = "Name a card other than Guard. If another player holds it, they lose."
        copies = 5
        target = ANOTHER_PLAYER
        ask = NameACard(excluding=("Guard",))

        @staticmethod
        def main(play: Play) -> None:
            if play.holds(play.target, play.info):
                play.lose(play.target)

``@staticmethod`` and the annotation are for type checkers and editors (a plain
``def main(play):`` works the same). The decorator checks the declaration once, when the set
is loaded, and replaces the class by a frozen ``Card``. Nothing is looked up with ``hasattr``
while a game runs.
"""

from __future__ import annotations

import difflib
import functools
import inspect
import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from spoiler.model.state import Status


# -- targets ---------------------------------------------------------------------------------
class Candidate(Protocol):
    """What a target kind may look at: one player's public row (a
    ``spoiler.views.PlayerInfo``), never a hand."""

    @property
    def seat(self) -> int: ...

    @property
    def status(self) -> Status: ...

    @property
    def hand_size(self) -> int: ...

    @property
    def priority(self) -> int: ...

    @property
    def counters(self) -> Mapping[str, int]: ...


@dataclass(frozen=True, eq=False)
class Target:
    """A kind of player a card may target: ``allows(me, candidate)`` says whether the player
    choosing may pick that candidate.

    * ``me`` is the seat number (an ``int``, 0 first) of the player who selects the card;
    * ``candidate`` is a player's public row (a ``spoiler.views.PlayerInfo``: ``seat``,
      ``name``, ``status``, ``hand_size``, ``priority``, ``counters``), never a hand.

    By default the engine works the legal targets out once per line-up of statuses and
    shares them between games, so ``allows`` must decide on ``seat`` and ``status`` alone.
    A kind that reads facts that change otherwise (``counters``, ``hand_size``,
    ``priority``) says so with ``changing=True``: its targets are then worked out afresh
    every time they are asked for. An ``allows`` that raises makes the cards with that kind
    unplayable for the round (an event, ``target_failed``, names them and their sets;
    ``spoiler sets validate`` reports it; a strict game stops). Each target kind is its own
    object (compared and hashed by identity: it keys the legal-target tables)."""

    description: str
    allows: Callable[[int, Candidate], bool] = field(compare=False, repr=False)
    #: ``allows`` reads facts other than seats and statuses: never cached.
    changing: bool = field(default=False, compare=False)

    def candidates(self, me: int, players: Iterable[Candidate]) -> list[int]:
        return [p.seat for p in players if self.allows(me, p)]


ANY_PLAYER = Target("any player", lambda me, p: True)
ANOTHER_PLAYER = Target("another player", lambda me, p: p.seat != me)
ANOTHER_ACTIVE_PLAYER = Target(
    "another player who has not lost", lambda me, p: p.seat != me and p.status is not Status.LOST
)
LOST_PLAYER = Target("a lost player", lambda me, p: p.status is Status.LOST)


#: The phases a secret may be kept until (``Ask.until``), by the names a card may give: the
#: phases of the round (``spoiler.rules.game.ROUND``) from its play's own (mid round) to the
#: last before the game may end; ``"end"`` is short for the At End of Round phase.
SECRET_UNTIL = {
    "mid round": "mid round",
    "at end of round": "at end of round",
    "end": "at end of round",
    "clearing the table": "clearing the table",
    "the draw": "the draw",
    "priority shift": "priority shift",
}


def targets_possible(slots: Sequence[Sequence[int]]) -> bool:
    """Can every target slot (a list of allowed seats each) get a different player? A card
    whose targets cannot all differ (two "other players" among two players) is unplayable."""
    if len(slots) < 2:  # the usual case, checked every selection: no product needed
        return not slots or bool(slots[0])
    return any(len(set(combo)) == len(combo) for combo in itertools.product(*slots))


# -- information a card asks for when selected ------------------------------------------------
class Ask:
    """Information asked for when the card is selected. ``check`` returns the normalised
    answer or raises ValueError with a message a player can act on.

    ``secret``: the information stays hidden from the other players until the card's last
    part has resolved: its main effect, or its At End of Round part if it has one (it is then
    told in a ``revealed`` event). Without it, the information is public as soon as the card
    resolves, like a card played face up. Use it when someone must decide, while the card
    resolves, without knowing it (Standoff's number).

    ``until``: keep the secret until a phase of the round is over (its step and its hook):
    ``"mid round"`` (every play has resolved), ``"at end of round"`` (``"end"`` for short:
    every At End of Round part has resolved), ``"clearing the table"``, ``"the draw"`` or
    ``"priority shift"`` (the phases of ``spoiler.rules.game.ROUND`` from mid round to the
    last before the game may end). Only with ``secret=True``."""

    prompt = "Answer"
    secret = False
    until: str | None = None

    def choices(self, card_names: tuple[str, ...]) -> tuple[Any, ...]:
        raise NotImplementedError

    def check(self, answer: object, card_names: tuple[str, ...]) -> Any:
        raise NotImplementedError


@dataclass(frozen=True)
class NameACard(Ask):
    """Name a card that is in this game's deck (case-insensitive), other than ``excluding``."""

    excluding: tuple[str, ...] = ()
    prompt: str = "Name a card"
    secret: bool = False
    until: str | None = None

    def choices(self, card_names: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(_nameable(self.excluding, card_names).values())

    def check(self, answer: object, card_names: tuple[str, ...]) -> str:
        wanted = str(answer).strip().lower()
        name = _nameable(self.excluding, card_names).get(wanted)
        if name is not None:
            return name
        if wanted in {n.lower() for n in self.excluding}:
            raise ValueError(f"this card may not name {answer!r}")
        raise ValueError(f"{answer!r} is not a card in this game")


@functools.lru_cache(maxsize=256)
def _nameable(excluding: tuple[str, ...], card_names: tuple[str, ...]) -> dict[str, str]:
    """The names a NameACard accepts, by lower-case spelling (asked every selection, so
    worked out once per game's card list)."""
    banned = {n.lower() for n in excluding}
    return {n.lower(): n for n in card_names if n.lower() not in banned}


@dataclass(frozen=True)
class NameANumber(Ask):
    """Name a whole number from ``low`` to ``high``."""

    low: int = 1
    high: int = 10
    prompt: str = "Name a number"
    secret: bool = False
    until: str | None = None

    def choices(self, card_names: tuple[str, ...]) -> tuple[int, ...]:
        return tuple(range(self.low, self.high + 1))

    def check(self, answer: object, card_names: tuple[str, ...]) -> int:
        try:
            number = int(str(answer).strip())
        except ValueError:
            raise ValueError(f"{answer!r} is not a whole number") from None
        if not self.low <= number <= self.high:
            raise ValueError(f"{number} is not from {self.low} to {self.high}")
        return number


@dataclass(frozen=True)
class Choose(Ask):
    """Choose one of a fixed list of options."""

    options: tuple[str, ...] = ()
    prompt: str = "Choose"
    secret: bool = False
    until: str | None = None

    def choices(self, card_names: tuple[str, ...]) -> tuple[str, ...]:
        return self.options

    def check(self, answer: object, card_names: tuple[str, ...]) -> str:
        wanted = str(answer).strip().lower()
        for option in self.options:
            if option.lower() == wanted:
                return option
        raise ValueError(f"{answer!r} is not one of: {', '.join(self.options)}")


# -- cards and sets --------------------------------------------------------------------------
Effect = Callable[..., None]


@dataclass(frozen=True, eq=False)
class Card:
    """A card as printed, and what its parts do. Copies in a deck are the same object."""

    id: str
    name: str
    text: str
    copies: int = 1
    targets: tuple[Target, ...] = ()
    ask: Ask | None = None
    main: Effect | None = None
    at_beginning: Effect | None = None
    at_end: Effect | None = None
    rulings: tuple[str, ...] = ()
    #: Why the card changed nothing, when it did nothing, told to the players after "Nothing
    #: happens: ". Placeholders: {player}, {target}, {info}, and {player_s}, {target_s} for
    #: their possessives ("your", "Bix's"). E.g. "{info} is not in {target_s} hand".
    unmet: str = ""

    @property
    def set_name(self) -> str:
        return self.id.partition(":")[0]

    def __repr__(self) -> str:
        return f"<Card {self.id}>"


_CARD_FIELDS = {
    "name",
    "text",
    "copies",
    "target",
    "targets",
    "ask",
    "main",
    "at_beginning",
    "at_end",
    "rulings",
    "unmet",
}


def slugify(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


class CardSet:
    """A named, versioned collection of cards, as a plugin registers it.

    ``api`` is the range of ``spoiler.API_VERSION`` this set is written for, e.g. ">=1,<2"
    (any version specifier: "~=1.0", "==1.*"). ``rules``: the set's own rules in a few
    sentences, shown to players at game start, by ``spoiler rules`` and ``spoiler sets show``.
    ``labels``: how players see the set's counters and rule causes, by id
    (``{"storm:charge": "charge", "storm:rule": "the Storm rule"}``). ``requires``: the sets
    this one is played with, for a set that cannot end a game on its own (``("base",)``):
    ``spoiler play --sets NAME`` adds them. ``cards``: the cards, in the order they were
    declared.
    """

    def __init__(
        self,
        name: str,
        version: str,
        *,
        title: str = "",
        description: str = "",
        api: str = ">=1,<2",
        rules: str = "",
        labels: dict[str, str] | None = None,
        requires: tuple[str, ...] = (),
    ):
        if not re.fullmatch(r"[a-z][a-z0-9_-]*", name or ""):
            raise ValueError(f"set name {name!r} must be lower-case letters, digits, - or _")
        for what, value in (("version", version), ("title", title), ("rules", rules)):
            if not isinstance(value, str):
                raise ValueError(f"set {name!r}: {what} must be a string, not {value!r}")
        if not isinstance(requires, (tuple, list)) or not all(
            isinstance(r, str) and r != name for r in requires
        ):
            raise ValueError(
                f"set {name!r}: requires must be a tuple of other sets' names, not {requires!r}"
            )
        labels = dict(labels or {})
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in labels.items()):
            raise ValueError(f"set {name!r}: labels must map ids to display names (strings)")
        self.name = name
        self.version = version
        self.title = title or name.title()
        self.description = description
        self.api = api
        self.rules = rules.strip()
        self.labels = labels
        self.requires = tuple(requires)
        self.cards: list[Card] = []

    def card(self, cls: type) -> Card:
        """Class decorator: turn a card declaration into a ``Card`` and add it to the set."""
        spec = {k: v for k, v in vars(cls).items() if not k.startswith("__")}
        # Effects may be plain functions or staticmethods (which type checkers understand).
        spec = {k: v.__func__ if isinstance(v, staticmethod) else v for k, v in spec.items()}
        unknown = set(spec) - _CARD_FIELDS
        if unknown:
            named = [_with_closest(a, _CARD_FIELDS) for a in sorted(unknown)]
            raise ValueError(f"card {cls.__name__}: unknown attribute(s) {', '.join(named)}")
        if "target" in spec and "targets" in spec:
            raise ValueError(f"card {cls.__name__}: give 'target' or 'targets', not both")
        name = spec.get("name") or re.sub(r"(?<=[a-z])(?=[A-Z])", " ", cls.__name__)
        name_problem = _name_problem(name)  # (the card's id is made of its name)
        if name_problem is not None:
            raise ValueError(f"card {cls.__name__}: {name_problem}")
        if "target" in spec and isinstance(spec["target"], (tuple, list)):
            raise ValueError(f"card {name}: several targets are given as 'targets', not 'target'")
        targets = spec.get("targets", (spec["target"],) if "target" in spec else ())
        if isinstance(targets, Target):
            targets = (targets,)
        text, rulings = spec.get("text") or "", spec.get("rulings", ())
        unmet = spec.get("unmet") or ""
        card = Card(
            id=f"{self.name}:{slugify(name)}",
            name=name,
            text=text.strip() if isinstance(text, str) else text,
            copies=spec.get("copies", 1),
            targets=tuple(targets) if isinstance(targets, (tuple, list)) else targets,
            ask=spec.get("ask"),
            main=spec.get("main"),
            at_beginning=spec.get("at_beginning"),
            at_end=spec.get("at_end"),
            rulings=tuple(rulings) if isinstance(rulings, (tuple, list)) else rulings,
            unmet=unmet.strip() if isinstance(unmet, str) else unmet,
        )
        self.add(card)
        return card

    def add(self, card: Card) -> Card:
        """Add a card, checking its declaration as ``declaration_problems`` does: a refused
        one is a ValueError naming the card (the plugin is then reported as broken, before any
        game meets it)."""
        ids = {c.id for c in self.cards if isinstance(c, Card) and isinstance(c.id, str)}
        names = {_label(c).lower() for c in self.cards if isinstance(c, Card)}
        refused = [p for p in _card_problems(card, self.name, ids, names) if p.refused]
        if refused:
            raise ValueError(refusal(refused))
        self.cards.append(card)
        return card

    def label(self, key: str) -> str | None:
        """How players see one of this set's counters or rule causes (None: not labelled)."""
        return self.labels.get(key)

    def __repr__(self) -> str:
        return f"<CardSet {self.name} {self.version}: {len(self.cards)} cards>"


# -- the declaration check -------------------------------------------------------------------
#: The most copies of one card a deck may hold (a deck of a billion cards is never built).
MAX_COPIES = 100
TARGET_KINDS = "ANY_PLAYER, ANOTHER_PLAYER, ANOTHER_ACTIVE_PLAYER or LOST_PLAYER"
#: The parts a card's printed text announces, with the words it announces them by.
PHRASES = (("at_beginning", "At Beginning of Round"), ("at_end", "At End of Round"))
#: What a card's ``unmet`` text may name.
UNMET_FIELDS = {"player": "", "player_s": "", "target": "", "target_s": "", "info": ""}


@dataclass(frozen=True)
class DeclarationProblem:
    """One thing wrong with a card set's declarations.

    ``card``: the card to blame (its name, or its id when it has no usable name); None when
    the set itself is to blame (its message names the set). ``refused``: a game could not rely
    on the declaration, so the card is refused when it is added to its set and the set when its
    plugin registers it (the plugin is then broken, with this reason). Otherwise the set loads
    and plays, and ``spoiler sets validate`` reports the problem (a printed text that misleads
    the players, say)."""

    card: str | None
    message: str
    refused: bool = True

    def __str__(self) -> str:
        return self.message if self.card is None else f"card {self.card}: {self.message}"


def declaration_problems(
    card_set: object, card_names: tuple[str, ...] = ()
) -> list[DeclarationProblem]:
    """Everything wrong with a card set's declarations, in the order of its cards: the one
    check of them, which ``CardSet.add`` runs on each card it adds, plugin loading on every set
    a plugin registers (and so on cards put straight into ``CardSet.cards``), and ``spoiler
    sets validate`` on every set it validates.

    ``card_names``: the names of the cards of a game with this set, what a question may offer
    (``sets validate`` gives those of the set and the base set). Without them, the answers of a
    ``NameACard`` are not checked here: a game whose cards it excludes all is refused when it
    is set up."""
    if not isinstance(card_set, CardSet):
        return [DeclarationProblem(None, f"{card_set!r} is not a spoiler.CardSet")]
    problems: list[DeclarationProblem] = []
    ids: set[str] = set()
    names: set[str] = set()
    for card in card_set.cards:
        problems += _card_problems(card, card_set.name, ids, names, card_names)
        if isinstance(card, Card) and isinstance(card.id, str):
            ids.add(card.id)
            names.add(_label(card).lower())
    return problems


def refusal(problems: Iterable[DeclarationProblem]) -> str:
    """Problems on one line, each card named once: ``card Probe: copies must …; text must …``."""
    parts: list[str] = []
    last: object = object()
    for problem in problems:
        parts.append(problem.message if problem.card == last else str(problem))
        last = problem.card
    return "; ".join(parts)


def _card_problems(
    card: object,
    set_name: str,
    ids: set[str],
    names: set[str],
    card_names: tuple[str, ...] = (),
) -> list[DeclarationProblem]:
    """What is wrong with one card of set ``set_name``, whose cards before it have these ids
    and (lower-case) names."""
    if not isinstance(card, Card):
        return [DeclarationProblem(None, f"set {set_name!r}: {card!r} is not a spoiler Card")]
    label = _label(card)
    problems = [DeclarationProblem(label, m) for m in _unreliable(card, set_name, card_names)]
    if isinstance(card.id, str) and card.id in ids:
        problems.append(
            DeclarationProblem(
                label, f"set {set_name!r} already has a card with the id {card.id!r}"
            )
        )
    problems += [
        DeclarationProblem(label, m, refused=False) for m in _misleading(card, names, card_names)
    ]
    return problems


def _label(card: Card) -> str:
    """How a problem names a card: its name, or its id when it has no usable name."""
    return card.name if _name_problem(card.name) is None else repr(card.id)


def _name_problem(name: object) -> str | None:
    if isinstance(name, str) and slugify(name):
        return None
    return f"name must be a string with letters or digits, not {name!r}"


def _unreliable(card: Card, set_name: str, card_names: tuple[str, ...]) -> Iterator[str]:
    """What a game could not rely on: types, bounds on copies, target kinds, a question with
    at least one answer, effects taking the play, an ``unmet`` text that can be filled."""
    name_problem = _name_problem(card.name)
    if name_problem is not None:
        yield name_problem
    if not isinstance(card.id, str) or not card.id.startswith(set_name + ":"):
        yield f"its id {card.id!r} is outside set {set_name!r} (its cards' ids start with {set_name + ':'!r})"
    if not isinstance(card.text, str):
        yield f"text must be a string, not {card.text!r}"
    copies = card.copies
    if not isinstance(copies, int) or isinstance(copies, bool):
        yield f"copies must be a whole number, not {copies!r}"
    elif not 1 <= copies <= MAX_COPIES:
        yield f"copies must be from 1 to {MAX_COPIES}, not {copies}"
    if not isinstance(card.targets, tuple):
        yield f"targets must be a tuple of target kinds ({TARGET_KINDS}), not {card.targets!r}"
    else:
        for target in card.targets:
            if not isinstance(target, Target):
                yield f"target {target!r} is not a target kind; use {TARGET_KINDS}"
    yield from _ask_problems(card.ask, card_names)
    for part in ("main", "at_beginning", "at_end"):
        effect = getattr(card, part)
        if effect is None:
            continue
        if not callable(effect):
            yield f"{part} must be a function, not {effect!r}"
        elif not _takes(effect, 1):
            yield f"{part} must take exactly one argument (the play)"
    rulings = card.rulings
    if not isinstance(rulings, tuple) or not all(isinstance(r, str) and r.strip() for r in rulings):
        yield f"rulings must be a tuple of sentences, not {rulings!r}"
    yield from _unmet_problems(card.unmet)


def _misleading(card: Card, names: set[str], card_names: tuple[str, ...]) -> Iterator[str]:
    """What a game survives but misleads its players: a card with no printed text, a text
    that does not announce the parts the card has (or announces one it lacks), a name another
    card of the set has too, a question that leaves no card of the game to name."""
    # In any case and however the text wraps ("At End\n    of Round" in a long string).
    text = " ".join(card.text.split()).lower() if isinstance(card.text, str) else None
    if text is not None and not text.strip():
        yield "the card has no printed text"
    for part, phrase in PHRASES:
        has, says = getattr(card, part) is not None, text is not None and phrase.lower() in text
        if has and not says:
            yield f"has an {phrase!r} part but its text does not say so"
        elif says and not has:
            yield f"its text says {phrase!r} but the card has no {part} part"
    if _label(card).lower() in names:
        yield (
            f"another card of the set is named {card.name!r} too: a card that names a card "
            "cannot tell them apart"
        )
    ask = card.ask
    if (
        card_names
        and isinstance(ask, NameACard)
        and not _ask_problems(ask, card_names)
        and not ask.choices(card_names)
    ):
        yield "its question leaves no card to name: it excludes every card of the game"


def _unmet_problems(unmet: object) -> list[str]:
    if not isinstance(unmet, str):
        return [f"unmet must be a string, not {unmet!r}"]
    try:
        unmet.format(**UNMET_FIELDS)
    except (KeyError, IndexError, ValueError) as exc:
        return [
            f"unmet {unmet!r} cannot be filled ({type(exc).__name__}: {exc}); it may name "
            + ", ".join("{" + k + "}" for k in UNMET_FIELDS)
        ]
    return []


def _ask_problems(ask: object, card_names: tuple[str, ...]) -> list[str]:
    if ask is None:
        return []
    if isinstance(ask, type) and issubclass(ask, Ask):
        return [f"ask must be a question, not the class: write {ask.__name__}(...)"]
    if not isinstance(ask, Ask):
        return [f"ask {ask!r} is not a question (NameACard, NameANumber, Choose)"]
    until = getattr(ask, "until", None)
    if until is not None:
        if not isinstance(until, str) or until.lower() not in SECRET_UNTIL:
            return [
                f"its question's until must be one of {', '.join(map(repr, SECRET_UNTIL))}, "
                f"not {until!r}"
            ]
        if not ask.secret:
            return [f"its question keeps nothing until {until!r}: add secret=True"]
    if isinstance(ask, NameACard):
        # Its answers are the game's card names: those are checked by _misleading.
        if not isinstance(ask.excluding, tuple) or not all(
            isinstance(n, str) for n in ask.excluding
        ):
            return [
                f"NameACard(excluding=...) must be a tuple of card names, not {ask.excluding!r}"
            ]
        return []
    try:
        choices = ask.choices(card_names)
    except Exception as exc:
        return [f"its question cannot list its answers: {type(exc).__name__}: {exc}"]
    if not choices:
        return ["its question has no possible answer"]
    for choice in choices:
        try:
            ask.check(choice, card_names)
        except Exception as exc:
            return [f"its question refuses its own answer {choice!r}: {exc}"]
    return []


def _with_closest(name: str, known: Iterable[str]) -> str:
    """A misspelt name, with the closest known one: "copy (did you mean 'copies'?)"."""
    close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.6)
    return f"{name} (did you mean {close[0]!r}?)" if close else name


def _takes(fn: Callable[..., object], n: int) -> bool:
    """Can ``fn`` be called with ``n`` positional arguments?"""
    try:
        inspect.signature(fn).bind(*range(n))
    except TypeError:
        return False
    except ValueError:  # no signature to read (a builtin): give it the benefit of the doubt
        return True
    return True
