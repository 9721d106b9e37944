"""The live booster draft (issue 14, D-4, D-7, D-8): the server runs each draft table's
pick/pass engine (``turnir.domain.draft.engine``) and keeps its state and its pick log.

- :func:`start_live_draft` (the tournament's organizer, once the plan and the seating are set,
  ``services.draft_setup``): every table's boosters drawn from the card catalogue by the booster
  templates (the defaults of ``domain.draft.boosters`` when none is chosen) with
  ``random.Random`` seeded by the string ``"<tournament seed>:draft:<table>"``, which is
  recorded with the templates used: the draft can be replayed and audited.
- :func:`pick_card` (a player, for their own entry only): one short transaction — the table's
  row locked, the engine loaded, the pick applied, the state stored with its version + 1 and
  the new picks appended to ``draft_picks`` in the same transaction. A pick names the booster
  and its card count it was made on: a repeated, stale or late pick is refused
  (``PickRefused``, 409) and never applied twice; the deadlines that passed before it are
  still applied and stored.
- :func:`advance_drafts` (the ticker the server runs every second, ``web.serve``): every live
  table whose next deadline has passed is advanced — automatic picks for the timers that ran
  out, the next booster after the review minute. Each table is locked and checked again, so
  several workers running it at once do each thing once. Reads advance a due table too, so the
  draft never stalls, whatever the ticker does.
- :func:`player_draft`, :func:`table_draft`, :func:`draft_overview`, :func:`pick_log`,
  :func:`drop_from_draft`, :func:`draft_pool` / :func:`pool_in`, the booster templates.

Time is the service's: ``changing``'s ``at`` or ``now`` given by the caller (the tests, the
bench); the engine gets it as seconds since the epoch (UTC). The start and the drops are in the
audit log (``draft.*``); the picks are in the pick log.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from turnir.domain.cards import CardCatalogue
from turnir.domain.draft.boosters import (
    BoosterTemplate,
    DraftCard,
    check_template,
    default_template,
    draw_booster,
)
from turnir.domain.draft.engine import DraftEngine
from turnir.domain.draft.plan import DraftPlan
from turnir.domain.model import TournamentFormat
from turnir.errors import ConflictError, ForbiddenError, NotFoundError, Term, UserError
from turnir.services.booster_templates import TemplateInfo as TemplateInfo
from turnir.services.booster_templates import booster_templates as booster_templates
from turnir.services.booster_templates import save_booster_template as save_booster_template
from turnir.services.cards import card_catalogue
from turnir.services.common import Database, Tx, changing, reading, refuse_when_finished
from turnir.services.draft_setup import check_live_start, plan_in, seating_in
from turnir.services.judges import (
    ANY_STAFF,
    HEAD_OR_ORGANIZER,
    ORGANIZER_ONLY,
    check_staff,
    staff_roles_in,
)
from turnir.services.live_draft_store import (
    Refusal,
    apply_change,
    pick_rows,
    seconds_of,
    time_of,
)
from turnir.storage import live_draft_repo, players_repo
from turnir.storage.live_draft_repo import StoredDraft
from turnir.storage.mappers import tournament_row

TICKER = "turnir"
"""Who the ticker's changes are made by (no audit entry names it: picks are in the pick log)."""
MAX_TEMPLATES = 4


# ----- what the pages and the API show ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerDraftView:
    """A player's seat in the live draft, as their pick page shows it."""

    tournament_id: int
    number: int
    name: str
    table: int
    seat: int
    status: str
    """``waiting_start`` (seated, not started), ``picking`` (a booster in hand), ``waiting``
    (the neighbour has not passed yet), ``review`` (the review minute), ``done``."""
    booster: int | None
    booster_round: int
    rounds: int
    cards: tuple[DraftCard, ...]
    cards_left: int
    deadline: datetime | None
    seconds_left: int | None
    pool: tuple[DraftCard, ...]
    queue: int
    """Boosters the player holds (the one picked from first)."""
    waiting_on: tuple[str, ...]
    """Who the table waits on now, by name."""
    direction: str
    """``left`` or ``right``: where this booster round passes (D-4)."""
    review_until: datetime | None
    version: int
    """The table's state version (0 before the start)."""
    away: bool = False
    """Timed out ``plan.away_after`` times in a row: picked for at once until the player says
    they are back (:func:`resume_draft`)."""
    dropped: bool = False


