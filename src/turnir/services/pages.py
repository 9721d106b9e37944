"""What the web pages show and the page forms' use cases, composed from the other services
(issue 11: thin web). A route parses its form, calls one function here (or one service), and
renders what comes back; it builds no domain value and reads nothing itself.

- :func:`round_page`: a tournament with one of its rounds (the one asked for, else the current
  one) and the round's clock: the overview, the pairings, "find my table", the printables.
- :func:`results_grid`: the judges' grid: a round with what its players reported (and who
  confirmed), the pairings' versions and the one-tap results (``services.fast_results``).
- :func:`manage_page`: the organizer's Manage page.
- :func:`entry_number`: a signed-in player's number in a tournament; :func:`round_floats_named`:
  who floats in a round and why (the judges' pairings page).
- the forms: :func:`new_settings` (a new tournament's settings), :func:`import_players` (a
  players file; one player: ``players.enter_player``)
  (registration or a late entry, P-7), :func:`make_player_login`,
  :func:`record_score` (a judge's result as typed, S-6 corrections included) and
  :func:`report_score` (a player's own match, their game wins first).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from argon2 import PasswordHasher

from turnir.domain.model import Round, Settings
from turnir.domain.pairing.floats import Float
from turnir.domain.pairing.history import round_floats
from turnir.domain.quick_results import read_typed_result
from turnir.domain.results import MatchResult, PointsTable
from turnir.domain.tournament import Tournament
from turnir.errors import ConflictError, UserError
from turnir.formats.players_csv import read_players_bytes
from turnir.services import players as player_service
from turnir.services.accounts import (
    AccountInfo,
    AccountRole,
    create_account,
    player_accounts,
)
from turnir.services.common import Database, TournamentInfo
from turnir.services.fast_results import TableNote, next_open_table, round_choices, table_notes
from turnir.services.judges import JudgeInfo, list_judges
from turnir.services.online import robot_allowed
from turnir.services.players import PlayerInfo
from turnir.services.reports import (
    ReportAnswer,
    pairing_versions,
    report_result,
)
from turnir.services.results import RecordedResult, record_result
from turnir.services.round_clock import RoundTimer, round_timer
from turnir.services.tournaments import get_tournament


@dataclass(frozen=True, slots=True)
class RoundPage:
    """A tournament with one of its rounds and that round's clock."""

    info: TournamentInfo
    tournament: Tournament
    round: Round | None
    """``None`` only before round 1 (and never when the round is required)."""
    timer: RoundTimer | None


def pick_round(t: Tournament, number: int | None) -> Round | None:
    """Round ``number`` (404 when there is none yet), else the current round."""
    return t.round(number) if number is not None else t.current_round


def round_page(db: Database, tournament_id: int, number: int | None = None, *,
               required: bool = False) -> RoundPage:
    """The tournament and round ``number`` (else its current round); ``required``: a 409
    before round 1 is paired."""
    details = get_tournament(db, tournament_id)
    rnd = pick_round(details.tournament, number)
    if rnd is None and required:
        raise ConflictError("no round has been paired yet", code="no_round")
    timer = round_timer(db, tournament_id, rnd.number) if rnd is not None else None
    return RoundPage(details.info, details.tournament, rnd, timer)


@dataclass(frozen=True, slots=True)
class GridPage:
    """The judges' results grid of one round (issue 12: fast results)."""

    page: RoundPage
    notes: dict[int, TableNote]
    """table → what its players reported and whether the opponent confirmed."""
    versions: dict[int, int]
    """table → the pairing's version (sent back as ``expected_version``)."""
    choices: tuple[MatchResult, ...]
    """The round's one-tap results (its best-of; none drawn in the top)."""

    def next_open(self, after: int | None) -> int | None:
        """The next table without a result after ``after`` (the keyboard entry)."""
        assert self.page.round is not None
        return next_open_table(self.page.round, after)


def round_floats_named(t: Tournament, number: int) -> list[tuple[str, Float]]:
    """Round ``number``'s floated players with their names and why they float (P-3), for the
    judges' pairings page."""
    names = {p.id: p.name for p in t.players}
    return [(names.get(f.player, ""), f) for f in round_floats(t, number).values()]


