"""Online tournaments through the robot: games linked to matches, their ends recorded, the
match results going into the tournament (S-2, S-3, S-6, A-*).

A game registered with the robot may name its tournament match: ``TournamentLink`` (tournament,
round, table, game number, and which player of the pairing plays White — found from the
players' names when not given). ``register_online_game`` checks the link: the pairing exists
and has no result yet, the game number fits the best-of (S-7), the slot is not taken.

When a linked game ends — by a robot decision (A-1..A-6) or by an event of the game server
(mate, resignation, flag fall, agreed draw, a draw by the board) — ``record_game_end`` keeps its
result and reason on the game's row and, once the match is decided by its games
(``turnir.domain.online.decided_match``: S-2; one game for best-of-1; the top plays on from a
tie, S-3), records the match result through ``turnir.services.results.record_result_in``: in
the same transaction, under the tournament's write lock, with the games one by one, the
idempotency key ``robot:<end id>`` and an audit record whose actor is the robot
(``robot:Magic``). The same end delivered again (a retry, a restart) changes nothing.

An end that cannot be recorded — the tournament finished, the round re-paired, a different
result already entered by a judge (S-6: the robot never corrects) — is not lost: the game's row
keeps it as ``unapplied`` with the reason. ``online_results`` lists them (``turnir robot
unapplied``, ``GET /api/v1/robot/results?state=unapplied``); a judge retries it
(``retry_game_end``, after fixing the cause) or dismisses it (``dismiss_game_end``, logged).

Only a tournament whose organizer allowed it (``set_robot_allowed``: ``robot_allowed`` on the
tournament, off by default; issue 10 item 4) takes the robot's games: a link to any other is
refused (``robot_not_allowed``), and an end delivered after the organizer turned it off is kept
unapplied with that reason.

``ServicesResultSink`` is the robot's ``ResultSink`` over these use cases, and
``online_robot`` builds the robot that runs an online tournament from the database.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from turnir.domain.games import Side
from turnir.domain.model import Stage
from turnir.domain.online import decided_match
from turnir.domain.results import GameReason
from turnir.domain.robot_rules import ChessResult, RobotSettings, Rule, check_schedule
from turnir.domain.text import clean_text
from turnir.errors import ConflictError, NotFoundError, UserError
from turnir.robot.auth import RobotForbidden
from turnir.robot.clock import Clock
from turnir.robot.decision import Decision
from turnir.robot.engine import Evaluator
from turnir.robot.game import EndReason, GameEnd, GameSetup
from turnir.robot.journal import (
    OnlineResult,
    TournamentLink,
    setup_columns,
    setup_from_columns,
)
from turnir.robot.robot import Robot
from turnir.robot.sink import FanOutSink, ResultSink
from turnir.services.common import (
    Database,
    Tx,
    changing,
    check_actor,
    reading,
    refuse_when_finished,
    touch_tournament,
)
from turnir.services.judges import ORGANIZER_ONLY, check_staff
from turnir.services.results import GameReport, record_result_in
from turnir.storage import robot_repo
from turnir.storage.database import lock_tournament
from turnir.storage.mappers import name_key, result_from_row, tournament_row
from turnir.storage.repositories import match_row, round_row

log = logging.getLogger(__name__)

ROBOT_ACTOR = "robot:Magic"
"""Who the audit log names for the results the robot records."""
MAX_GAMES = 99
"""The highest game number a match may have (the top plays on from a tie, S-3)."""

NO_TOURNAMENT, WAITING, APPLIED, UNAPPLIED, DISMISSED = (
    "no_tournament", "waiting", "applied", "unapplied", "dismissed")

_EVENT_REASONS = {
    EndReason.CHECKMATE: GameReason.CHECKMATE,
    EndReason.STALEMATE: GameReason.DRAWN_POSITION,
    EndReason.SEVENTYFIVE_MOVES: GameReason.DRAWN_POSITION,
    EndReason.FIVEFOLD_REPETITION: GameReason.DRAWN_POSITION,
    EndReason.INSUFFICIENT_MATERIAL: GameReason.NO_WIN_POSSIBLE,
    EndReason.RESIGNATION: GameReason.CONCESSION,
    EndReason.FLAG_FALL: GameReason.FLAG_FALL,
    EndReason.DRAW_AGREED: GameReason.AGREED_DRAW,
    EndReason.ROBOT: GameReason.ROBOT,
}


def game_reason(end_reason: EndReason, rule: Rule | None = None) -> GameReason:
    """The tournament's reason (S-1) for how a chess game ended; a flag fall drawn by A-5 is
    "neither can win"."""
    if rule is Rule.NO_COOPERATIVE_MATE:
        return GameReason.NO_WIN_POSSIBLE
    return _EVENT_REASONS[end_reason]


@dataclass(frozen=True, slots=True)
class GameEndReport:
    """A game's end as the robot hands it over."""

    game_id: str
    result: ChessResult
    end_reason: EndReason
    rule: Rule | None
    """The robot's rule when a decision ended the game."""
    end_id: str
    """The decision's id, or ``<game id>/end`` for an end by an event."""

    @staticmethod
    def of_decision(decision: Decision) -> GameEndReport:
        result = decision.result
        if result is None:
            raise UserError("decision {decision} does not end the game", code="not_ended",
                            decision=decision.id)
        how = EndReason.FLAG_FALL if decision.stage is None else EndReason.ROBOT
        return GameEndReport(decision.game_id, result, how, decision.rule, decision.id)

    @staticmethod
    def of_end(game_id: str, end: GameEnd) -> GameEndReport:
        return GameEndReport(game_id, end.result, end.reason, end.rule, f"{game_id}/end")


