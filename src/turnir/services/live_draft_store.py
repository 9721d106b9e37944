"""A live draft table changed in one short transaction (``turnir.services.live_draft``): the
table's row locked, its engine loaded (or taken from this process's cache at the same stored
version), advanced to the service's time, changed, and stored with its version + 1 together
with the new picks of the log — so a pick is never lost and never applied twice."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from turnir.domain.draft.engine import DraftEngine, PickEntry, PickRefused
from turnir.errors import NotFoundError
from turnir.services.common import Database, Tx
from turnir.storage import live_draft_repo
from turnir.storage.live_draft_repo import PickValues

# ----- time ------------------------------------------------------------------------------


def seconds_of(at: datetime) -> float:
    return at.timestamp()


def time_of(seconds: float | None) -> datetime | None:
    return None if seconds is None else datetime.fromtimestamp(seconds, UTC)


def pick_rows(entries: Sequence[PickEntry]) -> list[PickValues]:
    rows = []
    for e in entries:
        at = time_of(e.at)
        assert at is not None
        rows.append(PickValues(
            number=e.number, player=int(e.player), seat=e.seat, booster_round=e.booster_round,
            booster=e.booster, pick=e.pick, card_uid=e.card.uid, card_name=e.card.name,
            edition=e.card.edition, rarity=e.card.rarity, auto=e.auto, reason=e.reason, at=at))
    return rows


# ----- changing a table: one short transaction -------------------------------------------


Act = Callable[[DraftEngine, float], object]


class _Engines:
    """The engines of the tables this process changed last, by their stored version: a pick
    on a table at the version kept skips loading and parsing its state. An engine is taken out
    while a transaction changes it and kept again only after the commit (``keep``), so a
    rolled back change never leaves a changed engine behind; any other version (another
    worker's change) loads the state from the database."""

    MOST = 256

    def __init__(self) -> None:
        self._kept: dict[tuple[int, int, int], tuple[int, DraftEngine]] = {}
        self._lock = threading.Lock()

    def take(self, db: Database, tournament_id: int, table: int,
             version: int) -> DraftEngine | None:
        with self._lock:
            found = self._kept.pop((id(db), tournament_id, table), None)
        return found[1] if found is not None and found[0] == version else None

    def keep(self, db: Database, tournament_id: int, table: int, version: int,
             engine: DraftEngine) -> None:
        with self._lock:
            if len(self._kept) >= self.MOST:
                self._kept.clear()
            self._kept[(id(db), tournament_id, table)] = (version, engine)


_ENGINES = _Engines()


@dataclass(frozen=True, slots=True)
class Applied:
    tournament_id: int
    table: int
    engine: DraftEngine
    version: int
    saved: bool = True
    """The engine's state was stored at ``version`` (not: nothing was due; its clock may have
    moved without a trace, so it is not kept)."""

    def keep(self, db: Database) -> None:
        """After the commit: the engine is the stored state at ``version``."""
        if self.saved:
            _ENGINES.keep(db, self.tournament_id, self.table, self.version, self.engine)


def _mark(engine: DraftEngine) -> tuple[object, ...]:
    return (engine.log_size, engine.booster_round, engine.review_until, engine.done,
            engine.next_deadline())


def apply_change(db: Database, tx: Tx, tournament_id: int, table: int, at: datetime, act: Act, *,
           changes: bool) -> Applied:
    """Lock the table's draft, advance it to ``at``, run ``act`` on it and store what changed
    (state with version + 1, the new picks appended). ``changes``: ``act`` always changes the
    state (a pick, a drop); otherwise it is stored only when the advance changed something.

    ``act`` may raise ``PickRefused``: the deadlines passed before it are stored all the same
    and the refusal is raised by the caller after the commit (``Refusal``)."""
    seen = live_draft_repo.lock_version(tx, tournament_id, table)
    if seen is None:
        raise NotFoundError("draft table {table} of tournament #{tournament} has no live draft",
                            code="no_live_draft", table=table, tournament=tournament_id)
    engine = _ENGINES.take(db, tournament_id, table, seen)
    if engine is None:
        engine = DraftEngine.from_json(live_draft_repo.state_of(tx, tournament_id, table))
    before, count = _mark(engine), engine.log_size
    now = seconds_of(at)
    engine.advance(now)
    act(engine, now)
    new = engine.log_since(count)
    if not new and not changes and _mark(engine) == before:
        return Applied(tournament_id, table, engine, seen, saved=False)
    version = live_draft_repo.save_state(
        tx, tournament_id, table, seen, state=engine.to_json(),
        status="done" if engine.done else "live", next_deadline=time_of(engine.next_deadline()),
        at=at)
    live_draft_repo.add_picks(tx, tournament_id, table, pick_rows(new))
    return Applied(tournament_id, table, engine, version)


class Refusal:
    """A refusal kept while the transaction commits what happened before it."""

    def __init__(self) -> None:
        self.error: PickRefused | None = None

    def guard(self, act: Act) -> Act:
        def guarded(engine: DraftEngine, now: float) -> object:
            try:
                return act(engine, now)
            except PickRefused as refused:
                self.error = refused
                return None
        return guarded

    def raise_if_any(self) -> None:
        if self.error is not None:
            raise self.error
