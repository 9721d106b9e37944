"""What the rating pages of one tournament show its head judge and organizer (issue 12 item 2),
and the public rating report when there is none yet.

- ``rating_admin_page``: the tournament's rating terms (K, boosters, starter, entry fee or
  prize fund, the J-4 flags), the entries to flag, the preview of a submission (the rating
  changes it would make, per player: ``turnir.services.ratings.preview_in``) or the reason
  there is none (not finished, starter constructed, fewer than 4 participants), the last
  submission, the head judge and whether the visitor may submit. Terms are changed with
  ``turnir.services.rating_terms.set_rating_terms`` and submitted (or corrected: the same
  submission again, R-6) with ``turnir.services.ratings.submit_tournament``.
- ``rating_report_page``: the tournament's rating report, or the reason there is none yet, so
  that the report tab of a running tournament says when it will be ready instead of failing.

Everything is read in one snapshot.
"""

from __future__ import annotations

from dataclasses import dataclass

from turnir.domain.model import StaffRole
from turnir.domain.ratings.terms import RatingTerms
from turnir.errors import NotFoundError, Term, UserError
from turnir.services.common import Database, TournamentInfo, reading, tournament_info
from turnir.services.judges import HEAD_OR_ORGANIZER, check_staff, staff_roles_in
from turnir.services.rating_reports import TournamentRatingReport, stored_report
from turnir.services.rating_terms import disqualified_without_prizes
from turnir.services.ratings import RatingSubmission, preview_in
from turnir.storage.mappers import load_tournament
from turnir.storage.rating_events import head_judge, load_terms
from turnir.storage.ratings import Submission, submission


@dataclass(frozen=True, slots=True)
class FlaggableEntry:
    """An entry the J-4 flag can be set on."""

    number: int
    name: str
    flagged: bool
    """Flagged by hand in the terms."""
    recorded: bool
    """Disqualified without prizes by a penalty recorded in the tournament (always counted)."""


@dataclass(frozen=True, slots=True)
class RatingAdminPage:
    """The head judge's rating page of one tournament."""

    tournament: TournamentInfo
    terms: RatingTerms
    entries: tuple[FlaggableEntry, ...]
    preview: RatingSubmission | None
    """What a submission would do now; ``None`` when it cannot be submitted (``problem``)."""
    problem: UserError | None
    """Why there is no preview: not finished, unrated (C-2), too few participants, …"""
    submitted: Submission | None
    """The last submission, ``None`` when never submitted."""
    head_judge: str | None
    """The head judge's name, ``None`` when the tournament has none."""
    may_submit: bool
    """The visitor's account is linked to the head judge's staff row."""


def rating_admin_page(db: Database, tournament_id: int, *, account_id: int | None
                      ) -> RatingAdminPage:
    """The rating terms, the preview and the submission state, for the tournament's organizer
    or head judge (``account_id``; ``None``: the local operator)."""
    with reading(db) as tx:
        info = tournament_info(tx, tournament_id)
        check_staff(tx, tournament_id, account_id, HEAD_OR_ORGANIZER,
                    what=Term("set the rating terms"))
        terms = load_terms(tx, tournament_id)
        counted = disqualified_without_prizes(tx, terms)
        manual = set(terms.disqualified_without_prizes)
        entries = tuple(
            FlaggableEntry(number=int(p.id), name=p.name, flagged=int(p.id) in manual,
                           recorded=int(p.id) in counted and int(p.id) not in manual)
            for p in load_tournament(tx, tournament_id).players)
        preview: RatingSubmission | None = None
        problem: UserError | None = None
        try:
            preview = preview_in(tx, tournament_id)
        except NotFoundError:
            raise
        except UserError as error:
            problem = error
        head = head_judge(tx, tournament_id)
        may_submit = account_id is None or StaffRole.HEAD_JUDGE in staff_roles_in(
            tx, tournament_id, account_id)
        return RatingAdminPage(
            tournament=info, terms=terms, entries=entries, preview=preview, problem=problem,
            submitted=submission(tx, tournament_id),
            head_judge=None if head is None else head.name,
            may_submit=head is not None and may_submit)


@dataclass(frozen=True, slots=True)
class RatingReportPage:
    """A tournament's rating report, or why there is none yet."""

    tournament: TournamentInfo
    report: TournamentRatingReport | None
    problem: UserError | None
    """Not finished yet (``code`` ``not_finished``), not rated, …; ``None`` with a report."""


def rating_report_page(db: Database, tournament_id: int) -> RatingReportPage:
    """The report as submitted, else the preview; else the reason (an unknown tournament is
    still ``NotFoundError``)."""
    with reading(db) as tx:
        info = tournament_info(tx, tournament_id)
        try:
            if submission(tx, tournament_id) is not None:
                return RatingReportPage(info, stored_report(tx, tournament_id), None)
            return RatingReportPage(info, preview_in(tx, tournament_id).report, None)
        except NotFoundError:
            raise
        except UserError as error:
            return RatingReportPage(info, None, error)