# ----- registering -----------------------------------------------------------------------


def link_of(row: Mapping[Any, Any]) -> TournamentLink | None:
    if row["tournament_id"] is None:
        return None
    return TournamentLink(row["tournament_id"], row["round"], row["table_no"],
                          row["game_number"], row["white_side"])


def _game_row(tx: Tx, game_id: str) -> Mapping[Any, Any]:
    row = robot_repo.game_row(tx, game_id)
    if row is None:
        raise NotFoundError("no game {game!r} is registered", code="game_not_found",
                            game=game_id)
    return row


def register_online_game(db: Database, setup: GameSetup, link: TournamentLink | None, *,
                         settings: RobotSettings | None = None) -> TournamentLink | None:
    """Keep a game the robot watches, linked to a match game when ``link`` is given; returns
    the link with ``white_side`` known. The same registration again changes nothing. The
    game's first check moment (``settings``) is kept for the robot workers."""
    with changing(db, None if link is None else link.tournament_id, ROBOT_ACTOR) as change:
        conn = change.conn
        kept = robot_repo.game_row(conn, setup.game_id)
        if kept is not None:
            kept_link = link_of(kept)
            same_link = link is None or (kept_link is not None and kept_link.accepts(link))
            if setup_from_columns(kept) != setup or not same_link:
                raise ConflictError("game {game} is already registered with other details",
                                    code="game_exists", game=setup.game_id)
            return kept_link
        schedule = check_schedule(setup.time_control, setup.round_start_ms,
                                  settings or RobotSettings())
        values: dict[str, Any] = {**setup_columns(setup), "registered_at": change.at,
                                  "next_check_ms": schedule.first_ms}
        resolved = None
        if link is not None:
            resolved, a, b = _check_link(conn, setup, link)
            values.update(tournament_id=link.tournament_id, round=link.round,
                          table_no=link.table, game_number=link.game,
                          white_side=resolved.white_side, player_a=a, player_b=b)
        robot_repo.insert_game(conn, values)
        return resolved


