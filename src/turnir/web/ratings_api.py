"""The rating API of a tournament (issue 12 item 2), under ``/api/v1/tournaments/{tid}/rating``:
its terms (``GET``, and ``PUT`` by its organizer or head judge, before or after the finish,
logged), the preview of a submission (anyone, as the public rating report), the submission
(``POST …/submit``, its head judge only, J-8) and the correction (``POST …/correction``: the
same submission of a tournament submitted before, R-6; refused with 409 for one never
submitted). Each route calls one service, which checks the role again (``account_id``)."""

from __future__ import annotations

from fastapi import APIRouter, Depends

from turnir.services.rating_json import submission_json
from turnir.services.rating_terms import set_rating_terms, tournament_rating_terms
from turnir.services.ratings import RatingSubmission, preview_tournament, submit_tournament
from turnir.web.api import EVERYONE, PREFIX, route
from turnir.web.api_deps import TournamentId, api_csrf
from turnir.web.deps import DbDep, HeadDep
from turnir.web.ratings_api_models import (
    ConfirmIn,
    RatingSubmissionOut,
    RatingTermsIn,
    RatingTermsOut,
)
from turnir.web.security import HEAD, Role

router = APIRouter(prefix=PREFIX, tags=["turnir"], dependencies=[Depends(api_csrf)])
"""The rating routes; ``turnir.web.app`` includes them beside ``turnir.web.api``."""
HEAD_JUDGE = frozenset({Role.HEAD_JUDGE})
"""Who submits (J-8): the head judge; the route lets the organizer through to the service,
which refuses an organizer who is not also the head judge (403, ``not_head_judge``)."""


def _answer(answer: RatingSubmission) -> RatingSubmissionOut:
    return RatingSubmissionOut.model_validate(submission_json(answer))


@route("GET", "/tournaments/{tid}/rating/terms", EVERYONE, codes=(404,),
       response_model=RatingTermsOut, on=router)
def rating_terms(db: DbDep, tid: TournamentId) -> RatingTermsOut:
    """The tournament's rating terms (the defaults until they are set: ``version`` 0)."""
    return RatingTermsOut.of(tournament_rating_terms(db, tid))


@route("PUT", "/tournaments/{tid}/rating/terms", HEAD, codes=(404, 409),
       response_model=RatingTermsOut, on=router)
def put_rating_terms(db: DbDep, staff: HeadDep, tid: TournamentId,
                     body: RatingTermsIn) -> RatingTermsOut:
    """Set the whole terms (allowed after the finish; logged as ``rating.terms``). A
    submitted tournament keeps its ratings until the correction is submitted."""
    return RatingTermsOut.of(set_rating_terms(
        db, tid, actor=staff.actor, account_id=staff.account_id,
        professional_k=body.professional_k, boosters=body.boosters, starter=body.starter,
        entry_fee=body.entry_fee, prize_fund=body.prize_fund,
        disqualified_without_prizes=body.disqualified_without_prizes,
        expected_version=body.expected_version))


@route("GET", "/tournaments/{tid}/rating/preview", EVERYONE, codes=(404, 409),
       response_model=RatingSubmissionOut, on=router)
def rating_preview(db: DbDep, tid: TournamentId) -> RatingSubmissionOut:
    """What submitting would do now, per player, writing nothing (409 before the finish,
    422 for an unrated tournament)."""
    return _answer(preview_tournament(db, tid))


@route("POST", "/tournaments/{tid}/rating/submit", HEAD_JUDGE, codes=(404, 409),
       response_model=RatingSubmissionOut, on=router)
def rating_submit(db: DbDep, staff: HeadDep, tid: TournamentId,
                  body: ConfirmIn) -> RatingSubmissionOut:
    """The head judge submits the finished tournament (safe to repeat: ``unchanged``; a
    tournament changed since is corrected)."""
    return _answer(submit_tournament(db, tid, actor=staff.actor, account_id=staff.account_id,
                                     confirmed=body.confirm))


@route("POST", "/tournaments/{tid}/rating/correction", HEAD_JUDGE, codes=(404, 409),
       response_model=RatingSubmissionOut, on=router)
def rating_correction(db: DbDep, staff: HeadDep, tid: TournamentId,
                      body: ConfirmIn) -> RatingSubmissionOut:
    """Submit the correction of a tournament submitted before (R-6: the history after it is
    replayed); 409 for a tournament never submitted."""
    return _answer(submit_tournament(db, tid, actor=staff.actor, account_id=staff.account_id,
                                     correction=True, confirmed=body.confirm))
