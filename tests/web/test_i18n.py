"""Russian and English catalogs: the committed ``.mo`` files are compiled from the ``.po``
files as they are, every string of the templates and code is in the catalogs, and every one
has a Russian translation."""

from __future__ import annotations

from babel.messages.pofile import read_po

from turnir.web.i18n import LOCALES, extract, mo_bytes, negotiate, po_path


def test_compiled_catalogs_are_up_to_date() -> None:
    for locale in LOCALES:
        assert po_path(locale).with_suffix(".mo").read_bytes() == mo_bytes(locale), (
            f"run `python -m turnir.web.i18n` to compile the {locale} catalog")


def test_every_string_is_in_the_catalogs_and_translated_to_russian() -> None:
    wanted = {m.id for m in extract() if m.id}
    with po_path("ru").open("rb") as f:
        ru = read_po(f, locale="ru")
    with po_path("en").open("rb") as f:
        en = read_po(f, locale="en")
    assert wanted - {m.id for m in ru if m.id} == set(), "run `python -m turnir.web.i18n update`"
    assert wanted - {m.id for m in en if m.id} == set()
    untranslated = sorted(str(m.id) for m in ru if m.id and not m.string)
    assert untranslated == []


def test_the_language_is_the_remembered_choice_then_the_browser_then_russian() -> None:
    assert negotiate("en", "ru-RU", "ru") == "en"
    assert negotiate(None, "en-GB,en;q=0.9", "ru") == "en"
    assert negotiate("xx", "de-DE", "ru") == "ru"
    assert negotiate(None, None, "ru") == "ru"
