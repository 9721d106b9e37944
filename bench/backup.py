"""Backup bench (issue 15, ``docs/backup.md``): how long ``turnir backup`` and ``turnir
restore`` take and how big the files are, on SQLite and on PostgreSQL.

Two databases of each kind: the demo (``turnir.services.demo.seed_tournaments``) and a bigger
one, a 2,000-player tournament with ``ROUNDS`` Swiss rounds played through the service layer
(every result its own transaction and audit record). For each: the native snapshot (SQLite's
backup API, ``pg_dump -Fc``) and the portable file, each restored into a fresh database of the
same kind; the portable file of the big SQLite database is also restored onto PostgreSQL.
Every restore is compared row by row with its source. PostgreSQL comes from
``TURNIR_BENCH_PG_URL`` or the throwaway test server (``scripts/pg-test-server.sh``).

``python bench/backup.py`` — the last line is one JSON object (``figures``, ``targets``).
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from storage import drop_pg_database, fresh_pg_database, postgres_url

from turnir.domain.model import Settings
from turnir.domain.results import parse_result
from turnir.formats.players_csv import PlayerLine
from turnir.services import backup
from turnir.services.demo import seed_tournaments
from turnir.services.players import register_players
from turnir.services.results import record_result
from turnir.services.rounds import start_round
from turnir.services.tournaments import create_tournament
from turnir.storage import backup_repo
from turnir.storage.database import Database

PLAYERS = 2000
SCORES = ("2-0", "2-1", "1-2", "0-2")
ROUNDS = 3


def big_event(db: Database) -> None:
    rng = random.Random(15)
    info = create_tournament(db, name="Большой турнир", actor="bench", seed=15,
                             settings=Settings(swiss_rounds=ROUNDS + 2))
    register_players(db, info.id, [PlayerLine(f"Игрок {i:04d}", "Москва")
                                   for i in range(1, PLAYERS + 1)], actor="bench")
    for _ in range(ROUNDS):
        view = start_round(db, info.id, actor="bench")
        for line in view.round.pairings:
            if line.b is not None:
                record_result(db, info.id, view.round.number, line.table,
                              parse_result(rng.choice(SCORES)), actor="bench")


def rows_of(db: Database) -> list[Any]:
    with db.read() as tx:
        return [[tuple(_utc(v) for v in row) for row in backup_repo.rows(tx, spec)]
                for spec in backup_repo.table_specs()]


def _utc(value: Any) -> Any:
    """Times in UTC (SQLite reads them back without their zone, PostgreSQL with it)."""
    if isinstance(value, datetime):
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    return value


def measure(label: str, source: Database, fresh: Any, folder: Path) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    expected = rows_of(source)
    figures["rows"] = sum(map(len, expected))
    for kind, portable in (("native", False), ("portable", True)):
        file = folder / f"{label}.{kind}"
        made = backup.make_backup(source, file, portable=portable)
        target = fresh()
        restored = backup.restore(target, file)
        figures[kind] = {"backup_s": round(made.seconds, 3), "bytes": made.size,
                         "restore_s": round(restored.seconds, 3),
                         "equal": rows_of(target) == expected}
        target.close()
        print(f"{label} {kind}: {figures[kind]}", flush=True)
    return figures


def main() -> None:
    figures: dict[str, Any] = {"players": PLAYERS, "rounds": ROUNDS}
    server = postgres_url()
    made: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        counter = iter(range(1000))

        def fresh_sqlite() -> Database:
            return Database.open(f"sqlite:///{folder}/fresh-{next(counter)}.db")

        def fresh_pg() -> Database:
            assert server is not None
            url, name = fresh_pg_database(server)
            made.append(name)
            return Database.open(url)

        kinds = [("sqlite", fresh_sqlite)] + ([("postgresql", fresh_pg)] if server else [])
        try:
            for kind, fresh in kinds:
                for size in ("demo", "big"):
                    source = fresh()
                    started = time.monotonic()
                    seed_tournaments(source) if size == "demo" else big_event(source)
                    print(f"{kind} {size}: built in {time.monotonic() - started:.1f} s",
                          flush=True)
                    figures[f"{kind}_{size}"] = measure(f"{kind}-{size}", source, fresh, folder)
                    if kind == "sqlite" and size == "big" and server:
                        file = folder / "cross.portable"
                        backup.make_backup(source, file, portable=True)
                        target = fresh_pg()
                        done = backup.restore(target, file)
                        figures["sqlite_big_onto_postgresql"] = {
                            "restore_s": round(done.seconds, 3),
                            "equal": rows_of(target) == rows_of(source)}
                        target.close()
                    source.close()
        finally:
            for name in made:
                if server:
                    drop_pg_database(server, name)
    unequal = sum(1 for f in figures.values() if isinstance(f, dict)
                  for v in ([f] + [x for x in f.values() if isinstance(x, dict)])
                  if v.get("equal") is False)
    targets = {"restores_unequal": {"value": unequal, "limit": 0, "better": "lower"}}
    print(json.dumps({"bench": "backup", "figures": figures, "targets": targets}))


if __name__ == "__main__":
    main()
