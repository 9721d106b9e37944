"""The float reasons of a stored Swiss round, recomputed from the tournament's history (P-3).

Nothing about floats is stored with a round: the reasons (``turnir.domain.pairing.floats``)
are facts of the entrants before the round (points, opponents, byes) and of the round's pairs,
and both follow exactly from the recorded tournament. So they are recomputed here, and stay
true after a judge's manual edit (they describe the pairs as they are).

With draft tables (T-8) each table is paired on its own, so each table's reasons are counted
among that table's entrants only (a score group is the players of that table with those points).
"""

from __future__ import annotations

from dataclasses import replace

from turnir.domain.draft.tables import effective_tables
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
    byes = {line.a for line in rnd.pairings if line.kind is PairingKind.BYE}
    tables = effective_tables(t)
    result: dict[PlayerId, Float] = {}
    for table in sorted(set(tables.values())) or [0]:
        at_table = [e for e in entrants if tables.get(e.player, 0) == table]
        ids = {e.player for e in at_table}
        bye = next((b for b in sorted(byes) if b in ids), None)
        table_pairs = [(a, b) for a, b in pairs if a in ids and b in ids]
        result.update((f.player, f) for f in explain_floats(at_table, table_pairs, bye))
    return result
