"""Errors in the reader's language (issue 11): the API by ``Accept-Language`` (Russian when
the client asks for neither), the pages in the page's language; the message is the catalogue's
translation of the error itself, with its details, not a generic text per code."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.web.conftest import PASSWORD, add_account
from turnir.errors import UserError
from turnir.i18n import error_text
from turnir.services.accounts import AccountRole
from turnir.storage.database import Database
from turnir.web.errors import invalid_request
from turnir.web.limits import BodyTooLarge
from turnir.web.security import LoginRequired

EN = {"accept-language": "en"}
RU = {"accept-language": "ru"}


def _bearer(client: TestClient, login: str) -> dict[str, str]:
    answer = client.post("/api/v1/session", json={"login": login, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return {"authorization": f"Bearer {answer.json()['token']}"}


def test_the_api_answers_russian_by_default_and_english_when_asked(client: TestClient) -> None:
    russian = error_text(LoginRequired("log in to do this"), "ru")
    assert russian != "log in to do this" and any("а" <= c <= "я" for c in russian.lower())
    for headers in ({}, RU, {"accept-language": "de-DE,de;q=0.9"}, {"accept-language": "*"}):
        refused = client.post("/api/v1/tournaments", json={"name": "Кубок"}, headers=headers)
        assert refused.status_code == 401
        assert refused.json() == {"code": "login_required", "message": russian}, headers
    for headers in (EN, {"accept-language": "en-GB,ru;q=0.5"}, {"accept-language": "ru;q=0.2,en"}):
        refused = client.post("/api/v1/tournaments", json={"name": "Кубок"}, headers=headers)
        assert refused.status_code == 401
        assert refused.json() == {"code": "login_required", "message": "log in to do this"}


def test_api_errors_keep_their_status_and_code_in_either_language(client: TestClient,
                                                                  web_db: Database) -> None:
    add_account(web_db, "org", AccountRole.ORGANIZER)
    org = _bearer(client, "org")
    for headers, words in ((RU, "партий в матче (best_of): "), (EN, "games per match (best_of): ")):
        bad = client.post("/api/v1/tournaments", json={"name": "x", "best_of": 2},
                          headers={**org, **headers})
        assert bad.status_code == 422 and bad.json()["code"] == "invalid_request"
        assert bad.json()["message"].startswith(words), bad.json()
    for headers, words in ((RU, "такой страницы нет"), (EN, "no such page")):
        missing = client.get("/api/v1/nothing-here", headers=headers)
        assert missing.status_code == 404
        assert missing.json() == {"code": "not_found", "message": words}


def test_a_page_shows_the_russian_message(client: TestClient) -> None:
    page = client.get("/no-such-page", headers=RU)
    assert page.status_code == 404
    assert "такой страницы нет" in page.text and "no such page" not in page.text
    english = client.get("/no-such-page", headers=EN)
    assert english.status_code == 404 and "no such page" in english.text
    assert "такой страницы нет" in client.get("/no-such-page").text  # the site's default


def test_a_page_remembers_the_chosen_language_for_its_errors(client: TestClient) -> None:
    client.get("/lang/en", follow_redirects=False)
    assert "no such page" in client.get("/no-such-page", headers=RU).text


def test_errors_that_are_not_user_errors_are_translated_too() -> None:
    upload, form = BodyTooLarge(10 * 1024 * 1024, upload=True), BodyTooLarge(2048, upload=False)
    assert upload.detail == "the file upload is larger than 10 MB"
    assert error_text(upload.reason, "ru").endswith("файл больше 10 МБ")
    assert form.detail == "the request is larger than 2 KB"
    assert error_text(form.reason, "ru").endswith("запрос больше 2 КБ")
    assert BodyTooLarge(1000, upload=False).detail == "the request is larger than 1000 bytes"
    found = invalid_request([{"loc": ("body", "name"), "msg": "Field required",
                              "type": "missing"}])
    assert found.message == "the name (name): a value is required"
    assert found.code == "invalid_request"
    assert error_text(found, "ru") == "название (name): нужно значение"
    assert invalid_request([]).message == "the request is not valid: the request cannot be read"
    number = invalid_request([{"loc": ("path", "tid"), "msg": "Input should be a valid integer",
                               "type": "int_parsing"}])
    assert error_text(number, "ru") == "номер турнира (tid): нужно целое число"
    bounded = invalid_request([{"loc": ("query", "page"), "type": "greater_than_equal",
                                "msg": "Input should be greater than or equal to 1",
                                "ctx": {"ge": 1}}])
    assert error_text(bounded, "ru") == "страница (page): не меньше 1"
    assert bounded.message == "the page (page): at least 1"
    pattern = invalid_request([{"loc": ("path", "kind"), "type": "string_pattern_mismatch",
                                "msg": "String should match pattern '^(a|b)$'"}])
    assert "pattern" not in error_text(pattern, "ru") and "^" not in error_text(pattern, "ru")
    assert isinstance(found, UserError)
