"""The rating records as JSON-ready dicts, for ``--json`` on the command line and the API.

Ratings and money are strings with two decimals (``"123.45"``) so they stay exact; K and Rt
are exact numbers as text (``"1.4"``, ``"7/5"``, ``"138.9"``).
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from turnir.domain.ratings import RatingChange, exact_text
from turnir.services.rating_queries import HistoryLine, Leaderboard, PlayerRatingProfile
from turnir.services.rating_reports import TournamentRatingReport
from turnir.services.ratings import RatingDiffLine, RatingSubmission, ReplayResult
from turnir.storage.ratings import PersonRef


def _money(value: Decimal | None) -> str | None:
    return None if value is None else str(value)


def _exact(value: Fraction) -> str:
    return exact_text(value)


def person_json(person: PersonRef) -> dict[str, Any]:
    return {"id": person.id, "name": person.name, "city": person.city, "club": person.club}


def change_json(change: RatingChange) -> dict[str, Any]:
    pro, war = change.professional, change.warlock
    return {
        "place": change.place, "disqualified_without_prizes": change.disqualified_without_prizes,
        "professional": {
            "before": str(pro.before), "formula": _exact(pro.formula), "bound": pro.bound.value,
            "bounded": _exact(pro.bounded), "k": _exact(pro.k), "exact": _exact(pro.exact),
            "after": str(pro.after), "change": str(pro.change),
            "floor_applied": pro.floor_applied, "reset_applied": pro.reset_applied},
        "warlock": {
            "before": _money(war.before), "rs": str(war.rs), "gain": _exact(war.gain),
            "k": _exact(war.k), "after": str(war.after), "change": str(war.change),
            "first_tournament": war.first_tournament, "reset_applied": war.reset_applied},
    }


def report_json(report: TournamentRatingReport) -> dict[str, Any]:
    return {
        "tournament": {"id": report.tournament_id, "name": report.tournament_name},
        "status": report.status.value, "format": report.rated_format.value,
        "ended_at": report.ended_at.isoformat(), "participants": report.participants,
        "professional_k": _exact(report.professional_k), "warlock_k": _exact(report.warlock_k),
        "professional_rt": _exact(report.professional_rt),
        "warlock_rt": _exact(report.warlock_rt),
        "prize_fund": _money(report.prize_fund),
        "prize_split": None if report.prize_split is None else {
            "winner": str(report.prize_split.winner), "second": str(report.prize_split.second)},
        "submitted_at": None if report.submitted_at is None else report.submitted_at.isoformat(),
        "submitted_by": report.submitted_by, "version": report.version,
        "lines": [{"person": person_json(line.person), "number": line.number,
                   **change_json(line.change), "prize": _money(line.prize),
                   "prize_withheld": line.prize_withheld} for line in report.lines],
    }


def diff_json(diff: RatingDiffLine) -> dict[str, Any]:
    return {"person": person_json(diff.person),
            "professional": [_money(diff.old_professional), _money(diff.new_professional)],
            "warlock": [_money(diff.old_warlock), _money(diff.new_warlock)]}


def submission_json(answer: RatingSubmission) -> dict[str, Any]:
    return {"status": answer.status.value, "replayed": answer.replayed,
            "changed": [diff_json(d) for d in answer.changed],
            "report": report_json(answer.report)}


def replay_json(result: ReplayResult) -> dict[str, Any]:
    return {"tournaments": result.tournaments, "rewritten": result.rewritten,
            "changed": [diff_json(d) for d in result.changed]}


def history_json(line: HistoryLine) -> dict[str, Any]:
    return {
        "tournament": {"id": line.tournament_id, "name": line.tournament_name},
        "ended_at": line.ended_at.isoformat(), "format": line.rated_format.value,
        "participants": line.participants, "place": line.place,
        "professional_k": _exact(line.professional_k), "warlock_k": _exact(line.warlock_k),
        "disqualified_without_prizes": line.disqualified_without_prizes,
        "professional": {"before": str(line.professional_before),
                         "change": str(line.professional_change),
                         "after": str(line.professional_after), "bound": line.bound.value,
                         "floor_applied": line.floor_applied,
                         "reset_applied": line.reset_applied},
        "warlock": {"before": _money(line.warlock_before), "change": str(line.warlock_change),
                    "after": str(line.warlock_after), "reset_applied": line.warlock_reset},
    }


def profile_json(profile: PlayerRatingProfile) -> dict[str, Any]:
    return {
        "person": person_json(profile.person), "rated": profile.rated,
        "professional": str(profile.professional), "warlock": _money(profile.warlock),
        "tournaments": profile.tournaments, "professional_rank": profile.professional_rank,
        "warlock_rank": profile.warlock_rank,
        "start": {"professional": str(profile.start_professional),
                  "warlock": _money(profile.start_warlock)},
        "history": [history_json(line) for line in profile.history],
    }


def leaderboard_json(board: Leaderboard) -> dict[str, Any]:
    return {
        "by": board.by.value, "search": board.search, "city": board.city, "club": board.club,
        "page": board.page, "per_page": board.per_page, "pages": board.pages,
        "total": board.total,
        "lines": [{"rank": line.rank, "person": person_json(line.person),
                   "professional": str(line.professional), "warlock": _money(line.warlock),
                   "tournaments": line.tournaments} for line in board.lines],
    }
