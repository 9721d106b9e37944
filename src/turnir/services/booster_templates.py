"""Booster templates (issue 14): the slots by rarity a live draft's boosters are drawn by
(``turnir.domain.draft.boosters``), kept by the site organizers by name; a tournament's live
draft (``turnir.services.live_draft``) uses the chosen ones or the defaults."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from turnir.domain.accounts import AccountRole
from turnir.domain.draft.boosters import BoosterTemplate, check_template
from turnir.domain.text import NAME_LEN, clean_name
from turnir.errors import ForbiddenError
from turnir.services.cards import card_catalogue
from turnir.services.common import Database, changing, reading
from turnir.storage import accounts_repo, live_draft_repo
from turnir.storage.mappers import name_key


@dataclass(frozen=True, slots=True)
class TemplateInfo:
    id: int
    name: str
    template: BoosterTemplate
    created_at: datetime
    created_by: str


# ----- booster templates ------------------------------------------------------------------


def booster_templates(db: Database) -> list[TemplateInfo]:
    """Every stored booster template, by name."""
    with reading(db) as tx:
        return [TemplateInfo(id=t.id, name=t.name, template=BoosterTemplate.from_json(t.template),
                             created_at=t.created_at, created_by=t.created_by)
                for t in live_draft_repo.templates(tx)]


def save_booster_template(db: Database, *, actor: str, account_id: int | None, name: str,
                          template: BoosterTemplate | Mapping[str, Any]) -> int:
    """Add a booster template or replace the one of that name (site organizers); checked
    against the catalogue. Returns its id."""
    catalogue = card_catalogue(db)
    cleaned = clean_name(name, field="template name", max_len=min(NAME_LEN, 100))
    given = template if isinstance(template, BoosterTemplate) else \
        BoosterTemplate.from_json(template)
    kept = BoosterTemplate(cleaned, given.editions, given.slots)
    check_template(kept, catalogue)
    with changing(db, None, actor) as change:
        if account_id is not None and AccountRole(
                accounts_repo.account_by_id(change.conn, account_id).role) \
                is not AccountRole.ORGANIZER:
            raise ForbiddenError("only a site organizer keeps the booster templates",
                                 code="forbidden")
        template_id = live_draft_repo.save_template(
            change.conn, name=cleaned, name_key=name_key(cleaned), template=kept.to_json(),
            at=change.at, by=change.actor)
        change.log(None, "draft.template", "booster_template", template_id, None,
                   kept.to_json())
    return template_id

