"""The offline tournament file: one JSON document with players, settings, seed, rounds,
pairings and game results (documented in ``docs/formats.md``; ``turnir schema`` prints the JSON
Schema).

Reading validates twice: the shape with pydantic (a message names the JSON path), then the
tournament's consistency (``turnir.domain.consistency``: unknown players, a result for a bye, a
drawn top match, a rematch forced by hand, duplicate names …). Writing is atomic: a temporary
file in the same folder, flushed and synced, then renamed over the old one.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from turnir.domain.consistency import check_tournament
from turnir.domain.model import Pairing, PairingKind, Player, Round, Settings, Stage
from turnir.domain.results import MatchEnding, MatchOutcome, MatchResult, PointsTable
from turnir.domain.standings import PenaltyCounts
from turnir.domain.tournament import Tournament
from turnir.errors import UserError

FORMAT_NAME: Final = "turnir-tournament"
FORMAT_VERSION: Final = 1


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PointsModel(_Model):
    """Match points (S-7)."""

    win: int = Field(3, ge=0)
    draw: int = Field(1, ge=0)
    loss: int = Field(0, ge=0)
    bye: int = Field(3, ge=0)


class SettingsModel(_Model):
    points: PointsModel = PointsModel()
    best_of: Literal[1, 3, 5] = 3
    top_best_of: Literal[1, 3, 5] = 3
    swiss_rounds: int | None = Field(None, ge=1, description="null: ceil(log2 N) (P-4)")
    top_size: int = Field(0, ge=0, description="0 (no top) or a power of two (P-5)")


class PlayerModel(_Model):
    id: int = Field(ge=1)
    name: str = Field(min_length=1)
    city: str = ""
    club: str = ""
    granted_byes: list[int] = Field(default_factory=list,
                                    description="rounds with a privilege bye (S-5)")
    joined_round: int = Field(1, ge=1, description="late entry: first round paired (P-7)")
    dropped_after: int | None = Field(None, ge=0, description="drop: last round played (P-7)")


class ResultModel(_Model):
    """A match result: game wins of A and B, drawn games, outcome and how it ended."""

    wins_a: int = Field(ge=0)
    wins_b: int = Field(ge=0)
    draws: int = Field(0, ge=0)
    outcome: MatchOutcome
    ending: MatchEnding = MatchEnding.PLAYED


class PairingModel(_Model):
    table: int = Field(ge=0, description="1 is the top table; 0 for a bye")
    a: int
    b: int | None = Field(None, description="null for a bye")
    kind: PairingKind = PairingKind.MATCH
    result: ResultModel | None = None


class RoundModel(_Model):
    number: int = Field(ge=1)
    stage: Stage
    lot: str = Field(description="the seed string this round was drawn with (P-3 e)")
    edits: list[str] = Field(default_factory=list, description="manual edits by a judge")
    pairings: list[PairingModel]


class PenaltyModel(_Model):
    match_losses: int = Field(0, ge=0)
    game_losses: int = Field(0, ge=0)
    penalty_points: int = Field(0, ge=0)
    warnings: int = Field(0, ge=0)


class TournamentFile(_Model):
    """A whole tournament (format ``turnir-tournament``, version 1)."""

    format: Literal["turnir-tournament"] = FORMAT_NAME
    version: Literal[1] = FORMAT_VERSION
    name: str = Field(min_length=1)
    seed: int = Field(description="every lot is drawn from this seed (P-3 e, T-7)")
    settings: SettingsModel = SettingsModel()
    players: list[PlayerModel]
    rounds: list[RoundModel] = Field(default_factory=list)
    undone: list[int] = Field(default_factory=list, description="round numbers undone, in order")
    penalties: dict[str, PenaltyModel] = Field(default_factory=dict,
                                              description="penalty counts by player id (T-6)")


# ----- conversion ----------------------------------------------------------------------------


def to_domain(doc: TournamentFile) -> Tournament:
    s = doc.settings
    try:
        settings = Settings(
            points=PointsTable(**s.points.model_dump()),
            best_of=s.best_of,
            top_best_of=s.top_best_of,
            swiss_rounds=s.swiss_rounds,
            top_size=s.top_size,
        )
    except UserError as error:
        raise UserError(f"settings: {error.message}", code=error.code) from None
    players = tuple(
        Player(
            id=p.id, name=p.name, city=p.city, club=p.club, granted_byes=frozenset(p.granted_byes),
            joined_round=p.joined_round, dropped_after=p.dropped_after,
        )
        for p in doc.players
    )
    rounds = tuple(
        Round(
            number=r.number,
            stage=r.stage,
            lot=r.lot,
            edits=tuple(r.edits),
            pairings=tuple(
                Pairing(
                    table=p.table, a=p.a, b=p.b, kind=p.kind,
                    result=None if p.result is None else MatchResult(**p.result.model_dump()),
                )
                for p in r.pairings
            ),
        )
        for r in doc.rounds
    )
    penalties = {}
    for key, value in doc.penalties.items():
        if not key.isdigit():
            raise UserError(f"penalties: {key!r} is not a player number", code="bad_file")
        penalties[int(key)] = PenaltyCounts(**value.model_dump())
    return Tournament(
        name=doc.name, settings=settings, seed=doc.seed, players=players, rounds=rounds,
        undone=tuple(doc.undone), penalties=penalties,
    )


def from_domain(t: Tournament) -> TournamentFile:
    st = t.settings
    return TournamentFile(
        name=t.name,
        seed=t.seed,
        settings=SettingsModel(
            points=PointsModel(win=st.points.win, draw=st.points.draw, loss=st.points.loss,
                               bye=st.points.bye),
            best_of=st.best_of,
            top_best_of=st.top_best_of,
            swiss_rounds=st.swiss_rounds,
            top_size=st.top_size,
        ),
        players=[
            PlayerModel(id=p.id, name=p.name, city=p.city, club=p.club,
                        granted_byes=sorted(p.granted_byes), joined_round=p.joined_round,
                        dropped_after=p.dropped_after)
            for p in t.players
        ],
        rounds=[
            RoundModel(
                number=r.number, stage=r.stage, lot=r.lot, edits=list(r.edits),
                pairings=[
                    PairingModel(
                        table=p.table, a=p.a, b=p.b, kind=p.kind,
                        result=None if p.result is None else ResultModel(
                            wins_a=p.result.wins_a, wins_b=p.result.wins_b,
                            draws=p.result.draws, outcome=p.result.outcome,
                            ending=p.result.ending,
                        ),
                    )
                    for p in r.pairings
                ],
            )
            for r in t.rounds
        ],
        undone=list(t.undone),
        penalties={
            str(pid): PenaltyModel(**vars_of(c)) for pid, c in sorted(t.penalties.items())
            if c != PenaltyCounts()
        },
    )


def vars_of(counts: PenaltyCounts) -> dict[str, int]:
    return {
        "match_losses": counts.match_losses, "game_losses": counts.game_losses,
        "penalty_points": counts.penalty_points, "warnings": counts.warnings,
    }


# ----- text and files ------------------------------------------------------------------------


def _describe(error: ValidationError) -> str:
    first = error.errors()[0]
    path = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in first["loc"])
    return f"{path.lstrip('.') or 'the file'}: {first['msg']}"


def parse_tournament(text: str, *, source: str = "the file") -> Tournament:
    """Read and check a tournament from JSON text; ``UserError`` names the exact place."""
    try:
        raw: Any = json.loads(text)
    except json.JSONDecodeError as error:
        raise UserError(
            f"{source}: not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})",
            code="bad_file",
        ) from None
    try:
        doc = TournamentFile.model_validate(raw)
    except ValidationError as error:
        raise UserError(f"{source}: {_describe(error)}", code="bad_file") from None
    try:
        t = to_domain(doc)
        check_tournament(t)
    except UserError as error:
        raise UserError(f"{source}: {error.message}", code=error.code) from None
    return t


def dump_tournament(t: Tournament) -> str:
    """The tournament as JSON text (stable key order, UTF-8, two-space indent)."""
    data = from_domain(t).model_dump(mode="json")
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def read_tournament(path: Path) -> Tournament:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"{path}: no such file", code="no_file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise UserError(f"{path}: cannot read it ({error})", code="bad_file") from None
    return parse_tournament(text, source=str(path))


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically: temp file, fsync, rename."""
    folder = path.resolve().parent
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_tournament(path: Path, t: Tournament) -> None:
    write_atomic(path, dump_tournament(t))


def json_schema() -> dict[str, Any]:
    """The JSON Schema of the tournament file."""
    schema = TournamentFile.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "turnir tournament file, version 1"
    return schema
