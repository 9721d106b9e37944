"""Use cases of constructed formats (issue 13, C-1, C-2): reading a format with its ban lists
and starter decks, and a tournament's format (its organizer sets it before round 1).

- ``deck_format`` / ``format_in``: a format as the domain value ``turnir.domain.decks.DeckFormat``
  (editions, deck size, copy limits, ban lists, starter decks).
- ``format_choices``: the formats to pick from (id, name, starter).
- ``tournament_format`` / ``tournament_format_in``: a tournament's format, planned start, online
  flag, published decks and the *rules day*: the day whose ban list applies (C-1) — the day its
  round 1 was paired, else the day of its planned start, else today. Days are Moscow days
  (``RULES_ZONE``, Europe/Moscow): Berserk ban lists are announced for Moscow dates, and a
  round paired at 01:00 in Moscow is paired on that Moscow day, whatever the UTC date says.
- ``set_tournament_format``: the tournament's organizer sets the format, start and online flag;
  refused once round 1 is paired (the decks are locked then). It also sets the tournament's
  rating terms' ``starter`` (``turnir.storage.rating_events``, the one place the ratings read
  it) to the format's, so a starter constructed event is unrated (C-2).

Editing formats, ban lists and starter decks: ``turnir.services.format_edits``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

from turnir.clock import Clock
from turnir.domain.decks import BanList, DeckFormat, StarterDeck
from turnir.domain.model import StaffRole, TournamentFormat
from turnir.errors import ConflictError, NotFoundError, Term, UserError
from turnir.services.common import (
    Database,
    Tx,
    changing,
    now_in,
    reading,
    refuse_when_finished,
    touch_tournament,
)
from turnir.services.judges import check_staff
from turnir.storage import formats_repo as repo
from turnir.storage.audit import AuditEntry
from turnir.storage.formats_repo import StoredFormat, StoredTournamentDecks
from turnir.storage.mappers import tournament_row
from turnir.storage.rating_events import load_terms, save_terms
from turnir.storage.repositories import Change

RULES_ZONE = ZoneInfo("Europe/Moscow")
"""The time zone of a rules day (and of a planned start given without a zone)."""

_ORGANIZER = frozenset({StaffRole.ORGANIZER})
_HAS_DECKS = (TournamentFormat.CONSTRUCTED, TournamentFormat.SWISS)
"""Tournament formats that may have a deck format (a draft builds its decks at the table)."""


@dataclass(frozen=True, slots=True)
class FormatInfo:
    """A format to choose from."""

    id: int
    name: str
    starter: bool


@dataclass(frozen=True, slots=True)
class TournamentFormatInfo:
    """A tournament's constructed settings and the rules they give."""

    tournament_id: int
    format_id: int
    format: DeckFormat
    starts_at: datetime | None
    """The planned start, in UTC (aware), ``None`` when not set."""
    online: bool
    published_decks: int
    """How many of the top decks the organizer published after the event (0: none)."""
    rules_day: date
    """The Moscow day whose ban list applies (C-1): round 1's, else the start's, else today."""
    rules_day_from: str
    """Where ``rules_day`` comes from: "round_1", "starts_at" or "today"."""
    locked: bool
    """Round 1 is paired: the format and the decks no longer change."""
    version: int

    @property
    def ban_list(self) -> BanList | None:
        """The ban list in force on the rules day (``None``: nothing banned)."""
        return self.format.ban_list_on(self.rules_day)

    @property
    def starter(self) -> bool:
        return self.format.starter

    @property
    def starts_moscow(self) -> datetime | None:
        """The planned start in Moscow time (how the pages show it)."""
        return None if self.starts_at is None else self.starts_at.astimezone(RULES_ZONE)


def moscow_day(moment: datetime) -> date:
    """The Moscow day of a moment (a naive one is UTC, as stored)."""
    aware = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    return aware.astimezone(RULES_ZONE).date()


