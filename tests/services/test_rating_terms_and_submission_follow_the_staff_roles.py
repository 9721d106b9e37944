"""Issue 12 item 2 in the services, on SQLite and PostgreSQL: a web account sets the rating terms
only as the tournament's organizer or head judge, and submits only when it is linked to the
head judge (J-8); the terms can change after the finish (logged); a head judge named after
the finish can submit; the refusal without one says where to name one; a submission needs its
confirmation and a correction a submission before, and a refused one stores nothing; the
page records give the preview or the reason there is none."""

from __future__ import annotations

import pytest

from tests.services.rating_builders import ORGANIZER, finished_event
from turnir.errors import ConflictError, NotFoundError, UserError
from turnir.i18n import error_text
from turnir.services.accounts import AccountRole, create_account, make_hasher
from turnir.services.judges import JudgeRole, NotStaffError, add_judge
from turnir.services.queries import audit_log
from turnir.services.rating_admin import rating_admin_page, rating_report_page
from turnir.services.rating_queries import leaderboard
from turnir.services.rating_terms import set_rating_terms, tournament_rating_terms
from turnir.services.ratings import SubmitStatus, submit_tournament
from turnir.storage.database import Database

NAMES = ["Анна", "Борис", "Вера", "Глеб"]
FAST = make_hasher(fast=True)


def account(db: Database, login: str, role: AccountRole) -> int:
    return create_account(db, login=login, name=login.title(), password="x" * 10, role=role,
                          actor="test", hasher=FAST).id


def staffed(db: Database) -> tuple[int, dict[str, int]]:
    """A tournament finished without a head judge; its organizer and floor judge are named
    after the finish, and two more accounts: ``head`` (not on the staff yet) and ``other``."""
    ids = {login: account(db, login, role) for login, role in (
        ("org", AccountRole.ORGANIZER), ("head", AccountRole.HEAD_JUDGE),
        ("floor", AccountRole.FLOOR_JUDGE), ("other", AccountRole.HEAD_JUDGE))}
    tid = finished_event(db, NAMES, head=None)
    add_judge(db, tid, role=JudgeRole.ORGANIZER, login="org", actor=ORGANIZER)
    add_judge(db, tid, role=JudgeRole.FLOOR_JUDGE, login="floor", actor=ORGANIZER)
    return tid, ids


def test_terms_by_the_organizer_or_head_judge_after_the_finish_logged(db: Database) -> None:
    tid, ids = staffed(db)
    for refused in ("floor", "other"):
        with pytest.raises(NotStaffError):
            set_rating_terms(db, tid, actor="x", professional_k="2", account_id=ids[refused])
    assert tournament_rating_terms(db, tid).version == 0
    set_rating_terms(db, tid, actor="Org", professional_k="7/5", entry_fee="300",
                     account_id=ids["org"])
    add_judge(db, tid, role=JudgeRole.HEAD_JUDGE, login="head", actor=ORGANIZER)
    terms = set_rating_terms(db, tid, actor="Head", boosters=2, account_id=ids["head"])
    assert (terms.version, str(terms.entry_fee)) == (2, "300.00")
    logged = [e for e in audit_log(db, tid) if e.action == "rating.terms"]
    assert [e.actor for e in logged] == ["Org", "Head"]


def test_only_the_head_judges_account_submits_and_one_named_after_the_finish_can(
        db: Database) -> None:
    tid, ids = staffed(db)
    with pytest.raises(UserError) as none:
        submit_tournament(db, tid, actor="Org", account_id=ids["org"])
    assert none.value.code == "no_head_judge"
    assert "Судейская коллегия" in error_text(none.value, "ru")
    assert "Staff page" in error_text(none.value, "en")
    add_judge(db, tid, role=JudgeRole.HEAD_JUDGE, login="head", actor=ORGANIZER)
    for refused in ("org", "floor", "other"):
        with pytest.raises(NotStaffError) as wrong:
            submit_tournament(db, tid, actor="X", account_id=ids[refused])
        assert wrong.value.code == "not_head_judge"
    with pytest.raises(UserError) as unconfirmed:
        submit_tournament(db, tid, actor="Head", account_id=ids["head"], confirmed=False)
    assert unconfirmed.value.code == "not_confirmed"
    with pytest.raises(ConflictError):
        submit_tournament(db, tid, actor="Head", account_id=ids["head"], correction=True)
    assert leaderboard(db).total == 0
    answer = submit_tournament(db, tid, actor="Head", account_id=ids["head"])
    assert answer.status is SubmitStatus.NEW and leaderboard(db).total == 4
    set_rating_terms(db, tid, actor="Head", professional_k="2", account_id=ids["head"])
    corrected = submit_tournament(db, tid, actor="Head", account_id=ids["head"],
                                  correction=True)
    assert corrected.status is SubmitStatus.CORRECTED and corrected.report.version == 2


def test_the_pages_records_give_the_preview_or_the_reason(db: Database) -> None:
    tid, ids = staffed(db)
    page = rating_admin_page(db, tid, account_id=ids["org"])
    assert page.problem is None and page.preview is not None
    assert [line.person.name for line in page.preview.report.lines] == NAMES
    assert (page.head_judge, page.may_submit, page.submitted) == (None, False, None)
    assert [e.number for e in page.entries] == [1, 2, 3, 4]
    with pytest.raises(NotStaffError):
        rating_admin_page(db, tid, account_id=ids["floor"])
    running = finished_event(db, NAMES, name="Идёт", finish=False)
    report = rating_report_page(db, running)
    assert report.report is None and report.problem is not None
    assert report.problem.code == "not_finished"
    assert rating_admin_page(db, running, account_id=None).problem is not None
    assert rating_report_page(db, tid).report is not None
    with pytest.raises(NotFoundError):
        rating_report_page(db, 999_999)


def test_an_organizer_who_is_also_the_head_judge_submits(db: Database) -> None:
    tid, ids = staffed(db)
    add_judge(db, tid, role=JudgeRole.HEAD_JUDGE, login="org", actor=ORGANIZER)
    assert rating_admin_page(db, tid, account_id=ids["org"]).may_submit
    answer = submit_tournament(db, tid, actor="Org", account_id=ids["org"])
    assert answer.status is SubmitStatus.NEW and answer.report.submitted_by == "Org"
