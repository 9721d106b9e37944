"""``Settings`` is mapped to and from the ``tournaments`` columns in one place
(``turnir.storage.mappers``)."""

from __future__ import annotations

from turnir.domain.model import Settings
from turnir.domain.results import PointsTable
from turnir.storage.mappers import SETTINGS_COLUMNS, settings_columns, settings_from_row
from turnir.storage.tables import tournaments


def test_settings_round_trip_through_their_columns() -> None:
    settings = Settings(points=PointsTable(win=4, draw=2, loss=1, bye=3), best_of=5,
                        top_best_of=1, swiss_rounds=6, top_size=8)
    columns = settings_columns(settings)
    assert tuple(columns) == SETTINGS_COLUMNS
    assert settings_from_row(columns) == settings


def test_every_settings_column_is_a_tournaments_column() -> None:
    assert set(SETTINGS_COLUMNS) <= set(tournaments.c.keys())
