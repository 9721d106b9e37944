"""Penalties and judging (rules J-1..J-8, S-8, S-9 and the T-6 input; 000 §11 and Appendix 1
"Уложение о наказаниях", 002 §602-604).

The package is pure: records in, records out; dates and ids are passed in. One module a concern:

- ``ladder``: the penalty ladder (J-1), attached penalties (J-2), disqualification effects (J-4),
  rules levels (J-7).
- ``catalogue``: infraction reasons with a default penalty per rules level, Russian and English.
- ``records``: judges, the moment a penalty is given, penalty records, T-6 counts.
- ``escalation``: a repeated reason escalates, three of a strength add up (J-6).
- ``decisions``: ``give_penalty``, deviations and their confirmation (J-7), deferral (J-3).
- ``carry_over``: where a penalty loss lands and applying it to a match result (J-3), and the
  result as reported before the losses (``ReportedResult``).
- ``judging``: the suspension register (J-5), the head judge as a player (J-8), appeals.
- ``technical``: technical results (S-8) and claims (S-9); games with their reasons and the
  match built from them are ``turnir.domain.games`` (re-exported here and by ``games``).

Terms: *penalty* (пенальти), *remark* (замечание), *warning* (предупреждение), *game loss*
(поражение в партии), *match loss* (поражение в матче), *disqualification* (дисквалификация),
*disqualification without prizes* (дисквалификация без призов), *suspension* (приостановление
членства), *rules level* (уровень строгости правил), *head judge* (главный судья), *appeal*
(обжалование), *penalty points* (штрафные очки), *technical win* (техническая победа); each
module defines its own. ``docs/penalties.md`` is the user-facing description.
"""

from turnir.domain.games import GameRecord, Side, match_from_games
from turnir.domain.model import RulesLevel
from turnir.domain.penalties.carry_over import (
    AppliedMatch,
    Carry,
    ReportedResult,
    Slot,
    apply_carries,
    apply_carries_to_result,
    carry_of,
    pending_carries,
)
from turnir.domain.penalties.catalogue import (
    ACCUMULATION,
    DEFAULT_CATALOGUE,
    Catalogue,
    Infraction,
)
from turnir.domain.penalties.decisions import give_penalty
from turnir.domain.penalties.escalation import (
    Escalation,
    accumulate,
    escalate,
    stale_automatic,
)
from turnir.domain.penalties.judging import (
    HEAD_JUDGE_PLAYER_LIMIT,
    Appeal,
    AppealOutcome,
    Day,
    Suspension,
    active_suspension,
    check_head_judge_may_play,
    check_may_register,
    check_may_suspend,
    decide_appeal,
    head_judge_may_play,
    suspension_entry,
)
from turnir.domain.penalties.ladder import (
    ESCALATION_CAP,
    DisqualificationEffects,
    Penalty,
    Text,
    attached,
    disqualification_effects,
    effects,
)
from turnir.domain.penalties.records import (
    DEFAULT_PENALTY_POINTS,
    GivenAt,
    Judge,
    JudgeRole,
    Moment,
    PenaltyPoints,
    PenaltyRecord,
    PenaltyStatus,
    penalty_counts,
    penalty_counts_by_player,
)
from turnir.domain.penalties.technical import (
    DEFAULT_TECHNICAL_MARGIN,
    Claim,
    ClaimKind,
    ClaimRuling,
    CrystalCount,
    RulingKind,
    TechnicalResult,
    decide_claim,
    technical_result,
)

__all__ = [
    "ACCUMULATION",
    "DEFAULT_CATALOGUE",
    "DEFAULT_PENALTY_POINTS",
    "DEFAULT_TECHNICAL_MARGIN",
    "ESCALATION_CAP",
    "HEAD_JUDGE_PLAYER_LIMIT",
    "Appeal",
    "AppealOutcome",
    "AppliedMatch",
    "Carry",
    "Catalogue",
    "Claim",
    "ClaimKind",
    "ClaimRuling",
    "CrystalCount",
    "Day",
    "DisqualificationEffects",
    "Escalation",
    "GameRecord",
    "GivenAt",
    "Infraction",
    "Judge",
    "JudgeRole",
    "Moment",
    "Penalty",
    "PenaltyPoints",
    "PenaltyRecord",
    "PenaltyStatus",
    "ReportedResult",
    "RulesLevel",
    "RulingKind",
    "Side",
    "Slot",
    "Suspension",
    "TechnicalResult",
    "Text",
    "accumulate",
    "active_suspension",
    "apply_carries",
    "apply_carries_to_result",
    "attached",
    "carry_of",
    "check_head_judge_may_play",
    "check_may_register",
    "check_may_suspend",
    "decide_appeal",
    "decide_claim",
    "disqualification_effects",
    "effects",
    "escalate",
    "give_penalty",
    "head_judge_may_play",
    "match_from_games",
    "penalty_counts",
    "penalty_counts_by_player",
    "pending_carries",
    "stale_automatic",
    "suspension_entry",
    "technical_result",
]
