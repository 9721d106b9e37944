"""The one place text is checked and normalised (issue 10 item 8): ``turnir.domain.text``."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from turnir.domain.text import (
    BadTextError,
    clean_login,
    clean_name,
    clean_query,
    clean_text,
    name_key,
    normal_name,
)


@pytest.mark.parametrize(("raw", "clean"), [
    ("  Анна   Котова ", "Анна Котова"),
    ("Анна Кото\u200bва", "Анна Котова"),
    ("\ufeffАнна\u200c \u200dКотова\u2060", "Анна Котова"),
    ("Анна\u00a0Котова", "Анна Котова"),
    ("Е\u0308жиков", "Ёжиков"),  # decomposed Ё becomes one character (NFC)
    ("Ann\u00ad\u202eA", "AnnA"),  # soft hyphen and a right-to-left override are removed
])
def test_item8_names_are_normalised(raw: str, clean: str) -> None:
    assert clean_name(raw, field="name", max_len=200) == clean


@pytest.mark.parametrize("raw", ["Анна\x00", "\x1b[2JАнна", "Ан\x7fна", "Анна\x85", "A\nB",
                                 "A\tB", "A\ud800"])
def test_item8_control_characters_are_refused(raw: str) -> None:
    with pytest.raises(BadTextError, match=r"the name contains .*U\+") as caught:
        clean_name(raw, field="name", max_len=200)
    assert caught.value.field == "name"
    assert caught.value.code == "bad_text"


def test_item8_lengths_and_emptiness() -> None:
    assert clean_name("я" * 200, field="name", max_len=200) == "я" * 200
    with pytest.raises(BadTextError, match="the club is longer than 100 characters"):
        clean_name("я" * 101, field="club", max_len=100)
    with pytest.raises(BadTextError, match="longer than 200"):  # the key is "ss" * 150
        clean_name("ß" * 150, field="name", max_len=200)
    with pytest.raises(BadTextError, match="the name is empty"):
        clean_name(" \u200b ", field="name", max_len=200)
    assert clean_name("", field="city", max_len=100, required=False) == ""


def test_item8_text_queries_and_logins() -> None:
    assert clean_text(" первая строка\r\nвторая\t! ", field="reason", max_len=500) \
        == "первая строка\nвторая\t!"
    with pytest.raises(BadTextError, match="reason contains a control character"):
        clean_text("a\x00b", field="reason", max_len=500)
    with pytest.raises(BadTextError, match="note contains a control character"):
        clean_text("a\nb", field="note", max_len=500, multiline=False)
    with pytest.raises(BadTextError, match="longer than 5"):
        clean_text("abcdef", field="reason", max_len=5)
    assert clean_query("  кото\u200bва ") == "котова"
    assert clean_query("") == ""
    with pytest.raises(BadTextError, match="the search contains a control character"):
        clean_query("кот\x00")
    assert clean_login(" Anna.K ") == "anna.k"
    with pytest.raises(BadTextError, match="one word"):
        clean_login("anna k")
    with pytest.raises(BadTextError, match="login contains a control"):
        clean_login("anna\x00")


def test_item8_look_alike_names_share_a_key() -> None:
    assert name_key("Анна Кото\u200bва") == name_key("анна  котова") == "анна котова"
    assert name_key("ＡＮＮＡ") == name_key("anna")


@given(st.text(max_size=60))
def test_item8_key_of_a_name_and_of_its_normal_form_agree(raw: str) -> None:
    normal = normal_name(raw)
    assert normal_name(normal) == normal
    assert name_key(normal) == name_key(raw)
    assert name_key(name_key(raw)) == name_key(raw)


def test_issue11_a_refusal_names_its_field_in_the_readers_language() -> None:
    from turnir.i18n import error_text

    with pytest.raises(BadTextError) as caught:
        clean_name("  ", field="city", max_len=10)
    assert caught.value.message == "the city is empty" and caught.value.field == "city"
    assert error_text(caught.value, "ru") == "поле «город» не заполнено"
    assert error_text(caught.value, "en") == "the city is empty"
    with pytest.raises(BadTextError) as caught:
        clean_name("Анна\x07", field="some field", max_len=10)
    assert error_text(caught.value, "ru").startswith("в поле «some field» управляющий символ")
