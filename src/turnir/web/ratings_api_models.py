"""The JSON shapes of the rating API of a tournament (issue 12 item 2): the terms in and out,
and the preview or submission (the same JSON as ``turnir rating preview --json``:
``turnir.services.rating_json.submission_json``). Ratings, money, K and Rt are exact texts
(``"123.45"``, ``"7/5"``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from turnir.domain.ratings import exact_text
from turnir.services.rating_terms import RatingTerms

ExactText = Annotated[str, Field(min_length=1, max_length=20, examples=["1.4", "7/5"])]
MoneyText = Annotated[str, Field(min_length=1, max_length=20, examples=["300", "250.50"])]
EntryNumber = Annotated[int, Field(ge=1, le=100_000)]


class RatingTermsIn(BaseModel):
    """The whole terms (``PUT``: a field left out takes its default, as for a tournament whose
    terms were never set)."""

    model_config = ConfigDict(extra="forbid")

    professional_k: ExactText = "1"
    """K of R-1: ``1.4``, ``7/5``."""
    boosters: Annotated[int, Field(ge=1, le=4)] = 4
    """A draft's boosters (D-1), which decide the Warlock K (R-5)."""
    starter: bool = False
    """Starter constructed: unrated (C-2)."""
    entry_fee: MoneyText | None = None
    """Per participant, roubles (R-7)."""
    prize_fund: MoneyText | None = None
    """The whole prize fund, roubles, instead of the entry fee (R-7)."""
    disqualified_without_prizes: Annotated[list[EntryNumber], Field(max_length=1000)] = []
    """Entry numbers disqualified without prizes by hand (J-4); the penalties recorded in the
    tournament count too."""
    expected_version: Annotated[int | None, Field(ge=0, le=2**31 - 1)] = None
    """The terms' version read before (a change made meanwhile is refused, 409)."""


class RatingTermsOut(BaseModel):
    tournament_id: int
    format: str
    """The tournament's own format."""
    rated_format: str
    rated: bool
    """False for starter constructed (C-2)."""
    professional_k: str
    boosters: int
    starter: bool
    entry_fee: str | None
    prize_fund: str | None
    disqualified_without_prizes: list[int]
    version: int
    """0 until the terms are first set."""

    @classmethod
    def of(cls, terms: RatingTerms) -> RatingTermsOut:
        return cls(tournament_id=terms.tournament_id, format=terms.format.value,
                   rated_format=terms.rated_format.value, rated=terms.rated,
                   professional_k=exact_text(terms.professional_k), boosters=terms.boosters,
                   starter=terms.starter,
                   entry_fee=None if terms.entry_fee is None else str(terms.entry_fee),
                   prize_fund=None if terms.prize_fund is None else str(terms.prize_fund),
                   disqualified_without_prizes=list(terms.disqualified_without_prizes),
                   version=terms.version)


class ConfirmIn(BaseModel):
    """A submission is made only when asked for in so many words."""

    model_config = ConfigDict(extra="forbid")

    confirm: bool
    """Must be true."""


class PersonOut(BaseModel):
    id: int
    name: str
    city: str
    club: str


class ProfessionalOut(BaseModel):
    before: str
    formula: str
    bound: str
    bounded: str
    k: str
    exact: str
    after: str
    change: str
    floor_applied: bool
    reset_applied: bool


class WarlockOut(BaseModel):
    before: str | None
    rs: str
    gain: str
    k: str
    after: str
    change: str
    first_tournament: bool
    reset_applied: bool


class RatingLineOut(BaseModel):
    person: PersonOut
    number: int
    place: int
    disqualified_without_prizes: bool
    professional: ProfessionalOut
    warlock: WarlockOut
    prize: str | None
    prize_withheld: bool


class TournamentRefOut(BaseModel):
    id: int
    name: str


class PrizeSplitOut(BaseModel):
    winner: str
    second: str


class RatingReportOut(BaseModel):
    tournament: TournamentRefOut
    status: str
    """``preview`` or ``submitted``."""
    format: str
    ended_at: str
    participants: int
    professional_k: str
    warlock_k: str
    professional_rt: str
    warlock_rt: str
    prize_fund: str | None
    prize_split: PrizeSplitOut | None
    submitted_at: str | None
    submitted_by: str | None
    version: int
    lines: list[RatingLineOut]


class RatingDiffOut(BaseModel):
    person: PersonOut
    professional: list[str | None]
    """Before and after (``null``: not in the rating book)."""
    warlock: list[str | None]


class RatingSubmissionOut(BaseModel):
    status: str
    """``new``, ``unchanged`` or ``corrected`` (what the submission did or would do)."""
    replayed: int
    """Later tournaments replayed (a correction or a late submission)."""
    changed: list[RatingDiffOut]
    """Everyone whose current ratings change."""
    report: RatingReportOut
