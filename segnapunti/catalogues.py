"""The translation catalogues: where they are, compiling them, what makes one complete, and the
tidy-up after ``makemessages``.

``python -m segnapunti.catalogues compile`` (the install step, and the test suite at its start) compiles
each ``.po`` file whose ``.mo`` is missing or older, with Babel: no system tool is needed.

``python -m segnapunti.catalogues tidy`` (run by ``make messages``) gives each new ``.po`` file its
language in the header and clears the header's "fuzzy" mark (a compiler skips a catalogue whose header
is fuzzy), gives every entry of the English catalogue its source text (the source strings are
English, so English is complete by construction: a wording is changed in the source), and writes every
catalogue in one form (:func:`save`), so that gathering the strings again changes no file whose
entries did not change.
``python -m segnapunti.catalogues check`` prints what is missing, the same check the test suite runs.
For translators: ``… todo LANG`` prints the entries of that language still to translate as a JSON list
(source text, context, plural, and an empty translation), and ``… fill LANG FILE.json`` writes the
translations of such a list into the catalogues that hold those entries.
"""

from __future__ import annotations

import io
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

BASE_DIR = Path(__file__).resolve().parent.parent
LANGUAGES = ("it", "fr", "en")
SOURCE_LANGUAGE = "en"

# {name}, {0}, {name!r} ... in str.format templates; %(name)s and %s in the %-style ones.
_BRACES = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*|\d*)(?:![rsa])?(?::[^{}]*)?\}(?!\})")
_PERCENT = re.compile(r"%(?:\(([A-Za-z_][A-Za-z0-9_]*)\))?[-#0 +]*\d*(?:\.\d+)?[sdifr%]")


def po_files(language: str | None = None) -> Iterator[Path]:
    """Every ``django.po`` of the project (the project's own ``locale/`` and each app's)."""
    for folder in [BASE_DIR / "locale", *sorted(BASE_DIR.glob("*/locale"))]:
        for lang in LANGUAGES if language is None else (language,):
            path = folder / lang / "LC_MESSAGES" / "django.po"
            if path.exists():
                yield path


def language_of(path: Path) -> str:
    return path.parent.parent.name


def load(path: Path) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=language_of(path))


def placeholders(text: str) -> set[str]:
    """The placeholders a translation must keep: brace fields and %-style conversions (not ``%%``)."""
    found = {f"{{{m.group(1)}}}" for m in _BRACES.finditer(text)}
    found |= {
        f"%({m.group(1)})" if m.group(1) else "%" for m in _PERCENT.finditer(text) if m.group(0) != "%%"
    }
    return found


def _strings(message: Message) -> list[str]:
    value = message.string
    return [s for s in value if s] if isinstance(value, tuple | list) else [value] if value else []


def problems(path: Path) -> list[str]:
    """What keeps a catalogue from being complete: an entry untranslated or marked fuzzy, or a translation
    that drops or invents a placeholder."""
    out = []
    for message in load(path):
        if not message.id:
            continue
        msgid = message.id[0] if isinstance(message.id, tuple | list) else message.id
        strings = _strings(message)
        if not strings:
            out.append(f"{path.relative_to(BASE_DIR)}: untranslated: {msgid!r}")
            continue
        if message.fuzzy:
            out.append(f"{path.relative_to(BASE_DIR)}: fuzzy: {msgid!r}")
        wanted = placeholders(msgid)
        for s in strings:
            if placeholders(s) != wanted:
                out.append(
                    f"{path.relative_to(BASE_DIR)}: placeholders differ in {msgid!r}: "
                    f"{sorted(wanted)} against {sorted(placeholders(s))}"
                )
    return out


def message_ids(catalog: Catalog) -> set[str]:
    out = set()
    for message in catalog:
        if message.id:
            out.add(message.id[0] if isinstance(message.id, tuple | list) else message.id)
    return out


def compile_stale() -> list[Path]:
    """Compile each catalogue whose ``.mo`` is missing or older than its ``.po``; the files compiled.
    Entries still untranslated or fuzzy are left out, so that they show their source text."""
    done = []
    for path in po_files():
        mo = path.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= path.stat().st_mtime:
            continue
        catalog = load(path)
        tmp = mo.with_suffix(".mo.tmp")
        with tmp.open("wb") as f:
            write_mo(f, catalog)
        tmp.replace(mo)
        done.append(mo)
    return done


def tidy(path: Path) -> bool:
    """Language in the header, no fuzzy header, English entries filled with their source, and the file
    in its one kept form (:func:`save`). True if the file changed."""
    text = path.read_text(encoding="utf-8")
    lang = language_of(path)
    new = re.sub(r'\A((?:#[^\n]*\n)*?)#, fuzzy\n(msgid "")', r"\1\2", text, count=1)
    new = new.replace('"Language: \\n"', f'"Language: {lang}\\n"', 1)
    catalog = read_po(io.BytesIO(new.encode("utf-8")), locale=lang)
    if lang == SOURCE_LANGUAGE:
        _english_from_source(catalog)
    save(path, catalog)
    return path.read_text(encoding="utf-8") != text


