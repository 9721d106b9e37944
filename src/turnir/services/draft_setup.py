"""Use cases of a draft tournament's setup: its plan and the seating at draft tables (D-1..D-3,
D-8, R-5, T-8).

- ``set_draft_plan``: the tournament's organizer sets the boosters, profile, timers and deck
  minimum (``turnir.domain.draft.plan.DraftPlan``) until the live draft starts; the rating
  terms' boosters follow the plan (the Warlock K by draft kind, R-5) and a 1- or 2-booster
  draft is played at the Amateur level (D-1).
- ``seat_draft``: the organizer seats the players at draft tables by lot (D-2, before round
  1) or by the standings (D-3, a later stage: after a finished round); the seating is drawn
  from ``random.Random`` seeded with ``"<tournament seed>/draft/seating/<n>"`` (``n``: the
  seating's number, so a re-seating is a new draw) and the seed string is recorded with the
  seating and in the audit log, so it can be replayed. Re-seating is allowed until the live
  draft starts or the next round is paired. The seats are what ``Tournament.tables`` reads
  (``storage.mappers.load_tournament``): pairing and standings inside each table follow.
- Readers: ``draft_plan``, ``draft_seating``, ``draft_page`` (the setup page) and the
  in-transaction ``plan_in`` / ``seating_in`` other services call.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from turnir.domain.draft.plan import DraftPlan, DraftProfile, default_plan
from turnir.domain.draft.seating import (
    Seating,
    seat_by_lot,
    seat_by_standings,
    table_counts,
)
from turnir.domain.draft.tables import check_draft_top
from turnir.domain.model import RulesLevel, StaffRole, TournamentFormat
from turnir.domain.tournament import Tournament
from turnir.errors import ConflictError, Term, UserError
from turnir.services.common import (
    Database,
    Tx,
    changing,
    reading,
    refuse_when_finished,
    touch_tournament,
)
from turnir.services.judges import ORGANIZER_ONLY, check_staff, staff_roles_in
from turnir.storage import draft_seats_repo, live_draft_repo
from turnir.storage.mappers import load_tournament, tournament_row
from turnir.storage.rating_events import load_terms, save_terms

SEATING_METHODS = ("lot", "standings")
SET_PLAN = Term("set the draft plan")
SEAT = Term("seat the draft")


@dataclass(frozen=True, slots=True)
class SeatLine:
    """One seat at a draft table."""

    seat: int
    number: int
    """The player's entry number."""
    name: str


@dataclass(frozen=True, slots=True)
class TableSeats:
    """A draft table's players in seat order."""

    number: int
    seats: tuple[SeatLine, ...]


@dataclass(frozen=True, slots=True)
class SeatingView:
    """The seating of a draft tournament, table by table."""

    tables: tuple[TableSeats, ...]
    profile: DraftProfile
    method: str
    """``lot`` or ``standings``."""
    seed: str
    """The string the seating was drawn from (``random.Random(seed)``)."""

    @property
    def draw(self) -> tuple[str, str]:
        """The seed as people read it: the tournament's lot and the seating's number (``seed``
        is ``"<lot>/draft/seating/<n>"``)."""
        lot, _, number = self.seed.rpartition("/draft/seating/")
        return (lot, number) if lot else (self.seed, "1")


@dataclass(frozen=True, slots=True)
class DraftPageView:
    """What the draft setup page shows."""

    tournament_id: int
    name: str
    is_draft: bool
    """The tournament's format is the draft."""
    plan: DraftPlan | None
    shown_plan: DraftPlan
    """The plan, or the profile's default for the form."""
    seating: SeatingView | None
    table_counts: tuple[int, ...]
    """The allowed numbers of tables for the players now (empty: fewer than 4)."""
    players: int
    """Players who would be seated now."""
    manage: bool
    """The reader is the tournament's organizer (the forms are shown)."""
    can_seat_by_lot: bool
    can_seat_by_standings: bool
    live_started: bool
    top_size: int
    unseated: tuple[str, ...] = ()
    """Before the live draft: the players still in without a seat (added after the seating)."""


def plan_in(tx: Tx, tournament_id: int) -> DraftPlan | None:
    """The tournament's draft plan, read in ``tx``; ``None`` until the organizer sets one."""
    row = draft_seats_repo.plan_row(tx, tournament_id)
    return None if row is None else DraftPlan.from_json(row.plan)


def seating_in(tx: Tx, tournament_id: int) -> Seating | None:
    """The tournament's seating at draft tables, read in ``tx``; ``None`` before seating."""
    places = draft_seats_repo.seat_rows(tx, tournament_id)
    return Seating.from_mapping(places) if places else None


def draft_plan(db: Database, tournament_id: int) -> DraftPlan | None:
    with reading(db) as tx:
        tournament_row(tx, tournament_id)
        return plan_in(tx, tournament_id)


def draft_seating(db: Database, tournament_id: int) -> SeatingView | None:
    with reading(db) as tx:
        tournament_row(tx, tournament_id)
        return _seating_view(tx, tournament_id)


