"""Issue 12, the organizer's defects of the QA walk-through (/work/helpers/QA_h11.md): the
wizard offers to start a clock that did not start with the round (item 4) and says which
tables lack a result and how to resume a paused clock in words that fit (low 13); players
left out of round 1 because they did not check in are not ranked and read "did not come"
(item 8, P-6, P-7); the staff page's new-account form derives the site role from the staff
role and every staff form says what happened in its own card (item 11), its confirm names
the person (low 24); the finish page says one thing about the head judge (low 17); the
late-entry button is an action (low 3); an organizer on /t/N/me is told they do not play
(low 22)."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.services.builders import ORGANIZER, event, play_round
from tests.web.conftest import PASSWORD, Clients, add_account, csrf_of
from turnir.services.accounts import AccountRole, find_account
from turnir.services.judges import JudgeRole, add_judge, staff_role
from turnir.services.players import check_in, list_players
from turnir.services.round_clock import round_timer
from turnir.services.round_wizard import run_clock
from turnir.services.rounds import start_round
from turnir.services.tournaments import finish_tournament
from turnir.storage.database import Database


def _organized(db: Database, players: int, **kw: object) -> int:
    add_account(db, "org", AccountRole.ORGANIZER)
    tid = event(db, players, **kw)  # type: ignore[arg-type]
    add_judge(db, tid, role=JudgeRole.ORGANIZER, login="org", actor=ORGANIZER)
    return tid


def _htmx(client: TestClient, url: str, data: dict[str, str], target: str) -> object:
    return client.post(url, data={**data, "csrf_token": csrf_of(client, "/")},
                       headers={"hx-request": "true", "hx-target": target,
                                "hx-current-url": f"http://testserver{url}"},
                       follow_redirects=False)


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_no_shows_are_not_ranked_and_read_did_not_come(web_db: Database,
                                                       clients: Clients) -> None:
    """Item 8: 7 registered, 4 checked in; after two rounds and the finish the final places
    and the standings have the 4 who played (P-6), the 3 left out are "did not come", not
    "dropped after round 0" (P-7)."""
    tid = _organized(web_db, 7, rounds=2)
    for number in (1, 2, 3, 4):
        check_in(web_db, tid, number, actor=ORGANIZER)
    play_round(web_db, tid)
    play_round(web_db, tid)
    finish_tournament(web_db, tid, actor=ORGANIZER)
    absent = {p.name for p in list_players(web_db, tid) if p.number > 4}
    org = clients.as_("org")
    for page in ("places", "standings"):
        shown = org.get(f"/t/{tid}/{page}").text
        assert "Игрок 01" in shown and not any(name in shown for name in absent), page
    players = _text(org.get(f"/t/{tid}/manage").text)
    assert players.count("не пришёл") == 3 and "выбыл после тура 0" not in players


def test_wizard_starts_a_clock_that_did_not_start_with_the_round(web_db: Database,
                                                                 clients: Clients) -> None:
    """Item 4: paired without the clock setting, the wizard line has «Запустить часы (50 мин)»
    (not only the fold-out); low 13: «столы без результата: 1, 2», a paused clock «Продолжить»."""
    tid = _organized(web_db, 4)
    start_round(web_db, tid, actor=ORGANIZER)
    org = clients.as_("org")
    manage = org.get(f"/t/{tid}/manage").text
    line = manage.split('id="clock-state"')[1].split("</li>")[0]
    assert "Часы не запущены" in line and "Запустить часы (50 мин)" in line
    assert "столы без результата: 1, 2" in _text(manage)
    finish = _text(org.get(f"/t/{tid}/finish?early=true").text)
    assert "Столы без результата в последнем туре: 1, 2." in finish
    answer = _htmx(org, f"/t/{tid}/timer", {"minutes": "50"}, "messages")
    assert answer.status_code == 200  # type: ignore[attr-defined]
    timer = round_timer(web_db, tid, 1)
    assert timer is not None and timer.duration_s == 50 * 60
    run_clock(web_db, tid, "pause", minutes=0, actor=ORGANIZER, account_id=None)
    paused = org.get(f"/t/{tid}/manage").text
    assert 'id="clock-resume">Продолжить<' in paused and "Пустить часы" not in paused
    assert 'id="start-clock-now"' not in paused


def test_staff_forms_derive_the_site_role_and_answer_in_their_card(web_db: Database,
                                                                   clients: Clients) -> None:
    """Item 11: the default site role with «судья в зале» makes a floor judge's account on the
    staff; success and error are said in the form's card; low 24: the confirm names the
    person."""
    tid = _organized(web_db, 4)
    org = clients.as_("org")
    page = org.get(f"/t/{tid}/staff").text
    assert re.search(r'<select name="role"><option value="" selected>', page)
    made = _htmx(org, f"/t/{tid}/staff/account",
                 {"name": "Ольга Судья", "login": "olga", "password": PASSWORD,
                  "staff_role": "floor_judge"}, "account-msg")
    where = made.headers["hx-redirect"]  # type: ignore[attr-defined]
    assert where == f"/t/{tid}/staff?done=account#new-account"
    olga = find_account(web_db, "olga")
    assert olga is not None and olga.role is AccountRole.FLOOR_JUDGE
    assert staff_role(web_db, tid, olga.id) is JudgeRole.FLOOR_JUDGE
    after = org.get(where.split("#")[0]).text
    card = after.split('id="new-account"')[1]
    assert "Учётная запись создана." in card.split('id="create-account"')[0]
    assert "Снять Ольга Судья с этой роли?" in after
    refused = _htmx(org, f"/t/{tid}/staff/account",
                    {"name": "Пётр", "login": "petr", "password": PASSWORD, "role": "player",
                     "staff_role": "floor_judge"}, "account-msg")
    assert refused.status_code == 422  # type: ignore[attr-defined]
    assert refused.headers["hx-retarget"] == "#account-msg"  # type: ignore[attr-defined]
    olga_row = next(j for j in after.split('id="judge-')[1:] if "olga" in j)
    judge = olga_row.split('"')[0]
    removed = _htmx(org, f"/t/{tid}/staff/{judge}/remove", {}, "staff-msg")
    assert removed.headers["hx-redirect"] == f"/t/{tid}/staff?done=removed#staff"  # type: ignore[attr-defined]
    gone = org.get(f"/t/{tid}/staff?done=removed").text
    assert "Роль в коллегии снята." in gone.split('id="staff"')[1].split("</section>")[0]
    plain = org.post(f"/t/{tid}/staff", data={"login": "olga", "role": "floor_judge",
                                             "csrf_token": csrf_of(org, "/")},
                     follow_redirects=False)
    assert plain.status_code == 303 and plain.headers["location"] == f"/t/{tid}/staff"


def test_finish_page_says_one_thing_about_the_head_judge(web_db: Database,
                                                         clients: Clients) -> None:
    """Low 17: no "before finishing" beside "can be set afterwards"."""
    tid = _organized(web_db, 4, rounds=1)
    play_round(web_db, tid)
    warning = _text(clients.as_("org").get(f"/t/{tid}/finish").text)
    assert "в том числе после завершения" in warning
    assert "до завершения" not in warning


def test_late_entry_button_is_an_action_and_an_organizer_on_me_is_not_a_player(
        web_db: Database, clients: Clients) -> None:
    """Low 3: «Добавить опоздавшего»; the audit log keeps the past tense. Low 22: /t/N/me for
    an organizer says «Вы не участник этого турнира»."""
    tid = _organized(web_db, 4)
    start_round(web_db, tid, actor=ORGANIZER)
    org = clients.as_("org")
    assert 'id="add-player">Добавить опоздавшего<' in org.get(f"/t/{tid}/manage").text
    me = org.get(f"/t/{tid}/me")
    assert me.status_code == 403 and "Вы не участник этого турнира" in me.text
