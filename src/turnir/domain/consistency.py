"""Whole-tournament consistency check, used when a tournament comes from outside (a file, an
import): every problem is reported with the exact place, e.g. ``rounds[3] table 5``.

Checks: players valid and unique (names too); settings valid (S-7, P-4, P-5); rounds numbered
1, 2, … with the Swiss part before the top; in each round every player at most once, only
players who are registered and active in that round; tables unique; no result on a bye; every
result possible for its match (S-2, S-3: no drawn top match); only the last round may be
unfinished; an unrequested bye at most once per player when avoidable (S-5); no rematch in a
Swiss round beyond the minimum the pairer needs (P-2: a rematch forced by hand).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from itertools import pairwise
from typing import Any

from turnir.domain.model import Pairing, PairingKind, Round, Stage
from turnir.domain.pairing import elimination
from turnir.domain.tournament import (
    Tournament,
    swiss_entrants,
    top_qualifiers,
    validate_players,
    validate_settings,
)
from turnir.errors import UserError


def check_tournament(t: Tournament) -> None:
    """Raise ``UserError`` naming the first inconsistency, or return when all is well."""
    validate_players(t.players)
    validate_settings(t.settings, players=max(len(t.players), t.settings.top_size))
    by_id = {p.id: p for p in t.players}
    seen_top = False
    for index, rnd in enumerate(t.rounds):
        where: dict[str, Any] = {"index": index, "round": rnd.number}
        if rnd.number != index + 1:
            raise UserError("rounds[{index}] (round {round}): rounds must be numbered 1, 2, … "
                            "in order", code="bad_file", **where)
        if rnd.stage is Stage.TOP:
            seen_top = True
        elif seen_top:
            raise UserError("rounds[{index}] (round {round}): a Swiss round cannot follow the "
                            "top", code="bad_file", **where)
        if index < len(t.rounds) - 1 and not rnd.finished:
            raise UserError("rounds[{index}] (round {round}): only the last round may lack "
                            "results", code="bad_file", **where)
        _check_round(t, rnd, where, by_id)
    _check_byes_and_rematches(t)
    if seen_top:
        _check_top(t)


def _check_players(t: Tournament, rnd: Round, line: Pairing, where: dict[str, Any],
                   by_id: Mapping[int, object], seen: set[int]) -> None:
    """The players of one line: known, paired once, in the tournament in this round."""
    at = {**where, "table": line.table}
    for pid in line.players:
        if pid not in by_id:
            if line.b is None:
                raise UserError("rounds[{index}] (round {round}) bye: unknown player "
                                "#{player}", code="unknown_player", **at, player=pid)
            raise UserError("rounds[{index}] (round {round}) table {table}: unknown player "
                            "#{player}", code="unknown_player", **at, player=pid)
        if pid in seen:
            if line.b is None:
                raise UserError("rounds[{index}] (round {round}) bye: player #{player} is "
                                "paired twice", code="bad_file", **at, player=pid)
            raise UserError("rounds[{index}] (round {round}) table {table}: player #{player} "
                            "is paired twice", code="bad_file", **at, player=pid)
        seen.add(pid)
        player = t.player(pid)
        if line.kind is not PairingKind.PRIVILEGE_BYE and not t.is_active(player, rnd.number):
            if line.b is None:
                raise UserError("rounds[{index}] (round {round}) bye: {name} is not in the "
                                "tournament in this round", code="inactive_player", **at,
                                name=player.name)
            raise UserError("rounds[{index}] (round {round}) table {table}: {name} is not in "
                            "the tournament in this round", code="inactive_player", **at,
                            name=player.name)


def _check_round(t: Tournament, rnd: Round, where: dict[str, Any],
                 by_id: Mapping[int, object]) -> None:
    seen: set[int] = set()
    tables: set[int] = set()
    top = rnd.stage is Stage.TOP
    for line in rnd.pairings:
        _check_players(t, rnd, line, where, by_id, seen)
        if line.b is None:
            if line.result is not None:
                raise UserError("rounds[{index}] (round {round}) bye: a bye cannot have a "
                                "result", code="result_for_bye", **where)
            if line.kind is PairingKind.MATCH:
                raise UserError("rounds[{index}] (round {round}) bye: a match needs two "
                                "players", code="bad_file", **where)
            if top:
                raise UserError("rounds[{index}] (round {round}) bye: the top has no byes",
                                code="bad_file", **where)
            continue
        at = {**where, "table": line.table}
        if line.kind is not PairingKind.MATCH:
            raise UserError("rounds[{index}] (round {round}) table {table}: a bye has one "
                            "player", code="bad_file", **at)
        if line.a == line.b:
            raise UserError("rounds[{index}] (round {round}) table {table}: a player cannot "
                            "play themself", code="bad_file", **at)
        if line.table < 1 or line.table in tables:
            raise UserError("rounds[{index}] (round {round}) table {table}: table numbers "
                            "must be positive and unique", code="bad_file", **at)
        tables.add(line.table)
        if line.result is not None:
            best_of = t.settings.top_best_of if top else t.settings.best_of
            try:
                line.result.validate(best_of=best_of, elimination=top)
            except UserError as error:
                raise UserError("rounds[{index}] (round {round}) table {table}: {reason}",
                                code=error.code, **at, reason=error) from None


def _check_byes_and_rematches(t: Tournament) -> None:
    byes: Counter[int] = Counter()
    for index, rnd in enumerate(t.rounds):
        if rnd.stage is not Stage.SWISS:
            continue
        before = Tournament(t.name, t.settings, t.seed, t.players, t.rounds[:index], t.undone,
                            t.penalties)
        met = {p.id: set(before.opponents(p.id)) for p in t.players}
        rematches = sum(1 for line in rnd.pairings if line.b is not None and line.b in met[line.a])
        second_bye = [line.a for line in rnd.pairings
                      if line.kind is PairingKind.BYE and byes[line.a] >= 1]
        for line in rnd.pairings:
            if line.kind is PairingKind.BYE:
                byes[line.a] += 1
        if not rematches and not second_bye:
            continue
        from turnir.domain.pairing.swiss import pair_swiss  # only for a rematch or a 2nd bye

        entrants, _ = swiss_entrants(before, rnd.number)
        best = pair_swiss(entrants, random.Random(rnd.lot)).objective
        where = {"index": index, "round": rnd.number}
        if rematches > best.rematches:
            raise UserError("rounds[{index}] (round {round}): rematches: {count}, where the "
                            "pairing needs {needed}; a rematch cannot be forced by hand (P-2)",
                            code="forced_rematch", **where, count=rematches,
                            needed=best.rematches)
        if second_bye and best.bye_ineligible == 0:
            raise UserError("rounds[{index}] (round {round}): player #{player} gets a second "
                            "bye though another player could take it (S-5)",
                            code="second_bye", **where, player=second_bye[0])


def _check_top(t: Tournament) -> None:
    tops = t.top_rounds
    size = t.settings.top_size
    if size == 0:
        raise UserError("the file has top rounds but its settings have no top", code="bad_file")
    if len(t.swiss_rounds) != t.swiss_rounds_planned:
        raise UserError("the top starts only after every Swiss round", code="bad_file")
    if len(tops) > elimination.top_rounds_needed(size):
        raise UserError("a top of {size} has at most {count} rounds", code="bad_file",
                        size=size, count=elimination.top_rounds_needed(size))
    seeded = elimination.first_top_round(top_qualifiers(replace(t, rounds=t.swiss_rounds)))
    if [(p.a, p.b) for p in tops[0].pairings] != seeded:
        raise UserError("round {round}: the top must be seeded from the Swiss standings, 1 v "
                        "{size}, 2 v {second}, … in bracket order (P-5)", code="bad_file",
                        round=tops[0].number, size=size, second=size - 1)
    for prev, nxt in pairwise(tops):
        winners = [p.winner() for p in prev.pairings]
        players = [pid for p in nxt.pairings for pid in p.players]
        if winners != players:
            raise UserError("round {round}: the top pairs the winners of round {previous} in "
                            "bracket order", code="bad_file", round=nxt.number,
                            previous=prev.number)
