"""A page links its stylesheet, scripts and icon by an address that changes with the file
(``/static/NAME?v=HASH``), so the browser keeps each answer for a year without asking again
(``immutable``); an address without the current hash is answered, but must be asked again
(``no-cache``), so that an old page after an upgrade is never pinned to the wrong file. A
conditional request still gets its 304."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from turnir.web.static_files import IMMUTABLE, REVALIDATE

LINKED = re.compile(r'(?:src|href)="(/static/([^"?]+)\?v=([0-9a-f]+))"')


def test_every_file_a_page_links_is_kept_for_a_year(client: TestClient) -> None:
    page = client.get("/login")
    linked = LINKED.findall(page.text)
    assert {name for _, name, _ in linked} >= {"style.css", "htmx.min.js", "app.js",
                                                "favicon.svg"}
    for address, name, _ in linked:
        answer = client.get(address)
        assert answer.status_code == 200, address
        assert answer.headers["cache-control"] == IMMUTABLE, address
        assert answer.content == client.get(f"/static/{name}").content


def test_an_address_without_the_current_hash_is_asked_again(client: TestClient) -> None:
    address, name, version = LINKED.findall(client.get("/login").text)[0]
    stale = "0" * len(version) if version != "0" * len(version) else "1" * len(version)
    for other in (f"/static/{name}", f"/static/{name}?v={stale}",
                  f"/static/{name}?v={version}&v={stale}"):
        answer = client.get(other)
        assert answer.status_code == 200, other
        assert answer.headers["cache-control"] == REVALIDATE, other
    etag = client.get(address).headers["etag"]
    again = client.get(address, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert client.get("/static/no-such-file.css").status_code == 404
