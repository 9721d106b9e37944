"""The card catalogue (каталог карт) as a use case: read it, search it, import a file into it.

- ``card_catalogue(db)``: the whole catalogue as a ``turnir.domain.cards.CardCatalogue``,
  built once per database and kept until the catalogue changes: each call reads only its
  *stamp* (``turnir.storage.cards_repo.catalogue_stamp``: rows, highest id, the newest
  import's audit entry) and rebuilds when it moved, so a page or a deck check costs one small
  query, not a 5,000-card rebuild (about 0.3 s). An import by another process (the CLI while
  the server runs) moves the stamp too.
- ``search_cards(db, query, limit=…)``: the cards whose name or alias holds every word typed
  (then the closest names), for the catalogue page and the deck builder; ``find_card`` (one
  card, or a ``NotFoundError`` naming the closest names), ``list_cards`` (an edition's or all),
  ``cards_page`` (what ``/cards`` shows) and ``card_json`` (a card as the API gives it).
- ``import_cards(db, …)``: a CSV, JSON or ``.xlsx`` file (``turnir.formats.cards_file``)
  added to the catalogue (a card already there, by name and edition, is updated) or, with
  ``replace``, replacing it whole. A site organizer's change (an account with the organizer
  role; ``account_id`` ``None``: the local operator, the CLI); the whole file or nothing, one
  audit entry (``cards.import``).
- ``load_sample_cards(db, …)``: the sample catalogue shipped with turnir
  (``turnir/data/sample_cards.csv``, invented cards, not the real Berserk list) for the demo
  and tests.
"""

from __future__ import annotations

import hashlib
import threading
import weakref
from dataclasses import dataclass
from importlib import resources

from turnir.domain.accounts import AccountRole
from turnir.domain.cards import Card, CardCatalogue, card_key
from turnir.errors import ForbiddenError, NotFoundError, UserError
from turnir.formats.cards_file import read_cards_bytes
from turnir.services.common import Database, Tx, changing, reading
from turnir.storage import cards_repo
from turnir.storage.accounts_repo import account_by_id

SAMPLE = "sample_cards.csv"
"""The sample catalogue's file in the ``turnir.data`` package."""
MAX_QUERY = 200
"""The longest search text."""
MAX_LIMIT = 100
"""The most cards one search returns."""


@dataclass(frozen=True, slots=True)
class CardImport:
    """What an import did."""

    added: int
    """Cards new to the catalogue."""
    updated: int
    """Cards already there (the same name and edition), now as the file says."""
    removed: int
    """Cards removed by a replacing import (0 otherwise)."""
    total: int
    """Cards in the catalogue after the import."""
    ignored: tuple[str, ...] = ()
    """The file's columns that are not card fields."""


# ----- the cached catalogue -------------------------------------------------------------------

_CACHE: weakref.WeakKeyDictionary[Database, tuple[cards_repo.Stamp, CardCatalogue]] = (
    weakref.WeakKeyDictionary())
_CACHE_LOCK = threading.Lock()


def card_catalogue(db: Database) -> CardCatalogue:
    """The catalogue, rebuilt only when it changed since the last call on ``db``."""
    with reading(db) as tx:
        stamp = cards_repo.catalogue_stamp(tx)
        with _CACHE_LOCK:
            kept = _CACHE.get(db)
        if kept is not None and kept[0] == stamp:
            return kept[1]
        catalogue = CardCatalogue(cards_repo.all_cards(tx))
    with _CACHE_LOCK:
        _CACHE[db] = (stamp, catalogue)
    return catalogue


def search_cards(db: Database, query: str, *, limit: int = 20) -> list[Card]:
    """The cards matching ``query`` (every word in the name or an alias, then the closest
    names), at most ``limit`` (1-``MAX_LIMIT``)."""
    text = query.strip()[:MAX_QUERY]
    if not text:
        return []
    return card_catalogue(db).search(text, limit=max(1, min(limit, MAX_LIMIT)))


@dataclass(frozen=True, slots=True)
class CardsPage:
    """What the catalogue page shows: its size, its editions and the cards found (the first
    ``limit`` by name when nothing was typed)."""

    total: int
    editions: tuple[str, ...]
    query: str
    found: list[Card]


def cards_page(db: Database, query: str, *, limit: int = 50) -> CardsPage:
    """The catalogue page (``turnir.web.cards_pages``)."""
    catalogue = card_catalogue(db)
    text = query.strip()[:MAX_QUERY]
    limit = max(1, min(limit, MAX_LIMIT))
    if text:
        found = catalogue.search(text, limit=limit)
    else:
        found = sorted({card.key: card for card in reversed(catalogue.cards)}.values(),
                       key=lambda card: card.key)[:limit]
    return CardsPage(total=len(catalogue), editions=catalogue.editions(), query=text,
                     found=found)


