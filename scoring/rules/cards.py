"""Cards and decks: one notation for every deck the project plays.

A card is its code, a short string: rank then suit (``QS``, ``TH``, ``7D``), or a Tarocchi trump
(``T0`` the Miseria, ``T1``…``T20``) or the Fuggitivo (``FU``). Codes travel unchanged through events,
records, the API and the tests; decks know which codes they hold and how to name them.
"""

from __future__ import annotations

import functools
import re
import unicodedata
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


# ---- reading a card as a scorer types it ---------------------------------------------------------
# A scorer keys a card in his own words: the code (``KH``, ``10H``), the rank and suit abbreviations of
# his language (``RC`` Re di coppe, ``RK`` Roi de carreau), a suit symbol (``R♥``), or the card's printed
# name (``3 di spade``, ``dix de cœur``, ``queen of spades``). docs/rules/cards.md lists the spellings.
# Every reading of the text in the languages asked (and in codes) is collected: one card is the answer;
# two different cards (the code ``AC`` is the Ace of clubs, the Italian ``AC`` the Asso di coppe) are
# refused as ambiguous rather than guessed.

_SYMBOLS = {"♠": "S", "♤": "S", "♥": "H", "♡": "H", "❤": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C"}

# Abbreviations of the rank names, by language (the names themselves are the decks' own, above).
_RANK_ABBREVIATIONS: dict[str, dict[str, tuple[str, ...]]] = {
    "it": {"asso": ("a",), "re": ("r",), "cavallo": ("c",), "fante": ("f",), "donna": ("d",)},
    "fr": {"as": ("a",), "roi": ("r",), "dame": ("d",), "valet": ("v",), "cavalier": ("c",)},
    "en": {"ace": ("a",), "king": ("k",), "queen": ("q",), "jack": ("j",), "knight": ("n", "kn")},
}
# More names of the suits (singulars, plurals) and their one-letter abbreviations, by language. The
# names of every deck family are read in every deck: they map to the same four suits.
_SUIT_WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "it": {
        "S": ("spada", "picca", "s", "p"),
        "H": ("coppa", "cuore", "c"),
        "D": ("denaro", "quadro", "d", "q", "o"),
        "C": ("bastone", "fiore", "b", "f"),
    },
    "fr": {
        "S": ("piques", "epee", "p", "e"),
        "H": ("coeurs", "coupe", "c"),
        "D": ("carreaux", "denier", "k", "d"),
        "C": ("trefles", "baton", "t", "b"),
    },
    "en": {
        "S": ("spade", "sword"),
        "H": ("heart", "cup"),
        "D": ("diamond", "coin"),
        "C": ("club", "baton", "stave", "staves"),
    },
}
_TRUMP_WORDS = {"it": ("trionfo", "trionfi"), "fr": ("atout", "atouts"), "en": ("trump", "trumps")}
_SPECIAL_WORDS = {
    "it": {"miseria": "T0", "fuggitivo": "FU", "matto": "FU"},
    "fr": {"misere": "T0", "excuse": "FU", "fuggitivo": "FU"},
    "en": {"miseria": "T0", "fool": "FU", "excuse": "FU"},
}
# Words between a rank and its suit ("Re di coppe", "As de pique", "Ace of spades").
_FILLERS = frozenset(
    {"di", "de", "del", "della", "dei", "delle", "du", "des", "of", "the", "il", "le", "la", "l"}
)
_SHORTEST_PREFIX = 2  # "co" for coppe, "cav" for cavallo: a start of one name only


def read_card(text: str, language: str | Iterable[str], deck: Deck, *, field: str = "card") -> str:
    """The code of the card that ``text`` names in ``deck``, read as a code or in the language(s) given.

    Raises ``card.unreadable`` (no card), ``card.ambiguous`` (two cards or more) or ``card.unknown`` (a
    card, but not of this deck), each quoting ``text`` as it was typed.
    """
    languages = (language,) if isinstance(language, str) else tuple(language)
    typed = text.strip()
    words = _words(typed)
    if any(lang not in LANGUAGES for lang in languages):
        raise ValueError(f"unknown language in {languages!r}")
    found: set[str] = set()
    for lang in (None, *languages):
        found |= _readings(words, _lexicon(deck, lang))
    inside = sorted((c for c in found if c in deck), key=deck.index.__getitem__)
    if len(inside) == 1:
        return inside[0]
    if inside:
        raise MalformedMove(
            "card.ambiguous",
            _("'{typed}' can be read as several cards ({cards}): write the suit as a symbol or in full"),
            field=field,
            typed=typed,
            cards=inside,
        )
    if found:
        raise ImpossibleMove("card.unknown", _NOT_A_CARD[deck.name], field=field, code=typed)
    raise MalformedMove(
        "card.unreadable",
        _("'{typed}' is not a card: key the rank then the suit, as in 7♥ or {example_card}"),
        field=field,
        typed=typed,
        example_card=deck.cards[-1] if suit_of(deck.cards[-1]) != "T" else deck.cards[0],
    )


def _plain(text: str) -> str:
    """Lower case, without accents or ligatures: ``Cœur`` and ``coeur`` are the same word."""
    text = unicodedata.normalize("NFKC", text).casefold().replace("œ", "oe").replace("æ", "ae")
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


