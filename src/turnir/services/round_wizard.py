"""The round wizard of the Manage page (issue 12): where the tournament stands and the one next
step — pair round N+1, start the top, finish — with what is missing first (the current
round's open tables, the players who did not check in once check-in has started), and what
finishing will do (``finish_preview``: rounds that remain, a missing head judge).

Reads only; the steps themselves are ``services.rounds.start_round``,
``services.round_clock`` and ``services.tournaments.finish_tournament``."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from turnir.domain.model import StaffRole, Stage, Status
from turnir.domain.tournament import Phase, Tournament
from turnir.errors import ConflictError
from turnir.services.common import Database, TournamentInfo, reading, tournament_info
from turnir.services.decks import list_decks, takes_decks_in
from turnir.services.draft_setup import round_one_blocker
from turnir.services.judges import list_judges
from turnir.services.players import list_players_in
from turnir.services.round_clock import (
    RoundTimer,
    add_time,
    pause_timer,
    resume_timer,
    round_timer,
    start_timer,
)
from turnir.storage import clock_repo
from turnir.storage.mappers import load_tournament


class Step(StrEnum):
    """The wizard's next step."""

    PAIR = "pair"
    """Pair the next Swiss round (round 1 included) or the next round of the top."""
    TOP = "top"
    """The Swiss rounds are over: pair the top's first round."""
    RESULTS = "results"
    """Results are missing in the current round."""
    DRAFT = "draft"
    """Before round 1 of a draft: seat the players on the «Драфт» page (D-2) or let the live
    draft finish (``draft_blocker`` says which)."""
    FINISH = "finish"
    """The last round is played: finish the tournament."""
    DONE = "done"
    """The tournament is finished."""


@dataclass(frozen=True, slots=True)
class Wizard:
    """What the wizard shows."""

    info: TournamentInfo
    step: Step
    next_round: int
    """The number the next round would have."""
    round: int | None
    """The current round's number (``None`` before round 1)."""
    top_round: bool
    """The current round is a round of the top."""
    open_tables: tuple[int, ...]
    """Tables of the current round without a result."""
    results_done: int
    results_total: int
    checkin_started: bool
    """Before round 1: someone has checked in, so the others will be left out."""
    unchecked: tuple[str, ...]
    """Before round 1, once check-in has started: who has not checked in."""
    left_out: tuple[str, ...]
    """In round 1: who was dropped before it (did not check in)."""
    swiss_planned: int
    top_size: int
    clock_minutes: int | None
    """The setting "start the clock with the round, minutes"."""
    timer: RoundTimer | None
    """The current round's clock."""
    head_judge: bool
    """The tournament has a head judge (rating it needs one)."""
    deck_format: str | None = None
    """The tournament's deck format (issue 13), ``None`` when it takes no decks."""
    no_legal_deck: tuple[tuple[int, str], ...] = ()
    """Before round 1 of a tournament with a deck format: the players (number, name) still in
    without a legal deck (a warning: pairing is allowed all the same)."""
    draft_blocker: str | None = None
    """Before round 1 of a draft: ``"seat"`` (not seated yet) or ``"live"`` (the live draft is
    not over; ``services.draft_setup.round_one_blocker``)."""
    draft_tables: int = 0
    """The number of draft tables (T-8; 0 without): the top takes as many from each."""


def _step(info: TournamentInfo, t: Tournament, blocker: str | None) -> Step:
    current = t.current_round
    if info.status is Status.FINISHED:
        return Step.DONE
    if current is None:
        return Step.DRAFT if blocker else Step.PAIR
    if not current.finished:
        return Step.RESULTS
    if t.phase is Phase.FINISHED:
        return Step.FINISH
    if current.stage is Stage.SWISS and len(t.swiss_rounds) >= t.swiss_rounds_planned:
        return Step.TOP
    return Step.PAIR


def round_wizard(db: Database, tournament_id: int) -> Wizard:
    """The wizard's state, read in one snapshot (the clock and the staff just after)."""
    with reading(db) as tx:
        info = tournament_info(tx, tournament_id)
        t = load_tournament(tx, tournament_id)
        players = list_players_in(tx, tournament_id)
        minutes = clock_repo.clock_minutes(tx, tournament_id)
        decks = takes_decks_in(tx, tournament_id)  # a format's name, or «Драфт» (D-6)
        blocker = round_one_blocker(tx, tournament_id) if not t.rounds else None
    current = t.current_round
    started = info.status is Status.REGISTRATION and any(p.checked_in for p in players)
    unchecked = tuple(p.name for p in players
                      if started and not p.checked_in and p.dropped_after is None)
    left_out = tuple(p.name for p in players
                     if current is not None and current.number == 1 and p.dropped_after == 0)
    matches = [] if current is None else [p for p in current.pairings if not p.is_bye]
    return Wizard(
        info=info, step=_step(info, t, blocker), next_round=len(t.rounds) + 1,
        round=None if current is None else current.number,
        top_round=current is not None and current.stage is Stage.TOP,
        open_tables=tuple(p.table for p in matches if not p.finished),
        results_done=sum(1 for p in matches if p.finished), results_total=len(matches),
        checkin_started=started, unchecked=unchecked, left_out=left_out,
        swiss_planned=t.swiss_rounds_planned, top_size=t.settings.top_size,
        clock_minutes=minutes,
        timer=None if current is None else round_timer(db, tournament_id, current.number),
        head_judge=any(j.role is StaffRole.HEAD_JUDGE for j in list_judges(db, tournament_id)),
        deck_format=decks,
        no_legal_deck=_no_legal_deck(db, tournament_id) if decks and current is None else (),
        draft_blocker=blocker, draft_tables=len(set(t.tables.values())),
    )


def _no_legal_deck(db: Database, tournament_id: int) -> tuple[tuple[int, str], ...]:
    """The players still in whose deck is missing or breaks a rule (C-1, C-2), checked now;
    read as the local operator (the wizard is the organizer's)."""
    return tuple((deck.number, deck.player) for deck in list_decks(db, tournament_id,
                                                                   account_id=None)
                 if not deck.dropped and not deck.valid)


def _current(db: Database, tournament_id: int) -> int:
    with reading(db) as tx:
        current = load_tournament(tx, tournament_id).current_round
    if current is None:
        raise ConflictError("no round has been paired yet", code="no_round")
    return current.number


def run_clock(db: Database, tournament_id: int, action: str, *, minutes: int, actor: str,
              account_id: int | None) -> RoundTimer:
    """The current round's clock: ``start`` (for ``minutes``), ``pause``, ``resume`` or ``add``
    (``minutes`` more)."""
    number = _current(db, tournament_id)
    if action == "start":
        return start_timer(db, tournament_id, number, minutes=minutes, actor=actor,
                           account_id=account_id)
    if action == "pause":
        return pause_timer(db, tournament_id, number, actor=actor, account_id=account_id)
    if action == "resume":
        return resume_timer(db, tournament_id, number, actor=actor, account_id=account_id)
    return add_time(db, tournament_id, number, minutes=minutes, actor=actor,
                    account_id=account_id)