def find_card(db: Database, name: str, *, edition: str | None = None) -> Card:
    """The card called ``name`` (in ``edition`` when given); else a ``NotFoundError`` naming
    the closest names."""
    text = name.strip()[:MAX_QUERY]
    catalogue = card_catalogue(db)
    found = catalogue.find(text, edition.strip()[:MAX_QUERY] if edition else None)
    if found is not None:
        return found
    if edition and catalogue.find(text) is not None:
        raise NotFoundError("the card {name!r} is not printed in the edition {edition!r}",
                            code="unknown_card", name=text, edition=edition)
    close = [s.name for s in catalogue.suggest(text)]
    if close:
        raise NotFoundError("no card {name!r} in the catalogue; did you mean {suggestions}?",
                            code="unknown_card", name=text,
                            suggestions=", ".join(f"«{n}»" for n in close))
    raise NotFoundError("no card {name!r} in the catalogue", code="unknown_card", name=text)


def list_cards(db: Database, *, edition: str | None = None) -> list[Card]:
    """Every card (of ``edition`` when given), by edition as first seen, then name."""
    catalogue = card_catalogue(db)
    wanted = card_key(edition) if edition else None
    editions = {key: index for index, key in
                enumerate(dict.fromkeys(card_key(e) for e in catalogue.editions()))}
    if wanted is not None and wanted not in editions:
        raise NotFoundError("no edition {edition!r} in the catalogue (editions: {known})",
                            code="unknown_edition", edition=edition,
                            known=", ".join(catalogue.editions()) or "—")
    chosen = [card for card in catalogue.cards
              if wanted is None or card_key(card.edition) == wanted]
    return sorted(chosen, key=lambda card: (editions[card_key(card.edition)], card.key))


def card_json(card: Card) -> dict[str, object]:
    """A card as the API and ``turnir cards … --json`` give it."""
    return {"name": card.name, "edition": card.edition, "number": card.number,
            "rarity": card.rarity, "element": card.element, "cost": card.cost,
            "crystal": card.crystal.value, "type": card.type, "features": list(card.features),
            "unique": card.unique, "horde": card.horde, "aliases": list(card.aliases)}


# ----- changing it ----------------------------------------------------------------------------


def _check_organizer(tx: Tx, account_id: int | None) -> None:
    if account_id is None:
        return
    if AccountRole(account_by_id(tx, account_id).role) is not AccountRole.ORGANIZER:
        raise ForbiddenError("only a site organizer changes the card catalogue",
                             code="forbidden")


def import_cards(db: Database, *, actor: str, account_id: int | None, data: bytes,
                 filename: str, replace: bool = False) -> CardImport:
    """Import a catalogue file (see the module docstring); ``filename`` names it in messages."""
    source = filename.strip()[:200] or "cards"
    with reading(db) as tx:  # refuse a player before reading their file
        _check_organizer(tx, account_id)
    found = read_cards_bytes(data, source=source)
    with changing(db, None, actor) as change:
        conn = change.conn
        _check_organizer(conn, account_id)
        cards_repo.lock_catalogue(conn)
        removed = cards_repo.delete_all_cards(conn) if replace else 0
        added, updated = cards_repo.upsert_cards(conn, found.cards)
        total = cards_repo.card_count(conn)
        change.log(None, "cards.import", cards_repo.ENTITY, "all", None, {
            "file": source, "replace": replace, "added": added, "updated": updated,
            "removed": removed, "total": total,
            "sha256": hashlib.sha256(data).hexdigest()})
    return CardImport(added=added, updated=updated, removed=removed, total=total,
                      ignored=found.ignored)


def sample_cards_bytes() -> bytes:
    """The shipped sample catalogue (CSV, UTF-8)."""
    return resources.files("turnir").joinpath("data", SAMPLE).read_bytes()


def load_sample_cards(db: Database, *, actor: str) -> CardImport:
    """Add the sample catalogue (``turnir/data/sample_cards.csv``) to the catalogue."""
    try:
        data = sample_cards_bytes()
    except OSError as error:  # pragma: no cover - the file ships with the package
        raise UserError("the sample card catalogue is missing ({reason})",
                        code="no_sample", reason=str(error)) from None
    return import_cards(db, actor=actor, account_id=None, data=data, filename=SAMPLE)
