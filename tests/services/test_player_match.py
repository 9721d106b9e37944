"""The player's own flow (issue 12, ``turnir.services.player_match``): where a player plays
now, the match card from the player's side (the opponent's report, one-tap choices), a dispute
with a comment, and leaving the tournament on their own (P-7)."""

from __future__ import annotations

import pytest

from tests.services.builders import ORGANIZER, event
from tests.services.test_reports import players
from turnir.domain.model import Pairing, Status
from turnir.domain.results import parse_result
from turnir.domain.text import BadTextError
from turnir.errors import ConflictError
from turnir.services.accounts import AccountInfo, AccountRole, create_account, make_hasher
from turnir.services.player_match import (
    SELF_DROP_REASON,
    leave_tournament,
    my_match,
    my_tournaments,
)
from turnir.services.players import list_players
from turnir.services.queries import audit_log
from turnir.services.reports import NotAllowedError, ReportStatus, report_result
from turnir.services.results import record_result
from turnir.services.rounds import current_round, start_round
from turnir.services.tournaments import finish_tournament
from turnir.storage.database import Database


def my_round(db: Database, tid: int) -> tuple[Pairing, ...]:
    return current_round(db, tid).round.pairings


def _finish(db: Database, tid: int) -> None:
    """Every open table of the round gets 2-1, then the organizer finishes early."""
    for line in my_round(db, tid):
        if line.b is not None and line.result is None:
            record_result(db, tid, 1, line.table, parse_result("2-1"), actor=ORGANIZER)
    finish_tournament(db, tid, actor=ORGANIZER, early=True)


def _first_match(db: Database, tid: int) -> tuple[int, int, int]:
    line = next(p for p in start_round(db, tid, actor=ORGANIZER).round.pairings
                if p.b is not None)
    assert line.b is not None
    return line.table, line.a, line.b


def test_the_card_shows_the_opponents_report_from_the_players_side(db: Database) -> None:
    tid = event(db, 6)
    table, a, b = _first_match(db, tid)
    accounts = players(db, tid)
    card = my_match(db, tid, accounts[b])
    assert (card.table, card.first, card.can_report, card.mine, card.theirs) == (
        table, False, True, None, None)
    assert [c.score for c in card.choices] == ["2-0", "2-1", "1-1", "1-2", "0-2", "ID"]
    report_result(db, tid, 1, table, parse_result("2-1"), account=accounts[a])
    card = my_match(db, tid, accounts[b])
    assert card.theirs is not None and card.theirs.score == "1-2" and card.mine is None
    assert my_match(db, tid, accounts[a]).mine == parse_result("2-1")
    # confirming is reporting the opponent's result back: recorded, seen from each side
    answer = report_result(db, tid, 1, table, card.theirs, account=accounts[b])
    assert answer.status is ReportStatus.RECORDED
    after = my_match(db, tid, accounts[b])
    assert after.result is not None and after.result.score == "1-2" and not after.can_report
    assert my_match(db, tid, accounts[a]).result == parse_result("2-1")


def test_a_dispute_is_a_different_report_with_its_comment_logged(db: Database) -> None:
    tid = event(db, 6)
    table, a, b = _first_match(db, tid)
    accounts = players(db, tid)
    report_result(db, tid, 1, table, parse_result("2-0"), account=accounts[a])
    with pytest.raises(BadTextError, match="control"):  # a comment is bounded text
        report_result(db, tid, 1, table, parse_result("2-1"), account=accounts[b],
                      comment="вторую\x00")
    answer = report_result(db, tid, 1, table, parse_result("2-1"), account=accounts[b],
                           comment="  я выиграл вторую  ")
    assert answer.status is ReportStatus.DISPUTED
    card = my_match(db, tid, accounts[b])
    assert card.disputed and card.my_comment == "я выиграл вторую" and not card.their_comment
    assert my_match(db, tid, accounts[a]).their_comment == "я выиграл вторую"  # the opponent
    assert audit_log(db, tid, action="report.submit")[-1].after["comment"] == "я выиграл вторую"


def test_my_tournaments_lists_the_running_ones_where_the_person_plays(db: Database) -> None:
    first, second = event(db, 6, name="Первый"), event(db, 6, name="Второй")
    event(db, 6, name="Третий")  # registration: not running, nothing to play yet
    tables = {tid: next(p.table for p in start_round(db, tid, actor=ORGANIZER).round.pairings
                        if 1 in p.players) for tid in (first, second)}
    person = players(db, first)[1].person_id  # "Игрок 01" from Москва plays in all three
    assert person is not None
    found = my_tournaments(db, person)
    assert [(t.id, t.name, t.round, t.table, t.open) for t in found] == [
        (second, "Второй", 1, tables[second], True), (first, "Первый", 1, tables[first], True)]
    _finish(db, first)
    assert [t.name for t in my_tournaments(db, person)] == ["Второй"]
    assert my_tournaments(db, None) == []


def test_leaving_drops_from_the_next_round_keeps_the_match_and_is_logged(db: Database) -> None:
    tid = event(db, 6)
    table, a, b = _first_match(db, tid)
    accounts = players(db, tid)
    card = leave_tournament(db, tid, account=accounts[a])
    assert card.dropped_after == 1 and card.table == table and card.can_report
    assert not card.can_leave
    with pytest.raises(ConflictError, match="already dropped"):
        leave_tournament(db, tid, account=accounts[a])
    entry = list_players(db, tid)[a - 1]
    assert entry.dropped_after == 1
    drop = audit_log(db, tid, action="player.drop")[-1]
    assert (drop.actor, drop.entity_id, drop.after["reason"]) == (
        accounts[a].name, str(a), SELF_DROP_REASON)
    # the match of round 1 is still played and reported; round 2 pairs everyone but them
    report_result(db, tid, 1, table, parse_result("0-2"), account=accounts[a])
    assert report_result(db, tid, 1, table, parse_result("2-0"),
                         account=accounts[b]).status is ReportStatus.RECORDED
    for line in my_round(db, tid):
        if line.b is not None and line.result is None:
            record_result(db, tid, 1, line.table, parse_result("2-1"), actor=ORGANIZER)
    second = start_round(db, tid, actor=ORGANIZER).round
    assert all(a not in p.players for p in second.pairings)
    assert my_tournaments(db, accounts[a].person_id) == []


def test_only_a_player_of_the_tournament_leaves_it_and_not_once_it_is_finished(
        db: Database) -> None:
    tid = event(db, 6)
    _first_match(db, tid)
    stranger = create_account(db, login="judge", name="Судья", password="пароль-судьи",
                              role=AccountRole.FLOOR_JUDGE, actor=ORGANIZER,
                              hasher=make_hasher(fast=True))
    with pytest.raises(NotAllowedError):
        leave_tournament(db, tid, account=stranger)
    with pytest.raises(NotAllowedError):
        my_match(db, tid, stranger)
    account: AccountInfo = players(db, tid)[1]
    _finish(db, tid)
    with pytest.raises(ConflictError, match="finished"):
        leave_tournament(db, tid, account=account)
    assert my_match(db, tid, account).status is Status.FINISHED