@dataclass(frozen=True, slots=True)
class DraftSeatRow:
    seat: int
    number: int
    name: str
    holding: int
    """Boosters the player holds now."""
    deadline: datetime | None
    away: bool
    dropped: bool
    picks: int


@dataclass(frozen=True, slots=True)
class TableDraftView:
    """A draft table as its judges see it: who holds how many boosters, who it waits on."""

    tournament_id: int
    table: int
    booster_round: int
    rounds: int
    status: str
    """``picking``, ``review`` or ``done``."""
    rows: tuple[DraftSeatRow, ...]
    waiting_on: tuple[str, ...]
    review_until: datetime | None


@dataclass(frozen=True, slots=True)
class PickLine:
    number: int
    table: int
    booster_round: int
    pick: int
    seat: int
    player_number: int
    player_name: str
    card_name: str
    edition: str
    rarity: str
    auto: bool
    reason: str
    at: datetime


# ----- who may --------------------------------------------------------------------------


def _is_staff(tx: Tx, tournament_id: int, account_id: int | None) -> bool:
    return account_id is None or bool(staff_roles_in(tx, tournament_id, account_id))


def _own_numbers(tx: Tx, tournament_id: int, account_id: int | None) -> list[int]:
    if account_id is None:
        return []
    return live_draft_repo.account_entries(tx, tournament_id, account_id)


def _refuse_outsider(tx: Tx, tournament_id: int, account_id: int | None,
                     numbers: Sequence[int], *, staff: bool) -> None:
    """Refuse an account that is not a player of the tournament (``numbers``: its entries
    there) nor its staff, when ``staff``; an unknown tournament is ``NotFoundError``."""
    if numbers or account_id is None:
        return
    tournament_row(tx, tournament_id)
    if staff and _is_staff(tx, tournament_id, account_id):
        return
    raise ForbiddenError("you are not a player of tournament #{tournament}",
                         code="not_a_player", tournament=tournament_id)


def _names(tx: Tx, tournament_id: int, numbers: Sequence[int] | None = None) -> dict[int, str]:
    if numbers is not None:
        return live_draft_repo.entry_names(tx, tournament_id, numbers)
    return {e.number: e.name for e in players_repo.entry_list(tx, tournament_id)}


# ----- starting --------------------------------------------------------------------------


def _templates(tx: Tx, plan: DraftPlan, catalogue: CardCatalogue,
               template_ids: Sequence[int] | None) -> list[BoosterTemplate]:
    """One template per booster round: the chosen ones (one for all, or one each), else the
    defaults for the booster's size over every edition."""
    if not template_ids:
        chosen = [default_template(size) for size in plan.boosters]
    else:
        if len(template_ids) not in (1, plan.count) or len(template_ids) > MAX_TEMPLATES:
            raise UserError("choose one booster template for every booster or one for all "
                            "{count}", code="bad_template", count=plan.count)
        found = []
        for template_id in template_ids:
            stored = live_draft_repo.template_by_id(tx, template_id)
            if stored is None:
                raise NotFoundError("no booster template #{id}", code="no_template",
                                    id=template_id)
            found.append(BoosterTemplate.from_json(stored.template))
        chosen = found * plan.count if len(found) == 1 else found
    for size, template in zip(plan.boosters, chosen, strict=True):
        if template.size != size:
            raise UserError("the booster template {name!r} has {size} cards, the plan's "
                            "booster {wanted}", code="bad_template", name=template.name,
                            size=template.size, wanted=size)
        check_template(template, catalogue)
    return chosen


