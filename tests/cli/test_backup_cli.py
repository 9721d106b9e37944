"""``turnir backup`` and ``turnir restore`` (issue 15, ``docs/backup.md``): a native snapshot
and a portable file through the command line, SQLite onto PostgreSQL, refusals with exit
code 2 that name the problem and change nothing."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from tests.services.test_backup import demo_content, every_row, other_kind
from turnir.cli.main import app
from turnir.services.audit import verify_log
from turnir.storage.database import Database

__all__ = ["other_kind"]  # the fixture: fresh databases of both kinds
runner = CliRunner()


def run(url: str, *args: object) -> tuple[int, str]:
    result = runner.invoke(app, [str(a) for a in args],
                           env={"TURNIR_DATABASE_URL": url, "TURNIR_ACTOR": "Оператор"})
    return result.exit_code, result.output


def _seeded(url: str) -> dict[str, list[tuple[object, ...]]]:
    db = Database.open(url)
    demo_content(db)
    rows = every_row(db)
    db.close()
    return rows


def _rows(url: str) -> dict[str, list[tuple[object, ...]]]:
    db = Database.open(url)
    try:
        assert verify_log(db).ok
        return every_row(db)
    finally:
        db.close()


def test_backup_portable_on_sqlite_restore_on_postgresql(other_kind: dict[str, str],
                                                         tmp_path: Path) -> None:
    expected = _seeded(other_kind["sqlite"])
    file = tmp_path / "club.turnir.gz"
    code, out = run(other_kind["sqlite"], "backup", file, "--portable")
    assert code == 0, out
    assert "portable" in out and "rows" in out
    code, out = run(other_kind["sqlite"], "backup", file, "--portable")
    assert code == 2 and "--force" in out  # an existing file is kept
    code, out = run(other_kind["postgresql"], "restore", file)
    assert code == 0, out
    assert _rows(other_kind["postgresql"]) == expected
    code, out = run(other_kind["postgresql"], "restore", file)
    assert code == 2 and "not empty" in out and "--replace" in out
    code, out = run(other_kind["postgresql"], "restore", file, "--replace")
    assert code == 0, out
    assert _rows(other_kind["postgresql"]) == expected


def test_native_snapshot_through_the_command_line(other_kind: dict[str, str],
                                                  tmp_path: Path) -> None:
    expected = _seeded(other_kind["postgresql"])
    code, out = run(other_kind["postgresql"], "backup", tmp_path / "club.dump")
    assert code == 0, out
    assert (tmp_path / "club.dump").read_bytes().startswith(b"PGDMP")
    code, out = run(other_kind["postgresql"], "restore", tmp_path / "club.dump", "--replace")
    assert code == 0, out
    assert _rows(other_kind["postgresql"]) == expected
    code, out = run(other_kind["sqlite"], "restore", tmp_path / "club.dump")
    assert code == 2 and "PostgreSQL" in out and "--portable" in out
    target = tmp_path / "fresh.db"
    code, out = run(f"sqlite:///{target}", "restore", tmp_path / "club.dump")
    assert code == 2
    code, out = run(f"sqlite:///{target}", "backup", tmp_path / "empty.db")
    assert code == 0, out
    code, out = run(other_kind["sqlite"], "restore", tmp_path / "empty.db")
    assert code == 0, out
    assert all(rows == [] for rows in _rows(other_kind["sqlite"]).values())


def test_a_damaged_file_exits_2_naming_the_problem_and_changes_nothing(
        other_kind: dict[str, str], tmp_path: Path) -> None:
    url = other_kind["sqlite"]
    _seeded(url)
    file = tmp_path / "club.turnir.gz"
    assert run(url, "backup", file, "--portable")[0] == 0
    before = _rows(url)
    (tmp_path / "short.gz").write_bytes(file.read_bytes()[:-40])
    code, out = run(url, "--lang", "en", "restore", tmp_path / "short.gz", "--replace")
    assert code == 2 and "damaged or cut short" in out
    code, out = run(url, "--lang", "ru", "restore", tmp_path / "short.gz", "--replace")
    assert code == 2 and "повреждена или обрезана" in out
    (tmp_path / "notes.txt").write_text("не копия", encoding="utf-8")
    code, out = run(url, "--lang", "en", "restore", tmp_path / "notes.txt", "--replace")
    assert code == 2 and "not a turnir backup" in out
    code, out = run(url, "--lang", "en", "restore", tmp_path / "missing.gz")
    assert code == 2 and "cannot read" in out
    assert _rows(url) == before
