"""Barbù's contracts as data: one :class:`ContractSpec` per contract, grouped in named contract sets.

The engine (:mod:`scoring.rules.barbu`) reads everything a contract changes from its spec: whether it is
played in tricks or as Domino, what a trick and each card are worth, which tricks carry a penalty, the
heart-lead restriction, whether the hand may end early, the trump choice, the Misère pass and the Domino
places. Another club's set (pagat's, with doubling) is a new entry in :data:`CONTRACT_SETS`, chosen with the
``contract_set`` option, without touching the engine's trick or Domino code.

Scores follow ``docs/rules/barbu.md`` §5 (the seed: +130 and −130 per dealer).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType
from typing import TypeVar

from .cards import FRENCH_RANKS, SUITS

TRICKS = "tricks"
DOMINO = "domino"


K = TypeVar("K")


def _frozen(values: Mapping[K, int]) -> Mapping[K, int]:
    return MappingProxyType(dict(values))


@dataclass(frozen=True, eq=False)
class ContractSpec:
    """What one contract is: its code and name, its kind, its scores and its special rules.

    A trick contract scores ``per_trick`` for each trick won, plus ``card_penalties[card]`` for each card
    captured, plus ``trick_penalties[n]`` for winning trick ``n`` (1-based). A Domino contract scores
    ``places`` by finishing order.
    """

    code: str
    name: str
    kind: str = TRICKS
    per_trick: int = 0
    card_penalties: Mapping[str, int] = field(default_factory=dict)
    trick_penalties: Mapping[int, int] = field(default_factory=dict)
    no_heart_lead: bool = False  # the leader may not lead a heart while holding another suit
    early_end: bool = False  # the hand may stop once every penalty card is taken (option early_end)
    trump_choice: bool = False  # the dealer names a trump suit or "none" with the contract
    pass_cards: int = 0  # cards each player passes to his left before play (option misere_pass)
    forced_discard: str | None = None  # a card a void player must discard (option must_discard_kh)
    places: tuple[int, ...] = ()  # Domino: the score of each finishing place
    claim_split: str = "tricks"  # what a claim's split counts: "tricks" per seat, or "points" per seat

    def __post_init__(self) -> None:
        object.__setattr__(self, "card_penalties", _frozen(self.card_penalties))
        object.__setattr__(self, "trick_penalties", _frozen(self.trick_penalties))
        if self.claim_split not in ("tricks", "points"):
            raise ValueError(f"{self.code}: claim_split must be 'tricks' or 'points'")
        if self.claim_split == "points" and self.per_trick:
            raise ValueError(f"{self.code}: a points claim cannot also score per trick")
        if self.early_end and (self.per_trick or self.trick_penalties):
            raise ValueError(f"{self.code}: an early end needs a score made only of penalty cards")

    @property
    def is_domino(self) -> bool:
        return self.kind == DOMINO

    def total(self, tricks: int = 13) -> int:
        """What the four scores of a hand of this contract add up to."""
        if self.is_domino:
            return sum(self.places)
        return (
            self.per_trick * tricks + sum(self.card_penalties.values()) + sum(self.trick_penalties.values())
        )


_HONOURS = ("A", "K", "Q", "J", "T")

SEED: tuple[ContractSpec, ...] = (
    ContractSpec("MP", "Mano positiva", per_trick=5, trump_choice=True),
    ContractSpec("MIS", "Misère", per_trick=-2, pass_cards=3),
    ContractSpec(
        "NPR",
        "Non prendere il Re di Cuori",
        card_penalties={"KH": -20},
        no_heart_lead=True,
        early_end=True,
        forced_discard="KH",
        claim_split="points",
    ),
    ContractSpec(
        "NPD",
        "Non prendere le Donne",
        card_penalties={"Q" + s: -6 for s in SUITS},
        early_end=True,
        claim_split="points",
    ),
    ContractSpec(
        "NPC",
        "Non prendere Cuori",
        card_penalties={r + "H": -4 if r in _HONOURS else -2 for r in FRENCH_RANKS},
        no_heart_lead=True,
        early_end=True,
        claim_split="points",
    ),
    ContractSpec(
        "NPUD", "Non prendere le Ultime Due", trick_penalties={12: -12, 13: -12}, claim_split="points"
    ),
    ContractSpec("DOM", "Domino", kind=DOMINO, places=(45, 20, 10, -10)),
)

# The sets a club can choose with the ``contract_set`` option; each dealer plays each contract once.
CONTRACT_SETS: Mapping[str, tuple[ContractSpec, ...]] = MappingProxyType({"seed": SEED})


@cache
def contracts(set_name: str) -> Mapping[str, ContractSpec]:
    """The contracts of a set by code, in the order of the Quadro."""
    return MappingProxyType({c.code: c for c in CONTRACT_SETS[set_name]})
