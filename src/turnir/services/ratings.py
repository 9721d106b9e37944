"""Use cases of the rating database (R-1..R-7, J-4, J-8, C-2): preview and submit a finished
tournament, replay the history from scratch, change the rating settings.

- **Submit** (J-8): only the tournament's head judge (``judges``: a web account linked to the
  head judge's staff row, or on the command line the actor matched by name) submits a
  finished, rated tournament; a head judge can be named after the finish. Its participants
  are the entries that played at least one round (a pairing or a bye), in their final places
  (P-6); its end is the time it was finished, which orders the history (R-6, ties by
  tournament id).
- **Safe to repeat**: submitting again with nothing changed answers ``unchanged`` and writes
  nothing. When something changed since (a corrected result, the terms: K, boosters, the J-4
  flags), the submission is a *correction*: the history is replayed from that tournament on,
  every later tournament's rows are rewritten where they differ, and the answer lists every
  person whose current ratings changed. A tournament that ended before the last one applied
  (a late submission) is inserted the same way.
- **Preview**: what a submission would do, for anyone, writing nothing.
- **Replay** from scratch: the imported base list plus every rated tournament in order; used
  after an import and a change of the settings, and to check the book (normally it changes
  nobody).

Every change takes the tournament's lock (when there is one) and then the rating lock, and
leaves an audit record: ``rating.submit``, ``rating.correct``, ``rating.replay``,
``rating.settings`` (``rating.terms`` and ``rating.import`` in their modules).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Any

from turnir.domain.limits import MAX_PLAYER_NUMBER, check_number
from turnir.domain.model import StaffRole
from turnir.domain.ratings import (
    NEWCOMER_RATING,
    Participant,
    RatedFormat,
    RatedTournament,
    RatingReport,
    RatingSettings,
    WarlockFirstTournament,
    exact_text,
    optional_rating,
    parse_exact,
    preview,
    replay,
    replay_changes,
    to_rating,
)
from turnir.domain.ratings.terms import RatingTerms
from turnir.domain.text import name_key
from turnir.errors import ConflictError, Term, UserError
from turnir.services.common import Database, Tx, changing, reading
from turnir.services.judges import NotStaffError, staff_roles_in
from turnir.services.rating_reports import (
    SubmissionStatus,
    TournamentRatingReport,
    build_report,
    stored_report,
)
from turnir.services.rating_terms import disqualified_without_prizes
from turnir.storage.mappers import Progress, load_tournament
from turnir.storage.rating_events import entry_people, head_judge, load_terms, rated_event
from turnir.storage.ratings import (
    HistoryValues,
    Pair,
    PersonRef,
    book_of,
    chunks,
    current_pairs,
    entry_numbers,
    last_key,
    load_base,
    load_history,
    load_settings,
    lock_rating_book,
    pair_of,
    people_by_id,
    recount_tournaments,
    replace_history,
    report_values,
    save_settings,
    save_tournament,
    settings_json,
    stored_tournament,
    stored_values,
    submission,
    update_warlock_k,
    warlock_coefficients,
    write_current,
)
from turnir.storage.repositories import Change

_REPLAY_CHUNK = 250
"""Tournaments replayed between two progress reports."""
_AUDIT_LIMIT = 1000
"""At most this many changed people are listed in one audit record (the count is always)."""


class SubmitStatus(StrEnum):
    """What a submission did (or, in a preview, would do)."""

    NEW = "new"
    """First submission: the tournament enters the rating book."""
    UNCHANGED = "unchanged"
    """Submitted before with the same content: nothing changes."""
    CORRECTED = "corrected"
    """Submitted before, changed since: the history is replayed from it (R-6)."""


@dataclass(frozen=True, slots=True)
class RatingDiffLine:
    """A person whose current ratings change."""

    person: PersonRef
    old_professional: Decimal | None
    """``None``: not in the rating book before."""
    new_professional: Decimal | None
    """``None``: no longer in the rating book."""
    old_warlock: Decimal | None
    new_warlock: Decimal | None

    @property
    def professional_change(self) -> Decimal:
        return (self.new_professional or NEWCOMER_RATING) - (
            self.old_professional or NEWCOMER_RATING)


@dataclass(frozen=True, slots=True)
class RatingSubmission:
    """The answer to a submission or a preview."""

    status: SubmitStatus
    report: TournamentRatingReport
    replayed: int
    """Later tournaments replayed (a correction or a late submission), 0 otherwise."""
    changed: tuple[RatingDiffLine, ...]
    """Everyone whose current ratings change, in the order they first appear."""


@dataclass(frozen=True, slots=True)
class ReplayResult:
    """The answer to a replay from scratch (also after an import or new settings)."""

    tournaments: int
    """Rated tournaments replayed."""
    rewritten: int
    """Tournaments whose stored rows differed and were rewritten."""
    changed: tuple[RatingDiffLine, ...]
    """Everyone whose current ratings changed (normally nobody for a plain replay)."""


# ----- building the rated tournament -------------------------------------------------------


def rated_tournament(conn: Tx, tournament_id: int, terms: RatingTerms
                     ) -> tuple[RatedTournament, dict[int, int]]:
    """The tournament as the rating book sees it, with person -> entry number; refused with the
    reason when it is not finished or not rated (C-2, R-6)."""
    event = rated_event(conn, tournament_id)
    name = event.name
    if not event.finished or event.finished_at is None:
        raise ConflictError("the tournament {name!r} is not finished; only a finished "
                            "tournament goes to the rating database (J-8)", code="not_finished",
                            name=name)
    if terms.rated_format is RatedFormat.STARTER_CONSTRUCTED:
        raise UserError("the tournament {name!r} is starter constructed, which does not change "
                        "the ratings (C-2, R-6)", code="unrated_tournament", name=name)
    t = load_tournament(conn, tournament_id)
    played = {number for rnd in t.rounds for line in rnd.pairings
              for number in (line.a, line.b) if number is not None}
    places = [number for number in t.final_places() if number in played]
    if len(places) < 4:
        raise UserError("the tournament {name!r} has {count} participants; a rated "
                        "tournament needs at least 4 (C-1, D-1, R-6)",
                        code="unrated_tournament", name=name, count=len(places))
    persons = {number: person for number, person in entry_people(conn, tournament_id).items()
               if person is not None}
    missing = [number for number in places if number not in persons]
    if missing:
        raise UserError("players not linked to a person in {name!r}: #{numbers}",
                        code="no_person", name=name, numbers=", #".join(map(str, missing)))
    dq = disqualified_without_prizes(conn, terms)
    tournament = RatedTournament(
        id=tournament_id, ended_at=event.finished_at, format=terms.rated_format,
        professional_k=terms.professional_k,
        participants=tuple(Participant(persons[number], place,
                                       disqualified_without_prizes=number in dq)
                           for place, number in enumerate(places, start=1)))
    return tournament, {persons[number]: number for number in places}


def check_head_judge(conn: Tx, tournament_id: int, actor: str, *,
                     account_id: int | None = None) -> None:
    """Only the tournament's head judge submits it to the rating database (J-8): the web
    account ``account_id`` must be linked to its head judge's staff row; the local operator
    (the CLI, ``account_id`` ``None``) names the head judge as the actor. A head judge can be
    named after the finish too (the Staff page), so a tournament finished without one can
    still be rated."""
    head = head_judge(conn, tournament_id)
    name = rated_event(conn, tournament_id).name
    if head is None:
        raise UserError("the tournament {name!r} has no head judge; only its head judge "
                        "submits it to the rating database (J-8). Its organizer names the "
                        "head judge on the tournament's Staff page (after the finish too)",
                        code="no_head_judge", name=name)
    if account_id is not None:
        if StaffRole.HEAD_JUDGE not in staff_roles_in(conn, tournament_id, account_id):
            raise NotStaffError("only the head judge of {name!r}, {head}, submits it to the "
                                "rating database (J-8); your account is not the head judge's. "
                                "Its organizer links the head judge's account on the "
                                "tournament's Staff page", code="not_head_judge", name=name,
                                head=head.name)
        return
    if head.name_key != name_key(actor):
        raise UserError("only the head judge of {name!r}, {head}, submits it to the rating "
                        "database (J-8); {actor} is not the head judge",
                        code="not_head_judge", name=name, head=head.name, actor=actor)


# ----- the plan: what a submission or a replay does ----------------------------------------


@dataclass
class _Plan:
    """Tournaments to (re)store with their reports, and the current ratings before/after."""

    reports: list[tuple[RatedTournament, RatingReport]]
    old: dict[int, Pair]
    """Current ratings before, of everyone touched (absent: not rated)."""
    new: dict[int, Pair | None]
    """Current ratings after, of everyone touched (``None``: no longer rated)."""
    touched: list[int]
    """Everyone touched, in the order they first appear."""


def _order(tournament: RatedTournament) -> tuple[Any, int]:
    return (tournament.ended_at, int(tournament.id))


def _append_plan(conn: Tx, tournament: RatedTournament, settings: RatingSettings
                 ) -> _Plan:
    """The fast path: a new tournament that ended after every rated one."""
    players = [int(p) for p in tournament.players]
    old = current_pairs(conn, players)
    report = preview(book_of(old), tournament, settings=settings)
    new: dict[int, Pair | None] = {}
    for participant, _, pro, war in report.rows:
        new[int(participant.player)] = (pro[3], war[3])
    return _Plan([(tournament, report)], old, new, players)


def _replay_plan(conn: Tx, settings: RatingSettings, *,
                 corrected: RatedTournament | None, progress: Progress | None) -> _Plan:
    """Replay the history from the first tournament whose position or content changes
    (everything when ``corrected`` is ``None``)."""
    base = load_base(conn)
    history = load_history(conn)
    if corrected is None:
        start, new_history = 0, history
    else:
        new_history = sorted([t for t in history if t.id != corrected.id] + [corrected],
                             key=_order)
        start = new_history.index(corrected)
        for index, tournament in enumerate(history):
            if tournament.id == corrected.id:
                start = min(start, index)
                break
    book = replay(new_history[:start], start=base, settings=settings)
    suffix = new_history[start:]
    total = 2 * len(suffix) or 1
    reports: list[tuple[RatedTournament, RatingReport]] = []
    for part in chunks(suffix, _REPLAY_CHUNK):
        book, part_reports = replay_changes(part, start=book, settings=settings)
        reports.extend(zip(part, part_reports, strict=True))
        if progress is not None:
            progress(len(reports), total)
    touched: dict[int, None] = {}
    for tournament in [*history[start:], *suffix]:
        touched.update(dict.fromkeys(int(p) for p in tournament.players))
    if corrected is None:
        old = current_pairs(conn)
        touched.update(dict.fromkeys(int(p) for p in base.players()))
        touched.update(dict.fromkeys(sorted(old)))
    else:
        old = current_pairs(conn, touched)
    new = {p: pair_of(book.rating(p)) if p in book else None for p in touched}
    return _Plan(reports, old, new, list(touched))


def _diffs(conn: Tx, plan: _Plan) -> tuple[RatingDiffLine, ...]:
    changed = [p for p in plan.touched if plan.old.get(p) != plan.new.get(p)]
    persons = people_by_id(conn, changed)

    lines = []
    for p in changed:
        old, new = plan.old.get(p), plan.new.get(p)
        lines.append(RatingDiffLine(
            person=persons[p],
            old_professional=None if old is None else to_rating(old[0]),
            new_professional=None if new is None else to_rating(new[0]),
            old_warlock=None if old is None else optional_rating(old[1]),
            new_warlock=None if new is None else optional_rating(new[1]),
        ))
    return tuple(lines)


def _write(conn: Tx, plan: _Plan, *, submitted: RatedTournament | None,
           numbers: Mapping[int, int], change: Change, progress: Progress | None) -> int:
    """Store the plan: the submitted tournament's row, every tournament's rows that differ,
    the current ratings; returns the number of tournaments rewritten."""
    ids = [int(t.id) for t, _ in plan.reports]
    stored = stored_values(conn, ids)
    warlock_k = warlock_coefficients(conn) if ids else {}
    changed_ids = []
    pending: list[tuple[int, list[HistoryValues]]] = []
    coefficients: dict[int, Fraction] = {}
    for tournament, report in plan.reports:
        tid = int(tournament.id)
        values = report_values(report)
        if submitted is not None and tid == submitted.id:
            save_tournament(conn, tournament, report, at=change.at, actor=change.actor)
        elif warlock_k.get(tid) != exact_text(report.warlock_k):
            coefficients[tid] = report.warlock_k
        if stored.get(tid) != values:
            changed_ids.append(tid)
            pending.append((tid, values))
    update_warlock_k(conn, coefficients)
    known = entry_numbers(conn, [tid for tid in changed_ids
                                 if submitted is None or tid != submitted.id])
    count = len(plan.reports)
    total = 2 * count or 1
    batch: list[tuple[int, Sequence[HistoryValues], Mapping[int, int]]] = []
    for done, (tid, values) in enumerate(pending, start=1):
        own = numbers if submitted is not None and tid == submitted.id else known[tid]
        batch.append((tid, values, own))
        if len(batch) == _REPLAY_CHUNK or done == len(pending):
            replace_history(conn, batch)
            batch = []
            if progress is not None:  # the second half of the bar: writing what differs
                progress(count + count * done // len(pending), total)
    write_current(conn, plan.old, plan.new, change.at)
    recount_tournaments(conn, None if submitted is None else plan.touched)
    if progress is not None:
        progress(total, total)
    return len(changed_ids)


def _rows_json(values: Sequence[HistoryValues]) -> list[list[Any]]:
    """A tournament's stored results for the audit log: person, place, J-4 flag, professional
    before and after, Warlock before and after (hundredths)."""
    return [[v[0], v[1], v[2], v[3], v[4], v[8], v[9]] for v in values]


def _diffs_json(diffs: Sequence[RatingDiffLine]) -> dict[str, Any]:
    def text(value: Decimal | None) -> str | None:
        return None if value is None else str(value)

    return {"count": len(diffs), "people": [
        [d.person.id, text(d.old_professional), text(d.new_professional), text(d.old_warlock),
         text(d.new_warlock)] for d in diffs[:_AUDIT_LIMIT]]}


# ----- preview and submit ------------------------------------------------------------------


@dataclass
class _Submission:
    status: SubmitStatus
    tournament: RatedTournament
    numbers: dict[int, int]
    terms: RatingTerms
    plan: _Plan | None


def _prepare(conn: Tx, tournament_id: int, settings: RatingSettings,
             progress: Progress | None) -> _Submission:
    terms = load_terms(conn, tournament_id)
    tournament, numbers = rated_tournament(conn, tournament_id, terms)
    stored = stored_tournament(conn, tournament_id)
    if stored is not None and stored == tournament:
        return _Submission(SubmitStatus.UNCHANGED, tournament, numbers, terms, None)
    last = last_key(conn, excluding=tournament_id)
    if stored is None and (last is None or _order(tournament) > last):
        plan = _append_plan(conn, tournament, settings)
    else:
        plan = _replay_plan(conn, settings, corrected=tournament, progress=progress)
    status = SubmitStatus.NEW if stored is None else SubmitStatus.CORRECTED
    return _Submission(status, tournament, numbers, terms, plan)


def _answer(conn: Tx, prepared: _Submission, *, written: bool) -> RatingSubmission:
    tid = int(prepared.tournament.id)
    plan = prepared.plan
    if plan is None:
        return RatingSubmission(SubmitStatus.UNCHANGED, stored_report(conn, tid), 0, ())
    report = next(r for t, r in plan.reports if t.id == tid)
    status = SubmissionStatus.SUBMITTED if written else SubmissionStatus.PREVIEW
    view = build_report(conn, prepared.tournament, report, prepared.terms, prepared.numbers,
                        status=status, stored=submission(conn, tid) if written else None)
    index = next(i for i, (t, _) in enumerate(plan.reports) if t.id == tid)
    return RatingSubmission(prepared.status, view, len(plan.reports) - index - 1,
                            _diffs(conn, plan))


def preview_tournament(db: Database, tournament_id: int, *,
                       progress: Progress | None = None) -> RatingSubmission:
    """What submitting the tournament would do, without doing it (anyone may look)."""
    with reading(db) as tx:
        return preview_in(tx, tournament_id, progress=progress)


def preview_in(tx: Tx, tournament_id: int, *,
               progress: Progress | None = None) -> RatingSubmission:
    """``preview_tournament`` inside a read transaction the caller holds."""
    settings, _ = load_settings(tx)
    return _answer(tx, _prepare(tx, tournament_id, settings, progress), written=False)


def submit_tournament(db: Database, tournament_id: int, *, actor: str,
                      progress: Progress | None = None, account_id: int | None = None,
                      correction: bool = False, confirmed: bool = True) -> RatingSubmission:
    """The head judge submits a finished tournament to the rating database (J-8, R-1..R-6).

    Safe to repeat: the same tournament again answers ``unchanged``; a tournament changed since
    its last submission is corrected and the history after it replayed (R-6). A correction is
    this same submission again (there is no other way to change a submitted tournament's
    ratings); ``correction``: refuse a tournament never submitted (409), so that a client that
    means to correct does not submit by mistake. ``account_id``: the web account, which must be
    linked to the head judge (``check_head_judge``). ``confirmed``: the page's or the API's
    confirmation (refused, 422, without it: after the role is checked).
    """
    with changing(db, tournament_id, actor) as change:
        conn = change.conn
        check_head_judge(conn, tournament_id, change.actor, account_id=account_id)
        if not confirmed:
            raise UserError("tick the confirmation to submit the tournament to the rating "
                            "database", code="not_confirmed")
        lock_rating_book(conn)
        settings, _ = load_settings(conn)
        old = stored_tournament(conn, tournament_id)
        if correction and old is None:
            raise ConflictError("the tournament {name!r} has not been submitted to the rating "
                                "database yet; submit it first", code="not_rated",
                                name=rated_event(conn, tournament_id).name)
        old_values = None if old is None else stored_values(conn, [tournament_id])[tournament_id]
        prepared = _prepare(conn, tournament_id, settings, progress)
        if prepared.plan is None:
            return _answer(conn, prepared, written=False)
        _write(conn, prepared.plan, submitted=prepared.tournament, numbers=prepared.numbers,
               change=change, progress=progress)
        answer = _answer(conn, prepared, written=True)
        report = next(r for t, r in prepared.plan.reports if t.id == tournament_id)
        after = {"version": answer.report.version,
                 "format": prepared.tournament.format.value,
                 "professional_k": exact_text(prepared.tournament.professional_k),
                 "warlock_k": exact_text(report.warlock_k),
                 "ended_at": answer.report.ended_at.isoformat(),
                 "participants": prepared.tournament.size,
                 "rows": _rows_json(report_values(report)),
                 "replayed": answer.replayed, "changed": _diffs_json(answer.changed)}
        before = None
        if old is not None and old_values is not None:
            before = {"format": old.format.value,
                      "professional_k": exact_text(old.professional_k),
                      "participants": old.size,
                      "rows": _rows_json(old_values)}
        action = "rating.submit" if old is None else "rating.correct"
        change.log(tournament_id, action, "rated_tournament", tournament_id, before, after)
        return answer


# ----- replay and settings -----------------------------------------------------------------


def rebuild(change: Change, settings: RatingSettings, *,
            progress: Progress | None = None) -> ReplayResult:
    """Replay the whole history inside ``change`` (the rating lock held); store the
    differences. Services that change the base list or the settings end with it."""
    conn = change.conn
    plan = _replay_plan(conn, settings, corrected=None, progress=progress)
    rewritten = _write(conn, plan, submitted=None, numbers={}, change=change,
                       progress=progress)
    return ReplayResult(tournaments=len(plan.reports), rewritten=rewritten,
                        changed=_diffs(conn, plan))


def replay_ratings(db: Database, *, actor: str,
                   progress: Progress | None = None) -> ReplayResult:
    """Replay the rating book from scratch: the imported list, then every rated tournament in
    the order of end (R-6). Stored rows that differ are rewritten; normally none do."""
    with changing(db, None, actor) as change:
        lock_rating_book(change.conn)
        settings, _ = load_settings(change.conn)
        result = rebuild(change, settings, progress=progress)
        change.log(None, "rating.replay", "rating_book", "all", None, {
            "tournaments": result.tournaments, "rewritten": result.rewritten,
            "changed": _diffs_json(result.changed)})
        return result


def rating_settings(db: Database) -> RatingSettings:
    """The rating database's settings (R-5, R-6, J-4; docs/ratings.md)."""
    with reading(db) as tx:
        return load_settings(tx)[0]