def _check_link(conn: Tx, setup: GameSetup,
                link: TournamentLink) -> tuple[TournamentLink, int, int]:
    row = tournament_row(conn, link.tournament_id)
    refuse_unless_allowed(row)
    refuse_when_finished(row)
    rnd = round_row(conn, link.tournament_id, link.round)
    pairing = match_row(conn, rnd["id"], link.round, link.table)
    top = rnd["stage"] == Stage.TOP.value
    best_of = row["top_best_of"] if top else row["best_of"]
    if link.game > (MAX_GAMES if top else best_of):
        raise UserError("round {round} table {table} is a best-of-{best_of} match: it has no "
                        "game {game}", code="invalid_link", round=link.round, table=link.table,
                        best_of=best_of, game=link.game)
    current = result_from_row(pairing)
    if current is not None:
        raise ConflictError("round {round} table {table} already has its result ({score}); no "
                            "more games are played in it", code="match_decided",
                            round=link.round, table=link.table, score=current.score)
    taken = robot_repo.slot_game(conn, link.tournament_id, link.round, link.table, link.game)
    if taken is not None:
        raise ConflictError("round {round} table {table} game {game} is already the game "
                            "{taken!r}", code="slot_taken", round=link.round, table=link.table,
                            game=link.game, taken=taken)
    a, b = int(pairing["a"]), int(pairing["b"])
    side = link.white_side or _white_side(conn, link, setup, a, b)
    return TournamentLink(link.tournament_id, link.round, link.table, link.game, side), a, b


def _white_side(conn: Tx, link: TournamentLink, setup: GameSetup, a: int,
                b: int) -> Side:
    names = robot_repo.name_keys(conn, link.tournament_id, (a, b))
    white, black = name_key(setup.white), name_key(setup.black)
    if (white, black) == (names.get(a), names.get(b)):
        return Side.A
    if (white, black) == (names.get(b), names.get(a)):
        return Side.B
    raise UserError(
        "cannot tell which player of round {round} table {table} plays White: the game's "
        "players {white!r} and {black!r} are not the pairing's by name; give tournament.white "
        "(a: the first-named player, b: the second)", code="unknown_white", round=link.round,
        table=link.table, white=setup.white, black=setup.black)


# ----- the organizer's permission --------------------------------------------------------


def _not_allowed(row: Mapping[Any, Any]) -> RobotForbidden:
    return RobotForbidden("the tournament #{id} {name!r} does not let the online robot record "
                          "its results; its organizer allows it in the tournament's settings",
                          code="robot_not_allowed", id=row["id"], name=row["name"])


def refuse_unless_allowed(row: Mapping[Any, Any]) -> None:
    """``RobotForbidden`` (403 ``robot_not_allowed``) unless the organizer allowed the robot
    in the tournament of ``row``."""
    if not row["robot_allowed"]:
        raise _not_allowed(row)


def robot_allowed(db: Database, tournament_id: int) -> bool:
    """Does the tournament let the online robot link games and record their results?"""
    with reading(db) as tx:
        return bool(tournament_row(tx, tournament_id)["robot_allowed"])


def set_robot_allowed(db: Database, tournament_id: int, allowed: bool, *, actor: str,
                      account_id: int | None = None) -> bool:
    """The organizer lets the online robot record the tournament's results, or stops it (the
    ends of games delivered afterwards are kept unapplied). Logged as ``tournament.robot``;
    the same setting again changes nothing. Returns the setting. A web account
    (``account_id``) must be the tournament's organizer."""
    with changing(db, tournament_id, actor) as change:
        check_staff(change.conn, tournament_id, account_id, ORGANIZER_ONLY,
                    what="allow or stop the robot")
        row = tournament_row(change.conn, tournament_id)
        if bool(row["robot_allowed"]) == allowed:
            return allowed
        if allowed:
            refuse_when_finished(row)
        touch_tournament(change.conn, row, robot_allowed=allowed)
        change.log(tournament_id, "tournament.robot", "tournament", tournament_id,
                   {"robot_allowed": bool(row["robot_allowed"]), "version": row["version"]},
                   {"robot_allowed": allowed, "version": row["version"] + 1})
        return allowed


