"""A tournament's rating report (J-8, R-1..R-7): every participant's change, both K and Rt, and
the 70/30 prize split when the entry fee or the prize fund is known.

The same record serves the preview (before the head judge submits) and the stored report
(after): a stored report is recomputed from the ratings *before* kept in ``rating_history``
with the domain's formulas, so it shows the exact values (formula, bound, K, exact result),
and is checked against the stored results.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction

from turnir.domain.ratings import (
    PrizeSplit,
    RatedFormat,
    RatedTournament,
    RatingChange,
    RatingReport,
    RatingSettings,
    award_prizes,
    preview,
    split_prize_fund,
)
from turnir.domain.ratings.terms import RatingTerms
from turnir.errors import InvariantError, NotFoundError
from turnir.services.common import Tx
from turnir.storage.rating_events import load_terms, rated_event
from turnir.storage.ratings import (
    PersonRef,
    Submission,
    book_of,
    entry_numbers,
    load_settings,
    people_by_id,
    report_values,
    stored_tournament,
    stored_values,
    submission,
)


class SubmissionStatus(StrEnum):
    """Whether a rating report is a preview of a submission or what the rating book holds
    (not to be confused with ``turnir.services.ratings.SubmitStatus``, what a submission did)."""

    PREVIEW = "preview"
    """Not submitted yet, or submitted and changed since: what a submission would store."""
    SUBMITTED = "submitted"
    """What the rating book holds for the tournament."""


@dataclass(frozen=True, slots=True)
class RatingLine:
    """One participant's line of the report."""

    person: PersonRef
    number: int
    """The entry's number in the tournament."""
    change: RatingChange
    """Place, both ratings before/after with the exact values, bound, floor, reset."""
    prize: Decimal | None
    """The prize of places 1 and 2 (R-7), when the fund is known."""
    prize_withheld: bool
    """Disqualified without prizes: the prize is not paid (J-4)."""


@dataclass(frozen=True, slots=True)
class TournamentRatingReport:
    """A tournament's rating report."""

    tournament_id: int
    tournament_name: str
    status: SubmissionStatus
    rated_format: RatedFormat
    ended_at: datetime
    participants: int
    """U."""
    professional_k: Fraction
    warlock_k: Fraction
    professional_rt: Fraction
    """Rt of R-1, exact."""
    warlock_rt: Fraction
    """Rt of R-5, exact (newcomers as 100)."""
    lines: tuple[RatingLine, ...]
    """Winner first."""
    prize_fund: Decimal | None
    prize_split: PrizeSplit | None
    """70% to the winner, 30% to the second (R-7), when the fund is known."""
    submitted_at: datetime | None
    submitted_by: str | None
    version: int
    """The stored submission's version (1, then one more per correction); 0 for a preview of a
    tournament never submitted."""


def build_report(conn: Tx, tournament: RatedTournament, report: RatingReport,
                 terms: RatingTerms, numbers: Mapping[int, int], *, status: SubmissionStatus,
                 stored: Submission | None) -> TournamentRatingReport:
    """The report record from the domain's report and the tournament's terms."""
    tid = int(tournament.id)
    ended_at = tournament.ended_at
    if not isinstance(ended_at, datetime):
        raise InvariantError("a stored tournament ends at a time")
    name = rated_event(conn, tid).name
    persons = people_by_id(conn, (int(p) for p in tournament.players))
    fund = terms.fund(tournament.size)
    prizes = {int(a.player): a for a in award_prizes(tournament, fund)} if fund is not None \
        else {}
    lines = []
    for change in report.changes:
        person = int(change.player)
        award = prizes.get(person)
        lines.append(RatingLine(person=persons[person], number=numbers[person], change=change,
                                prize=None if award is None else award.amount,
                                prize_withheld=award is not None and award.withheld))
    return TournamentRatingReport(
        tournament_id=tid, tournament_name=name, status=status,
        rated_format=tournament.format, ended_at=ended_at,
        participants=report.participants, professional_k=report.professional_k,
        warlock_k=report.warlock_k, professional_rt=report.professional_rt,
        warlock_rt=report.warlock_rt, lines=tuple(lines), prize_fund=fund,
        prize_split=None if fund is None else split_prize_fund(fund),
        submitted_at=None if stored is None else stored.at,
        submitted_by=None if stored is None else stored.by,
        version=0 if stored is None else stored.version,
    )


def recompute_stored(conn: Tx, tournament_id: int, settings: RatingSettings
                     ) -> tuple[RatedTournament, RatingReport] | None:
    """The stored tournament and its report recomputed from the stored ratings before; ``None``
    when it was never submitted."""
    tournament = stored_tournament(conn, tournament_id)
    if tournament is None:
        return None
    values = stored_values(conn, [tournament_id])[tournament_id]
    book = book_of({person: (pro_before, war_before)
                    for person, _, _, pro_before, _, _, _, _, war_before, _, _ in values})
    report = preview(book, tournament, settings=settings)
    if report_values(report) != values:
        raise InvariantError(f"the stored ratings of tournament {tournament_id} do not follow "
                             "from the ratings before; replay the rating book")
    return tournament, report


def stored_report(conn: Tx, tournament_id: int) -> TournamentRatingReport:
    """The report of a submitted tournament as the rating book holds it."""
    settings, _ = load_settings(conn)
    found = recompute_stored(conn, tournament_id, settings)
    if found is None:
        raise NotFoundError("the tournament {name!r} has not been submitted to the rating "
                            "database", code="not_rated",
                            name=rated_event(conn, tournament_id).name)
    tournament, report = found
    numbers = entry_numbers(conn, [tournament_id])[tournament_id]
    return build_report(conn, tournament, report, load_terms(conn, tournament_id), numbers,
                        status=SubmissionStatus.SUBMITTED, stored=submission(conn, tournament_id))
