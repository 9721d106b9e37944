"""Use cases on rounds: start the next round (paired by the domain core, P-2..P-5), build the
top, undo a round without results, swap two players' seats (P-7)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from turnir.domain.model import Round
from turnir.domain.tournament import (
    Phase,
    Tournament,
    pair_next_round,
    swap_players,
    undo_last_round,
)
from turnir.errors import ConflictError, InvariantError
from turnir.services.common import (
    Status,
    changing,
    reading,
    refuse_when_finished,
    touch_tournament,
)
from turnir.services.draft_setup import check_round_one
from turnir.services.eligibility import check_head_judge_at_start
from turnir.services.judges import ORGANIZER_ONLY, check_staff
from turnir.services.penalty_effects import decide_waiting_match_losses
from turnir.services.players import drop_absent
from turnir.services.round_clock import RoundTimer, start_clock_in
from turnir.storage import clock_repo, players_repo, rounds_repo
from turnir.storage.database import Database
from turnir.storage.mappers import insert_round, load_tournament, tournament_row
from turnir.storage.repositories import Change, check_version, round_row
from turnir.storage.result_reports import discard_reports


@dataclass(frozen=True, slots=True)
class RoundView:
    """A round together with the tournament it belongs to (for names and points)."""

    round: Round
    tournament: Tournament
    version: int
    """The tournament's version after the change."""
    left_out: tuple[str, ...] = ()
    """Players dropped before round 1 because they did not check in (their names)."""
    clock: RoundTimer | None = None
    """The round's clock, when pairing started it (the setting ``clock_minutes``)."""


def round_json(rnd: Round) -> dict[str, Any]:
    return {
        "number": rnd.number, "stage": rnd.stage.value, "lot": rnd.lot, "edits": list(rnd.edits),
        "pairings": [[p.table, p.a, p.b, p.kind.value] for p in rnd.pairings],
    }


def start_round(
    db: Database, tournament_id: int, *, actor: str, expected_version: int | None = None,
    drop_absent_players: bool = False, account_id: int | None = None,
    leave_out_absent: bool = True,
) -> RoundView:
    """Pair the next round: Swiss while Swiss rounds remain, then the top (P-1..P-5).

    With ``drop_absent_players`` before round 1, players who did not check in are dropped
    first (each drop logged; refused when nobody checked in). ``leave_out_absent`` (the
    default on every path, issue 12 item 6): the same once check-in has started (someone
    checked in), and nothing while nobody has; ``False`` pairs everyone anyway. The view
    names who was left out. When the tournament's setting "start the clock with the round"
    is set, the round's clock starts with it. A web account
    (``account_id``) must be the organizer.
    """
    absent = "drop" if drop_absent_players else "leave_out" if leave_out_absent else "keep"
    with changing(db, tournament_id, actor) as change:
        check_staff(change.conn, tournament_id, account_id, ORGANIZER_ONLY, what="pair rounds")
        return _pair(change, tournament_id, expected_version, absent, top=False)


def build_top(
    db: Database, tournament_id: int, *, actor: str, expected_version: int | None = None,
) -> RoundView:
    """Pair the first round of the top from the Swiss standings (P-5); refused before the last
    Swiss round is over or when the tournament has no top."""
    with changing(db, tournament_id, actor) as change:
        return _pair(change, tournament_id, expected_version, "keep", top=True)


def _drop_absent(change: Change, tournament_id: int, absent: str) -> list[int]:
    """Before round 1: drop who did not check in (``absent``: drop, leave_out or keep)."""
    conn = change.conn
    checked_in = players_repo.count_entries(conn, tournament_id, checked_in_only=True)
    if absent == "drop" and not checked_in:
        raise ConflictError("nobody has checked in yet", code="nobody_checked_in")
    if absent == "keep" or not checked_in:
        return []
    return drop_absent(conn, tournament_id, change.actor, change.at)


