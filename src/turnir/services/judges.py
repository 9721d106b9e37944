"""The judges of a tournament and their roles (J-5, J-7, J-8): organizer, head judge, floor
judge; the official representative flag matters for suspensions (J-5)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from sqlalchemy import RowMapping, insert, select

from turnir.domain.text import NAME_LEN, clean_name
from turnir.errors import UserError
from turnir.services.common import changing, refuse_when_finished, touch_tournament
from turnir.storage.database import Database
from turnir.storage.mappers import name_key, tournament_row
from turnir.storage.repositories import person_for
from turnir.storage.tables import judges


class JudgeRole(StrEnum):
    ORGANIZER = "organizer"
    HEAD_JUDGE = "head_judge"
    FLOOR_JUDGE = "floor_judge"


@dataclass(frozen=True, slots=True)
class JudgeInfo:
    id: int
    name: str
    role: JudgeRole
    official_representative: bool
    person_id: int | None
    version: int


def _info(row: RowMapping) -> JudgeInfo:
    return JudgeInfo(id=row["id"], name=row["name"], role=JudgeRole(row["role"]),
                     official_representative=bool(row["official_representative"]),
                     person_id=row["person_id"], version=row["version"])


def add_judge(
    db: Database, tournament_id: int, *, name: str, role: JudgeRole, actor: str,
    official_representative: bool = False,
) -> JudgeInfo:
    """Give a person a role in the tournament; one head judge per tournament (J-8)."""
    cleaned = clean_name(name, field="judge's name", max_len=NAME_LEN)
    role = JudgeRole(role)
    with changing(db, tournament_id, actor) as change:
        conn = change.conn
        row = tournament_row(conn, tournament_id)
        refuse_when_finished(row)
        existing = list(conn.execute(
            select(judges).where(judges.c.tournament_id == tournament_id)
        ).mappings())
        for judge in existing:
            if judge["name_key"] == name_key(cleaned) and judge["role"] == role.value:
                raise UserError(f"{judge['name']} is already {role.value.replace('_', ' ')}",
                                code="duplicate_judge")
            if role is JudgeRole.HEAD_JUDGE and judge["role"] == JudgeRole.HEAD_JUDGE.value:
                raise UserError(f"{judge['name']} is already the head judge",
                                code="duplicate_judge")
        person = person_for(conn, name=cleaned, city="", club="", at=change.at)
        judge_id = int(conn.execute(insert(judges).values(
            tournament_id=tournament_id, person_id=person, name=cleaned,
            name_key=name_key(cleaned), role=role.value,
            official_representative=official_representative, version=1,
        ).returning(judges.c.id)).scalar_one())
        touch_tournament(conn, row)
        change.log(tournament_id, "judge.add", "judge", judge_id, None, {
            "name": cleaned, "role": role.value,
            "official_representative": official_representative,
        })
        found = conn.execute(select(judges).where(judges.c.id == judge_id)).mappings().one()
        return _info(found)


def list_judges(db: Database, tournament_id: int) -> list[JudgeInfo]:
    with db.read() as conn:
        tournament_row(conn, tournament_id)
        return [_info(r) for r in conn.execute(
            select(judges).where(judges.c.tournament_id == tournament_id)
            .order_by(judges.c.id)
        ).mappings()]
