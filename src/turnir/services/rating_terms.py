"""A tournament's rating terms (R-1, R-5, R-7, C-2, J-4): what its rating needs beyond its format.

A stored tournament has a format (swiss, draft, constructed) and a rules level. The rating
also needs (``rating_tournament_terms``; a tournament without a row has the defaults):

- ``boosters``: a draft's boosters, 1-4 (default 4), which decide the Warlock K (R-5);
- ``starter``: a constructed event with starter decks only, which is unrated (C-2);
- ``professional_k``: K of R-1 (default 1, **Decided**: the source leaves it to the
  tournament's rules);
- ``entry_fee`` per participant, or the whole ``prize_fund``, for the 70/30 split (R-7);
- the players *disqualified without prizes* (J-4), whose rating resets (R-4).

The rated format: a draft is ``draft_N_boosters``; constructed is ``constructed`` (or
``starter_constructed`` when ``starter``); a ``swiss`` event is read as constructed
(**Decided**: a Swiss event without a draft plays constructed decks; Warlock K 1).

The J-4 flag is read by ``disqualified_without_prizes``: the disqualifications without prizes
(and suspensions) the penalties capability records, plus the entries the terms flag by hand
(a disqualification recorded outside turnir, or a tournament imported from a file).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from enum import Enum
from fractions import Fraction
from typing import Any

from sqlalchemy import Connection, RowMapping, insert, select, update

from turnir.domain.penalties import disqualification_effects
from turnir.domain.ratings import RatedFormat
from turnir.errors import UserError
from turnir.services.common import TournamentFormat, changing
from turnir.services.penalties import views_in
from turnir.storage.database import Database
from turnir.storage.mappers import tournament_row
from turnir.storage.ratings import exact_text, parse_exact
from turnir.storage.repositories import check_version, entry_by_ref
from turnir.storage.tables_ratings import rating_terms


class Keep(Enum):
    """A term left as it is (``set_rating_terms``)."""

    KEEP = "keep"


KEEP = Keep.KEEP
DEFAULT_BOOSTERS = 4
DEFAULT_PROFESSIONAL_K = Fraction(1)
_DRAFTS = {1: RatedFormat.DRAFT_1_BOOSTER, 2: RatedFormat.DRAFT_2_BOOSTERS,
           3: RatedFormat.DRAFT_3_BOOSTERS, 4: RatedFormat.DRAFT_4_BOOSTERS}


def kopecks(value: Decimal | int | str, what: str) -> int:
    """Roubles to the kopeck (``300``, ``"250.50"``) as kopecks; refused when negative or finer."""
    try:
        amount = Decimal(str(value).strip().replace(",", "."))
        if amount.is_finite() and amount > MAX_KOPECKS:  # before scaling: 1e999999999
            raise UserError(f"{what} must be at most {MAX_KOPECKS // 100:,} roubles",
                            code="bad_money")
        scaled = amount * 100
    except InvalidOperation:
        raise UserError(f"{what} must be an amount such as 300 or 250.50, not {value!r}",
                        code="bad_money") from None
    if not scaled.is_finite() or scaled != scaled.to_integral_value() or scaled < 0:
        raise UserError(f"{what} must be a non-negative amount to the kopeck, not {value}",
                        code="bad_money")
    if scaled > MAX_KOPECKS:
        raise UserError(f"{what} must be at most {MAX_KOPECKS // 100:,} roubles",
                        code="bad_money")
    return int(scaled)


MAX_KOPECKS = 2**31 - 1
"""Amounts are stored in kopecks as 32-bit integers (issue 10 item 5)."""


def roubles(value: int | None) -> Decimal | None:
    return None if value is None else Decimal(value).scaleb(-2)


def rated_format(format: TournamentFormat, *, boosters: int, starter: bool) -> RatedFormat:
    """The format as the rating sees it (see the module docstring)."""
    if format is TournamentFormat.DRAFT:
        return _DRAFTS[boosters]
    return RatedFormat.STARTER_CONSTRUCTED if starter else RatedFormat.CONSTRUCTED


@dataclass(frozen=True, slots=True)
class RatingTerms:
    """A tournament's rating terms (defaults when never set: ``version`` 0)."""

    tournament_id: int
    format: TournamentFormat
    """The tournament's own format."""
    boosters: int
    """A draft's boosters (D-1), 1-4."""
    starter: bool
    """Starter constructed (C-2): unrated."""
    professional_k: Fraction
    """K of R-1."""
    entry_fee: Decimal | None
    """Per participant, roubles (R-7)."""
    prize_fund: Decimal | None
    """The whole fund, roubles, when given instead of the entry fee (R-7)."""
    disqualified_without_prizes: tuple[int, ...]
    """Entry numbers disqualified without prizes (J-4)."""
    version: int
    """0 until the terms are first set."""

    @property
    def rated_format(self) -> RatedFormat:
        return rated_format(self.format, boosters=self.boosters, starter=self.starter)

    @property
    def rated(self) -> bool:
        """Whether the format is rated at all (C-2); the size is checked on submission."""
        return self.rated_format is not RatedFormat.STARTER_CONSTRUCTED

    def fund(self, participants: int) -> Decimal | None:
        """The prize fund: given, or the entry fee times the participants (R-7)."""
        if self.prize_fund is not None:
            return self.prize_fund
        if self.entry_fee is not None:
            return self.entry_fee * participants
        return None

    def as_json(self) -> dict[str, Any]:
        return {"boosters": self.boosters, "starter": self.starter,
                "professional_k": exact_text(self.professional_k),
                "entry_fee": None if self.entry_fee is None else str(self.entry_fee),
                "prize_fund": None if self.prize_fund is None else str(self.prize_fund),
                "disqualified_without_prizes": list(self.disqualified_without_prizes),
                "rated_format": self.rated_format.value}