def _pair(change: Change, tournament_id: int, expected_version: int | None,
          absent: str, *, top: bool) -> RoundView:
    conn = change.conn
    row = tournament_row(conn, tournament_id)
    refuse_when_finished(row)
    check_version(conn, tournament_id, "tournament", tournament_id, "the tournament",
                  expected_version, row["version"])
    dropped: list[int] = []
    if row["status"] == Status.REGISTRATION:
        dropped = _drop_absent(change, tournament_id, absent)
    if row["status"] == Status.REGISTRATION:
        check_head_judge_at_start(conn, tournament_id)  # J-8
    t = load_tournament(conn, tournament_id)
    if not t.rounds:
        check_round_one(conn, tournament_id)  # a draft: seated (D-2), the live draft over
    if top and (t.settings.top_size == 0 or t.top_rounds
                or len(t.swiss_rounds) < t.swiss_rounds_planned):
        if t.settings.top_size == 0:
            raise ConflictError("this tournament has no top", code="no_top")
        if t.top_rounds:
            raise ConflictError("the top is already built", code="top_exists")
        raise ConflictError(
            "the top starts after Swiss round {planned}; {played} played",
            code="swiss_not_over", planned=t.swiss_rounds_planned, played=len(t.swiss_rounds),
        )
    if t.phase is Phase.FINISHED:  # issue 12 item 8: not "finished" while it is running
        raise ConflictError("the last round is played: no round follows; finish the tournament",
                            code="all_rounds_played")
    paired = pair_next_round(t)
    rnd = paired.rounds[-1]
    insert_round(conn, tournament_id, rnd, at=change.at, actor=change.actor)
    version = touch_tournament(conn, row, status=Status.RUNNING.value)
    for number in dropped:
        change.log(tournament_id, "player.drop", "entry", number, {"dropped_after": None},
                   {"dropped_after": 0, "reason": "did not check in"})
    change.log(tournament_id, "round.pair", "round", rnd.number, None, round_json(rnd))
    minutes = clock_repo.clock_minutes(conn, tournament_id)
    clock = None if not minutes else start_clock_in(change, tournament_id, rnd.number, minutes,
                                                    change.at)
    if decide_waiting_match_losses(change, tournament_id, rnd.number):  # J-3
        paired = load_tournament(conn, tournament_id)
        rnd = paired.rounds[-1]
        version = tournament_row(conn, tournament_id)["version"]
    names = {p.id: p.name for p in t.players}
    return RoundView(rnd, paired, version, tuple(names[n] for n in dropped if n in names),
                     clock)


def undo_round(
    db: Database, tournament_id: int, *, actor: str, expected_version: int | None = None,
    account_id: int | None = None,
) -> RoundView | None:
    """Remove the last round when none of its matches has a result (P-7); returns the round
    that is now the last one (``None`` when none is left). A web account (``account_id``) must
    be the organizer."""
    with changing(db, tournament_id, actor) as change:
        conn = change.conn
        check_staff(conn, tournament_id, account_id, ORGANIZER_ONLY, what="undo rounds")
        row = tournament_row(conn, tournament_id)
        refuse_when_finished(row)
        check_version(conn, tournament_id, "tournament", tournament_id, "the tournament",
                      expected_version, row["version"])
        t = load_tournament(conn, tournament_id)
        after = undo_last_round(t)
        last = t.rounds[-1]
        rounds_repo.delete_round(conn, round_row(conn, tournament_id, last.number)["id"])
        status = Status.RUNNING if after.rounds else Status.REGISTRATION
        version = touch_tournament(conn, row, undone=list(after.undone), status=status.value)
        change.log(tournament_id, "round.undo", "round", last.number, round_json(last), None)
        current = after.current_round
        return None if current is None else RoundView(current, after, version)


def swap_seats(
    db: Database, tournament_id: int, round_number: int, first: str | int, second: str | int,
    *, actor: str, note: str = "", expected_version: int | None = None,
) -> RoundView:
    """A judge's manual pairing edit: two players exchange seats in the current round (P-7)."""
    with changing(db, tournament_id, actor) as change:
        conn = change.conn
        row = tournament_row(conn, tournament_id)
        refuse_when_finished(row)
        rnd_row = round_row(conn, tournament_id, round_number)
        check_version(conn, tournament_id, "round", round_number, f"round {round_number}",
                      expected_version, rnd_row["version"])
        x = players_repo.entry(conn, tournament_id, first).number
        y = players_repo.entry(conn, tournament_id, second).number
        t = load_tournament(conn, tournament_id)
        after = swap_players(t, round_number, x, y, note=note)
        old, new = t.round(round_number), after.round(round_number)
        lines = rounds_repo.stored_lines(conn, rnd_row["id"])
        if len(lines) != len(old.pairings):
            raise InvariantError("stored round and loaded round differ")
        changed: list[int] = []
        for line, before_line, after_line in zip(lines, old.pairings, new.pairings,
                                                 strict=True):
            if before_line != after_line:
                changed.append(line.id)
                rounds_repo.reseat_line(conn, line, after_line, actor=change.actor,
                                        at=change.at)
        discard_reports(conn, changed)  # the players' reports were for the old opponents
        rounds_repo.set_edits(conn, rnd_row["id"], rnd_row["version"], new.edits)
        version = touch_tournament(conn, row)
        change.log(tournament_id, "round.swap", "round", round_number, round_json(old),
                   round_json(new))
        return RoundView(new, after, version)


def current_round(db: Database, tournament_id: int, number: int | None = None) -> RoundView:
    """A round (default: the current one) with its tournament, for showing pairings."""
    with reading(db) as tx:
        row = tournament_row(tx, tournament_id)
        t = load_tournament(tx, tournament_id)
    rnd = t.round(number) if number is not None else t.current_round
    if rnd is None:
        raise ConflictError("no round has been paired yet", code="no_round")
    return RoundView(rnd, t, row["version"])
