"""Russian and English catalogs: the committed ``.mo`` files are compiled from the ``.po``
files as they are, every string of the templates and code is in the catalogs, and every one
has a Russian translation."""

from __future__ import annotations

from datetime import UTC, datetime

from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from turnir.web.i18n import LOCALES, Formats, extract, mo_bytes, negotiate, po_path


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


def test_the_language_switch_is_remembered(client: TestClient) -> None:
    answer = client.get("/lang/en?next=/login", follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == "/login"
    cookie = answer.headers["set-cookie"].lower()
    assert "turnir_lang=en" in cookie and "max-age=31536000" in cookie
    assert "Log in" in client.get("/login", headers={"accept-language": "ru"}).text
    client.get("/lang/ru?next=/")
    assert "Войти" in client.get("/login", headers={"accept-language": "en"}).text
    for target in ("//evil.example/x", "https://evil.example/", "/\\evil"):
        moved = client.get("/lang/en", params={"next": target}, follow_redirects=False)
        assert moved.headers["location"] == "/"


def test_dates_and_numbers_in_the_locale_form() -> None:
    moment = datetime(2026, 3, 1, 14, 2, tzinfo=UTC)
    ru, en = Formats("ru", UTC), Formats("en", UTC)
    assert ru.number(2000) == "2\xa0000" and en.number(2000) == "2,000"
    assert "мар" in ru.datetime(moment) and "Mar" in en.datetime(moment)
    assert ru.time(moment) == "14:02" and en.time(moment) == "2:02\u202fPM"


def test_errors_are_translated_with_the_detail_kept(client: TestClient) -> None:
    # Issue 11: the catalogue translates the message itself (its values kept), so a Russian
    # page no longer carries the English original beside a translated code.
    page = client.get("/t/99", headers={"accept-language": "ru"}).text
    assert "турнира №99 нет" in page and "no tournament #99" not in page
    english = client.get("/t/99", headers={"accept-language": "en"}).text
    assert "no tournament #99" in english and "турнира" not in english
