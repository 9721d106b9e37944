"""Every ``UserError`` message is a literal template with a Russian and an English entry in
the ``errors`` catalogue (issue 11, "errors a person can read")."""

from __future__ import annotations

import gettext
import string

import pytest

from turnir import i18n
from turnir.errors import Term, UserError
from turnir.i18n_catalogue import read_catalogue, walk


@pytest.fixture(scope="module")
def found() -> tuple[list[str], list[str]]:
    templates, problems = walk()
    return sorted({t.text for t in templates}), [str(p) for p in problems]


def test_every_error_message_is_a_literal_template(found: tuple[list[str], list[str]]) -> None:
    _, problems = found
    assert problems == []


def test_the_walk_finds_the_raise_sites(found: tuple[list[str], list[str]]) -> None:
    templates, _ = found
    assert len(templates) > 150
    assert "every change needs the name of who makes it" in templates


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_every_template_is_in_both_catalogues(found: tuple[list[str], list[str]],
                                             locale: str) -> None:
    templates, _ = found
    catalogue = read_catalogue(locale)
    missing = [t for t in templates if catalogue.get(t) is None or not catalogue[t].string
               or catalogue[t].fuzzy]
    assert missing == []


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_russian_translations_keep_the_fields(found: tuple[list[str], list[str]]) -> None:
    templates, _ = found
    catalogue = read_catalogue("ru")
    wrong = [(t, catalogue[t].string) for t in templates
             if catalogue.get(t) is not None and catalogue[t].string
             and _fields(str(catalogue[t].string)) != _fields(t)]
    assert wrong == []


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_compiled_catalogues_are_up_to_date(locale: str) -> None:
    catalogue = read_catalogue(locale)
    with i18n.catalogue_path(locale, ".mo").open("rb") as f:
        compiled = gettext.GNUTranslations(f)
    stale = [m.id for m in catalogue if m.id and m.string
             and compiled.gettext(str(m.id)) != m.string]
    assert stale == []


def test_an_error_renders_in_each_language() -> None:
    error = UserError("every change needs the name of who makes it", code="no_actor")
    assert i18n.error_text(error, "en") == error.message
    russian = i18n.error_text(error, "ru")
    assert russian and russian != error.message
    assert all("а" <= ch <= "я" or not ch.isalpha() for ch in russian.lower())


def test_terms_inside_a_message_are_translated() -> None:
    error = UserError("{field} is too long", code="too_long", field=Term("the name"))
    assert error.message == "the name is too long"
    table = {"{field} is too long": "{field}: слишком длинно", "the name": "название"}
    assert error.translated(lambda s: table.get(s, s)) == "название: слишком длинно"


def test_a_translation_that_does_not_fit_falls_back_to_english() -> None:
    error = UserError("table {table}", code="x", table=3)
    assert error.translated(lambda s: "стол {стол}") == "table 3"


@pytest.mark.parametrize(("env", "expected"), [
    ({}, "ru"), ({"LANG": "en_US.UTF-8"}, "en"), ({"LANG": "ru_RU.UTF-8"}, "ru"),
    ({"LANG": "C.UTF-8"}, "ru"), ({"LC_ALL": "ru_RU.UTF-8", "LANG": "en_GB.UTF-8"}, "ru"),
    ({"LC_MESSAGES": "en_US", "LANG": "ru_RU"}, "en"),
])
def test_cli_language_from_the_environment(env: dict[str, str], expected: str) -> None:
    assert i18n.environment_locale(env) == expected


@pytest.mark.parametrize(("header", "expected"), [
    (None, "ru"), ("", "ru"), ("en", "en"), ("en-US,en;q=0.9", "en"), ("de,fr", "ru"),
    ("ru;q=0.5,en;q=0.8", "en"), ("en;q=0,ru", "ru"), ("ru-RU,ru;q=0.9,en;q=0.8", "ru"),
])
def test_api_language_from_accept_language(header: str | None, expected: str) -> None:
    assert i18n.accept_language_locale(header) == expected