def _words(text: str) -> list[str]:
    """The words of a typed card: runs of letters, runs of digits and suit symbols (each in its plain
    form, ``♡`` as ``♥``), the filler words left out."""
    text = _plain(text)
    text = re.sub(r"\b[dl]['’]", " ", text)  # "d'épées", "l'asso"
    return [
        _SUIT_SYMBOL.get(w, w)
        for w in re.findall(rf"[{''.join(_SYMBOLS)}]|[a-z]+|\d+", text)
        if w not in _FILLERS
    ]


_SYMBOL_OF = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SUIT_SYMBOL = {symbol: _SYMBOL_OF[suit] for symbol, suit in _SYMBOLS.items()}


@dataclass(frozen=True)
class _Lexicon:
    """What each word can mean in one deck and language: rank codes, suit letters, trump cards."""

    ranks: dict[str, frozenset[str]]
    suits: dict[str, frozenset[str]]
    rank_names: dict[str, str]  # the full names, for reading a start of one ("cav")
    suit_names: dict[str, str]
    trump_words: tuple[str, ...]
    specials: dict[str, str]


@functools.cache
def _lexicon(deck: Deck, lang: str | None) -> _Lexicon:
    """The words one language has for the cards of a deck, codes included; ``None``: the codes alone,
    read alike in every language. A language's own word wins over a code letter that it shares: the
    Italian and French C is coppe or cœur, never clubs (that reading comes from the codes alone)."""
    # The rank codes of every deck, so that a card of another deck is named as such ("9S", "10H").
    ranks = {r.lower(): {r} for r in {*FRENCH_RANKS, *LATIN_RANKS, *SICILIAN_RANKS}} | {"10": {"T"}}
    suits = {s.lower(): {s} for s in SUITS} | {_SYMBOL_OF[s]: {s} for s in SUITS}
    rank_names: dict[str, str] = {}
    suit_names: dict[str, str] = {}
    trump_words: tuple[str, ...] = ("t",)  # in every deck, so that a trump elsewhere is named as one
    specials = {"fu": "FU"}
    if lang is not None:
        own_ranks: dict[str, set[str]] = {}
        for rank in deck.ranks:
            name = _plain(_rank_label(deck, rank + "S", lang))
            rank_names[name] = rank
            for word in {name, *_RANK_ABBREVIATIONS[lang].get(name, ())}:
                own_ranks.setdefault(word, set()).add(rank)
        own_suits: dict[str, set[str]] = {}
        for suit in SUITS:
            names = {_plain(f[lang][suit]) for f in (_FRENCH_SUITS, _LATIN_SUITS, _SICILIAN_SUITS)}
            names |= {w for w in _SUIT_WORDS[lang][suit] if len(w) > 1}
            suit_names.update((name, suit) for name in names)
            for word in names | {w for w in _SUIT_WORDS[lang][suit] if len(w) == 1}:
                own_suits.setdefault(word, set()).add(suit)
        # A letter rank code (J, Q, K, N, T) belongs to the codes; a language shares only the numbers.
        ranks = {w: r for w, r in ranks.items() if w.isdigit()} | own_ranks
        suits.update(own_suits)
        trump_words += _TRUMP_WORDS[lang]
        specials.update(_SPECIAL_WORDS[lang])
    return _Lexicon(
        ranks={w: frozenset(r) for w, r in ranks.items()},
        suits={w: frozenset(s) for w, s in suits.items()},
        rank_names=rank_names,
        suit_names=suit_names,
        trump_words=trump_words,
        specials=specials,
    )


def _meaning(word: str, exact: dict[str, frozenset[str]], names: dict[str, str]) -> frozenset[str]:
    """What a word means: its own entry, else the one thing that the names it starts mean."""
    if word in exact:
        return exact[word]
    if len(word) < _SHORTEST_PREFIX or not word.isalpha():
        return frozenset()
    meant = frozenset(code for name, code in names.items() if name.startswith(word))
    return meant if len(meant) == 1 else frozenset()


def _cards(rank_word: str, suit_word: str, lex: _Lexicon) -> set[str]:
    ranks = _meaning(rank_word, lex.ranks, lex.rank_names)
    suits = _meaning(suit_word, lex.suits, lex.suit_names)
    return {r + s for r in ranks for s in suits}


def _readings(words: list[str], lex: _Lexicon) -> set[str]:
    """Every card the words can name, in or out of the deck."""
    found: set[str] = set()
    if len(words) == 1:
        word = words[0]
        found |= _meaning(word, {w: frozenset({c}) for w, c in lex.specials.items()}, lex.specials)
        for cut in range(1, len(word)):  # "rc", "asp": a rank and a suit written together
            found |= _cards(word[:cut], word[cut:], lex)
    elif len(words) == 2:
        first, second = words
        found |= _cards(first, second, lex)
        if first in _SYMBOL_OF.values():  # "♥ R": the symbol first
            found |= _cards(second, first, lex)
        if second.isdigit() and int(second) <= 20 and _is_trump_word(first, lex):
            found.add(f"T{int(second)}")
    return found


def _is_trump_word(word: str, lex: _Lexicon) -> bool:
    if word in lex.trump_words:
        return True
    return len(word) >= _SHORTEST_PREFIX and any(w.startswith(word) for w in lex.trump_words if len(w) > 1)