def _table_draft(tournament_id: int, table: int, players: Sequence[int], plan: DraftPlan,
                 templates: Sequence[BoosterTemplate], catalogue: CardCatalogue, seed: int,
                 now: datetime) -> tuple[StoredDraft, DraftEngine]:
    """A table's engine with its boosters drawn from the recorded seed string."""
    seed_text = f"{seed}:draft:{table}"
    rng = random.Random(seed_text)
    n = len(players)
    boosters = [[draw_booster(template, catalogue, rng, prefix=f"b{r * n + s + 1}")
                 for s in range(n)] for r, template in enumerate(templates)]
    engine = DraftEngine.start(list(players), boosters, plan, seconds_of(now))
    stored = StoredDraft(
        tournament_id=tournament_id, table=table, state={}, version=1, status="live",
        next_deadline=None, players=tuple(players), seed=seed_text,
        templates=[t.to_json() for t in templates], started_at=now, finished_at=None)
    return stored, engine


def start_live_draft(db: Database, tournament_id: int, *, actor: str, account_id: int | None,
                     template_ids: Sequence[int] | None = None,
                     now: datetime | None = None) -> None:
    """Start every table's live draft (the organizer); a second start is refused."""
    catalogue = card_catalogue(db)
    with changing(db, tournament_id, actor) as change:
        tx, at = change.conn, now or change.at
        check_staff(tx, tournament_id, account_id, ORGANIZER_ONLY,
                    what=Term("start the live draft"))
        row = tournament_row(tx, tournament_id)
        refuse_when_finished(row)
        if row["format"] != TournamentFormat.DRAFT:
            raise UserError("tournament #{tournament} is not a draft", code="not_draft",
                            tournament=tournament_id)
        plan, seating = check_live_start(tx, tournament_id)
        if live_draft_repo.drafts_of(tx, tournament_id):
            raise ConflictError("the live draft of tournament #{tournament} has already "
                                "started", code="draft_started", tournament=tournament_id)
        templates = _templates(tx, plan, catalogue, template_ids)
        dropped = {e.number for e in players_repo.entry_list(tx, tournament_id)
                   if e.dropped_after is not None}
        seeds = []
        for table, players in enumerate(seating.tables, start=1):
            stored, engine = _table_draft(tournament_id, table, players, plan, templates,
                                          catalogue, int(row["seed"]), at)
            picks = [entry for p in players if p in dropped
                     for entry in engine.drop(p, seconds_of(at))]
            live_draft_repo.insert_draft(tx, _with_state(stored, engine), at)
            live_draft_repo.add_picks(tx, tournament_id, table, pick_rows(picks))
            seeds.append(stored.seed)
        change.log(tournament_id, "draft.start", "live_draft", tournament_id, None, {
            "tables": [len(t) for t in seating.tables], "seeds": seeds,
            "templates": [t.to_json() for t in templates], "plan": plan.to_json()})


def _with_state(stored: StoredDraft, engine: DraftEngine) -> StoredDraft:
    return StoredDraft(
        tournament_id=stored.tournament_id, table=stored.table, state=engine.to_json(),
        version=stored.version, status="done" if engine.done else "live",
        next_deadline=time_of(engine.next_deadline()), players=stored.players, seed=stored.seed,
        templates=stored.templates, started_at=stored.started_at,
        finished_at=stored.started_at if engine.done else None)


def _seat_of(tx: Tx, tournament_id: int,
             numbers: Sequence[int]) -> tuple[int, int, bool] | None:
    """(table, entry number, started) of the entries' seat in the live draft, else in the
    seating (``started`` false)."""
    if not numbers:
        return None
    started = live_draft_repo.seatings(tx, tournament_id)
    for table, players in sorted(started.items()):
        for number in numbers:
            if number in players:
                return table, number, True
    if started:
        return None
    seating = seating_in(tx, tournament_id)
    for number in numbers:
        if seating is not None and number in seating.mapping:
            return seating.table_of(number), number, False
    return None


def _my_seat(tx: Tx, tournament_id: int, account_id: int) -> tuple[int, int]:
    """(table, entry number) of the account's player in the started live draft."""
    numbers = _own_numbers(tx, tournament_id, account_id)
    _refuse_outsider(tx, tournament_id, account_id, numbers, staff=False)
    seat = _seat_of(tx, tournament_id, numbers)
    if seat is None or not seat[2]:
        raise NotFoundError("you have no seat in a live draft of tournament #{tournament}",
                            code="not_seated", tournament=tournament_id)
    return seat[0], seat[1]