def moscow_today(clock: Clock) -> date:
    """Today in Moscow (the rules' day: ban lists, formats, deck checks) by ``clock``."""
    return moscow_day(clock.now())


def moscow_today_in(tx: Tx) -> date:
    """Today in Moscow, by the clock of the database of ``tx``."""
    return moscow_day(now_in(tx))


def as_utc(moment: datetime) -> datetime:
    """A planned start in UTC; a moment without a zone is Moscow time."""
    aware = moment if moment.tzinfo is not None else moment.replace(tzinfo=RULES_ZONE)
    return aware.astimezone(UTC)


def parse_start(text: str) -> datetime | None:
    """A planned start given as ISO text ("2026-12-05T15:15", a zone optional: Moscow time
    without one); ``None`` for an empty text."""
    given = text.strip()[:40]
    if not given:
        return None
    try:
        return as_utc(datetime.fromisoformat(given.replace(" ", "T", 1)))
    except ValueError:
        raise UserError("{text!r} is not a date and time (YYYY-MM-DDTHH:MM)",
                        code="bad_start", text=given) from None


def domain_format(stored: StoredFormat, bans: list[repo.StoredBanList],
                  starters: list[repo.StoredStarterDeck]) -> DeckFormat:
    """The domain value of a stored format with its ban lists and starter decks."""
    return DeckFormat(
        name=stored.name, editions=stored.editions,
        ban_lists=tuple(BanList(effective=b.effective, cards=b.cards) for b in bans
                        if b.format_id == stored.id),
        min_cards=stored.min_cards, max_cards=stored.max_cards, max_copies=stored.max_copies,
        max_horde_copies=stored.max_horde_copies, starter=stored.starter,
        starter_decks=tuple(StarterDeck(name=s.name, deck=s.deck) for s in starters
                            if s.format_id == stored.id))


def stored_format(tx: Tx, format_id: int) -> StoredFormat:
    found = repo.format_by_id(tx, format_id)
    if found is None:
        raise NotFoundError("no format #{id}", code="unknown_format", id=format_id)
    return found


def format_in(tx: Tx, format_id: int) -> DeckFormat:
    """The format ``format_id`` (``NotFoundError`` when there is none), read in ``tx``."""
    stored = stored_format(tx, format_id)
    return domain_format(stored, repo.ban_lists_of(tx, [format_id]),
                         repo.starter_decks_of(tx, [format_id]))


def deck_format(db: Database, format_id: int) -> DeckFormat:
    with reading(db) as tx:
        return format_in(tx, format_id)


def format_choices(db: Database) -> list[FormatInfo]:
    """Every format, by name."""
    with reading(db) as tx:
        return [FormatInfo(id=f.id, name=f.name, starter=f.starter)
                for f in repo.all_formats(tx)]


def _rules_day(tx: Tx, paired: datetime | None, starts_at: datetime | None
               ) -> tuple[date, str]:
    if paired is not None:
        return moscow_day(paired), "round_1"
    if starts_at is not None:
        return moscow_day(starts_at), "starts_at"
    return moscow_today_in(tx), "today"


def _info(tx: Tx, settings: StoredTournamentDecks) -> TournamentFormatInfo | None:
    if settings.format_id is None:
        return None
    paired = repo.first_round_paired_at(tx, settings.tournament_id)
    starts = None if settings.starts_at is None else settings.starts_at.replace(tzinfo=UTC)
    day, source = _rules_day(tx, paired, starts)
    return TournamentFormatInfo(
        tournament_id=settings.tournament_id, format_id=settings.format_id,
        format=format_in(tx, settings.format_id), starts_at=starts, online=settings.online,
        published_decks=settings.published_decks, rules_day=day, rules_day_from=source,
        locked=paired is not None, version=settings.version)


