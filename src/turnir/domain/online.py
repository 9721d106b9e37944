"""Online matches played game by game on the server (S-2, S-3, S-7): when is a match over?

Terms: an *online match* (онлайн-матч) is a best-of-N match whose games are played one at a
time on the game server and reported as each ends (by the robot, rules A-*). **Decided** (the
sources say only "more game wins wins", S-2): the match is over as soon as a player has won
more than half of the best-of (2 of 3; 1 of 1), or once best-of games have been played — then
more game wins wins and equal wins is a match draw. An elimination match (the top, S-3) cannot
end drawn: while the wins are equal after best-of games, the next game is played, until someone
wins one.
"""

from __future__ import annotations

from collections.abc import Sequence

from turnir.domain.penalties.games import GameRecord, Side, match_from_games
from turnir.domain.results import GameReason, MatchResult


def decided_match(winners: Sequence[Side | None], *, best_of: int,
                  elimination: bool) -> MatchResult | None:
    """The match result once the games so far decide it (see the module doc), else ``None``.

    ``winners``: each game's winner in game order (``None``: a drawn game). A game played after
    the match was decided is refused (``UserError``), as ``match_from_games`` does.
    """
    wins_a = sum(1 for w in winners if w is Side.A)
    wins_b = sum(1 for w in winners if w is Side.B)
    needed = best_of // 2 + 1
    over = max(wins_a, wins_b) >= needed or (
        len(winners) >= best_of and not (elimination and wins_a == wins_b))
    if not over:
        return None
    # The reasons do not count here; UNSPECIFIED is a valid reason for a win and for a draw.
    return match_from_games([GameRecord(w, GameReason.UNSPECIFIED) for w in winners],
                            best_of=best_of, elimination=elimination)
