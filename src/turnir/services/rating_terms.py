"""Use cases of a tournament's rating terms (R-1, R-5, R-7, C-2, J-4): read and change them,
and the players disqualified without prizes.

The terms themselves (boosters, starter, professional K, entry fee or prize fund, the J-4
flags, the rated format they give) are ``turnir.domain.ratings.terms.RatingTerms``; they are
stored in ``rating_tournament_terms`` (``turnir.storage.rating_events``).

The J-4 flag is read by ``disqualified_without_prizes``: the disqualifications without prizes
(and suspensions) the penalties capability records, plus the entries the terms flag by hand
(a disqualification recorded outside turnir, or a tournament imported from a file).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from decimal import Decimal
from enum import Enum
from fractions import Fraction

from turnir.domain.penalties import disqualification_effects
from turnir.domain.ratings import parse_exact
from turnir.domain.ratings.terms import RatingTerms as RatingTerms
from turnir.domain.ratings.terms import kopecks as kopecks
from turnir.domain.ratings.terms import roubles
from turnir.errors import ConflictError, Term, UserError
from turnir.services.common import Database, Tx, changing, reading
from turnir.services.deck_formats import tournament_format_in
from turnir.services.judges import HEAD_OR_ORGANIZER, check_staff
from turnir.services.penalties import views_in
from turnir.storage.rating_events import entry_number, load_terms, save_terms
from turnir.storage.repositories import check_version


class Keep(Enum):
    """A term left as it is (``set_rating_terms``)."""

    KEEP = "keep"


KEEP = Keep.KEEP


def disqualified_without_prizes(conn: Tx, terms: RatingTerms) -> frozenset[int]:
    """Entry numbers disqualified without prizes (J-4, R-4): every active penalty of the
    tournament whose effects reset the rating (``DisqualificationEffects.rating_reset``: a
    disqualification without prizes or a suspension), and the entries the terms flag by hand
    (a disqualification recorded outside turnir)."""
    recorded = {view.player for view in views_in(conn, terms.tournament_id) if view.active
                and (effects := disqualification_effects(view.penalty)) is not None
                and effects.rating_reset}
    return frozenset(terms.disqualified_without_prizes) | recorded


def tournament_rating_terms(db: Database, tournament_id: int) -> RatingTerms:
    with reading(db) as tx:
        return load_terms(tx, tournament_id)


def set_rating_terms(
    db: Database, tournament_id: int, *, actor: str, boosters: int | Keep = KEEP,
    starter: bool | Keep = KEEP, professional_k: str | Fraction | Keep = KEEP,
    entry_fee: Decimal | str | Keep | None = KEEP, prize_fund: Decimal | str | Keep | None = KEEP,
    disqualified_without_prizes: Sequence[int | str] | Keep = KEEP,
    expected_version: int | None = None, account_id: int | None = None,
) -> RatingTerms:
    """Change some of a tournament's rating terms (the others are kept).

    Allowed before and after the tournament finishes (the terms are not a game change; each
    change is in the audit log, ``rating.terms``); a tournament already submitted keeps its
    ratings until its head judge submits it again (a correction, R-6). ``account_id``: the web
    account making the change, which must be the tournament's organizer or head judge
    (``None``: the local operator, the CLI).
    """
    with changing(db, tournament_id, actor) as change:
        conn = change.conn
        check_staff(conn, tournament_id, account_id, HEAD_OR_ORGANIZER,
                    what=Term("set the rating terms"))
        old = load_terms(conn, tournament_id)
        check_version(conn, tournament_id, "rating_terms", tournament_id,
                      "the tournament's rating terms", expected_version, old.version)
        if not isinstance(starter, Keep):
            _refuse_starter_against_format(conn, tournament_id, bool(starter))
        if not isinstance(boosters, Keep) and not 1 <= boosters <= 4:
            raise UserError("a draft has 1 to 4 boosters, not {boosters} (D-1)",
                            code="bad_boosters", boosters=boosters)
        numbers: tuple[int, ...] = old.disqualified_without_prizes
        if not isinstance(disqualified_without_prizes, Keep):
            numbers = tuple(sorted({entry_number(conn, tournament_id, ref)
                                    for ref in disqualified_without_prizes}))
        changed = replace(
            old, boosters=old.boosters if isinstance(boosters, Keep) else boosters,
            starter=old.starter if isinstance(starter, Keep) else bool(starter),
            professional_k=old.professional_k if isinstance(professional_k, Keep)
            else parse_exact(professional_k, Term("the professional K")),
            entry_fee=_money(old.entry_fee, entry_fee, Term("the entry fee")),
            prize_fund=_money(old.prize_fund, prize_fund, Term("the prize fund")),
            disqualified_without_prizes=numbers)
        save_terms(conn, changed, at=change.at, actor=change.actor)
        new = load_terms(conn, tournament_id)
        change.log(tournament_id, "rating.terms", "rating_terms", tournament_id,
                   old.as_json() if old.version else None, new.as_json())
        return new


def _refuse_starter_against_format(conn: Tx, tournament_id: int, starter: bool) -> None:
    """A tournament with a deck format is starter constructed exactly when its format is (C-2,
    issue 13): the format decides, so the two never disagree."""
    chosen = tournament_format_in(conn, tournament_id)
    if chosen is not None and chosen.starter != starter:
        raise ConflictError("the tournament plays the format {format!r}, which decides whether it "
                            "is starter constructed (C-2); change its format instead",
                            code="starter_follows_format", format=chosen.format.name)


def _money(old: Decimal | None, given: Decimal | str | Keep | None, what: str
           ) -> Decimal | None:
    """The amount given (checked: to the kopeck, not negative, bounded), or the old one."""
    if isinstance(given, Keep):
        given = old
    return None if given is None else roubles(kopecks(given, what))
