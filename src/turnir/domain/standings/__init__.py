"""Swiss standings and tiebreaks (T-1..T-7, T-9): ``compute_standings`` and its parts."""

from turnir.domain.standings.ranking import (
    StandingRow,
    Standings,
    compute_standings,
    lot_numbers,
)
from turnir.domain.standings.tiebreaks import (
    METRICS,
    NO_PENALTIES,
    RANKING_ORDER,
    GroupMetric,
    KeyedMetric,
    Metric,
    PenaltyCounts,
    ScoreMetric,
    Sheet,
    TieBreak,
)

__all__ = [
    "METRICS",
    "NO_PENALTIES",
    "RANKING_ORDER",
    "GroupMetric",
    "KeyedMetric",
    "Metric",
    "PenaltyCounts",
    "ScoreMetric",
    "Sheet",
    "StandingRow",
    "Standings",
    "TieBreak",
    "compute_standings",
    "lot_numbers",
]
