"""The last card of a booster (D-4: "repeat until the last card is passed"): no one waits a
timer for it — the service's views never show a one-card booster waiting, the pick log has
it as an automatic pick (``last``), and a pick of it is refused. On both databases."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.services.test_live_draft import T0, _pick_first, _started, _view
from turnir.domain.draft.engine import PickRefused
from turnir.services.live_draft import pick_card, pick_log, table_draft
from turnir.storage.database import Database


def test_d4_the_last_card_is_passed_and_taken_at_once(db: Database) -> None:
    tid, accounts = _started(db)  # 8 players, 7-card boosters, a 10 s timer
    by_seat = {_view(db, tid, a, T0).seat: a for a in accounts.values()}
    at, second_last = T0, None
    for k in range(1, 7):  # six passes, everyone picks at once: one second each
        at = T0 + timedelta(seconds=k)
        for account in accounts.values():
            view = _view(db, tid, account, at)
            assert view.cards_left > 1  # never a one-card booster waiting for a pick
            if k == 6 and view.seat == 1:
                second_last = view
            _pick_first(db, tid, account, at)
    for account in accounts.values():
        view = _view(db, tid, account, at)
        assert (view.status, view.booster, view.queue, len(view.pool)) == ("review", None, 0, 7)
    table = table_draft(db, tid, 1, account_id=None, now=at)
    assert table.waiting_on == () and all(row.holding == 0 for row in table.rows)
    last = [p for p in pick_log(db, tid, account_id=None) if p.pick == 7]
    assert len(last) == 8
    assert {(p.reason, p.auto, p.at) for p in last} == {("last", True, at)}
    # seat 1's booster of two went left, to seat 2, and its last card was taken for seat 2
    assert second_last is not None and second_last.booster is not None
    left = second_last.cards[1].uid  # seat 1 picked cards[0]
    with pytest.raises(PickRefused):
        pick_card(db, tid, account_id=by_seat[2].id, booster=second_last.booster,
                  cards_left=1, card=left, now=at + timedelta(seconds=1))
    assert len(_view(db, tid, by_seat[2], at).pool) == 7