def _english_from_source(catalog: Catalog) -> None:
    """Every English entry says its source text (a fuzzy guess of ``makemessages`` included): the source
    is English, and a wording is changed there."""
    for message in catalog:
        if not message.id:
            continue
        message.string = tuple(message.id) if isinstance(message.id, tuple | list) else message.id
        message.flags.discard("fuzzy")


# The header's creation date changes on every ``makemessages``; nothing reads it.
_CREATED = re.compile(r'^"POT-Creation-Date: [^"\n]*"\n', re.MULTILINE)


def save(path: Path, catalog: Catalog) -> None:
    """Write a catalogue in the one form the repository keeps, whoever wrote it last (``makemessages``,
    :func:`tidy` or :func:`fill`): Babel's layout, and no creation date. A catalogue's file then changes
    only when its entries do, and two branches that each gathered their strings merge without clashing
    headers."""
    out = io.BytesIO()
    write_po(out, catalog, width=0, no_location=True)
    text = _CREATED.sub("", out.getvalue().decode("utf-8"))
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def _key(message: Message) -> tuple[str | None, str]:
    msgid = message.id[0] if isinstance(message.id, tuple | list) else message.id
    return (message.context, msgid)


def todo(language: str) -> list[dict[str, Any]]:
    """The entries of ``language`` still untranslated or fuzzy, in every catalogue: each with its source
    text, its context (where the same words mean different things), its plural, and an empty
    ``translation`` to fill (a string, or a list of its plural forms)."""
    out: dict[tuple[str | None, str], dict[str, Any]] = {}
    for path in po_files(language):
        catalog = load(path)
        forms = catalog.num_plurals
        for message in catalog:
            if not message.id or not (message.fuzzy or not _strings(message)):
                continue
            context, msgid = _key(message)
            entry: dict[str, Any] = {"msgid": msgid, "translation": ""}
            if context:
                entry["context"] = context
            if isinstance(message.id, tuple | list):
                entry["plural"] = message.id[1]
                entry["translation"] = [""] * forms
            out[(context, msgid)] = entry
    return list(out.values())


def fill(language: str, entries: list[dict[str, Any]]) -> int:
    """Write the translations of such entries (as :func:`todo` gives them) into the catalogues of
    ``language`` that hold their source texts; the number of entries written."""
    given = {
        (e.get("context") or None, e["msgid"]): e["translation"] for e in entries if e.get("translation")
    }
    written = 0
    for path in po_files(language):
        catalog = load(path)
        changed = False
        for message in catalog:
            key = _key(message)
            if not key[1] or key not in given:
                continue
            value = given[key]
            if isinstance(message.id, tuple | list):
                message.string = tuple(value if isinstance(value, list) else [value] * catalog.num_plurals)
            else:
                message.string = value if isinstance(value, str) else value[0]
            message.flags.discard("fuzzy")
            changed = True
            written += 1
        if changed:
            save(path, catalog)
    return written


# English words that no Italian or French sentence of these pages holds: one of them on a page in either
# language is a text left in English (marked or not).
ENGLISH_WORDS = frozenset({"the", "and", "of", "with", "is", "not", "to", "was", "has", "this", "from", "by"})
_FIELD = re.compile(r"\{[^{}]*\}|%\([^)]*\)[sd]|%[sd]")


def untranslated_in(text: str, language: str) -> list[str]:
    """The English source texts that show in ``text`` (a page as its reader sees it, in ``language``)
    where the catalogue translates them otherwise, and the English words it holds. A source text counts by
    its fixed parts (the words between its placeholders) of two words or more."""
    found: set[str] = set()
    for path in po_files(language):
        for message in load(path):
            if not message.id or not _strings(message):
                continue
            sources = list(message.id) if isinstance(message.id, tuple | list) else [message.id]
            if any(s in sources for s in _strings(message)):
                continue  # the same words in both languages (a name, a code)
            translated = " ".join(_strings(message))
            for source in sources:
                for part in _FIELD.split(source):
                    part = part.strip(" .,:;·()")
                    if len(part.split()) >= 2 and part in text and part not in translated:
                        found.add(part)
    words = {w.lower() for w in re.findall(r"[^\W\d]+", text)}  # rest_of_deal is one (a code)
    found.update(sorted(words & ENGLISH_WORDS))
    return sorted(found)


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else "check"
    if command == "tidy":
        for path in po_files():
            if tidy(path):
                print(f"tidied {path.relative_to(BASE_DIR)}")
        return 0
    if command == "compile":
        for mo in compile_stale():
            print(f"compiled {mo.relative_to(BASE_DIR)}")
        return 0
    if command == "check":
        found = [p for path in po_files() for p in problems(path)]
        print("\n".join(found) or "every catalogue is complete")
        return 1 if found else 0
    if command == "todo" and len(argv) == 3:
        print(json.dumps(todo(argv[2]), ensure_ascii=False, indent=1))
        return 0
    if command == "fill" and len(argv) == 4:
        given = json.loads(Path(argv[3]).read_text(encoding="utf-8"))
        print(f"{fill(argv[2], given)} entries written")
        return 0
    print(
        "usage: python -m segnapunti.catalogues [compile | tidy | check | todo LANG | fill LANG FILE.json]",
        file=sys.stderr,
    )
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