def change_rating_settings(
    db: Database, *, actor: str, many_participants: int | None = None,
    three_booster_k: str | Fraction | None = None,
    warlock_first_tournament: WarlockFirstTournament | None = None,
    reset_warlock_on_disqualification: bool | None = None,
    progress: Progress | None = None,
) -> ReplayResult:
    """Change the settings and replay the whole history with them (R-6)."""
    with changing(db, None, actor) as change:
        conn = change.conn
        lock_rating_book(conn)
        old, version = load_settings(conn)
        values: dict[str, Any] = {}
        if many_participants is not None:
            values["many_participants"] = check_number(
                many_participants, what="many participants", low=4, high=MAX_PLAYER_NUMBER)
        if three_booster_k is not None:
            values["three_booster_k"] = parse_exact(three_booster_k,
                                                    Term("the 3-booster Warlock K"))
        if warlock_first_tournament is not None:
            values["warlock_first_tournament"] = WarlockFirstTournament(warlock_first_tournament)
        if reset_warlock_on_disqualification is not None:
            values["reset_warlock_on_disqualification"] = reset_warlock_on_disqualification
        new = dataclasses.replace(old, **values)
        if new == old:
            return ReplayResult(tournaments=0, rewritten=0, changed=())
        save_settings(conn, new, version)
        result = rebuild(change, new, progress=progress)
        change.log(None, "rating.settings", "rating_settings", 1, settings_json(old), {
            **settings_json(new), "tournaments": result.tournaments,
            "rewritten": result.rewritten, "changed": _diffs_json(result.changed)})
        return result

