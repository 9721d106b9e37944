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
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from turnir.domain.consistency import check_tournament
from turnir.domain.limits import (
    MAX_PENALTY_COUNT,
    MAX_PLAYER_NUMBER,
    MAX_POINTS,
    MAX_ROUNDS,
    MAX_SWISS_ROUNDS,
    MAX_TABLE,
    MAX_TOP_SIZE,
)
from turnir.domain.model import Pairing, PairingKind, Player, Round, Settings, Stage
from turnir.domain.results import MatchEnding, MatchOutcome, MatchResult, PointsTable
from turnir.domain.standings import PenaltyCounts
from turnir.domain.text import (
    NAME_LEN,
    PLACE_LEN,
    REASON_LEN,
    clean_name,
    normal_name,
)
from turnir.domain.tournament import Tournament
from turnir.errors import UserError
from turnir.formats.tabular import read_file_bytes

FORMAT_NAME: Final = "turnir-tournament"
FORMAT_VERSION: Final = 1
MAX_BYTES: Final = 64_000_000
"""The largest tournament file read (64 MB; a 10,000-player Swiss event is about 10 MB)."""
MAX_PLAYERS: Final = 100_000
MAX_PAIRINGS: Final = 100_000
"""Lines of one round."""
MAX_UNDONE: Final = 1_000
MAX_EDITS: Final = 1_000

Points = Annotated[int, Field(ge=0, le=MAX_POINTS)]
RoundNumber = Annotated[int, Field(ge=1, le=MAX_ROUNDS)]
PlayerNumber = Annotated[int, Field(ge=1, le=MAX_PLAYER_NUMBER)]
Games = Annotated[int, Field(ge=0, le=5)]
PenaltyCount = Annotated[int, Field(ge=0, le=MAX_PENALTY_COUNT)]
DraftTable = Annotated[int, Field(ge=1, le=MAX_PLAYERS)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PointsModel(_Model):
    """Match points (S-7)."""

    win: Points = 3
    draw: Points = 1
    loss: Points = 0
    bye: Points = 3


class SettingsModel(_Model):
    points: PointsModel = PointsModel()
    best_of: Literal[1, 3, 5] = 3
    top_best_of: Literal[1, 3, 5] = 3
    swiss_rounds: int | None = Field(None, ge=1, le=MAX_SWISS_ROUNDS,
                                     description="null: ceil(log2 N) (P-4)")
    top_size: int = Field(0, ge=0, le=MAX_TOP_SIZE,
                          description="0 (no top) or a power of two (P-5)")


class PlayerModel(_Model):
    id: PlayerNumber
    name: str = Field(min_length=1, max_length=NAME_LEN)
    city: str = Field("", max_length=PLACE_LEN)
    club: str = Field("", max_length=PLACE_LEN)
    granted_byes: list[RoundNumber] = Field(default_factory=list, max_length=MAX_ROUNDS,
                                            description="rounds with a privilege bye (S-5)")
    joined_round: int = Field(1, ge=1, le=MAX_ROUNDS + 1,
                              description="late entry: first round paired (P-7)")
    dropped_after: int | None = Field(None, ge=0, le=MAX_ROUNDS,
                                      description="drop: last round played (P-7)")


class ResultModel(_Model):
    """A match result: game wins of A and B, drawn games, outcome and how it ended."""

    wins_a: Games
    wins_b: Games
    draws: Games = 0
    outcome: MatchOutcome
    ending: MatchEnding = MatchEnding.PLAYED


class PairingModel(_Model):
    table: int = Field(ge=0, le=MAX_TABLE, description="1 is the top table; 0 for a bye")
    a: PlayerNumber
    b: PlayerNumber | None = Field(None, description="null for a bye")
    kind: PairingKind = PairingKind.MATCH
    result: ResultModel | None = None


class RoundModel(_Model):
    number: RoundNumber
    stage: Stage
    lot: str = Field(max_length=NAME_LEN,
                     description="the seed string this round was drawn with (P-3 e)")
    edits: list[Annotated[str, Field(max_length=REASON_LEN)]] = Field(
        default_factory=list, max_length=MAX_EDITS, description="manual edits by a judge")
    pairings: list[PairingModel] = Field(max_length=MAX_PAIRINGS)


class PenaltyModel(_Model):
    match_losses: PenaltyCount = 0
    game_losses: PenaltyCount = 0
    penalty_points: PenaltyCount = 0
    warnings: PenaltyCount = 0


class TournamentFile(_Model):
    """A whole tournament (format ``turnir-tournament``, version 1)."""

    format: Literal["turnir-tournament"] = FORMAT_NAME
    version: Literal[1] = FORMAT_VERSION
    name: str = Field(min_length=1, max_length=NAME_LEN)
    seed: int = Field(description="every lot is drawn from this seed (P-3 e, T-7); a stored "
                                  "tournament's fits in 64 bits")
    settings: SettingsModel = SettingsModel()
    players: list[PlayerModel] = Field(max_length=MAX_PLAYERS)
    rounds: list[RoundModel] = Field(default_factory=list, max_length=MAX_ROUNDS)
    undone: list[RoundNumber] = Field(default_factory=list, max_length=MAX_UNDONE,
                                      description="round numbers undone, in order")
    penalties: dict[str, PenaltyModel] = Field(default_factory=dict, max_length=MAX_PLAYERS,
                                              description="penalty counts by player id (T-6)")
    tables: dict[str, DraftTable] = Field(
        default_factory=dict, max_length=MAX_PLAYERS,
        description="a draft's table by player id (T-8); absent: no draft tables")


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
        raise UserError("settings: {reason}", code=error.code, reason=error) from None
    players = tuple(
        Player(
            id=p.id, name=normal_name(p.name), city=normal_name(p.city),
            club=normal_name(p.club), granted_byes=frozenset(p.granted_byes),
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
                    result=None if p.result is None
                    else MatchResult.from_columns(p.result.model_dump()),
                )
                for p in r.pairings
            ),
        )
        for r in doc.rounds
    )
    penalties = {}
    for key, value in doc.penalties.items():
        if not (key.isascii() and key.isdigit() and len(key) <= 10):
            raise UserError("penalties: {key!r} is not a player number", code="bad_file",
                            key=key[:20])
        penalties[int(key)] = PenaltyCounts(**value.model_dump())
    tables = _draft_tables(doc.tables, {p.id for p in players})
    name = clean_name(doc.name, field="tournament's name", max_len=NAME_LEN)
    return Tournament(
        name=name, settings=settings, seed=doc.seed, players=players, rounds=rounds,
        undone=tuple(doc.undone), penalties=penalties, tables=tables,
    )


