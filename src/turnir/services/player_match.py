"""The player's own pages (issue 12): where a player plays now, their match card, and leaving
the tournament on their own.

- :func:`my_tournaments`: the running tournaments where the person plays, newest first, with
  their match of the current round: a player lands there after logging in.
- :func:`my_match`: the player's match card (мой матч): the table and opponent, the result
  when recorded, what each side reported (from the player's own side), and the one-tap
  results of the match's best-of (``turnir.domain.result_choices``). Reporting, confirming and
  disputing are ``turnir.services.reports.report_result``: a confirmation is the opponent's
  result reported back, a dispute a different result (the two reports differ: the judges'
  grid shows the table as disputed), both with the player's optional comment in the audit log.
- :func:`overview_card`: the same card on the tournament's overview, for a signed-in player.
- :func:`leave_tournament`: the player drops themselves (P-7): not paired from the next round
  on, keeping their results. A match of the current round without a result is still theirs
  (as ``domain.tournament.drop_player`` says for every drop): they finish it, report it or
  tell a judge they concede it; the drop changes the rounds to come, never a match being
  played. In the top (an elimination bracket) a player does not leave from a page: a judge
  records the lost match instead. Logged in the audit log as a ``player.drop`` by the player.
"""

from __future__ import annotations

from dataclasses import dataclass

from turnir.domain.model import Pairing, Stage, Status, TournamentFormat
from turnir.domain.result_choices import stage_choices
from turnir.domain.results import MatchResult
from turnir.errors import ConflictError, NotFoundError
from turnir.services.accounts import AccountInfo
from turnir.services.common import Database, Tx, changing, reading, refuse_when_finished
from turnir.services.players import drop_in
from turnir.services.reports import NotAllowedError, player_numbers
from turnir.storage import match_card_repo as card_reads
from turnir.storage import players_repo
from turnir.storage.mappers import settings_from_row, tournament_row
from turnir.storage.result_reports import report_comments

SELF_DROP_REASON = "left on their own (the player's page)"
"""The stored reason of a drop the player made themselves (the organizer's drops carry the
organizer's own words)."""


@dataclass(frozen=True, slots=True)
class MyTournament:
    """A running tournament the person plays in, with their match of its current round."""

    id: int
    name: str
    round: int | None
    """The current round, when one is paired."""
    table: int | None
    """The player's table in it (``None``: no round yet, a bye, or not paired in it)."""
    open: bool
    """The player's match of the current round has no result yet."""


@dataclass(frozen=True, slots=True)
class MyMatch:
    """The player's match card: everything from the player's own side ("my games first")."""

    tournament_id: int
    tournament: str
    status: Status
    number: int
    """The player's entry number."""
    name: str
    dropped_after: int | None
    round: int | None
    stage: Stage | None
    table: int | None
    """``None``: not paired in the current round (or no round yet)."""
    bye: bool
    opponent: str | None
    first: bool
    """The player is player A of the pairing (named first on the pairings)."""
    result: MatchResult | None
    """The recorded result, from the player's side."""
    mine: MatchResult | None
    """What the player reported (not yet recorded), from their side."""
    theirs: MatchResult | None
    """What the opponent reported, from the player's side."""
    choices: tuple[MatchResult, ...]
    """The one-tap results of the match, from the player's side."""
    my_comment: str = ""
    """The player's words for the judge with their report (a dispute's "why")."""
    their_comment: str = ""
    """The opponent's words with their report."""
    has_top: bool = False
    """The tournament has a top (its pages show the Top tab)."""
    draft: bool = False
    """The tournament is a draft (the card links to the picks, issue 14)."""

    @property
    def can_report(self) -> bool:
        """The match of the current round (reports are taken only there) has no result."""
        return (self.table is not None and not self.bye and self.result is None
                and self.status is Status.RUNNING)

    @property
    def state(self) -> str:
        """Where the card stands: ``recorded``, ``disputed``, ``waiting`` (the player reported),
        ``confirm`` (the opponent did), ``open`` (nobody yet) or ``none`` (no match to report);
        a poll of the page is answered only when it changed."""
        if self.result is not None:
            return "recorded"
        if not self.can_report:
            return "none"
        if self.disputed:
            return "disputed"
        if self.mine is not None:
            return "waiting"
        return "confirm" if self.theirs is not None else "open"

    @property
    def seen(self) -> str:
        """The state with both reports' scores: what a poll sends back to learn of a change."""
        return ".".join((self.state, self.mine.score if self.mine else "",
                         self.theirs.score if self.theirs else ""))

    @property
    def disputed(self) -> bool:
        return self.mine is not None and self.theirs is not None and self.mine != self.theirs

    @property
    def can_leave(self) -> bool:
        return (self.dropped_after is None and self.status is not Status.FINISHED
                and self.stage is not Stage.TOP)


def _pairing_of(tx: Tx, tournament_id: int, number: int
                ) -> tuple[card_reads.CardRound | None, Pairing | None]:
    """The current round and the player's pairing in it: two indexed reads (issue 15, load:
    the card no longer loads the whole tournament to show one table)."""
    rnd = card_reads.current_round(tx, tournament_id)
    return rnd, None if rnd is None else card_reads.pairing_of(tx, rnd.id, number)


