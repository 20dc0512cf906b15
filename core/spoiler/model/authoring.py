"""The card author's model in one module, as API 1's ``spoiler.cards`` gave it: the cards
(``spoiler.model.cards``) and the lasting effects that act through the verbs
(``spoiler.model.verbs``). ``import spoiler.cards`` gives this module (``spoiler.moved``);
new code imports from ``spoiler`` or from the two modules themselves."""

from __future__ import annotations

from spoiler.model.cards import (
    ANOTHER_ACTIVE_PLAYER,
    ANOTHER_PLAYER,
    ANY_PLAYER,
    LOST_PLAYER,
    MAX_COPIES,
    TARGET_KINDS,
    Ask,
    Candidate,
    Card,
    CardSet,
    Choose,
    Effect,
    NameACard,
    NameANumber,
    Target,
    declaration_problems,
    slugify,
    targets_possible,
)
from spoiler.model.verbs import Ongoing

__all__ = [
    "ANOTHER_ACTIVE_PLAYER",
    "ANOTHER_PLAYER",
    "ANY_PLAYER",
    "LOST_PLAYER",
    "MAX_COPIES",
    "TARGET_KINDS",
    "Ask",
    "Candidate",
    "Card",
    "CardSet",
    "Choose",
    "Effect",
    "NameACard",
    "NameANumber",
    "Ongoing",
    "Target",
    "declaration_problems",
    "slugify",
    "targets_possible",
]
