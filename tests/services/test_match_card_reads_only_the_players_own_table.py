"""Issue 15 (load): the player's match card reads only the player's own table (the entry, the
current round, the pairing, the opponent's name, that table's open reports), never the whole
tournament, so its cost does not grow with the tournament. The card's content is checked by
``test_player_match.py``; here, what it reads."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import event as sa_event

from tests.services.builders import ORGANIZER, event
from tests.services.test_reports import players
from turnir.domain.results import parse_result
from turnir.services.player_match import my_match, my_tournaments
from turnir.services.reports import report_result
from turnir.services.rounds import start_round
from turnir.storage import mappers
from turnir.storage.database import Database


@contextmanager
def statements(db: Database) -> Iterator[list[str]]:
    """Every SQL statement the database runs inside the block."""
    seen: list[str] = []

    def record(*args: object) -> None:
        seen.append(str(args[2]))

    sa_event.listen(db.engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        sa_event.remove(db.engine, "before_cursor_execute", record)


def _reported_card(db: Database, size: int) -> tuple[int, list[str], str]:
    """A tournament of ``size`` players in round 1, player A of table 1 reported 2-1; the
    statements of player B's card and the score B sees from the other side."""
    tid = event(db, size)
    line = start_round(db, tid, actor=ORGANIZER).round.pairings[0]
    assert line.b is not None
    accounts = players(db, tid)
    report_result(db, tid, 1, line.table, parse_result("2-1"), account=accounts[line.a])
    with statements(db) as seen:
        card = my_match(db, tid, accounts[line.b])
    assert card.theirs is not None and card.opponent is not None
    return tid, seen, card.theirs.score


def test_the_card_reads_as_many_statements_for_40_players_as_for_6(db: Database) -> None:
    _, small, score_small = _reported_card(db, 6)
    _, big, score_big = _reported_card(db, 40)
    assert len(big) == len(small)
    assert score_small == score_big == "1-2"


def test_the_card_never_loads_every_entry_or_every_pairing(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    tid = event(db, 10)
    line = start_round(db, tid, actor=ORGANIZER).round.pairings[0]
    assert line.b is not None
    accounts = players(db, tid)

    def refused(*_: object) -> None:
        raise AssertionError("the card loaded the whole tournament")

    monkeypatch.setattr(mappers, "load_players", refused)
    monkeypatch.setattr(mappers, "load_rounds", refused)
    card = my_match(db, tid, accounts[line.a])
    assert (card.table, card.first, card.round) == (line.table, True, 1)
    found = my_tournaments(db, accounts[line.a].person_id)
    assert [(f.id, f.table, f.open) for f in found] == [(tid, line.table, True)]
