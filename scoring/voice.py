"""The engine's codes and messages said in the reader's language, for the pages, the API's errors and
the services alike.

The engine speaks in codes and in message templates with parameters (``scoring.rules.errors``); a
:class:`Voice` carries what it takes to put them into words for one hand: the game, its deck, the
language of the card names and the players' names by seat. :func:`say` fills a template with its
parameters in words; the names of the codes themselves are in :mod:`scoring.words`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language, gettext, pgettext

from scoring import words
from scoring.rules import ImpossibleMove, MalformedMove, RulesError, get_game
from scoring.rules.cards import LANGUAGES, Deck, suit_of
from scoring.rules.errors import param_kind


def page_language() -> str:
    lang = (get_language() or "it")[:2]
    return lang if lang in LANGUAGES else "it"


# The language a game's cards are named in when nobody chose one: the page's, but L'Hombre is a French
# game and its cards keep their French names (espadille, manille, baste ... are the game's own words).
CARD_LANGUAGE = {"lhombre": "fr"}


def card_language(game: str, chosen: str | None = None) -> str:
    if chosen in LANGUAGES:
        return str(chosen)
    return CARD_LANGUAGE.get(game, page_language())


@dataclass(frozen=True)
class Voice:
    """How one hand is put into words: its game, deck, card-name language and seat names."""

    game: str
    deck: Deck | None
    lang: str
    seats: tuple[str, ...]

    @classmethod
    def of(cls, game: str, seats: Sequence[str] = (), lang: str | None = None) -> Voice:
        return cls(game, get_game(game).deck, card_language(game, lang), tuple(seats))

    @classmethod
    def plain(cls) -> Voice:
        """Words for a message outside any hand: seats by number, cards and suits by their codes."""
        return cls("", None, page_language(), ())

    def seat(self, index: Any) -> str:
        if isinstance(index, int) and not isinstance(index, bool) and 0 <= index < len(self.seats):
            return self.seats[index]
        if isinstance(index, int) and not isinstance(index, bool):
            return pgettext("seat number", "seat {number}").format(number=index + 1)
        return str(index)

    def card(self, code: Any) -> str:
        return card(str(code), self.deck, self.lang)["name"]

    def cards(self, codes: Sequence[Any] | None) -> str:
        return ", ".join(self.card(c) for c in codes or ())

    def suit(self, letter: Any) -> str:
        if letter == "none":
            return str(words.CHOICE_VALUES["trump"]["none"])
        return suit_label(self.deck, str(letter), self.lang) if self.deck is not None else str(letter)


# ---- cards ---------------------------------------------------------------------------------------
def card(code: str, deck: Deck | None, lang: str) -> dict[str, str]:
    try:
        if deck is None:
            raise ValueError("no deck")
        name, rank = deck.name_of(code, lang), deck.rank_label(code, lang)
    except (ImpossibleMove, MalformedMove, ValueError):
        name = rank = code
    return {"code": code, "name": name, "rank": rank, "suit": suit_of(code) if code else ""}


def suit_label(deck: Deck, suit: str, lang: str) -> str:
    """The suit's name in the deck's own words, taken from the name of one of its cards."""
    if suit == "T":
        return {"it": "trionfi", "fr": "atouts", "en": "trumps"}[lang]
    sample = next((c for c in deck.cards if suit_of(c) == suit), None)
    if sample is None:
        return suit
    last = deck.name_of(sample, lang).split(" ")[-1]
    return last.removeprefix("d'")


def rank_label(deck: Deck | None, rank: str, lang: str) -> str:
    sample = next((c for c in deck.cards if c[:-1] == rank), None) if deck is not None else None
    return deck.rank_label(sample, lang) if deck is not None and sample else rank


# ---- the engine's messages -----------------------------------------------------------------------
def param(name: str, value: Any, v: Voice) -> str:
    """One parameter of an engine message in words, by the naming convention of ``scoring.rules.errors``
    (``param_kind``): seats by the players' names, cards and suits by their names in the deck's language,
    codes by the game's words, nested texts said in turn."""
    if value is None:
        return "—"
    kind = param_kind(name)
    if kind == "seat":
        return v.seat(value)
    if kind == "seats" and isinstance(value, list | tuple):
        return " & ".join(v.seat(s) for s in value)  # the players of a side
    if kind == "card":
        return v.card(value)
    if kind == "cards" and isinstance(value, list | tuple):
        return v.cards(value)
    if kind == "suit":
        return v.suit(value)
    if kind == "call":
        return words.call(v.game, value)
    if kind == "combination":
        return words.word(words.COMBINATIONS, value)
    if kind == "contract":
        return words.contract(v.game, value)
    if kind == "option":
        return words.word(words.OPTIONS, value)
    if kind == "text" and isinstance(value, Mapping):
        return say(str(value.get("template", "")), value.get("params"), v)
    if name == "rule":
        return words.rule(str(value))
    if name == "phase":
        return words.word(words.PHASES, value)
    if name in ("kind", "kinds"):
        kinds = value if isinstance(value, list | tuple) else [value]
        return ", ".join(words.word(words.MOVE_KINDS, k) for k in kinds)
    if isinstance(value, list | tuple):
        return ", ".join(str(x) for x in value)
    return str(value)


class _Params(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def say(template: str, params: Mapping[str, Any] | None, v: Voice, *, fallback: str = "") -> str:
    """An engine template in the page's language with its parameters in words (seat names, card names
    ...). A template the catalogue does not know shows as it is, in English."""
    if not template:
        return fallback
    if not params:
        return gettext(template)  # a text without params is the text itself (braces included)
    shown = _Params({k: param(k, value, v) for k, value in (params or {}).items()})
    try:
        return gettext(template).format_map(shown)
    except (ValueError, IndexError, AttributeError):
        return fallback or template


def error_text(exc: RulesError, v: Voice) -> str:
    """An engine or service error in words: its template translated, or its message as it is."""
    template = getattr(exc, "template", "") or ""
    return say(template, getattr(exc, "params", None), v, fallback=exc.message) if template else exc.message


def verdict_text(verdict: Mapping[str, Any], v: Voice) -> str:
    """What a verdict says: its own message in words; a verdict stored before messages had templates
    says the name of its rule and who broke it."""
    template = verdict.get("template")
    if template:
        return say(str(template), verdict.get("params"), v, fallback=str(verdict.get("message", "")))
    who = verdict.get("seat")
    rule = words.rule(str(verdict.get("rule", "")))
    return f"{v.seat(who)}: {rule}" if isinstance(who, int) else rule
