"""Games with their reasons and the match built from them live in ``turnir.domain.games``
(one module of the domain for game → match); re-exported here for the penalty modules."""

from turnir.domain.games import DRAW_REASONS as DRAW_REASONS
from turnir.domain.games import WIN_REASONS as WIN_REASONS
from turnir.domain.games import GameRecord as GameRecord
from turnir.domain.games import Side as Side
from turnir.domain.games import match_from_games as match_from_games
