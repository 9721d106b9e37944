"""A draft's rating report names its rated format (issue 14 QA fix): «Драфт, 4 бустера», not an
empty span between the dots; every rated format (R-5) has a name on the page."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.services.rating_builders import ORGANIZER, finished_event
from turnir.domain.model import TournamentFormat
from turnir.domain.ratings.model import RatedFormat
from turnir.services.rating_terms import set_rating_terms
from turnir.storage.database import Database
from turnir.web.templating import FORMAT_NAMES

RU = {"accept-language": "ru"}


def test_a_drafts_rating_report_names_the_rated_format(web_db: Database,
                                                         client: TestClient) -> None:
    tid = finished_event(web_db, ["Анна", "Борис", "Вера", "Глеб"], name="Драфт",
                         format=TournamentFormat.DRAFT)
    for boosters, name in ((4, "Драфт, 4 бустера"), (1, "Драфт, 1 бустер")):
        set_rating_terms(web_db, tid, actor=ORGANIZER, boosters=boosters)
        html = client.get(f"/t/{tid}/rating", headers=RU).text
        assert f"<span>{name}</span>" in html
        assert "<span></span>" not in html


def test_every_rated_format_has_a_name() -> None:
    assert set(RatedFormat) <= set(FORMAT_NAMES)
