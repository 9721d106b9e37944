"""The audit log's draft entries in words (issue 14 QA fix): the plan, the seating, the live
draft's start and drop, a judge's card replacement (D-7) are named and described, not «Изменение
турнира —», and the «Что менялось» filter has a «Драфт» choice that keeps only them."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from tests.services.draft_builders import draft_event
from tests.web.conftest import Clients
from tests.web.test_audit_log_says_every_change_in_words import rows, visible
from tests.web.test_organizer_plans_and_seats_a_draft import RU, staff
from turnir.services.draft_setup import seat_draft
from turnir.storage.audit import AuditEntry
from turnir.storage.database import Database
from turnir.web.audit_words import Words
from turnir.web.i18n import load_translations


def test_the_log_says_the_draft_plan_and_seating_in_words_and_filters_the_draft(
        clients: Clients, web_db: Database) -> None:
    tid = draft_event(web_db, 17)
    staff(web_db, tid)
    seat_draft(web_db, tid, actor="test", method="lot", tables=2)
    boss = clients.as_("boss")
    html = boss.get(f"/t/{tid}/log", headers=RU).text
    table = visible(html, "log")
    assert {"draft.plan", "draft.seat"} <= set(rows(html))
    assert "Задан план драфта" in table and "Игроки рассажены за столы драфта" in table
    assert "бустеров: 4 (карт: 12, 12, 12, 12), за столом" in table
    assert "по жребию: столов: 2 (игроков: 9, 8)" in table
    assert "Изменение турнира" not in table
    assert re.search(r'<option value="draft"[^>]*>Драфт</option>', html)
    only = rows(boss.get(f"/t/{tid}/log", params={"action": "draft"}, headers=RU).text)
    assert only and set(only) == {"draft.plan", "draft.seat"}


def _said(action: str, after: dict[str, object]) -> tuple[str, str]:
    entry = AuditEntry(id=1, tournament_id=1, at=datetime(2026, 12, 1, tzinfo=UTC),
                       actor="Судья Петров", action=action, entity="live_draft",
                       entity_id="1", before=None, after=after)
    said = Words(load_translations("ru").gettext, "ru", {3: "Драфтер 03"}, {})(entry)
    return said.action, said.what


def test_the_live_draft_and_a_card_replacement_are_said_in_words() -> None:
    assert _said("draft.start", {"tables": [8, 8]}) == (
        "Начат драфт онлайн", "столов: 2 (игроков: 8, 8)")
    assert _said("draft.drop", {"table": 2, "number": 3}) == (
        "Игрок исключён из драфта онлайн", "Драфтер 03 (#3), стол драфта 2")
    assert _said("deck.draft_replacement", {
        "number": 3, "booster_round": 2, "old": ["Гном", "Война стихий", "частая"],
        "new": ["Тролль", "Война стихий", "частая"], "reason": "порвана"}) == (
        "Судья заменил карту драфта",
        "Драфтер 03 (#3), бустер 2: Гном (Война стихий, частая) → Тролль (Война стихий, "
        "частая); причина: порвана")
