"""The float reasons of a stored Swiss round, recomputed from the tournament's history (P-3).

Nothing about floats is stored with a round: the reasons (``turnir.domain.pairing.floats``)
are facts of the entrants before the round (points, opponents, byes) and of the round's pairs,
and both follow exactly from the recorded tournament. So they are recomputed here, and stay
true after a judge's manual edit (they describe the pairs as they are).
"""

from __future__ import annotations

from dataclasses import replace

from turnir.domain.model import PairingKind, PlayerId, Stage
from turnir.domain.pairing.floats import Float, explain_floats
from turnir.domain.tournament import Tournament, swiss_entrants


def round_floats(t: Tournament, number: int) -> dict[PlayerId, Float]:
    """The floated players of round ``number`` with their reasons (none in the top)."""
    index = next((k for k, r in enumerate(t.rounds) if r.number == number), None)
    if index is None or t.rounds[index].stage is not Stage.SWISS:
        return {}
    rnd = t.rounds[index]
    entrants, _ = swiss_entrants(replace(t, rounds=t.rounds[:index]), number)
    pairs = [(line.a, line.b) for line in rnd.pairings if line.b is not None]
    bye = next((line.a for line in rnd.pairings if line.kind is PairingKind.BYE), None)
    return {f.player: f for f in explain_floats(entrants, pairs, bye)}
