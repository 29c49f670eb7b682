"""Cards and decks: one notation for every deck the project plays.

A card is its code, a short string: rank then suit (``QS``, ``TH``, ``7D``), or a Tarocchi trump
(``T0`` the Miseria, ``T1``…``T20``) or the Fuggitivo (``FU``). Codes travel unchanged through events,
records, the API and the tests; decks know which codes they hold and how to name them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .errors import ImpossibleMove, MalformedMove, _

SUITS = ("S", "H", "D", "C")

# Suit names by deck family and language. Latin decks: spade=S, coppe=H, denari/ori=D, bastoni=C.
_FRENCH_SUITS = {
    "it": {"S": "picche", "H": "cuori", "D": "quadri", "C": "fiori"},
    "fr": {"S": "pique", "H": "cœur", "D": "carreau", "C": "trèfle"},
    "en": {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"},
}
_LATIN_SUITS = {
    "it": {"S": "spade", "H": "coppe", "D": "denari", "C": "bastoni"},
    "fr": {"S": "pique", "H": "cœur", "D": "carreau", "C": "trèfle"},
    "en": {"S": "swords", "H": "cups", "D": "coins", "C": "batons"},
}
_SICILIAN_SUITS = {
    "it": {"S": "spade", "H": "coppe", "D": "ori", "C": "bastoni"},
    "fr": {"S": "épées", "H": "coupes", "D": "deniers", "C": "bâtons"},
    "en": {"S": "swords", "H": "cups", "D": "coins", "C": "batons"},
}

# Rank names: (name, Italian preposition form). Italian says "Re di coppe", "Asso di denari".
_RANK_NAMES: dict[str, dict[str, str]] = {
    "it": {
        "A": "Asso",
        "2": "Due",
        "3": "Tre",
        "4": "Quattro",
        "5": "Cinque",
        "6": "Sei",
        "7": "Sette",
        "8": "Otto",
        "9": "Nove",
        "T": "Dieci",
        "J": "Fante",
        "Q": "Cavallo",
        "K": "Re",
        "N": "Cavallo",
    },
    "fr": {
        "A": "As",
        "2": "Deux",
        "3": "Trois",
        "4": "Quatre",
        "5": "Cinq",
        "6": "Six",
        "7": "Sept",
        "8": "Huit",
        "9": "Neuf",
        "T": "Dix",
        "J": "Valet",
        "Q": "Dame",
        "K": "Roi",
        "N": "Cavalier",
    },
    "en": {
        "A": "Ace",
        "2": "Two",
        "3": "Three",
        "4": "Four",
        "5": "Five",
        "6": "Six",
        "7": "Seven",
        "8": "Eight",
        "9": "Nine",
        "T": "Ten",
        "J": "Jack",
        "Q": "Queen",
        "K": "King",
        "N": "Knight",
    },
}
# The 52-card French deck says Donna/Dame/Queen for Q; the Sicilian deck has both a Donna ("Fanta", J),
# a Cavallo (N) and a Regina (Q).
_FRENCH_FACE = {"it": {"J": "Fante", "Q": "Donna", "K": "Re"}, "fr": {}, "en": {}}
_SICILIAN_FACE = {
    "it": {"J": "Donna", "N": "Cavallo", "Q": "Regina", "K": "Re"},
    "fr": {"J": "Valet", "N": "Cavalier", "Q": "Dame", "K": "Roi"},
    "en": {"J": "Maid", "N": "Knight", "Q": "Queen", "K": "King"},
}
LANGUAGES = ("it", "fr", "en")


def rank_of(card: str) -> str:
    """The rank letter of a suit card (``Q`` of ``QS``)."""
    return card[:-1]


def suit_of(card: str) -> str:
    """The printed suit of a suit card (``S`` of ``QS``); trumps and the Fuggitivo have suit ``T``."""
    found = _SUIT_OF.get(card)
    if found is not None:
        return found
    if card == "FU" or (card[0] == "T" and card[1:].isdigit()):
        return "T"
    return card[-1]


_SUIT_OF: dict[str, str] = {}  # every card of every deck, filled in below: asked several times a move


@dataclass(frozen=True)
class Deck:
    """A named deck: its cards in a fixed canonical order and how to name them."""

    name: str
    family: str  # "french", "latin" or "sicilian"
    cards: tuple[str, ...]
    ranks: tuple[str, ...]  # canonical low-to-high order of the suit ranks, for sorting and display
    index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", {c: i for i, c in enumerate(self.cards)})

    def __contains__(self, card: object) -> bool:
        return card in self.index

    def __len__(self) -> int:
        return len(self.cards)

    def check(self, card: object, *, field: str = "card") -> str:
        """Return the card code if it is in this deck; raise a keying error naming the field otherwise."""
        if not isinstance(card, str):
            raise MalformedMove(
                "move.malformed", _("{name} must be a card code string"), field=field, name=field
            )
        if card not in self.index:
            raise ImpossibleMove("card.unknown", _NOT_A_CARD[self.name], field=field, code=card)
        return card

    def sort(self, cards: Iterable[str]) -> tuple[str, ...]:
        return tuple(sorted(cards, key=self.index.__getitem__))

    def rank_label(self, card: str, lang: str = "it") -> str:
        """The card's name without its suit (``Re``, ``Roi``, ``King``; a trump's whole name), for a grid
        of cards already grouped by suit."""
        self.check(card)
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}")
        if suit_of(card) == "T":
            return _trump_name(card, lang)
        return _rank_label(self, card, lang)

    def name_of(self, card: str, lang: str = "it") -> str:
        """A display name: ``Re di coppe``, ``Roi de cœur``, ``King of hearts``."""
        self.check(card)
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}")
        if suit_of(card) == "T":
            return _trump_name(card, lang)
        suit = suit_of(card)
        rank_name = self.rank_label(card, lang)
        suits = {"french": _FRENCH_SUITS, "latin": _LATIN_SUITS}.get(self.family, _SICILIAN_SUITS)
        suit_name = suits[lang][suit]
        if lang == "it":
            return f"{rank_name} di {suit_name}"
        if lang == "fr":
            article = "d'" if suit_name[0] in "aeéiou" else "de "
            return f"{rank_name} {article}{suit_name}"
        return f"{rank_name} of {suit_name}"


def _rank_label(deck: Deck, card: str, lang: str) -> str:
    rank = rank_of(card)
    faces: dict[str, dict[str, str]] = _LATIN_FACE
    if deck.family == "french":
        faces = _FRENCH_FACE
    elif deck.family != "latin":
        faces = _SICILIAN_FACE
    return faces[lang].get(rank) or _RANK_NAMES[lang][rank]


# The 40-card Italian deck's Q is a horseman, the Cavallo: a knight, never a queen.
_LATIN_FACE: dict[str, dict[str, str]] = {"it": {}, "fr": {"Q": "Cavalier"}, "en": {"Q": "Knight"}}


def _trump_name(card: str, lang: str) -> str:
    if card == "FU":
        return {"it": "Fuggitivo", "fr": "Excuse", "en": "Fool"}[lang]
    number = int(card[1:])
    if number == 0:
        return {"it": "Miseria", "fr": "Misère", "en": "Miseria"}[lang]
    return {"it": f"Trionfo {number}", "fr": f"Atout {number}", "en": f"Trump {number}"}[lang]


FRENCH_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
LATIN_RANKS = ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
SICILIAN_RANKS = ("4", "5", "6", "7", "8", "9", "T", "J", "N", "Q", "K")

FRENCH_52 = Deck("French 52", "french", tuple(r + s for s in SUITS for r in FRENCH_RANKS), FRENCH_RANKS)
LATIN_40 = Deck("Italian 40", "latin", tuple(r + s for s in SUITS for r in LATIN_RANKS), LATIN_RANKS)
SICILIAN_63 = Deck(
    "Sicilian 63",
    "sicilian",
    tuple(r + s for s in SUITS for r in SICILIAN_RANKS if r != "4" or s == "D")
    + tuple(f"T{n}" for n in range(21))
    + ("FU",),
    SICILIAN_RANKS,
)
DECKS = {d.name: d for d in (FRENCH_52, LATIN_40, SICILIAN_63)}
_NOT_A_CARD = {
    FRENCH_52.name: _("'{code}' is not a card of the French 52 deck"),
    LATIN_40.name: _("'{code}' is not a card of the Italian 40 deck"),
    SICILIAN_63.name: _("'{code}' is not a card of the Sicilian 63 deck"),
}
_SUIT_OF.update((card, suit_of(card)) for deck in DECKS.values() for card in deck.cards)