# ----- recording ends --------------------------------------------------------------------


def record_game_end(db: Database, report: GameEndReport, *,
                    actor: str = ROBOT_ACTOR) -> OnlineResult:
    """Keep a game's end and, when it decides the match, record the match result (see the
    module doc). The same end again changes nothing; a different end of an ended game is a
    conflict."""
    with changing(db, None, actor) as change:
        conn, who = change.conn, change.actor
        row = _game_row(conn, report.game_id)
        tournament_id = row["tournament_id"]
        if tournament_id is not None:
            lock_tournament(conn, tournament_id)
            row = _game_row(conn, report.game_id)  # fresh, now that the lock is held
        if row["end_id"] is not None:
            if row["end_id"] == report.end_id and row["result"] == report.result.value:
                return _result_from_row(row)
            raise ConflictError("game {game} already ended: {result} ({end})",
                                code="game_ended", game=report.game_id, result=row["result"],
                                end=row["end_id"])
        robot_repo.update_game(
            conn, report.game_id, result=report.result.value,
            end_reason=report.end_reason.value,
            end_rule=None if report.rule is None else report.rule.value, end_id=report.end_id,
            end_state=NO_TOURNAMENT if tournament_id is None else WAITING,
            ended_at=change.at, handled_by=who, next_check_ms=None,
            # Nothing is left to check, so no worker holds it: a worker killed before it
            # released its leases leaves no lease no worker would ever claim again.
            lease_owner=None, lease_until_ms=None)
        if tournament_id is not None:
            _apply_match(conn, _game_row(conn, report.game_id), who)
        return _result_from_row(_game_row(conn, report.game_id))


def _winner_side(row: Mapping[Any, Any]) -> Side | None:
    """``a``, ``b`` or ``None`` (a drawn game), from the chess result and who played White."""
    result = ChessResult(row["result"])
    if result is ChessResult.DRAW:
        return None
    white = Side(row["white_side"])
    return white if result is ChessResult.WHITE_WINS else white.other


def _reason_of(row: Mapping[Any, Any]) -> GameReason:
    rule = None if row["end_rule"] is None else Rule(row["end_rule"])
    return game_reason(EndReason(row["end_reason"]), rule)


def _match_problem(conn: Tx, game: Mapping[Any, Any],
                   pairing: Mapping[Any, Any] | None) -> UserError | None:
    """Why the match of ``game`` cannot take its games' result now (``None``: it can)."""
    tournament = tournament_row(conn, game["tournament_id"])
    if not tournament["robot_allowed"]:
        return _not_allowed(tournament)
    if pairing is None:
        return NotFoundError("round {round} table {table} no longer exists (the round was "
                             "undone?)", code="unknown_table", round=game["round"],
                             table=game["table_no"])
    if (pairing["a"], pairing["b"]) != (game["player_a"], game["player_b"]):
        return ConflictError("round {round} table {table} now pairs #{a} and #{b}, not "
                             "#{was_a} and #{was_b} as when the game was registered (the round "
                             "was re-paired)", code="pairing_changed", round=game["round"],
                             table=game["table_no"], a=pairing["a"], b=pairing["b"],
                             was_a=game["player_a"], was_b=game["player_b"])
    return None