def results_grid(db: Database, tournament_id: int, number: int | None) -> GridPage:
    page = round_page(db, tournament_id, number, required=True)
    assert page.round is not None
    return GridPage(page, table_notes(db, tournament_id, page.round),
                    pairing_versions(db, tournament_id, page.round.number),
                    round_choices(page.tournament.settings, page.round))


def entry_number(db: Database, tournament_id: int, person_id: int | None) -> int | None:
    """The person's (first) number in the tournament, when they play in it."""
    if person_id is None:
        return None
    return next((p.number for p in player_service.list_players(db, tournament_id)
                 if p.person_id == person_id), None)


@dataclass(frozen=True, slots=True)
class ManagePage:
    """The organizer's Manage page."""

    page: RoundPage
    players: list[PlayerInfo]
    logins: dict[int, str]
    """person id → the player's login, for those who have one."""
    robot: bool
    judges: list[JudgeInfo]
    """The staff, in short (the staff page, ``services.staff_page``, changes it)."""


def manage_page(db: Database, tournament_id: int) -> ManagePage:
    page = round_page(db, tournament_id)
    entries = player_service.list_players(db, tournament_id)
    logins = player_accounts(db, [p.person_id for p in entries if p.person_id is not None])
    return ManagePage(page, entries, logins, robot_allowed(db, tournament_id),
                      list_judges(db, tournament_id))


def new_settings(*, win: int, draw: int, loss: int, bye: int, best_of: int, top_best_of: int,
                 swiss_rounds: int | None, top_size: int) -> Settings:
    """A new tournament's settings from the numbers of its form."""
    return Settings(points=PointsTable(win=win, draw=draw, loss=loss, bye=bye), best_of=best_of,
                    top_best_of=top_best_of, swiss_rounds=swiss_rounds, top_size=top_size)


def import_players(db: Database, tournament_id: int, data: bytes, *, filename: str, actor: str,
                   account_id: int | None) -> list[PlayerInfo]:
    """Register the players of an uploaded players file (CSV or .xlsx; ``filename`` names it
    in messages)."""
    lines = read_players_bytes(data, source=filename)
    return player_service.register_players(db, tournament_id, lines, actor=actor,
                                           account_id=account_id)


@dataclass(frozen=True, slots=True)
class NewLogin:
    """A player's new login and its drawn password (shown once)."""

    name: str
    login: str
    password: str


def make_player_login(db: Database, tournament_id: int, number: int, *, actor: str,
                      hasher: PasswordHasher) -> NewLogin:
    """A login for player ``number`` (``t{tournament}p{number}``), to report their own
    results, with a drawn password."""
    player = next((p for p in player_service.list_players(db, tournament_id)
                   if p.number == number), None)
    if player is None or player.person_id is None:
        raise UserError("no player #{number} in this tournament", code="unknown_player",
                        number=number)
    password = secrets.token_urlsafe(9)
    account = create_account(db, login=f"t{tournament_id}p{number}", name=player.name,
                             password=password, role=AccountRole.PLAYER,
                             person_id=player.person_id, actor=actor, hasher=hasher)
    return NewLogin(player.name, account.login, password)


def record_score(db: Database, tournament_id: int, round_number: int, table: int, score: str,
                 *, actor: str, correction: bool, expected_version: int | None,
                 account_id: int | None) -> RecordedResult:
    """A judge's result as typed (``2-1``, ``21``, ``ID``…): record it, decide a dispute, or
    correct one (S-6)."""
    return record_result(db, tournament_id, round_number, table, read_typed_result(score),
                         actor=actor, correction=correction,
                         expected_version=expected_version, account_id=account_id)


def report_score(db: Database, tournament_id: int, round_number: int, table: int, *,
                 mine: int, theirs: int, draws: int, account: AccountInfo) -> ReportAnswer:
    """A player reports their own match: their game wins, the opponent's, the drawn games."""
    return report_result(db, tournament_id, round_number, table,
                         MatchResult.played(mine, theirs, draws), account=account)
