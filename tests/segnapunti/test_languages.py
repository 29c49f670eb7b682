"""The site's languages: the browser's choice, the switch, the fallback, and complete catalogues."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from segnapunti import catalogues


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("accept", "word"), [("fr-FR,fr;q=0.9", "Tournois"), ("it", "Tornei"), ("en-GB", "Tournaments")]
)
def test_a_page_speaks_the_language_the_browser_asks_for(client: Client, accept: str, word: str) -> None:
    page = client.get(reverse("home"), headers={"accept-language": accept})

    assert page.status_code == 200
    assert f">{word}</a>" in page.text
    assert page.text.count('<html lang="') == 1
    assert f'<html lang="{accept[:2]}">' in page.text


@pytest.mark.django_db
def test_a_browser_asking_for_none_of_them_gets_the_clubs_language(client: Client, settings: object) -> None:
    settings.LANGUAGE_CODE = "it"  # type: ignore[attr-defined]

    page = client.get(reverse("home"), headers={"accept-language": "de-DE,de;q=0.9"})

    assert ">Tornei</a>" in page.text


@pytest.mark.django_db
def test_the_switch_keeps_the_choice_and_returns_to_the_page(client: Client) -> None:
    back_to = reverse("tournament-list")

    answer = client.post(reverse("set_language"), {"language": "fr", "next": back_to})

    assert answer.status_code == 302
    assert answer["Location"] == back_to
    page = client.get(back_to, headers={"accept-language": "it"})
    assert ">Tournois</a>" in page.text  # the choice outranks the browser's


@pytest.mark.django_db
def test_every_page_offers_the_switch_with_the_current_language_selected(client: Client) -> None:
    page = client.get(reverse("home"), headers={"accept-language": "fr"})

    assert f'action="{reverse("set_language")}"' in page.text
    assert '<option value="fr" selected lang="fr">Français</option>' in page.text
    assert '<option value="it" lang="it">Italiano</option>' in page.text


def test_there_is_a_catalogue_for_each_language_with_the_same_entries() -> None:
    folders: dict[Path, dict[str, set[str]]] = {}
    for path in catalogues.po_files():
        folder = path.parents[2]
        folders.setdefault(folder, {})[catalogues.language_of(path)] = catalogues.message_ids(
            catalogues.load(path)
        )
    assert catalogues.BASE_DIR / "locale" in folders
    for folder, by_language in folders.items():
        assert set(by_language) == set(catalogues.LANGUAGES), folder
        assert by_language["it"] == by_language["fr"] == by_language["en"], folder


def _catalogue(folder: Path, language: str, text: str) -> Path:
    """A catalogue of ``language`` under ``folder`` (as a locale folder holds them), with ``text``."""
    po = folder / language / "LC_MESSAGES" / "django.po"
    po.parent.mkdir(parents=True)
    po.write_text(text, encoding="utf-8")
    return po


def test_every_catalogue_is_complete() -> None:
    found = [problem for path in catalogues.po_files() for problem in catalogues.problems(path)]

    assert found == []


def test_the_completeness_check_catches_what_it_should(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    po = _catalogue(
        tmp_path / "locale",
        "fr",
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n\n'
        'msgid "Hand {number}"\nmsgstr "Donne"\n\n'
        'msgid "Seat"\nmsgstr ""\n\n'
        '#, fuzzy\nmsgid "Round"\nmsgstr "Ronde"\n\n'
        'msgid "%(count)s tricks"\nmsgstr "%(count)s plis"\n',
    )
    monkeypatch.setattr(catalogues, "BASE_DIR", tmp_path)

    found = catalogues.problems(po)

    assert any("placeholders differ in 'Hand {number}'" in p for p in found)
    assert any("untranslated: 'Seat'" in p for p in found)
    assert any("fuzzy: 'Round'" in p for p in found)
    assert len(found) == 3


def test_tidy_gives_english_its_source_and_clears_the_fuzzy_header(tmp_path: Path) -> None:
    po = _catalogue(
        tmp_path,
        "en",
        '#, fuzzy\nmsgid ""\nmsgstr ""\n"Language: \\n"\n\n'
        'msgid "Seat"\nmsgstr ""\n\n'
        'msgid "one trick"\nmsgid_plural "{n} tricks"\nmsgstr[0] ""\nmsgstr[1] ""\n\n'
        'msgid "Round"\nmsgstr "Round of play"\n',
    )

    assert catalogues.tidy(po) is True

    text = po.read_text(encoding="utf-8")
    assert "#, fuzzy" not in text
    assert '"Language: en\\n"' in text
    assert 'msgid "Seat"\nmsgstr "Seat"\n' in text
    assert 'msgstr[0] "one trick"\nmsgstr[1] "{n} tricks"\n' in text
    assert 'msgid "Round"\nmsgstr "Round"\n' in text  # English says its source, whatever was there


def _as_makemessages_writes_it(created: str, translation: str) -> str:
    """A French catalogue in the form ``makemessages`` gives it: gettext's header order and date."""
    return (
        '# SOME DESCRIPTIVE TITLE.\n#, fuzzy\nmsgid ""\nmsgstr ""\n'
        '"Project-Id-Version: PACKAGE VERSION\\n"\n'
        f'"POT-Creation-Date: {created}\\n"\n'
        '"Language-Team: LANGUAGE <LL@li.org>\\n"\n"Language: \\n"\n'
        '"Content-Type: text/plain; charset=UTF-8\\n"\n'
        '"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n\n'
        '#, python-brace-format\nmsgid "Hand {number}"\n'
        f'msgstr "{translation}"\n'
    )