def _seating_view(tx: Tx, tournament_id: int) -> SeatingView | None:
    stored = draft_seats_repo.plan_row(tx, tournament_id)
    seating = seating_in(tx, tournament_id)
    if stored is None or seating is None:
        return None
    names = {p.id: p.name for p in load_tournament(tx, tournament_id).players}
    tables = tuple(
        TableSeats(number, tuple(SeatLine(seat, pid, names.get(pid, f"#{pid}"))
                                 for seat, pid in enumerate(players, start=1)))
        for number, players in enumerate(seating.tables, start=1)
    )
    return SeatingView(tables=tables, profile=DraftPlan.from_json(stored.plan).profile,
                       method=stored.seating_method or "lot", seed=stored.seating_seed)


def _refuse_after_live_start(tx: Tx, tournament_id: int, what: Term) -> None:
    if live_draft_repo.seatings(tx, tournament_id):
        raise ConflictError("the live draft has started; the organizer can no longer {what}",
                            code="draft_started", what=what)


def _refuse_not_draft(row: Mapping[Any, Any]) -> None:
    if row["format"] != TournamentFormat.DRAFT:
        raise ConflictError("the tournament is not a draft; change its format to the draft "
                            "first", code="not_draft")


def _organizer_row(tx: Tx, tournament_id: int, account_id: int | None,
                   what: Term) -> Mapping[Any, Any]:
    """The tournament's row, once its organizer may change its draft (``what``) now: a draft,
    not finished, the live draft not started."""
    row = tournament_row(tx, tournament_id)
    check_staff(tx, tournament_id, account_id, ORGANIZER_ONLY, what=what)
    refuse_when_finished(row)
    _refuse_not_draft(row)
    _refuse_after_live_start(tx, tournament_id, what)
    return row


def set_draft_plan(db: Database, tournament_id: int, *, actor: str,
                   account_id: int | None = None, plan: DraftPlan) -> DraftPlan:
    """Set the tournament's draft plan (organizer only, until the live draft starts); the
    rating terms' boosters become the plan's (R-5) and a 1-2 booster draft is Amateur (D-1)."""
    with changing(db, tournament_id, actor) as change:
        tx = change.conn
        row = _organizer_row(tx, tournament_id, account_id, SET_PLAN)
        before = draft_seats_repo.plan_row(tx, tournament_id)
        draft_seats_repo.save_plan(tx, tournament_id, plan.to_json(), at=change.at,
                                   by=change.actor, before=before)
        change.log(tournament_id, "draft.plan", "draft_plan", tournament_id,
                   before.plan if before else None, plan.to_json())
        terms = load_terms(tx, tournament_id)
        if terms.boosters != plan.count:
            save_terms(tx, replace(terms, boosters=plan.count), at=change.at,
                       actor=change.actor)
            change.log(tournament_id, "rating.terms", "rating_terms", tournament_id,
                       terms.as_json() if terms.version else None,
                       load_terms(tx, tournament_id).as_json())
        level = plan.rules_level
        if level is RulesLevel.AMATEUR and row["rules_level"] != level.value:
            touch_tournament(tx, row, rules_level=level.value)
            change.log(tournament_id, "tournament.rules_level", "tournament", tournament_id,
                       {"rules_level": row["rules_level"]}, {"rules_level": level.value})
        return plan


def seat_draft(db: Database, tournament_id: int, *, actor: str, account_id: int | None = None,
               method: str, tables: int | None = None) -> SeatingView:
    """Seat the players at draft tables by ``method`` (``lot``: D-2, before round 1;
    ``standings``: D-3, after a finished round); recorded with its seed and audited."""
    if method not in SEATING_METHODS:
        raise UserError("seat the draft by lot or by standings, not {method!r}",
                        code="bad_seating", method=method[:20])
    with changing(db, tournament_id, actor) as change:
        tx = change.conn
        row = _organizer_row(tx, tournament_id, account_id, SEAT)
        stored = draft_seats_repo.plan_row(tx, tournament_id)
        if stored is None:
            raise ConflictError("set the draft plan before seating the players",
                                code="no_draft_plan")
        profile = DraftPlan.from_json(stored.plan).profile
        t = replace(load_tournament(tx, tournament_id), tables={})
        _check_stage(t, method)
        seed = f"{t.seed}/draft/seating/{stored.seatings + 1}"
        rng = random.Random(seed)
        if method == "lot":
            listed = [p.id for p in t.players if p.dropped_after is None]
            seating = seat_by_lot(listed, profile, rng, tables=tables)
        else:
            nxt = len(t.rounds) + 1
            order = [pid for pid in t.standings().order() if t.is_active(t.player(pid), nxt)]
            seating = seat_by_standings(order, profile, rng, tables=tables)
        check_draft_top(t.settings.top_size, tables=len(seating.tables))
        draft_seats_repo.replace_seats(tx, tournament_id, seating.mapping)
        draft_seats_repo.record_seating(tx, stored, method=method, seed=seed, at=change.at,
                                        by=change.actor)
        touch_tournament(tx, row)
        change.log(tournament_id, "draft.seat", "draft_seats", tournament_id, None,
                   {"method": method, "seed": seed,
                    "tables": [list(players) for players in seating.tables]})
        view = _seating_view(tx, tournament_id)
    if view is None:  # pragma: no cover - written just above
        raise ConflictError("the seating was not stored", code="no_seating")
    return view


