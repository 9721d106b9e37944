"""Professional and Warlock ratings, the rating book, replays and the prize fund (R-1..R-7).

Implements rules R-1..R-7 of ``shared/RULES.md`` (source ``004``, the online professional
rating), with J-4 (disqualification without prizes) and C-2 (starter constructed is unrated).
The formulas, every decision and hand-worked examples are in ``docs/ratings.md``.

Terms (Russian in brackets):

- *professional rating* (профессиональный рейтинг, профрейтинг): R-1..R-4; a *newcomer*
  (новичок) has 100 points (условные баллы), which is also the *floor* (R-3).
- *Warlock rating* (рейтинг Варлока, турнирный рейтинг «по системе Warlock'а»): R-5, a sum of
  gains U/M x Rt/Rs x K; a player's first tournament gives 100.
- *U* (У): the number of participants (количество участников); *M* (М): the player's final
  place (занятое место); *Rs* (Рс): the player's rating before the tournament (старый
  рейтинг); *Rt* (Рт): the tournament's strength (сила турнира), the mean rating before the
  tournament of all its participants; *K* (К): the tournament's coefficient (коэффициент
  турнира); *change* (изменение, И) and *new rating* (новый рейтинг, Рн = Рс + И).
- *winner* (победитель), *second* or *finalist* (второе место, финалист), *second-to-last*
  (предпоследнее место), *last* (последнее место): the four places with bounds (R-2).
- *disqualification without prizes* (дисквалификация без призов): the rating drops to the
  newcomer value (J-4, R-4).
- *constructed* (констрактед), *starter constructed* (стартерный констрактед, unrated, C-2),
  *draft* (драфт) with 1-4 *boosters* (бустеры): the format decides the Warlock K (R-5).
- *prize fund* (призовой фонд) from *entry fees* (взносы): 70% to the winner, 30% to the
  second (R-7).
- *rating book* (база турнирного рейтинга): every player's current ratings.

Ratings are exact (integers in hundredths and ``Fraction``) and stored to 0.01 (R-6).
"""

from turnir.domain.ratings.book import (
    DEFAULT_SETTINGS,
    PlayerRating,
    RatingBook,
    RatingDiff,
    apply_tournament,
    ended_before,
    preview,
    replay,
    replay_changes,
    replay_from,
)
from turnir.domain.ratings.exact import MAX_COEFFICIENT, exact_text, parse_exact
from turnir.domain.ratings.formulas import (
    NEWCOMER_RATING,
    hundredths,
    optional_rating,
    round_half_up,
    to_rating,
    warlock_coefficient,
)
from turnir.domain.ratings.model import (
    MIN_PARTICIPANTS,
    Bound,
    EndKey,
    Participant,
    PlayerKey,
    ProfessionalChange,
    RatedFormat,
    RatedTournament,
    RatingChange,
    RatingKind,
    RatingSettings,
    TournamentKey,
    WarlockChange,
    WarlockFirstTournament,
)
from turnir.domain.ratings.prizes import PrizeAward, PrizeSplit, award_prizes, split_prize_fund
from turnir.domain.ratings.report import RatingReport

__all__ = [
    "DEFAULT_SETTINGS",
    "MAX_COEFFICIENT",
    "MIN_PARTICIPANTS",
    "NEWCOMER_RATING",
    "Bound",
    "EndKey",
    "Participant",
    "PlayerKey",
    "PlayerRating",
    "PrizeAward",
    "PrizeSplit",
    "ProfessionalChange",
    "RatedFormat",
    "RatedTournament",
    "RatingBook",
    "RatingChange",
    "RatingDiff",
    "RatingKind",
    "RatingReport",
    "RatingSettings",
    "TournamentKey",
    "WarlockChange",
    "WarlockFirstTournament",
    "apply_tournament",
    "award_prizes",
    "ended_before",
    "exact_text",
    "hundredths",
    "optional_rating",
    "parse_exact",
    "preview",
    "replay",
    "replay_changes",
    "replay_from",
    "round_half_up",
    "split_prize_fund",
    "to_rating",
    "warlock_coefficient",
]
