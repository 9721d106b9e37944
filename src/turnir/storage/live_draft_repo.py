"""The live draft's statements (``turnir.storage.tables_live_draft``): each draft table's
engine state and its pick log, and the booster templates. Nothing here commits.

A pick is one short transaction (``services.live_draft``): :func:`lock_draft` takes the table's
row (``SELECT … FOR UPDATE`` on PostgreSQL; on SQLite the write transaction's ``BEGIN
IMMEDIATE`` already serialises writers), :func:`save_state` stores the new state only when the
version is still the one locked, and :func:`add_picks` appends the new picks in the same
transaction. The statements of a pick are prepared once (``turnir.storage.direct``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import bindparam, func, insert, select, update

from turnir.errors import ConflictError
from turnir.storage.database import Tx
from turnir.storage.direct import DirectStatement
from turnir.storage.tables import entries
from turnir.storage.tables_accounts import accounts
from turnir.storage.tables_live_draft import booster_templates, draft_picks, live_drafts


def _utc(value: datetime | None) -> datetime | None:
    """Stored times are UTC; SQLite gives them back without their zone."""
    if value is None:
        return None
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class StoredDraft:
    """One draft table's live draft as stored."""

    tournament_id: int
    table: int
    state: dict[str, Any]
    version: int
    status: str
    next_deadline: datetime | None
    players: tuple[int, ...]
    seed: str
    templates: list[dict[str, Any]]
    started_at: datetime
    finished_at: datetime | None


@dataclass(frozen=True, slots=True)
class PickValues:
    """One pick as the log keeps it."""

    number: int
    player: int
    seat: int
    booster_round: int
    booster: int
    pick: int
    card_uid: str
    card_name: str
    edition: str
    rarity: str
    auto: bool
    reason: str
    at: datetime


def _stored(row: Any) -> StoredDraft:
    started = _utc(row.started_at)
    assert started is not None
    return StoredDraft(
        tournament_id=int(row.tournament_id), table=int(row.draft_table), state=row.state,
        version=int(row.version), status=row.status, next_deadline=_utc(row.next_deadline),
        players=tuple(int(p) for p in row.players), seed=row.seed, templates=row.templates,
        started_at=started, finished_at=_utc(row.finished_at))


# ----- the tables' drafts --------------------------------------------------------------------


def insert_draft(tx: Tx, draft: StoredDraft, at: datetime) -> None:
    tx.execute(insert(live_drafts).values(
        tournament_id=draft.tournament_id, draft_table=draft.table, state=draft.state,
        version=draft.version, status=draft.status, next_deadline=draft.next_deadline,
        players=list(draft.players), seed=draft.seed, templates=draft.templates,
        started_at=draft.started_at, updated_at=at, finished_at=draft.finished_at))


def lock_draft(tx: Tx, tournament_id: int, table: int) -> StoredDraft | None:
    """The table's draft, its row locked until the transaction ends (``None``: not started)."""
    query = select(live_drafts).where(live_drafts.c.tournament_id == tournament_id,
                                      live_drafts.c.draft_table == table)
    if tx.dialect.name != "sqlite":
        query = query.with_for_update()
    row = tx.execute(query).first()
    return None if row is None else _stored(row)


_KEY = (live_drafts.c.tournament_id == bindparam("tid")) & \
    (live_drafts.c.draft_table == bindparam("table"))
_VERSION = select(live_drafts.c.version).where(_KEY)
_LOCK_VERSION = {True: DirectStatement(_VERSION),
                 False: DirectStatement(_VERSION.with_for_update())}
_STATE = DirectStatement(select(live_drafts.c.state).where(_KEY))


def lock_version(tx: Tx, tournament_id: int, table: int) -> int | None:
    """Lock the table's draft row (``SELECT … FOR UPDATE`` on PostgreSQL) and give its version
    (``None``: not started)."""
    row = _LOCK_VERSION[tx.dialect.name == "sqlite"].execute(
        tx, {"tid": tournament_id, "table": table}).fetchone()
    return None if row is None else int(row[0])