def my_tournaments(db: Database, person_id: int | None) -> list[MyTournament]:
    """The running tournaments where the person has an entry, newest first."""
    if person_id is None:
        return []
    found: list[MyTournament] = []
    with reading(db) as tx:
        seen: set[int] = set()
        for tid, number in players_repo.tournaments_of_person(tx, person_id,
                                                              status=Status.RUNNING.value):
            if tid in seen:
                continue
            seen.add(tid)
            rnd, pairing = _pairing_of(tx, tid, number)
            entry = card_reads.card_entry(tx, tid, number)
            if pairing is None and entry is not None and entry.dropped_after is not None:
                continue  # left the tournament: nothing to play there any more
            found.append(MyTournament(
                tid, str(tournament_row(tx, tid)["name"]), rnd.number if rnd else None,
                pairing.table if pairing is not None and pairing.b is not None else None,
                pairing is not None and not pairing.finished))
    return found


def _mine(result: MatchResult | None, first: bool) -> MatchResult | None:
    """A result from A's side, seen from the player's side."""
    if result is None or first:
        return result
    return result.swapped()


def _card(tx: Tx, tournament_id: int, number: int) -> MyMatch:
    row = tournament_row(tx, tournament_id)
    settings = settings_from_row(row)
    player = card_reads.card_entry(tx, tournament_id, number)
    if player is None:  # pragma: no cover - the number comes from the person's entry
        raise NotFoundError("no player #{number} in this tournament", code="unknown_player",
                            number=number)
    rnd, pairing = _pairing_of(tx, tournament_id, number)
    first = pairing is None or pairing.a == number
    mine = theirs = None
    comments: dict[int, str] = {}
    opponent = None
    if rnd is not None and pairing is not None and pairing.b is not None:
        sides = card_reads.table_reports(tx, rnd.id, pairing.table)
        me, other = ("a", "b") if first else ("b", "a")
        mine, theirs = _mine(sides.get(me), first), _mine(sides.get(other), first)
        if mine is not None or theirs is not None:
            comments = report_comments(tx, tournament_id, rnd.number, pairing.table)
        opponent = card_reads.entry_name(tx, tournament_id, pairing.b if first else pairing.a)
    rival = None if pairing is None else (pairing.b if first else pairing.a)
    stage = rnd.stage if rnd is not None else None
    return MyMatch(
        tournament_id=tournament_id, tournament=str(row["name"]), status=Status(row["status"]),
        number=number, name=player.name, dropped_after=player.dropped_after,
        round=rnd.number if rnd is not None else None, stage=stage,
        table=pairing.table if pairing is not None else None,
        bye=pairing is not None and pairing.b is None, opponent=opponent, first=first,
        result=_mine(pairing.result, first) if pairing is not None else None,
        mine=mine, theirs=theirs,
        choices=stage_choices(settings, stage) if stage is not None else (),
        my_comment=comments.get(number, "") if mine is not None else "",
        their_comment=comments.get(rival, "") if theirs is not None and rival else "",
        has_top=bool(settings.top_size), draft=row["format"] == TournamentFormat.DRAFT.value)


def my_match(db: Database, tournament_id: int, account: AccountInfo) -> MyMatch:
    """The player's match card in this tournament; refused when they do not play in it."""
    with reading(db) as tx:
        return my_match_in(tx, tournament_id, account)


def my_match_in(tx: Tx, tournament_id: int, account: AccountInfo) -> MyMatch:
    """``my_match`` inside the caller's transaction."""
    tournament_row(tx, tournament_id)  # NotFoundError first
    numbers = player_numbers(tx, tournament_id, account.person_id)
    if not numbers:
        raise NotAllowedError("you do not play in this tournament", code="not_a_player")
    return _card(tx, tournament_id, numbers[0])


def overview_card(db: Database, tournament_id: int,
                  account: AccountInfo | None) -> MyMatch | None:
    """The signed-in player's match card for the tournament's overview page (the one way to
    report there); ``None`` for a visitor who does not play in it."""
    if account is None or account.person_id is None:
        return None
    with reading(db) as tx:
        numbers = player_numbers(tx, tournament_id, account.person_id)
        return _card(tx, tournament_id, numbers[0]) if numbers else None


def leave_tournament(db: Database, tournament_id: int, *, account: AccountInfo) -> MyMatch:
    """The player drops themselves, from the next round on (P-7; see the module's text)."""
    with changing(db, tournament_id, account.name) as change:
        conn = change.conn
        row = tournament_row(conn, tournament_id)
        refuse_when_finished(row)
        numbers = player_numbers(conn, tournament_id, account.person_id)
        if not numbers:
            raise NotAllowedError("you do not play in this tournament", code="not_a_player")
        card = _card(conn, tournament_id, numbers[0])
        if card.stage is Stage.TOP:
            raise ConflictError("the top has started: to leave it, tell a judge",
                                code="top_started")
        entry = players_repo.entry(conn, tournament_id, card.number)
        drop_in(change, tournament_id, row, entry, reason=SELF_DROP_REASON)
        return _card(conn, tournament_id, card.number)
