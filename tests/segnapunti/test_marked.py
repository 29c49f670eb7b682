"""Every word a page shows is marked for translation, or is data (a name, a card, a number).

The pages are rendered with a pseudo-translation that wraps whatever passes through the catalogues in
⟦ ⟧; once those parts, the names the demo holds, the decks' card and suit names and the numbers are taken
out, no letter may be left. A text written into a page or a view without being marked shows up here,
whatever the catalogues hold (their completeness is ``test_languages``'s)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils.translation import trans_real

from clubs.models import Club, Player
from scoring.models import Hand, Match
from scoring.rules.cards import DECKS, LANGUAGES, suit_of
from scoring.voice import suit_label
from tournaments.models import Tournament

OPEN, CLOSE = "⟦", "⟧"


def _pseudo(message: str) -> str:
    return f"{OPEN}{message.split(trans_real.CONTEXT_SEPARATOR, 1)[-1]}{CLOSE}"


@pytest.fixture
def pseudo(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every message that passes through a catalogue comes out wrapped."""
    monkeypatch.setattr(trans_real.DjangoTranslation, "gettext", lambda self, message: _pseudo(message))
    monkeypatch.setattr(
        trans_real.DjangoTranslation,
        "ngettext",
        lambda self, singular, plural, n: _pseudo(singular if n == 1 else plural),
    )
    yield


class _Text(HTMLParser):
    """The text a reader sees: no scripts, styles or code (hashes, commands, card codes typed)."""

    SKIP = {"script", "style", "code", "datalist"}

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIP:
            self.skipping += 1
        for name, value in attrs:  # what a reader meets in attributes: tooltips, labels, placeholders
            if name in ("title", "aria-label") and value:
                self.parts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP and self.skipping:
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return "\n".join(parser.parts)


def _data_words() -> list[str]:
    """What a page shows that is data, not interface: names, the decks' card and suit names."""
    found = {"Segnapunti", "Italiano", "Français", "English", "it", "fr", "en"}
    for model, field in (
        (Player, "name"),
        (Club, "name"),
        (Club, "city"),
        (Match, "title"),
        (Tournament, "name"),
    ):
        found.update(v for v in model.objects.values_list(field, flat=True) if v)
    from django.contrib.auth import get_user_model

    found.update(get_user_model().objects.values_list("username", flat=True))
    for deck in DECKS.values():
        for lang in LANGUAGES:
            for card in deck.cards:
                found.update({deck.name_of(card, lang), deck.rank_label(card, lang)})
            found.update(suit_label(deck, suit_of(c), lang) for c in deck.cards)
    return sorted(found, key=len, reverse=True)  # the longest first: "Re di coppe" before "Re"


_MARKED = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
_LETTERS = re.compile(r"[^\W\d_]{2,}")


def unmarked(html: str, data: list[str]) -> list[str]:
    text = visible_text(html)
    while _MARKED.search(text):  # innermost first: a marked text may hold another
        text = _MARKED.sub(" ", text)
    for word in data:
        text = text.replace(word, " ")
    text = re.sub(r"\b[0-9TJQKANFU]{1,3}[SHDCT]?\b", " ", text)  # card codes, ranks, numbers
    return sorted({m.group(0) for m in _LETTERS.finditer(text)})


def _pages() -> list[str]:
    club = Club.objects.get()
    paths = [
        "/",
        "/clubs/",
        f"/clubs/{club.pk}/matches/",
        "/accounts/login/",
        "/tournaments/",
        "/no/such/page/",
    ]
    paths += [
        f"/clubs/{club.pk}/matches/new/?game={g}" for g in ("tressette", "barbu", "tarocchi", "lhombre")
    ]
    for match in Match.objects.filter(club=club):
        paths.append(f"/matches/{match.pk}/")
        for hand in match.hands.all():
            base = f"/matches/{match.pk}/hands/{hand.number}/"
            paths += [base, f"{base}replay/?step=3", f"{base}replay/?step={hand.version}", f"{base}ruling/"]
    for tournament in Tournament.objects.all():
        paths.append(f"/tournaments/{tournament.pk}/standings/")
    paths += [f"/players/{p.pk}/" for p in Player.objects.filter(club=club)[:3]]
    return paths


@pytest.mark.django_db
def test_every_word_of_every_page_is_marked_for_translation(pseudo: None) -> None:
    call_command("load_demo", verbosity=0)
    client = Client()
    client.force_login(Club.objects.get().memberships.get(role="director").user)
    data = _data_words()
    assert Hand.objects.filter(flagged=True).exists()  # the demo has a hand waiting for a ruling

    found: dict[str, list[str]] = {}
    for path in _pages():
        response = client.get(path, headers={"accept-language": "it"})
        assert response.status_code in (200, 404), path
        for word in unmarked(response.content.decode(), data):
            found.setdefault(word, []).append(path)

    shown = {word: paths[:2] for word, paths in found.items()}
    assert not shown, "\n".join(f"{w}: {p}" for w, p in sorted(shown.items()))


def test_the_check_sees_an_unmarked_word_and_lets_data_through() -> None:
    html = (
        f"<p>{OPEN}Trick {OPEN}3{CLOSE}{CLOSE} Anna <b>forgot</b> Re di coppe (KH) "
        "<code>verify_log</code><span title='a tooltip'></span></p>"
    )

    assert unmarked(html, ["Re di coppe", "Anna"]) == ["forgot", "tooltip"]


def test_the_pseudo_translation_wraps_what_the_catalogues_give(pseudo: None) -> None:
    from django.utils import translation

    with translation.override("it"):
        assert translation.gettext("Sign in") == "⟦Sign in⟧"
        assert translation.pgettext("phase", "deal") == "⟦deal⟧"
        assert translation.ngettext("{n} card", "{n} cards", 2) == "⟦{n} cards⟧"