def tournament_format_in(tx: Tx, tournament_id: int) -> TournamentFormatInfo | None:
    """The tournament's format and rules day, read in ``tx``; ``None`` when it has no format
    (``NotFoundError`` for an unknown tournament)."""
    tournament_row(tx, tournament_id)
    return _info(tx, repo.tournament_decks_of(tx, tournament_id))


def tournament_format(db: Database, tournament_id: int) -> TournamentFormatInfo | None:
    with reading(db) as tx:
        return tournament_format_in(tx, tournament_id)


@dataclass(frozen=True, slots=True)
class DeckChoice:
    """A tournament's constructed settings as chosen: the format, the planned start (a moment
    without a zone is Moscow time) and whether it is played online."""

    format_id: int
    starts_at: datetime | None = None
    online: bool = False


def set_tournament_format(
    db: Database, tournament_id: int, *, actor: str, account_id: int | None, format_id: int,
    starts_at: datetime | None = None, online: bool = False,
    expected_version: int | None = None,
) -> TournamentFormatInfo:
    """Set the tournament's deck format, planned start (a moment without a zone is Moscow
    time) and whether it is played online, and its rating terms' ``starter`` to the format's
    (C-2: a starter event is unrated). ``account_id``: the tournament's organizer (``None``:
    the local operator, the CLI). Refused once round 1 is paired: the decks are locked then."""
    with changing(db, tournament_id, actor) as change:
        tournament_row(change.conn, tournament_id)
        check_staff(change.conn, tournament_id, account_id, _ORGANIZER,
                    what=Term("set the tournament's format"))
        apply_tournament_format(change, tournament_id, DeckChoice(format_id, starts_at, online),
                                expected_version=expected_version)
        info = tournament_format_in(change.conn, tournament_id)
        assert info is not None
        return info


def apply_tournament_format(change: Change, tournament_id: int, choice: DeckChoice, *,
                            expected_version: int | None = None) -> None:
    """``set_tournament_format`` inside the caller's write transaction (the role checked by
    the caller; ``create_tournament`` calls it for a new constructed tournament)."""
    conn = change.conn
    row = tournament_row(conn, tournament_id)
    refuse_when_finished(row)
    if TournamentFormat(row["format"]) not in _HAS_DECKS:
        raise UserError("the tournament {name!r} is a draft; only a constructed "
                        "tournament has a deck format", code="not_constructed",
                        name=row["name"])
    if repo.first_round_paired_at(conn, tournament_id) is not None:
        raise ConflictError("round 1 of {name!r} is paired and the decks are locked; the "
                            "format no longer changes", code="decks_locked", name=row["name"])
    chosen = stored_format(conn, choice.format_id)
    old = repo.tournament_decks_of(conn, tournament_id)
    if expected_version is not None and expected_version != old.version:
        raise ConflictError("the tournament's format was changed since you loaded it "
                            "(version {seen}, now {current}); reload and try again",
                            code="stale_version", seen=expected_version, current=old.version)
    new = replace(old, format_id=chosen.id, online=bool(choice.online),
                  starts_at=None if choice.starts_at is None
                  else as_utc(choice.starts_at).replace(tzinfo=None))
    if not repo.save_tournament_decks(conn, new):
        raise ConflictError("the tournament's format was changed meanwhile; try again",
                            code="stale_version")
    _set_starter_terms(change, tournament_id, chosen.starter)
    touch_tournament(conn, row)
    change.log(tournament_id, "format.tournament", "tournament_decks", tournament_id,
               _settings_json(conn, old) if old.version else None,
               _settings_json(conn, new))


def _set_starter_terms(change: Change, tournament_id: int, starter: bool) -> None:
    """The rating terms' ``starter`` as the format's (C-2), logged as a terms change."""
    terms = load_terms(change.conn, tournament_id)
    if terms.starter == starter:
        return
    save_terms(change.conn, replace(terms, starter=starter), at=change.at, actor=change.actor)
    change.log(tournament_id, "rating.terms", "rating_terms", tournament_id,
               terms.as_json() if terms.version else None,
               load_terms(change.conn, tournament_id).as_json())