def _apply_match(conn: Tx, game: Mapping[Any, Any], actor: str) -> None:
    """Record the match of ``game`` when its ended games decide it; else leave it waiting, or
    keep it unapplied with the reason (see the module doc)."""
    tid, number, table = game["tournament_id"], game["round"], game["table_no"]
    pairing = robot_repo.match_of_game(conn, tid, number, table)
    problem = _match_problem(conn, game, pairing)
    if problem is None and pairing is not None:
        ended = robot_repo.ended_games_of_match(conn, tid, number, table, dismissed=DISMISSED)
        top = pairing["stage"] == Stage.TOP.value
        try:
            winners = [_winner_side(g) for g in ended]
            match = decided_match(winners,
                                  best_of=pairing["top_best_of" if top else "best_of"],
                                  elimination=top)
            if match is None:
                _set_state(conn, game["game_id"], WAITING, None, actor)
                return
            if result_from_row(pairing) != match:
                with robot_repo.savepoint(conn):
                    record_result_in(
                        conn, tid, number, table, match, actor=actor,
                        idempotency_key=f"robot:{game['end_id']}",
                        games_played=[GameReport(w,
                                                 _reason_of(g))
                                      for w, g in zip(winners, ended, strict=True)])
        except UserError as error:
            problem = error
    if problem is not None:
        log.warning("game %s: its end cannot be recorded: %s", game["game_id"], problem.message)
        _set_state(conn, game["game_id"], UNAPPLIED, problem, actor)
        return
    robot_repo.set_match_state(conn, tid, number, table, from_states=(WAITING, UNAPPLIED),
                               state=APPLIED, actor=actor)


def _set_state(conn: Tx, game_id: str, state: str, problem: UserError | None,
               actor: str) -> None:
    robot_repo.update_game(
        conn, game_id, end_state=state,
        problem_code=None if problem is None else problem.code[:50],
        problem=None if problem is None else problem.message[:500], handled_by=actor)


def _result_from_row(row: Mapping[Any, Any]) -> OnlineResult:
    ended_at: datetime = row["ended_at"]
    if ended_at.tzinfo is None:  # SQLite keeps no zone; every time stored is UTC
        ended_at = ended_at.replace(tzinfo=UTC)
    return OnlineResult(
        game_id=row["game_id"], white=row["white"], black=row["black"], link=link_of(row),
        result=ChessResult(row["result"]), reason=_reason_of(row).value,
        end_reason=row["end_reason"], rule=row["end_rule"], end_id=row["end_id"],
        state=row["end_state"], problem_code=row["problem_code"], problem=row["problem"],
        ended_at=ended_at, handled_by=row["handled_by"])


# ----- a judge's view and actions --------------------------------------------------------


def online_results(db: Database, *, tournament_id: int | None = None,
                   state: str | None = None) -> list[OnlineResult]:
    """The ended robot games (of a tournament, in a state), oldest end first."""
    with reading(db) as tx:
        if tournament_id is not None:
            tournament_row(tx, tournament_id)
        rows = robot_repo.ended_game_rows(tx, tournament_id=tournament_id, state=state)
    return [_result_from_row(row) for row in rows]


def _unapplied_row(conn: Tx, game_id: str) -> Mapping[Any, Any]:
    row = _game_row(conn, game_id)
    if row["end_state"] != UNAPPLIED:
        raise ConflictError("game {game}'s result is {state}, not unapplied: nothing to do",
                            code="not_unapplied", game=game_id,
                            state=row["end_state"] or "running")
    return row


def retry_game_end(db: Database, game_id: str, *, actor: str) -> OnlineResult:
    """Try again to record an unapplied end (after a judge removed the cause); the match
    result, if recorded now, names ``actor`` in the audit log."""
    with changing(db, None, actor) as change:
        conn = change.conn
        tid = _unapplied_row(conn, game_id)["tournament_id"]
        lock_tournament(conn, tid)
        _apply_match(conn, _unapplied_row(conn, game_id), change.actor)
        return _result_from_row(_game_row(conn, game_id))