def state_of(tx: Tx, tournament_id: int, table: int) -> dict[str, Any]:
    """The table's engine state."""
    value = _STATE.execute(tx, {"tid": tournament_id, "table": table}).fetchone()[0]
    found: dict[str, Any] = json.loads(value) if isinstance(value, str | bytes) else value
    return found


def draft(tx: Tx, tournament_id: int, table: int) -> StoredDraft | None:
    row = tx.execute(select(live_drafts).where(
        live_drafts.c.tournament_id == tournament_id,
        live_drafts.c.draft_table == table)).first()
    return None if row is None else _stored(row)


def drafts_of(tx: Tx, tournament_id: int) -> list[StoredDraft]:
    """Every table's draft of the tournament, by table."""
    return [_stored(row) for row in tx.execute(
        select(live_drafts).where(live_drafts.c.tournament_id == tournament_id)
        .order_by(live_drafts.c.draft_table))]


_SEATINGS = DirectStatement(select(live_drafts.c.draft_table, live_drafts.c.players)
                            .where(live_drafts.c.tournament_id == bindparam("tid")))


def seatings(tx: Tx, tournament_id: int) -> dict[int, tuple[int, ...]]:
    """Each table's players in seat order (without the states)."""
    found = {}
    for table, players in _SEATINGS.execute(tx, {"tid": tournament_id}).fetchall():
        seated = json.loads(players) if isinstance(players, str | bytes) else players
        found[int(table)] = tuple(int(p) for p in seated)
    return found


def due(tx: Tx, now: datetime) -> list[tuple[int, int]]:
    """The live tables whose next deadline is ``now`` or earlier: (tournament, table)."""
    return [(int(row.tournament_id), int(row.draft_table)) for row in tx.execute(
        select(live_drafts.c.tournament_id, live_drafts.c.draft_table)
        .where(live_drafts.c.status == "live", live_drafts.c.next_deadline <= now)
        .order_by(live_drafts.c.next_deadline))]


_SAVE = DirectStatement(
    update(live_drafts).where(_KEY, live_drafts.c.version == bindparam("seen"))
    .values(state=bindparam("state"), status=bindparam("status"),
            next_deadline=bindparam("next_deadline"), updated_at=bindparam("at"),
            version=bindparam("version"),
            finished_at=func.coalesce(live_drafts.c.finished_at, bindparam("finished"))))


def save_state(tx: Tx, tournament_id: int, table: int, seen: int, *, state: dict[str, Any],
               status: str, next_deadline: datetime | None, at: datetime) -> int:
    """Store the table's new state (version + 1) when its version is still ``seen``; returns
    the new version."""
    done = _SAVE.execute(tx, {
        "tid": tournament_id, "table": table, "seen": seen, "state": state, "status": status,
        "next_deadline": next_deadline, "at": at, "version": seen + 1,
        "finished": at if status == "done" else None})
    if done.rowcount != 1:
        raise ConflictError("draft table {table} changed meanwhile; try again",
                            code="stale_version", table=table)
    return seen + 1


_ACCOUNT_ENTRIES = DirectStatement(
    select(entries.c.number).join(accounts, accounts.c.person_id == entries.c.person_id)
    .where(entries.c.tournament_id == bindparam("tid"), accounts.c.id == bindparam("account"))
    .order_by(entries.c.number))
_NAMES = DirectStatement(select(entries.c.number, entries.c.name)
                         .where(entries.c.tournament_id == bindparam("tid")))


def account_entries(tx: Tx, tournament_id: int, account_id: int) -> list[int]:
    """The entry numbers of the account's person in the tournament (normally one), in one
    query (a pick asks on every call)."""
    return [int(n) for (n,) in _ACCOUNT_ENTRIES.execute(
        tx, {"tid": tournament_id, "account": account_id}).fetchall()]


