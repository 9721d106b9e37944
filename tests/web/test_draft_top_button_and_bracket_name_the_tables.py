"""The top of a draft event (issue 14 QA fix): the manage page's button names the top round it
pairs («Рассадить финал», not «Рассадить тур 4»), and the bracket lists each player with his
number and draft table."""

from __future__ import annotations

import re

from tests.services.builders import play_round
from tests.services.draft_builders import draft_event
from tests.web.conftest import Clients
from tests.web.test_organizer_plans_and_seats_a_draft import RU, staff
from turnir.services.draft_setup import seat_draft
from turnir.services.tournaments import get_tournament
from turnir.storage.database import Database


def _button(html: str) -> str:
    found = re.search(r'id="pair-next"[^>]*>([^<]+)</button>', html)
    assert found, "no pair button"
    return found.group(1)


def test_the_top_button_names_the_round_and_the_bracket_shows_number_and_draft_table(
        clients: Clients, web_db: Database) -> None:
    tid = draft_event(web_db, 16, rounds=2, top=4)
    staff(web_db, tid)
    seat_draft(web_db, tid, actor="test", method="lot", tables=2)
    play_round(web_db, tid, seed=1)
    play_round(web_db, tid, seed=2)
    boss = clients.as_("boss")
    assert _button(boss.get(f"/t/{tid}/manage", headers=RU).text) == (
        "Начать ТОП (4 игроков: по 2 с каждого стола драфта)")
    play_round(web_db, tid, seed=3)  # the semi-finals
    assert _button(boss.get(f"/t/{tid}/manage", headers=RU).text) == "Рассадить финал"
    t = get_tournament(web_db, tid).tournament
    top = clients.as_(None).get(f"/t/{tid}/top", headers=RU).text
    for line in t.top_rounds[0].pairings:
        for pid in (line.a, line.b):
            assert f"#{pid} · стол драфта {t.tables[pid]}</small>" in top