def dismiss_game_end(db: Database, game_id: str, *, actor: str, note: str) -> OnlineResult:
    """A judge sets an unapplied end aside (the result was settled another way); logged as
    ``robot.dismiss``."""
    note = " ".join(clean_text(note, field="note", max_len=500).split())
    if not note:
        raise UserError("say why the result is dismissed", code="no_note")
    with reading(db) as tx:
        tid = _unapplied_row(tx, game_id)["tournament_id"]
    with changing(db, tid, actor) as change:
        row = _unapplied_row(change.conn, game_id)
        robot_repo.update_game(change.conn, game_id, end_state=DISMISSED,
                               problem_code="dismissed", problem=note[:500],
                               handled_by=change.actor)
        change.log(tid, "robot.dismiss", "pairing", f"{row['round']}.{row['table_no']}",
                   {"game_id": game_id, "game": row["game_number"], "result": row["result"],
                    "state": UNAPPLIED, "problem": row["problem"]},
                   {"game_id": game_id, "state": DISMISSED, "note": note})
        return _result_from_row(_game_row(change.conn, game_id))


# ----- the robot's sink and the robot of an online tournament ----------------------------


class ServicesResultSink:
    """The robot's ``ResultSink`` into the tournaments (``record_game_end``). It needs the games
    registered through ``DatabaseRobotStore``. It never raises: an end that hit a database
    problem is kept in ``pending`` and tried again before the next delivery (and a restarted
    robot hands over every end not recorded); an end for an unknown game is logged."""

    def __init__(self, db: Database, *, actor: str = ROBOT_ACTOR) -> None:
        self.db = db
        self.actor = check_actor(actor)
        self.pending: list[GameEndReport] = []
        self._lock = threading.Lock()

    def deliver(self, game_id: str, result: ChessResult, decision: Decision) -> None:
        self._record(GameEndReport.of_decision(decision))

    def deliver_end(self, game_id: str, end: GameEnd) -> None:
        self._record(GameEndReport.of_end(game_id, end))

    def retry_pending(self) -> int:
        """Try the pending ends again; returns how many are still pending."""
        with self._lock:
            waiting, self.pending = self.pending, []
        for report in waiting:
            self._record_one(report)
        with self._lock:
            return len(self.pending)

    def results(self, *, tournament_id: int | None = None,
                state: str | None = None) -> list[OnlineResult]:
        """``online_results`` (the ``ResultLedger`` of the API)."""
        return online_results(self.db, tournament_id=tournament_id, state=state)

    def _record(self, report: GameEndReport) -> None:
        if self.pending:
            self.retry_pending()
        self._record_one(report)

    def _record_one(self, report: GameEndReport) -> None:
        try:
            record_game_end(self.db, report, actor=self.actor)
        except UserError as error:
            if error.code == "busy":
                self._keep(report, error)
                return
            log.error("the end of game %s (%s) is not recorded: %s", report.game_id,
                      report.end_id, error.message)
        except Exception as error:
            self._keep(report, error)

    def _keep(self, report: GameEndReport, error: Exception) -> None:
        log.error("the end of game %s (%s) could not be recorded (%s); kept to try again",
                  report.game_id, report.end_id, error)
        with self._lock:
            self.pending.append(report)


def online_robot(db: Database, *, clock: Clock, evaluator: Evaluator,
                 settings: RobotSettings | None = None, actor: str = ROBOT_ACTOR,
                 also: Sequence[ResultSink] = (), restore_since_ms: int | None = None,
                 shared: bool = False) -> tuple[Robot, ServicesResultSink]:
    """The robot of an online tournament: its games, events and decisions kept in ``db``,
    the results recorded in the tournaments (and handed to ``also``, e.g. a webhook), the
    games kept from before a restart rebuilt (``restore_since_ms``: of rounds started then
    or later). ``shared``: robot workers decide the games (``Robot(shared=True)``)."""
    from turnir.services.robot_store import DatabaseRobotStore

    store = DatabaseRobotStore(db, settings)
    results = ServicesResultSink(db, actor=actor)
    sink: ResultSink = FanOutSink(results, *also) if also else results
    robot = Robot(clock=clock, evaluator=evaluator, store=store, sink=sink, settings=settings,
                  journal=store, shared=shared)
    report = robot.restore(since_ms=restore_since_ms)
    if report.games:
        log.info("restored %d games (%d results handed over again, %d broken)", report.games,
                 report.redelivered, len(report.broken))
    return robot, results