def _settings_json(tx: Tx, settings: StoredTournamentDecks) -> dict[str, object]:
    """What the audit log keeps of the settings: the format by number and name (the log page
    says «Standard» → «Starter»), the online flag and the planned start (UTC)."""
    found = None if settings.format_id is None else repo.format_by_id(tx, settings.format_id)
    return {"format_id": settings.format_id, "format": None if found is None else found.name,
            "online": settings.online,
            "starts_at": None if settings.starts_at is None
            else f"{settings.starts_at:%Y-%m-%d %H:%M}"}


# ----- the format pages ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BanListView:
    """A format's ban list, and where it stands today."""

    effective: date
    cards: tuple[str, ...]
    created_at: datetime
    created_by: str
    in_force: bool
    """It is the list in force today."""
    future: bool
    """It takes effect after today (it may still be deleted)."""


@dataclass(frozen=True, slots=True)
class FormatView:
    """A format as its page shows it."""

    id: int
    name: str
    version: int
    format: DeckFormat
    ban_lists: tuple[BanListView, ...]
    """By day, the latest first."""
    today: date
    tournaments: tuple[int, ...]
    """The tournaments that use it."""
    created_at: datetime
    created_by: str

    @property
    def in_force(self) -> BanListView | None:
        return next((ban for ban in self.ban_lists if ban.in_force), None)


@dataclass(frozen=True, slots=True)
class FormatSummary:
    """A line of the formats list."""

    id: int
    name: str
    starter: bool
    editions: tuple[str, ...]
    banned_today: int
    """Cards on the ban list in force today."""
    starter_decks: int


def _ban_views(fmt: DeckFormat, day: date, stored: list[repo.StoredBanList]
               ) -> tuple[BanListView, ...]:
    current = fmt.ban_list_on(day)
    return tuple(BanListView(effective=b.effective, cards=b.cards, created_at=b.created_at,
                             created_by=b.created_by, future=b.effective > day,
                             in_force=current is not None and b.effective == current.effective)
                 for b in sorted(stored, key=lambda b: b.effective, reverse=True))


def format_view_in(tx: Tx, format_id: int) -> FormatView:
    stored = stored_format(tx, format_id)
    bans = repo.ban_lists_of(tx, [format_id])
    fmt = domain_format(stored, bans, repo.starter_decks_of(tx, [format_id]))
    day = moscow_today_in(tx)
    return FormatView(id=stored.id, name=stored.name, version=stored.version, format=fmt,
                      ban_lists=_ban_views(fmt, day, bans), today=day,
                      tournaments=tuple(repo.tournaments_with_format(tx, format_id)),
                      created_at=stored.created_at, created_by=stored.created_by)


def format_view(db: Database, format_id: int) -> FormatView:
    """The format with its ban lists (which one is in force today) and starter decks."""
    with reading(db) as tx:
        return format_view_in(tx, format_id)


def format_changes(db: Database, format_id: int, *, limit: int = 100) -> list[AuditEntry]:
    """The format's changes from the audit log, the newest first."""
    with reading(db) as tx:
        stored_format(tx, format_id)
        return repo.format_changes(tx, format_id, limit=limit)


def format_list(db: Database) -> list[FormatSummary]:
    """Every format, by name, with today's ban list size and its starter decks."""
    with reading(db) as tx:
        stored = repo.all_formats(tx)
        ids = [f.id for f in stored]
        bans, starters = repo.ban_lists_of(tx, ids), repo.starter_decks_of(tx, ids)
        day = moscow_today_in(tx)
    found = []
    for one in stored:
        fmt = domain_format(one, bans, starters)
        current = fmt.ban_list_on(day)
        found.append(FormatSummary(id=one.id, name=one.name, starter=one.starter,
                                   editions=one.editions,
                                   banned_today=len(current.cards) if current else 0,
                                   starter_decks=len(fmt.starter_decks)))
    return found