def test_gathering_the_strings_again_changes_no_catalogue_whose_entries_did_not_change(
    tmp_path: Path,
) -> None:
    po = _catalogue(tmp_path, "fr", _as_makemessages_writes_it("2026-11-26 08:03+0100", "Donne {number}"))
    assert catalogues.tidy(po) is True
    kept = po.read_text(encoding="utf-8")
    assert "POT-Creation-Date" not in kept
    assert '"Language: fr\\n"' in kept and "#, fuzzy" not in kept

    # The next run of makemessages: a new date, gettext's layout again, the same entries.
    po.write_text(_as_makemessages_writes_it("2026-11-27 10:22+0100", "Donne {number}"), encoding="utf-8")
    catalogues.tidy(po)
    assert po.read_text(encoding="utf-8") == kept
    assert catalogues.tidy(po) is False  # and tidying the kept form changes nothing

    # An entry that did change does show.
    po.write_text(_as_makemessages_writes_it("2026-11-28 09:00+0100", "Main {number}"), encoding="utf-8")
    catalogues.tidy(po)
    assert po.read_text(encoding="utf-8") == kept.replace("Donne {number}", "Main {number}")


def test_a_translator_s_list_goes_back_into_the_catalogue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    po = _catalogue(
        tmp_path / "locale",
        "it",
        'msgid ""\nmsgstr ""\n"Language: it\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
        'msgctxt "phase"\nmsgid "deal"\nmsgstr ""\n\n'
        'msgctxt "column"\nmsgid "deal"\nmsgstr ""\n\n'
        'msgid "{n} trick"\nmsgid_plural "{n} tricks"\nmsgstr[0] ""\nmsgstr[1] ""\n\n'
        'msgid "Seat"\nmsgstr "Posto"\n',
    )
    monkeypatch.setattr(catalogues, "BASE_DIR", tmp_path)

    todo = catalogues.todo("it")

    assert todo == [
        {"msgid": "deal", "context": "phase", "translation": ""},
        {"msgid": "deal", "context": "column", "translation": ""},
        {"msgid": "{n} trick", "plural": "{n} tricks", "translation": ["", ""]},
    ]
    todo[0]["translation"], todo[1]["translation"] = "distribuzione", "smazzata"
    todo[2]["translation"] = ["{n} presa", "{n} prese"]
    assert catalogues.fill("it", todo) == 3
    assert catalogues.problems(po) == []
    catalog = catalogues.load(po)
    assert catalog.get("deal", context="phase").string == "distribuzione"
    assert catalog.get("deal", context="column").string == "smazzata"
    assert catalog.get(("{n} trick", "{n} tricks")).string == ("{n} presa", "{n} prese")
    assert catalog.get("Seat").string == "Posto"


def test_the_scan_finds_english_left_on_a_page_and_lets_translations_through() -> None:
    italian = "Mani in attesa del direttore di gara: 2 · Anna ha giocato Re di coppe"

    assert catalogues.untranslated_in(italian, "it") == []
    assert catalogues.untranslated_in(italian + " · Hands waiting for the director: 3", "it") == [
        "Hands waiting for the director",
        "the",
    ]
    assert catalogues.untranslated_in("Anna forgot the card", "fr") == ["the"]