def _terms(tournament: RowMapping, row: RowMapping | None) -> RatingTerms:
    format = TournamentFormat(tournament["format"])
    if row is None:
        return RatingTerms(tournament["id"], format, DEFAULT_BOOSTERS, False,
                           DEFAULT_PROFESSIONAL_K, None, None, (), 0)
    return RatingTerms(
        tournament_id=tournament["id"], format=format, boosters=row["boosters"],
        starter=bool(row["starter"]),
        professional_k=parse_exact(row["professional_k"], "the professional K"),
        entry_fee=roubles(row["entry_fee"]), prize_fund=roubles(row["prize_fund"]),
        disqualified_without_prizes=tuple(sorted(row["disqualified_without_prizes"] or ())),
        version=int(row["version"]),
    )


def load_terms(conn: Connection, tournament_id: int) -> RatingTerms:
    """The terms of a tournament (the defaults when never set)."""
    tournament = tournament_row(conn, tournament_id)
    row = conn.execute(select(rating_terms).where(rating_terms.c.tournament_id == tournament_id)
                       ).mappings().first()
    return _terms(tournament, row)


def disqualified_without_prizes(conn: Connection, terms: RatingTerms) -> frozenset[int]:
    """Entry numbers disqualified without prizes (J-4, R-4): every active penalty of the
    tournament whose effects reset the rating (``DisqualificationEffects.rating_reset``: a
    disqualification without prizes or a suspension), and the entries the terms flag by hand
    (a disqualification recorded outside turnir)."""
    recorded = {view.player for view in views_in(conn, terms.tournament_id) if view.active
                and (effects := disqualification_effects(view.penalty)) is not None
                and effects.rating_reset}
    return frozenset(terms.disqualified_without_prizes) | recorded


def tournament_rating_terms(db: Database, tournament_id: int) -> RatingTerms:
    with db.read() as conn:
        return load_terms(conn, tournament_id)


def set_rating_terms(
    db: Database, tournament_id: int, *, actor: str, boosters: int | Keep = KEEP,
    starter: bool | Keep = KEEP, professional_k: str | Fraction | Keep = KEEP,
    entry_fee: Decimal | str | Keep | None = KEEP, prize_fund: Decimal | str | Keep | None = KEEP,
    disqualified_without_prizes: Sequence[int | str] | Keep = KEEP,
    expected_version: int | None = None,
) -> RatingTerms:
    """Change some of a tournament's rating terms (the others are kept).

    Allowed before and after the tournament finishes; a tournament already submitted keeps
    its ratings until its head judge submits it again (a correction, R-6).
    """
    with changing(db, tournament_id, actor) as change:
        conn = change.conn
        old = load_terms(conn, tournament_id)
        check_version(conn, tournament_id, "rating_terms", tournament_id,
                      "the tournament's rating terms", expected_version, old.version)
        if not isinstance(boosters, Keep) and not 1 <= boosters <= 4:
            raise UserError(f"a draft has 1 to 4 boosters, not {boosters} (D-1)",
                            code="bad_boosters")
        numbers: tuple[int, ...] = old.disqualified_without_prizes
        if not isinstance(disqualified_without_prizes, Keep):
            numbers = tuple(sorted({int(entry_by_ref(conn, tournament_id, ref)["number"])
                                    for ref in disqualified_without_prizes}))
        values: dict[str, Any] = {
            "boosters": old.boosters if isinstance(boosters, Keep) else boosters,
            "starter": old.starter if isinstance(starter, Keep) else bool(starter),
            "professional_k": exact_text(
                old.professional_k if isinstance(professional_k, Keep)
                else parse_exact(professional_k, "the professional K")),
            "entry_fee": _money(old.entry_fee, entry_fee, "the entry fee"),
            "prize_fund": _money(old.prize_fund, prize_fund, "the prize fund"),
            "disqualified_without_prizes": list(numbers),
            "updated_at": change.at, "updated_by": change.actor,
        }
        if old.version == 0:
            conn.execute(insert(rating_terms).values(tournament_id=tournament_id, version=1,
                                                     **values))
        else:
            conn.execute(update(rating_terms).where(rating_terms.c.tournament_id == tournament_id)
                         .values(version=old.version + 1, **values))
        new = load_terms(conn, tournament_id)
        change.log(tournament_id, "rating.terms", "rating_terms", tournament_id,
                   old.as_json() if old.version else None, new.as_json())
        return new


def _money(old: Decimal | None, given: Decimal | str | Keep | None, what: str) -> int | None:
    if isinstance(given, Keep):
        return None if old is None else kopecks(old, what)
    return None if given is None else kopecks(given, what)
