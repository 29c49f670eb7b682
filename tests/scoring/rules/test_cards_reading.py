"""Reading a card as a scorer keys it: codes, names and abbreviations in Italian, French and English, suit
symbols, "10" (docs/rules/cards.md)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.rules import game_names, get_game
from scoring.rules.cards import (
    DECKS,
    FRENCH_52,
    LANGUAGES,
    LATIN_40,
    SICILIAN_63,
    Deck,
    read_card,
    suit_of,
)
from scoring.rules.errors import ImpossibleMove, MalformedMove

SYMBOLS = {"S": "♠♤", "H": "♥♡❤", "D": "♦♢", "C": "♣♧"}


@pytest.mark.parametrize(
    ("typed", "lang", "deck", "card"),
    [
        # The spellings the issue found refused.
        ("RC", "it", LATIN_40, "KH"),
        ("R♥", "it", LATIN_40, "KH"),
        ("3 di spade", "it", LATIN_40, "3S"),
        ("10H", "en", FRENCH_52, "TH"),
        ("10H", "fr", FRENCH_52, "TH"),
        # Italian: the 40-card deck, its names and letters (R re, C cavallo, F fante, A asso; S spade,
        # C coppe, D denari, B bastoni), the French-suited names, a start of a name.
        ("Re di coppe", "it", LATIN_40, "KH"),
        ("re coppe", "it", LATIN_40, "KH"),
        ("cavallo di bastoni", "it", LATIN_40, "QC"),
        ("CB", "it", LATIN_40, "QC"),
        ("cav bast", "it", LATIN_40, "QC"),
        ("fante di denari", "it", LATIN_40, "JD"),
        ("FD", "it", LATIN_40, "JD"),
        ("asso di spade", "it", LATIN_40, "AS"),
        ("l'asso di spade", "it", LATIN_40, "AS"),
        ("AS", "it", LATIN_40, "AS"),
        ("7 coppe", "it", LATIN_40, "7H"),
        ("7co", "it", LATIN_40, "7H"),
        ("sette di denari", "it", LATIN_40, "7D"),
        ("3 di ori", "it", LATIN_40, "3D"),
        ("2 di cuori", "it", LATIN_40, "2H"),
        ("RF", "it", LATIN_40, "KC"),
        ("Donna di picche", "it", FRENCH_52, "QS"),
        ("DP", "it", FRENCH_52, "QS"),
        ("10 di quadri", "it", FRENCH_52, "TD"),
        ("dieci di fiori", "it", FRENCH_52, "TC"),
        ("fante di cuori", "it", FRENCH_52, "JH"),
        ("Donna di coppe", "it", SICILIAN_63, "JH"),
        ("cavallo di spade", "it", SICILIAN_63, "NS"),
        ("Regina di denari", "it", SICILIAN_63, "QD"),
        ("4 di denari", "it", SICILIAN_63, "4D"),
        ("Trionfo 12", "it", SICILIAN_63, "T12"),
        ("tr 7", "it", SICILIAN_63, "T7"),
        ("Miseria", "it", SICILIAN_63, "T0"),
        ("Fuggitivo", "it", SICILIAN_63, "FU"),
        ("matto", "it", SICILIAN_63, "FU"),
        # French: R roi, D dame, V valet, As; P pique, C cœur, K carreau, T trèfle; accents optional.
        ("Roi de cœur", "fr", FRENCH_52, "KH"),
        ("roi de coeur", "fr", FRENCH_52, "KH"),
        ("RC", "fr", FRENCH_52, "KH"),
        ("Dame de pique", "fr", FRENCH_52, "QS"),
        ("DP", "fr", FRENCH_52, "QS"),
        ("Valet de carreau", "fr", FRENCH_52, "JD"),
        ("VK", "fr", FRENCH_52, "JD"),
        ("As de trèfle", "fr", FRENCH_52, "AC"),
        ("As de trefle", "fr", FRENCH_52, "AC"),
        ("AsT", "fr", FRENCH_52, "AC"),
        ("10 de carreau", "fr", FRENCH_52, "TD"),
        ("dix de pique", "fr", FRENCH_52, "TS"),
        ("10♦", "fr", FRENCH_52, "TD"),
        ("Cavalier de cœur", "fr", LATIN_40, "QH"),
        ("roi d'épées", "fr", SICILIAN_63, "KS"),
        ("Atout 20", "fr", SICILIAN_63, "T20"),
        ("Excuse", "fr", SICILIAN_63, "FU"),
        ("Misère", "fr", SICILIAN_63, "T0"),
        # English and the codes, in any case and with the ten as "10".
        ("King of hearts", "en", FRENCH_52, "KH"),
        ("queen of spades", "en", FRENCH_52, "QS"),
        ("ten of clubs", "en", FRENCH_52, "TC"),
        ("Knight of cups", "en", LATIN_40, "QH"),
        ("kh", "en", FRENCH_52, "KH"),
        ("10c", "en", FRENCH_52, "TC"),
        ("7C", "en", LATIN_40, "7C"),
        ("T12", "en", SICILIAN_63, "T12"),
        ("fu", "en", SICILIAN_63, "FU"),
        ("Fool", "en", SICILIAN_63, "FU"),
        # Suit symbols and their variants, either side of the rank.
        ("K♥", "en", FRENCH_52, "KH"),
        ("K♡", "en", FRENCH_52, "KH"),
        ("K❤️", "en", FRENCH_52, "KH"),
        ("♥ K", "en", FRENCH_52, "KH"),
        ("Q♣", "it", LATIN_40, "QC"),
        ("C♧", "it", LATIN_40, "QC"),
        ("F ♠", "it", LATIN_40, "JS"),
        ("V♢", "fr", FRENCH_52, "JD"),
        ("  10 ♦  ", "en", FRENCH_52, "TD"),
    ],
)
def test_a_card_reads_in_the_readers_words(typed: str, lang: str, deck: Deck, card: str) -> None:
    assert read_card(typed, lang, deck) == card


def test_the_codes_letters_read_in_any_language_when_they_mean_one_card() -> None:
    assert read_card("KH", "it", FRENCH_52) == "KH"  # K is no Italian letter: the code
    assert read_card("JC", "fr", LATIN_40) == "JC"
    assert read_card("7S", "fr", FRENCH_52) == "7S"


def test_a_spelling_that_names_two_cards_is_refused_naming_both() -> None:
    # The code AC is the Ace of clubs; the Italian AC, Asso di coppe (hearts).
    with pytest.raises(MalformedMove) as refused:
        read_card("AC", "it", LATIN_40)
    assert refused.value.code == "card.ambiguous"
    assert refused.value.params == {"typed": "AC", "cards": ["AH", "AC"]}
    assert refused.value.field == "card"
    assert read_card("A♣", "it", LATIN_40) == "AC"  # the symbol or the suit's name settles it
    assert read_card("asso di coppe", "it", LATIN_40) == "AH"


def test_the_languages_given_are_all_read() -> None:
    assert read_card("RC", ("en", "it"), LATIN_40) == "KH"
    with pytest.raises(MalformedMove, match="several cards"):
        read_card("7C", ("fr", "en"), LATIN_40)


def test_a_card_of_another_deck_is_refused_as_such_quoting_what_was_typed() -> None:
    with pytest.raises(ImpossibleMove) as refused:
        read_card("10H", "it", LATIN_40)
    assert refused.value.code == "card.unknown"
    assert refused.value.message == "'10H' is not a card of the Italian 40 deck"
    with pytest.raises(ImpossibleMove, match="'4 di spade' is not a card of the Sicilian 63 deck"):
        read_card("4 di spade", "it", SICILIAN_63)  # the Sicilian deck's only four is of denari
    with pytest.raises(ImpossibleMove, match="'T12' is not a card of the French 52 deck"):
        read_card("T12", "en", FRENCH_52)


@pytest.mark.parametrize("typed", ["xyz", "7", "re", "di coppe", "R R", "Re di coppe di spade", "", "♥"])
def test_what_names_no_card_is_refused_quoting_it_exactly(typed: str) -> None:
    with pytest.raises(MalformedMove) as refused:
        read_card(typed, "it", LATIN_40, field="card_text")
    assert refused.value.code == "card.unreadable"
    assert refused.value.params["typed"] == typed.strip()
    assert refused.value.field == "card_text"
    assert refused.value.message.startswith(f"'{typed.strip()}' is not a card")


def test_an_unknown_language_is_a_bug_not_a_refusal() -> None:
    with pytest.raises(ValueError):
        read_card("KH", "de", FRENCH_52)


def test_every_game_deck_is_one_of_the_decks_read() -> None:
    assert {get_game(name).deck.name for name in game_names()} <= set(DECKS)


# ---- every printed name reads back as itself -------------------------------------------------------
DECK_CARDS = st.sampled_from(sorted(DECKS)).flatmap(
    lambda name: st.tuples(st.just(DECKS[name]), st.sampled_from(DECKS[name].cards))
)


@st.composite
def typed_as(draw: st.DrawFn, text: str) -> str:
    """The text as someone might type it: any letter case, accents dropped or not, spaces doubled."""
    if draw(st.booleans()):
        text = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
    cases = draw(st.lists(st.booleans(), min_size=len(text), max_size=len(text)))
    text = "".join(c.upper() if up else c.lower() for c, up in zip(text, cases, strict=True))
    return draw(st.sampled_from(["", " "])) + text.replace(" ", draw(st.sampled_from([" ", "  "])))


@given(DECK_CARDS, st.sampled_from(LANGUAGES), st.data())
def test_every_cards_printed_name_reads_back_as_itself(
    deck_card: tuple[Deck, str], lang: str, data: st.DataObject
) -> None:
    deck, card = deck_card
    typed = data.draw(typed_as(deck.name_of(card, lang)))
    assert read_card(typed, lang, deck) == card


@given(DECK_CARDS, st.sampled_from(LANGUAGES), st.data())
def test_every_cards_rank_name_with_a_suit_symbol_reads_back_as_itself(
    deck_card: tuple[Deck, str], lang: str, data: st.DataObject
) -> None:
    deck, card = deck_card
    suit = suit_of(card)
    if suit == "T":
        return  # trumps have no suit symbol
    symbol = data.draw(st.sampled_from(SYMBOLS[suit]))
    rank = deck.rank_label(card, lang)
    typed = data.draw(st.sampled_from([f"{rank}{symbol}", f"{rank} {symbol}", f"{symbol}{rank}"]))
    assert read_card(typed, lang, deck) == card


@given(DECK_CARDS, st.sampled_from(LANGUAGES))
def test_every_code_reads_as_itself_or_is_refused_as_ambiguous_naming_it(
    deck_card: tuple[Deck, str], lang: str
) -> None:
    deck, card = deck_card
    try:
        read = read_card(card, lang, deck)
    except MalformedMove as refused:
        # Only where the language's own C (coppe, cuori, cœur) meets the code's C (clubs).
        assert refused.code == "card.ambiguous"
        assert lang != "en" and card.endswith("C") and card in refused.params["cards"]
    else:
        assert read == card


@given(
    st.sampled_from(sorted(DECKS)),
    st.lists(st.sampled_from(LANGUAGES), min_size=1, max_size=2),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=30)
    | st.from_regex(r"\A[0-9a-zA-Z♠♥♦♣ 'èéœ]{0,12}\Z"),
)
def test_any_text_reads_as_a_card_of_the_deck_or_is_refused_with_a_stable_code(
    deck_name: str, languages: list[str], text: str
) -> None:
    deck = DECKS[deck_name]
    try:
        card = read_card(text, languages, deck)
    except (MalformedMove, ImpossibleMove) as refused:
        assert refused.code in {"card.unreadable", "card.ambiguous", "card.unknown"}
        assert text.strip() in (refused.params.get("typed"), refused.params.get("code"))
    else:
        assert card in deck
