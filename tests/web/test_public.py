"""Step 1: the app factory, health, errors, and the public pages (list, pairings, find my table,
standings with every tiebreak and its tooltip, the bracket, final places), cached per change."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.services.builders import JUDGE, event, play_round
from turnir.domain.results import parse_result
from turnir.domain.standings import TieBreak
from turnir.services.accounts import make_hasher
from turnir.services.demo import DEMO_FINISHED, seed_accounts, seed_tournaments
from turnir.services.results import record_result
from turnir.services.rounds import start_round
from turnir.storage.database import Database
from turnir.web.deps import WebState


def test_health_and_the_empty_list(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    page = client.get("/", headers={"accept-language": "en"})
    assert page.status_code == 200 and "No tournaments yet." in page.text
    assert "Турниров пока нет" in client.get("/", headers={"accept-language": "ru"}).text


def test_unknown_things_are_clear_messages_without_traceback(client: TestClient) -> None:
    for path, status in (("/t/99", 404), ("/nowhere", 404), ("/t/abc", 422),
                         ("/t/99999999999", 422)):
        page = client.get(path, headers={"accept-language": "en"})
        assert page.status_code == status, path
        assert 'class="msg error"' in page.text and "Traceback" not in page.text
    assert "no tournament #99" in client.get("/t/99", headers={"accept-language": "en"}).text


def test_public_pages_of_a_running_tournament(client: TestClient, web_db: Database) -> None:
    tid = event(web_db, 8, rounds=3, top=4)
    play_round(web_db, tid)
    start_round(web_db, tid, actor=JUDGE)
    en = {"accept-language": "en"}
    for path in ("", "/pairings", "/pairings?by=name", "/pairings?round=1", "/standings",
                 "/top", "/places", "/find", "/find?name=игрок 03"):
        page = client.get(f"/t/{tid}{path}", headers=en)
        assert page.status_code == 200, (path, page.text[:500])
    found = client.get(f"/t/{tid}/find", params={"name": "игрок 03"}, headers=en).text
    assert "Игрок 03" in found and 'class="table-no"' in found
    assert "No player" in client.get(f"/t/{tid}/find?name=zzz", headers=en).text
    by_name = client.get(f"/t/{tid}/pairings?by=name", headers=en).text
    assert by_name.index("Игрок 01") < by_name.index("Игрок 08")
    assert "The tournament is not over yet." in client.get(f"/t/{tid}/places",
                                                           headers=en).text


def test_standings_show_every_tiebreak_with_its_explanation(client: TestClient,
                                                            web_db: Database) -> None:
    tid = event(web_db, 8, rounds=3)
    play_round(web_db, tid, seed=3)
    en = client.get(f"/t/{tid}/standings", headers={"accept-language": "en"}).text
    ru = client.get(f"/t/{tid}/standings", headers={"accept-language": "ru"}).text
    for tb in (TieBreak.QUALITY_OF_WINS, TieBreak.QUALITY_OF_LOSSES, TieBreak.QUALITY_OF_GAMES,
               TieBreak.SECOND_ORDER_QUALITY, TieBreak.PENALTIES, TieBreak.LOT):
        assert f'data-tiebreak="{tb.value}"' in en
        assert f"{tb.name_en}: {tb.explanation_en}".replace("'", "&#39;") in en
        assert f"{tb.name_ru}: {tb.explanation_ru}".replace("'", "&#39;") in ru
    for tb in TieBreak:  # the legend explains every criterion, head-to-head included
        assert tb.explanation_en.replace("'", "&#39;") in en
    assert len(re.findall(r"<tr(?: class=\"dropped\")?>\s*<td class=\"num\">\d+</td>", en)) == 8


def test_the_top_is_drawn_as_a_bracket_and_final_places_follow(client: TestClient,
                                                               web_db: Database) -> None:
    tid = seed_tournaments(web_db)
    finished = next(i for i in range(1, tid + 1)
                    if DEMO_FINISHED in client.get(f"/t/{i}").text)
    top = client.get(f"/t/{finished}/top", headers={"accept-language": "en"}).text
    assert top.count('class="bracket-round') == 3  # semi-finals, final, winner
    assert "Semi-finals" in top and "Final" in top
    winner = re.search(r'champion.*?slot won">([^<]+)<', top, re.S)
    assert winner is not None
    places = client.get(f"/t/{finished}/places").text
    assert places.index(winner.group(1).strip()) < places.index("<td class=\"num\">2</td>")


def test_a_poll_gets_only_the_live_part(client: TestClient, web_db: Database) -> None:
    tid = event(web_db, 4, rounds=2)
    play_round(web_db, tid)
    part = client.get(f"/t/{tid}/standings", headers={"hx-request": "true"}).text
    assert part.startswith('<div id="live"') and "<html" not in part
    assert 'hx-trigger="turnir:changed from:body, every 10s"' in part  # live, then the poll


def test_pages_are_cached_until_the_tournament_changes(client: TestClient,
                                                       web_db: Database) -> None:
    tid = event(web_db, 4, rounds=2)
    view = start_round(web_db, tid, actor=JUDGE)
    state: WebState = client.app.state.web  # type: ignore[attr-defined]
    first = client.get(f"/t/{tid}/pairings").text
    misses = state.cache.misses
    assert client.get(f"/t/{tid}/pairings").text == first
    assert state.cache.misses == misses and state.cache.hits >= 1
    table = next(p.table for p in view.round.pairings if p.b is not None)
    record_result(web_db, tid, 1, table, parse_result("2-0"), actor=JUDGE)
    after = client.get(f"/t/{tid}/pairings").text
    assert after != first and ">2-0<" in after


def test_the_demo_is_repeatable(web_db: Database) -> None:
    tid = seed_tournaments(web_db)
    assert seed_tournaments(web_db) == tid
    first = seed_accounts(web_db, tid, make_hasher(fast=True))
    again = seed_accounts(web_db, tid, make_hasher(fast=True))
    assert [a.login for a in first] == ["organizer", "judge", "floor", "player1", "player2"]
    assert [a.login for a in again] == [a.login for a in first]
    assert all(a.password != b.password for a, b in zip(first, again, strict=True))