def pick_card(db: Database, tournament_id: int, *, account_id: int, booster: int,
              cards_left: int, card: str, now: datetime | None = None) -> PlayerDraftView:
    """The account's player picks ``card`` from ``booster`` as it was with ``cards_left``
    cards (``PickRefused`` otherwise: the pick is never applied twice)."""
    refusal = Refusal()
    with changing(db, None, f"account #{account_id}") as change:
        tx, at = change.conn, now or change.at
        table, number = _my_seat(tx, tournament_id, account_id)

        def act(engine: DraftEngine, seconds: float) -> object:
            return engine.pick(number, booster=booster, cards_left=cards_left, card=card,
                               now=seconds)

        applied = apply_change(db, tx, tournament_id, table, at, refusal.guard(act), changes=False)
        view = _player_view(tx, tournament_id, table, applied.engine, number, applied.version,
                            at)
    applied.keep(db)
    refusal.raise_if_any()
    return view


def resume_draft(db: Database, tournament_id: int, *, account_id: int,
                 now: datetime | None = None) -> PlayerDraftView:
    """The account's player is back after being away (the page's «Я здесь»): the next booster
    reaching them waits for their pick again. Never for a dropped player."""
    with changing(db, None, f"account #{account_id}") as change:
        tx, at = change.conn, now or change.at
        table, number = _my_seat(tx, tournament_id, account_id)
        applied = apply_change(db, tx, tournament_id, table, at,
                               lambda engine, seconds: engine.resume(number, seconds),
                               changes=True)
        view = _player_view(tx, tournament_id, table, applied.engine, number, applied.version,
                            at)
    applied.keep(db)
    return view


def drop_from_draft(db: Database, tournament_id: int, number: int, *, actor: str,
                    account_id: int | None, now: datetime | None = None) -> None:
    """From now on the player is auto-picked at once (the organizer, the head judge, or the
    player leaving the draft); in the audit log."""
    with changing(db, None, actor) as change:
        tx, at = change.conn, now or change.at
        if number not in _own_numbers(tx, tournament_id, account_id):
            check_staff(tx, tournament_id, account_id, HEAD_OR_ORGANIZER,
                        what=Term("drop players"))
        table = next((t for t, players in live_draft_repo.seatings(tx, tournament_id).items()
                      if number in players), None)
        if table is None:
            raise NotFoundError("player #{number} has no seat in the live draft of "
                                "tournament #{tournament}", code="not_seated", number=number,
                                tournament=tournament_id)
        applied = apply_change(db, tx, tournament_id, table, at,
                         lambda engine, seconds: engine.drop(number, seconds), changes=True)
        change.log(tournament_id, "draft.drop", "live_draft", f"{table}:{number}",
                   None, {"table": table, "number": number})
    applied.keep(db)


def _advance_one(db: Database, tournament_id: int, table: int, at: datetime) -> bool:
    with changing(db, None, TICKER) as change:
        stored = live_draft_repo.lock_draft(change.conn, tournament_id, table)
        if stored is None or not _due(stored, at):
            return False  # another worker did it meanwhile
        applied = apply_change(db, change.conn, tournament_id, table, at,
                         lambda engine, seconds: None, changes=False)
    applied.keep(db)
    return True


def advance_drafts(db: Database, *, now: datetime | None = None) -> int:
    """Advance every live table whose deadline has passed; returns how many were advanced.
    Safe to run from several workers at once: each table is locked and checked again."""
    at = now or db.clock.now()
    with reading(db) as tx:
        due = live_draft_repo.due(tx, at)
    return sum(_advance_one(db, tournament_id, table, at) for tournament_id, table in due)


def _due(stored: StoredDraft, at: datetime) -> bool:
    return stored.status == "live" and stored.next_deadline is not None \
        and stored.next_deadline <= at


