"""The last card of a booster on the pages (issue 14 QA, D-4): once every player has picked
six cards of their 7-card booster, the pick page shows no booster of one card waiting (the
review follows at once) and the pick log names the automatic pick «последняя карта»."""

from __future__ import annotations

from tests.web.conftest import Clients
from tests.web.test_live_draft_pages_pick_start_and_drop import FORM, RU, draft_event, start
from turnir.services.accounts import find_account
from turnir.services.live_draft import pick_card, player_draft
from turnir.storage.database import Database


def test_issue14_the_last_card_is_taken_at_once_and_named_in_the_log(
        web_db: Database, clients: Clients) -> None:
    tid = draft_event(web_db, players=6)
    start(clients, tid)
    accounts: list[int] = []
    for n in range(1, 7):
        found = find_account(web_db, f"p{n}")
        assert found is not None
        accounts.append(found.id)
    for _ in range(6):  # six passes: everyone picks the first card shown
        for account in accounts:
            view = player_draft(web_db, tid, account_id=account)
            assert view is not None and view.booster is not None and view.cards_left > 1
            pick_card(web_db, tid, account_id=account, booster=view.booster,
                      cards_left=view.cards_left, card=view.cards[0].uid)
    page = clients.as_("p1").get(f"/t/{tid}/draft/pick", headers=RU).text
    assert FORM.search(page) is None and "Ваш пул (карт: 7)" in page
    log = clients.as_("head").get(f"/t/{tid}/draft/log", headers=RU).text
    assert log.count("последняя карта: без выбора") == 6
