"""Rich tables for pairings, standings and final places (CLI output), and their JSON forms."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rich.console import Console
from rich.table import Table

from turnir.cli.output import write, write_json
from turnir.domain.model import PairingKind, Round
from turnir.domain.standings import TieBreak
from turnir.domain.tournament import Tournament

KIND_LABEL = {
    PairingKind.BYE: "bye",
    PairingKind.PRIVILEGE_BYE: "privilege bye",
}


def pairings_table(t: Tournament, rnd: Round) -> Table:
    """A round's pairings by table, with points before the round and results."""
    earlier = replace(t, rounds=tuple(r for r in t.rounds if r.number < rnd.number))
    before = {row.player: row.points for row in earlier.standings().rows}
    title = f"{t.name}: round {rnd.number} ({'top' if rnd.stage.value == 'top' else 'Swiss'})"
    table = Table(title=title)
    table.add_column("Table", justify="right")
    table.add_column("Player A")
    table.add_column("Pts", justify="right")
    table.add_column("Result", justify="center")
    table.add_column("Player B")
    table.add_column("Pts", justify="right")
    for line in rnd.pairings:
        a = t.player(line.a)
        if line.b is None:
            table.add_row("-", f"{a.name} #{a.id}", str(before.get(a.id, 0)),
                          KIND_LABEL.get(line.kind, "bye"), "", "")
            continue
        b = t.player(line.b)
        result = line.result.score if line.result else ""
        table.add_row(str(line.table), f"{a.name} #{a.id}", str(before.get(a.id, 0)), result,
                      f"{b.name} #{b.id}", str(before.get(b.id, 0)))
    return table


def standings_table(t: Tournament) -> Table:
    """Standings with every tiebreak column and the reason each tie was broken."""
    standings = t.standings()
    table = Table(title=f"{t.name}: standings after {len(t.swiss_rounds)} Swiss round(s)")
    for header, justify in (("#", "right"), ("Player", "left"), ("Pts", "right"),
                            ("W-D-L", "center"), ("QW", "right"), ("QL", "right"),
                            ("QG", "right"), ("QG2", "right"), ("Pen", "right"),
                            ("Lot", "right"), ("Above next by", "left")):
        table.add_column(header, justify=justify)  # type: ignore[arg-type]
    for row in standings.rows:
        p = t.player(row.player)
        status = " (dropped)" if p.dropped_after is not None else ""
        pen = row.penalties
        table.add_row(
            str(row.place), f"{p.name} #{p.id}{status}", str(row.points),
            f"{row.wins}-{row.draws}-{row.losses}", str(row.quality_of_wins),
            str(row.quality_of_losses), str(row.quality_of_games),
            str(row.second_order_quality),
            f"{pen.match_losses}/{pen.game_losses}/{pen.penalty_points}/{pen.warnings}",
            str(row.lot), row.decided_by.label_en if row.decided_by else "",
        )
    return table


def final_table(t: Tournament) -> Table:
    table = Table(title=f"{t.name}: final places")
    table.add_column("Place", justify="right")
    table.add_column("Player")
    for place, pid in enumerate(t.final_places(), start=1):
        p = t.player(pid)
        table.add_row(str(place), f"{p.name} #{p.id}")
    return table


def standings_json(t: Tournament) -> dict[str, Any]:
    """The standings (and final places once the tournament is finished) as plain data."""
    standings = t.standings()
    rows = []
    for row in standings.rows:
        p = t.player(row.player)
        rows.append({
            "place": row.place,
            "player": p.id,
            "name": p.name,
            "dropped": p.dropped_after is not None,
            "points": row.points,
            "matches": row.matches,
            "wins": row.wins,
            "draws": row.draws,
            "losses": row.losses,
            "byes": row.byes,
            "quality_of_wins": row.quality_of_wins,
            "quality_of_losses": row.quality_of_losses,
            "quality_of_games": row.quality_of_games,
            "second_order_quality": row.second_order_quality,
            "penalties": {
                "match_losses": row.penalties.match_losses,
                "game_losses": row.penalties.game_losses,
                "penalty_points": row.penalties.penalty_points,
                "warnings": row.penalties.warnings,
            },
            "lot": row.lot,
            "decided_by": row.decided_by.value if row.decided_by else None,
        })
    data: dict[str, Any] = {
        "tournament": t.name,
        "phase": t.phase.value,
        "swiss_rounds_played": len(t.swiss_rounds),
        "tiebreak_order": [tb.value for tb in TieBreak],
        "standings": rows,
    }
    if t.phase.value == "finished":
        data["final_places"] = [
            {"place": i, "player": pid, "name": t.player(pid).name}
            for i, pid in enumerate(t.final_places(), start=1)
        ]
    return data


def print_standings(console: Console, t: Tournament, *, as_json: bool = False,
                    as_csv: bool = False) -> None:
    """``turnir standings``: the table (and the final places once the tournament is over), or
    its JSON or CSV form."""
    if as_json:
        write_json(standings_json(t))
        return
    if as_csv:
        from turnir.services.transfer import standings_csv

        write(standings_csv(t))
        return
    console.print(standings_table(t))
    if t.phase.value == "finished":
        console.print(final_table(t))


def joined_line(name: str, number: int, first_round: int, *, byes: bool) -> str:
    """What a late entry prints (``turnir late`` and ``turnir player late``)."""
    return (f"{name} joined as #{number} from round {first_round}"
            + (" with byes for the rounds played." if byes else "."))