def _fresh(db: Database, tournament_id: int, table: int, at: datetime) -> None:
    """Advance the table when it is due (a read never shows a stalled table)."""
    with reading(db) as tx:
        stored = live_draft_repo.draft(tx, tournament_id, table)
    if stored is not None and _due(stored, at):
        _advance_one(db, tournament_id, table, at)


# ----- reading ---------------------------------------------------------------------------


def _player_view(tx: Tx, tournament_id: int, table: int, engine: DraftEngine, number: int,
                 version: int, at: datetime) -> PlayerDraftView:
    names = _names(tx, tournament_id, engine.players)
    seat = engine.seat_view(number)
    waiting = engine.table_view().waiting_on
    now = seconds_of(at)
    if seat.done:
        status = "done"
    elif seat.review_until is not None and now < seat.review_until:
        status = "review"
    elif seat.booster is not None:
        status = "picking"
    else:
        status = "waiting"
    left = None if seat.deadline is None else max(0, math.ceil(seat.deadline - now))
    direction = engine.plan.direction(max(1, seat.booster_round)).value
    return PlayerDraftView(
        tournament_id=tournament_id, number=number, name=names.get(number, ""),
        table=table, seat=engine.players.index(number) + 1, status=status,
        booster=seat.booster, booster_round=seat.booster_round, rounds=seat.rounds,
        cards=tuple(seat.cards), cards_left=seat.cards_left, deadline=time_of(seat.deadline),
        seconds_left=left, pool=tuple(seat.pool), queue=seat.queue,
        waiting_on=tuple(names.get(p, str(p)) for p in waiting),
        direction=direction, review_until=time_of(seat.review_until), version=version,
        away=seat.away, dropped=seat.dropped)


def _waiting_start(tx: Tx, tournament_id: int, table: int, number: int) -> PlayerDraftView:
    seating = seating_in(tx, tournament_id)
    plan = plan_in(tx, tournament_id)
    rounds = plan.count if plan is not None else 0
    seat = seating.seat_of(number) if seating is not None else 0
    return PlayerDraftView(
        tournament_id=tournament_id, number=number,
        name=_names(tx, tournament_id, [number]).get(number, ""),
        table=table, seat=seat, status="waiting_start", booster=None, booster_round=0,
        rounds=rounds, cards=(), cards_left=0, deadline=None, seconds_left=None, pool=(),
        queue=0, waiting_on=(), direction="", review_until=None, version=0)


def player_draft(db: Database, tournament_id: int, *, account_id: int | None,
                 now: datetime | None = None) -> PlayerDraftView | None:
    """The account's seat in the live draft (``None``: the account has no seat; refused for
    an account that is neither a player nor on the staff of the tournament). A table whose
    deadline has passed is advanced first."""
    at = now or db.clock.now()
    with reading(db) as tx:
        numbers = _own_numbers(tx, tournament_id, account_id)
        _refuse_outsider(tx, tournament_id, account_id, numbers, staff=True)
        seat = _seat_of(tx, tournament_id, numbers)
        if seat is None:
            return None
        table, number, started = seat
        if not started:
            return _waiting_start(tx, tournament_id, table, number)
        stored = live_draft_repo.draft(tx, tournament_id, table)
        if stored is not None and not _due(stored, at):
            return _player_view(tx, tournament_id, table, DraftEngine.from_json(stored.state),
                                number, stored.version, at)
    _advance_one(db, tournament_id, table, at)
    with reading(db) as tx:
        stored = live_draft_repo.draft(tx, tournament_id, table)
        assert stored is not None  # a started draft is never deleted
        return _player_view(tx, tournament_id, table, DraftEngine.from_json(stored.state),
                            number, stored.version, at)


def _table_view(stored: StoredDraft, names: Mapping[int, str], at: datetime) -> TableDraftView:
    engine = DraftEngine.from_json(stored.state)
    view = engine.table_view()
    now = seconds_of(at)
    if view.done:
        status = "done"
    elif view.review_until is not None and now < view.review_until:
        status = "review"
    else:
        status = "picking"
    rows = tuple(DraftSeatRow(seat=r.seat, number=int(r.player), name=names.get(r.player, ""),
                              holding=r.holding, deadline=time_of(r.deadline), away=r.away,
                              dropped=r.dropped, picks=r.picks) for r in view.rows)
    rounds = engine.plan.count
    return TableDraftView(
        tournament_id=stored.tournament_id, table=stored.table,
        booster_round=view.booster_round, rounds=rounds, status=status, rows=rows,
        waiting_on=tuple(names.get(p, str(p)) for p in view.waiting_on),
        review_until=time_of(view.review_until))