def _draft_tables(given: dict[str, int], ids: set[int]) -> dict[int, int]:
    """The draft tables by player number; every key a player of the file (T-8)."""
    tables = {}
    for key, table in given.items():
        if not (key.isascii() and key.isdigit() and len(key) <= 10) or int(key) not in ids:
            raise UserError("tables: {key!r} is not a player number", code="bad_file",
                            key=key[:20])
        tables[int(key)] = table
    return tables


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
                        result=None if p.result is None
                        else ResultModel.model_validate(p.result.to_columns()),
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
        tables={str(pid): table for pid, table in sorted(t.tables.items())},
    )


def vars_of(counts: PenaltyCounts) -> dict[str, int]:
    return {
        "match_losses": counts.match_losses, "game_losses": counts.game_losses,
        "penalty_points": counts.penalty_points, "warnings": counts.warnings,
    }


# ----- text and files ------------------------------------------------------------------------


def _describe(error: ValidationError, source: str) -> UserError:
    first = error.errors()[0]
    path = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in first["loc"])
    if not path:
        return UserError("{source}: the file: {reason}", code="bad_file", source=source,
                         reason=first["msg"])
    return UserError("{source}: {path}: {reason}", code="bad_file", source=source,
                     path=path.lstrip("."), reason=first["msg"])


def parse_tournament(text: str, *, source: str = "the file") -> Tournament:
    """Read and check a tournament from JSON text; ``UserError`` names the exact place."""
    try:
        raw: Any = json.loads(text)
    except json.JSONDecodeError as error:
        raise UserError("{source}: not valid JSON (line {line}, column {column}: {reason})",
                        code="bad_file", source=source, line=error.lineno, column=error.colno,
                        reason=error.msg) from None
    except ValueError:  # an integer of over 4300 digits
        raise UserError("{source}: a number in it is far too long", code="bad_file",
                        source=source) from None
    except RecursionError:
        raise UserError("{source}: nested too deeply", code="bad_file", source=source) from None
    try:
        doc = TournamentFile.model_validate(raw)
    except ValidationError as error:
        raise _describe(error, source) from None
    try:
        t = to_domain(doc)
        check_tournament(t)
    except UserError as error:
        raise UserError("{source}: {reason}", code=error.code, source=source,
                        reason=error) from None
    return t


def dump_tournament(t: Tournament) -> str:
    """The tournament as JSON text (stable key order, UTF-8, two-space indent)."""
    data = from_domain(t).model_dump(mode="json")
    if not data["tables"]:
        del data["tables"]  # a tournament without draft tables: the file as before issue 14
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def read_tournament_text(path: Path) -> str:
    """The text of a tournament file of at most ``MAX_BYTES`` (UTF-8, a BOM is ignored)."""
    data = read_file_bytes(path, max_bytes=MAX_BYTES)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise UserError("{file}: not UTF-8 text (byte {byte})", code="bad_file",
                        file=str(path), byte=error.start + 1) from None


def read_tournament(path: Path) -> Tournament:
    """Read and check a tournament file (``read_tournament_text``)."""
    return parse_tournament(read_tournament_text(path), source=str(path))


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