def entry_names(tx: Tx, tournament_id: int, numbers: Sequence[int]) -> dict[int, str]:
    """The names of these entries (a draft table's players)."""
    wanted = set(numbers)
    return {int(n): str(name) for n, name in _NAMES.execute(tx, {"tid": tournament_id})
            .fetchall() if int(n) in wanted}


# ----- the pick log --------------------------------------------------------------------------


_ADD_PICK = DirectStatement(insert(draft_picks), column_keys=[c.name for c in draft_picks.c])


def add_picks(tx: Tx, tournament_id: int, table: int, picks: Sequence[PickValues]) -> None:
    for p in picks:
        _ADD_PICK.execute(tx, {
            "tournament_id": tournament_id, "draft_table": table, "number": p.number,
            "player": p.player, "seat": p.seat, "booster_round": p.booster_round,
            "booster": p.booster, "pick": p.pick, "card_uid": p.card_uid,
            "card_name": p.card_name, "edition": p.edition, "rarity": p.rarity,
            "auto": p.auto, "reason": p.reason, "at": p.at})


def picks(tx: Tx, tournament_id: int, table: int | None = None) -> list[tuple[int, PickValues]]:
    """The pick log, (table, pick) by table and number."""
    query = select(draft_picks).where(draft_picks.c.tournament_id == tournament_id)
    if table is not None:
        query = query.where(draft_picks.c.draft_table == table)
    found = []
    for row in tx.execute(query.order_by(draft_picks.c.draft_table, draft_picks.c.number)):
        at = _utc(row.at)
        assert at is not None
        found.append((int(row.draft_table), PickValues(
            number=row.number, player=row.player, seat=row.seat,
            booster_round=row.booster_round, booster=row.booster, pick=row.pick,
            card_uid=row.card_uid, card_name=row.card_name, edition=row.edition,
            rarity=row.rarity, auto=bool(row.auto), reason=row.reason, at=at)))
    return found


def pick_count(tx: Tx, tournament_id: int, table: int) -> int:
    return int(tx.execute(select(func.count()).select_from(draft_picks).where(
        draft_picks.c.tournament_id == tournament_id,
        draft_picks.c.draft_table == table)).scalar_one())


# ----- booster templates ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StoredTemplate:
    id: int
    name: str
    template: dict[str, Any]
    created_at: datetime
    created_by: str
    version: int


def _template(row: Any) -> StoredTemplate:
    created = _utc(row.created_at)
    assert created is not None
    return StoredTemplate(id=int(row.id), name=row.name, template=row.template,
                          created_at=created, created_by=row.created_by,
                          version=int(row.version))


def templates(tx: Tx) -> list[StoredTemplate]:
    """Every booster template, by name."""
    return [_template(row) for row in tx.execute(
        select(booster_templates).order_by(booster_templates.c.name_key))]


def template_named(tx: Tx, name_key: str) -> StoredTemplate | None:
    row = tx.execute(select(booster_templates)
                     .where(booster_templates.c.name_key == name_key)).first()
    return None if row is None else _template(row)


def template_by_id(tx: Tx, template_id: int) -> StoredTemplate | None:
    row = tx.execute(select(booster_templates)
                     .where(booster_templates.c.id == template_id)).first()
    return None if row is None else _template(row)


def save_template(tx: Tx, *, name: str, name_key: str, template: dict[str, Any],
                  at: datetime, by: str) -> int:
    """Add the template, or replace the one of the same name; returns its id."""
    kept = template_named(tx, name_key)
    if kept is None:
        return int(tx.execute(insert(booster_templates).values(
            name=name, name_key=name_key, template=template, created_at=at, created_by=by,
            version=1).returning(booster_templates.c.id)).scalar_one())
    tx.execute(update(booster_templates).where(booster_templates.c.id == kept.id)
               .values(name=name, template=template, created_at=at, created_by=by,
                       version=kept.version + 1))
    return kept.id