def _staff_read(tx: Tx, tournament_id: int, account_id: int | None) -> None:
    tournament_row(tx, tournament_id)
    check_staff(tx, tournament_id, account_id, ANY_STAFF, what=Term("see the live draft"))


def table_draft(db: Database, tournament_id: int, table: int, *, account_id: int | None,
                now: datetime | None = None) -> TableDraftView:
    """One table's draft for the tournament's staff."""
    at = now or db.clock.now()
    with reading(db) as tx:
        _staff_read(tx, tournament_id, account_id)
    _fresh(db, tournament_id, table, at)
    with reading(db) as tx:
        stored = live_draft_repo.draft(tx, tournament_id, table)
        if stored is None:
            raise NotFoundError("draft table {table} of tournament #{tournament} has no live "
                                "draft", code="no_live_draft", table=table,
                                tournament=tournament_id)
        return _table_view(stored, _names(tx, tournament_id, stored.players), at)


def draft_overview(db: Database, tournament_id: int, *, account_id: int | None,
                   now: datetime | None = None) -> list[TableDraftView]:
    """Every table's draft for the tournament's staff (empty before the start)."""
    at = now or db.clock.now()
    with reading(db) as tx:
        _staff_read(tx, tournament_id, account_id)
        tables = sorted(live_draft_repo.seatings(tx, tournament_id))
    for table in tables:
        _fresh(db, tournament_id, table, at)
    with reading(db) as tx:
        names = _names(tx, tournament_id)
        return [_table_view(stored, names, at)
                for stored in live_draft_repo.drafts_of(tx, tournament_id)]


def pick_log(db: Database, tournament_id: int, *, account_id: int | None,
             table: int | None = None) -> list[PickLine]:
    """The pick log, by table and pick: the staff any time, the tournament's players once
    every table's draft is done."""
    with reading(db) as tx:
        tournament_row(tx, tournament_id)
        if not _is_staff(tx, tournament_id, account_id):
            _refuse_outsider(tx, tournament_id, account_id,
                             _own_numbers(tx, tournament_id, account_id), staff=False)
            drafts = live_draft_repo.drafts_of(tx, tournament_id)
            if not drafts or any(d.status != "done" for d in drafts):
                raise ConflictError("the pick log of tournament #{tournament} is shown to its "
                                    "players once the draft is over", code="draft_not_done",
                                    tournament=tournament_id)
        names = _names(tx, tournament_id)
        return [PickLine(number=p.number, table=t, booster_round=p.booster_round, pick=p.pick,
                         seat=p.seat, player_number=p.player,
                         player_name=names.get(p.player, ""), card_name=p.card_name,
                         edition=p.edition, rarity=p.rarity, auto=p.auto, reason=p.reason,
                         at=p.at)
                for t, p in live_draft_repo.picks(tx, tournament_id, table)]


def pool_in(tx: Tx, tournament_id: int, number: int) -> tuple[DraftCard, ...]:
    """The player's pool from the pick log, in pick order (empty: no live draft)."""
    return tuple(DraftCard(p.card_uid, p.card_name, p.edition, p.rarity)
                 for _, p in live_draft_repo.picks(tx, tournament_id)
                 if p.player == number)


def draft_pool(db: Database, tournament_id: int, number: int, *,
               account_id: int | None) -> tuple[DraftCard, ...]:
    """The player's pool: the player themself and the tournament's staff."""
    with reading(db) as tx:
        tournament_row(tx, tournament_id)
        if number not in _own_numbers(tx, tournament_id, account_id):
            check_staff(tx, tournament_id, account_id, ANY_STAFF,
                        what=Term("see the live draft"))
        return pool_in(tx, tournament_id, number)
