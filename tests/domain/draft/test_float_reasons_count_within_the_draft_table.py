"""The judges' float reasons of a draft event count each score group within its draft table
(T-8, P-3): the pairing is per table, so is its explanation (issue 14 QA fix)."""

from __future__ import annotations

from dataclasses import replace

from turnir.domain.model import PairingKind
from turnir.domain.pairing.floats import FloatReason
from turnir.domain.pairing.history import round_floats
from turnir.domain.tournament import swiss_entrants

from .test_tables import draft_event, play


def test_float_reasons_count_the_score_group_of_the_players_own_draft_table() -> None:
    t = play(play(draft_event((5, 5), rounds=3, seed=1)))
    floats = round_floats(t, 2)
    entrants, _ = swiss_entrants(replace(t, rounds=t.rounds[:1]), 2)
    byes = {p.a for p in t.rounds[1].pairings if p.kind is PairingKind.BYE}
    assert floats
    for f in floats.values():
        same_table = [e for e in entrants if t.tables[e.player] == t.tables[f.player]
                      and e.points == f.points and e.player not in byes]
        everywhere = [e for e in entrants if e.points == f.points and e.player not in byes]
        assert f.group_size == len(same_table) < len(everywhere)
    # the only player on his points at his table floats because he is alone there, although
    # other players (at the other table) have as many points
    alone = [f for f in floats.values() if f.reason is FloatReason.ALONE]
    assert alone and all(f.group_size == 1 for f in alone)
