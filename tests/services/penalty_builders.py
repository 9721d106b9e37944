"""One-line builders for the penalty service tests: a judged event (organizer, head judge,
floor judge), giving a penalty, finding a player's table, reporting a result."""

from __future__ import annotations

from typing import Any

from tests.services.builders import ORGANIZER
from turnir.domain.model import Pairing, Settings
from turnir.domain.results import parse_result
from turnir.formats.players_csv import PlayerLine
from turnir.services.common import RulesLevel
from turnir.services.judges import JudgeRole, add_judge
from turnir.services.penalties import PenaltyOutcome, give_penalty
from turnir.services.players import register_players
from turnir.services.results import RecordedResult, record_result
from turnir.services.rounds import current_round
from turnir.services.tournaments import create_tournament
from turnir.storage.database import Database

HEAD = "Главный Судья Иванова"
FLOOR = "Судья Петров"
SCOREKEEPER = "Секретарь Орлова"


def judged_event(db: Database, players: int = 8, *, level: RulesLevel = RulesLevel.PROFESSIONAL,
                 rounds: int | None = 3, official_head: bool = False, best_of: int = 3,
                 top: int = 0, name: str = "Кубок судей", seed: int = 11) -> int:
    """A stored tournament with an organizer, a head judge and a floor judge."""
    info = create_tournament(db, name=name, actor=ORGANIZER, seed=seed, rules_level=level,
                             settings=Settings(swiss_rounds=rounds, best_of=best_of,
                                               top_size=top))
    tid = info.id
    add_judge(db, tid, name=ORGANIZER, role=JudgeRole.ORGANIZER, actor=ORGANIZER)
    add_judge(db, tid, name=HEAD, role=JudgeRole.HEAD_JUDGE, actor=ORGANIZER,
              official_representative=official_head)
    add_judge(db, tid, name=FLOOR, role=JudgeRole.FLOOR_JUDGE, actor=ORGANIZER)
    if players:
        register_players(db, tid, [PlayerLine(f"Игрок {i:02d}", "Тверь")
                                   for i in range(1, players + 1)], actor=ORGANIZER)
    return tid


def give(db: Database, tid: int, player: int, reason: str, *, judge: str = FLOOR,
         **options: Any) -> PenaltyOutcome:
    return give_penalty(db, tid, player=player, reason=reason, actor=judge, **options)


def line_of(db: Database, tid: int, player: int, round_number: int | None = None) -> Pairing:
    """The player's line in a round (default: the current one)."""
    view = current_round(db, tid, round_number)
    found = view.round.pairing_of(player)
    assert found is not None, f"#{player} is not in round {view.round.number}"
    return found


def report(db: Database, tid: int, player: int, own: int, other: int,
           round_number: int | None = None, **options: Any) -> RecordedResult:
    """Record the player's match as ``own``-``other`` game wins from their side."""
    view = current_round(db, tid, round_number)
    line = view.round.pairing_of(player)
    assert line is not None and line.b is not None
    score = f"{own}-{other}" if line.a == player else f"{other}-{own}"
    return record_result(db, tid, view.round.number, line.table, parse_result(score),
                         actor=SCOREKEEPER, **options)


def finish_round(db: Database, tid: int, score: str = "2-0") -> None:
    """Record every match of the current round still without a result."""
    view = current_round(db, tid)
    for line in view.round.pairings:
        if line.b is not None and line.result is None:
            record_result(db, tid, view.round.number, line.table, parse_result(score),
                          actor=SCOREKEEPER)
