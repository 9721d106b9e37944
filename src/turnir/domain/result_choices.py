"""The results a match can end with, as one-tap choices (issue 12: fast results).

For a best-of-``n`` match (S-7) a player needs ``n // 2 + 1`` game wins to win it (S-2). The
choices, from the first-named player's side (player A; for player B use
``MatchResult.swapped``), strongest first:

- the wins: ``2-0``, ``2-1`` for best-of-3 (``1-0`` for best-of-1; ``3-0``..``3-2`` for
  best-of-5);
- the match draws by games, outside the top only (S-3: an elimination match cannot end
  drawn): equal game wins ``1-1`` (and ``2-2`` for best-of-5); for best-of-1 the drawn game
  ``0-0-1``;
- the losses, mirrored: ``1-2``, ``0-2``;
- the intentional draw ``ID`` (S-4), outside the top only.

Rarer scores (a match cut by time at ``1-0``, drawn games such as ``1-1-1``) are typed in
full; every choice here passes ``MatchResult.validate`` for its best-of (the tests check).
Shared by the judges' results grid and the player's match card.
"""

from __future__ import annotations

from turnir.domain.model import Settings, Stage
from turnir.domain.results import MatchResult


def result_choices(best_of: int, *, elimination: bool) -> tuple[MatchResult, ...]:
    """The one-tap results of a best-of-``best_of`` match from player A's side (see above)."""
    needed = best_of // 2 + 1
    wins = [MatchResult.played(needed, lost) for lost in range(needed)]
    draws: list[MatchResult] = []
    if not elimination:
        draws = [MatchResult.played(k, k) for k in range(1, needed) if 2 * k <= best_of]
        if not draws:  # best-of-1: the one game was drawn
            draws = [MatchResult.played(0, 0, 1)]
    losses = [result.swapped() for result in reversed(wins)]
    choices = [*wins, *draws, *losses]
    if not elimination:
        choices.append(MatchResult.intentional_draw())
    return tuple(choices)


def stage_choices(settings: Settings, stage: Stage) -> tuple[MatchResult, ...]:
    """``result_choices`` for a match of ``stage``: the top plays ``top_best_of`` games and
    cannot end drawn (S-3); Swiss rounds play ``best_of``."""
    if stage is Stage.TOP:
        return result_choices(settings.top_best_of, elimination=True)
    return result_choices(settings.best_of, elimination=False)
