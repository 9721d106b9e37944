"""Issue 16 item 3: the pairings page tells judges why each floated player floats (P-3), in
Russian and English, recomputed from the stored history; other visitors do not see it."""

from __future__ import annotations

from tests.services.builders import JUDGE, ORGANIZER, event, record
from tests.web.conftest import Clients, add_account
from turnir.domain.pairing.history import round_floats
from turnir.domain.results import parse_result
from turnir.services.accounts import AccountRole
from turnir.services.judges import JudgeRole, add_judge
from turnir.services.rounds import start_round
from turnir.services.tournaments import get_tournament
from turnir.storage.database import Database


def test_issue16_item3_judges_see_why_players_float(clients: Clients, web_db: Database) -> None:
    tid = event(web_db, 8, rounds=3)
    first = start_round(web_db, tid, actor=ORGANIZER)
    # three wins and a draw: 3 on 3 points, 2 on 1, 3 on 0 -- two groups are odd
    for line, score in zip(first.round.pairings, ("2-1", "2-1", "2-1", "1-1"), strict=True):
        record(web_db, tid, 1, line.table, parse_result(score), actor=JUDGE)
    start_round(web_db, tid, actor=ORGANIZER)
    add_account(web_db, "floor", AccountRole.FLOOR_JUDGE)
    add_judge(web_db, tid, role=JudgeRole.FLOOR_JUDGE, login="floor", actor=ORGANIZER)

    floats = round_floats(get_tournament(web_db, tid).tournament, 2)
    down = sorted((f.points, f.opponent_points) for f in floats.values() if f.down)
    assert down == [(1, 0), (3, 1)]

    judge = clients.as_("floor")
    en = judge.get(f"/t/{tid}/pairings", headers={"accept-language": "en"}).text
    assert "Why players float" in en
    assert "floated from 3 to 1 points: 3 players have 3 points, an odd number" in en
    assert "floated from 0 to 1 points" in en
    judge.cookies.set("turnir_lang", "ru")
    ru = judge.get(f"/t/{tid}/pairings").text
    assert "переход с 3 на 1 очк.: игроков с 3 очк. нечётное число (3)" in ru

    anonymous = clients.as_(None)
    for _ in range(2):  # the second answer comes from the anonymous cache
        page = anonymous.get(f"/t/{tid}/pairings", headers={"accept-language": "en"}).text
        assert "Round 2" in page and "Why players float" not in page
    # the judge's page is cached apart from the anonymous one
    assert "Почему игроки переходят" in judge.get(f"/t/{tid}/pairings").text
