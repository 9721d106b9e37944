"""The OpenAPI description (``/api/v1/openapi.json``) is made once per process: every app made
in it shares the route table, so the second app answers with the first one's description, the
same document FastAPI itself makes; an app with another heading (a server list) gets its own."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.web.conftest import settings_for
from turnir.storage.database import Database
from turnir.web.app import create_app


def test_a_second_app_answers_with_the_same_description_fastapi_makes(web_db: Database) -> None:
    first = create_app(settings_for(web_db), db=web_db)
    second = create_app(settings_for(web_db), db=web_db)
    served = TestClient(first).get("/api/v1/openapi.json")
    assert served.status_code == 200
    assert second.openapi() is first.openapi()  # made once
    fresh = create_app(settings_for(web_db), db=web_db)
    assert FastAPI.openapi(fresh) == served.json()  # what FastAPI makes without the cache
    assert "/api/v1/tournaments/{tid}/standings" in served.json()["paths"]


def test_an_app_with_other_servers_gets_its_own_description(web_db: Database) -> None:
    plain = create_app(settings_for(web_db), db=web_db)
    behind = create_app(settings_for(web_db), db=web_db)
    behind.servers = [{"url": "/turnir"}]
    assert behind.openapi() is not plain.openapi()
    assert behind.openapi()["servers"] == [{"url": "/turnir"}]
    assert "servers" not in plain.openapi()