def _check_stage(t: Tournament, method: str) -> None:
    if method == "lot" and t.rounds:
        raise ConflictError("round 1 is already paired; seat by lot only before it, or by "
                            "standings for a later stage (D-3)", code="seating_closed")
    if method == "standings":
        current = t.current_round
        if current is None:
            raise ConflictError("seating by standings needs a played round; before round 1 "
                                "seat by lot (D-2)", code="seating_closed")
        if not current.finished:
            raise ConflictError("round {round} is not finished; seat by standings after it",
                                code="seating_closed", round=current.number)


def unseated_in(tx: Tx, tournament_id: int, seating: Seating | None,
                t: Tournament | None = None) -> tuple[str, ...]:
    """The names of the players still in (not dropped) who have no seat in ``seating`` (a
    player added after the seating, issue 14 QA): empty without a seating."""
    if seating is None:
        return ()
    seated = seating.mapping
    players = (t or load_tournament(tx, tournament_id)).players
    return tuple(p.name for p in players if p.dropped_after is None and p.id not in seated)


def check_live_start(tx: Tx, tournament_id: int) -> tuple[DraftPlan, Seating]:
    """The plan and the seating a live draft starts from, once it may start: both set, round
    1 not paired yet and every player still in seated (D-2; ``services.live_draft``)."""
    plan, seating = plan_in(tx, tournament_id), seating_in(tx, tournament_id)
    if plan is None or seating is None:
        raise UserError("set the draft plan and seat the players before the live draft "
                        "starts", code="draft_not_ready")
    t = load_tournament(tx, tournament_id)
    if t.rounds:
        raise ConflictError("round 1 is already paired; a live draft is held before round 1",
                            code="draft_round_paired")
    missing = unseated_in(tx, tournament_id, seating, t)
    if missing:
        raise ConflictError("not seated: {names}; seat the players again on the Draft page",
                            code="draft_unseated", names=", ".join(missing)[:300])
    return plan, seating


def round_one_blocker(tx: Tx, tournament_id: int) -> str | None:
    """Why round 1 of a draft cannot be paired yet: ``"seat"`` (the players are not seated at
    draft tables, D-2), ``"live"`` (a live draft was started and is not over); ``None``: it
    can, or the tournament is not a draft."""
    if tournament_row(tx, tournament_id)["format"] != TournamentFormat.DRAFT:
        return None
    if seating_in(tx, tournament_id) is None:
        return "seat"
    drafts = live_draft_repo.drafts_of(tx, tournament_id)
    return "live" if any(d.status != "done" for d in drafts) else None


def check_round_one(tx: Tx, tournament_id: int) -> None:
    """Refuse pairing round 1 of a draft before the seating (D-2) and before the live draft,
    when one was started, is over (``services.rounds``).

    **Decided:** the seating is required once the organizer has set a draft plan, i.e. uses
    turnir's draft; a draft-format event without a plan (one recorded only for its results and
    the rating, e.g. through the CLI or an import) pairs as one table, as before issue 14. The
    round wizard still leads a web organizer to the «Драфт» page first (``round_one_blocker``)."""
    blocker = round_one_blocker(tx, tournament_id)
    if blocker == "seat" and plan_in(tx, tournament_id) is not None:
        raise ConflictError("seat the players at the draft tables on the Draft page before "
                            "pairing round 1 (D-2)", code="draft_not_seated")
    if blocker == "live":
        raise ConflictError("the live draft is not over yet; pair round 1 once every draft "
                            "table has made its last pick", code="draft_not_done")


def draft_page(db: Database, tournament_id: int, *,
               account_id: int | None) -> DraftPageView:
    """The draft setup page: the plan, the seating and what the organizer may do now."""
    with reading(db) as tx:
        row = tournament_row(tx, tournament_id)
        plan = plan_in(tx, tournament_id)
        seating = _seating_view(tx, tournament_id)
        t = load_tournament(tx, tournament_id)
        manage = account_id is not None and StaffRole.ORGANIZER in staff_roles_in(
            tx, tournament_id, account_id)
        live = bool(live_draft_repo.seatings(tx, tournament_id))
        unseated = () if live else unseated_in(tx, tournament_id,
                                                  seating_in(tx, tournament_id), t)
    shown = plan or default_plan(DraftProfile.TABLETOP)
    present = [p for p in t.players if p.dropped_after is None]
    try:
        counts = table_counts(len(present), shown.profile)
    except UserError:
        counts = ()
    open_event = row["status"] != "finished" and not live and plan is not None
    current = t.current_round
    return DraftPageView(
        tournament_id=tournament_id, name=row["name"],
        is_draft=row["format"] == TournamentFormat.DRAFT, plan=plan, shown_plan=shown,
        seating=seating, table_counts=counts, players=len(present), manage=manage,
        can_seat_by_lot=open_event and not t.rounds and bool(counts),
        can_seat_by_standings=open_event and current is not None and current.finished,
        live_started=live, top_size=t.settings.top_size, unseated=unseated,
    )
