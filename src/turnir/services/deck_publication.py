"""Publishing the top decks of a finished constructed tournament, and its metagame (issue 13).

Deck lists are private: their player and the tournament's staff see them
(``turnir.services.decks``). After the event the tournament's organizer publishes the decks of
the top N players by final place (P-6); from then on anyone reads those N lists, and only those.
The metagame (the decks' elements and the most played cards, ``turnir.domain.metagame``) is a
summary of every ranked player's deck, public once the tournament is finished.

- :func:`publish_top_decks`: the organizer sets N (0 withdraws the publication), only after the
  tournament is finished; audited ``deck.publish``.
- :func:`published_decks`: the published lists, by final place, each sorted for reading.
- :func:`top_decks_page`: the same with what the page shows around them (the form for the
  organizer).
- :func:`metagame`: the summary; :func:`metagame_page` with what its page shows around it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from turnir.domain.cards import CardCatalogue, Crystal, card_key
from turnir.domain.decks import DeckList
from turnir.domain.metagame import DeckCards, Metagame, deck_cards, deck_elements, metagame_of
from turnir.domain.model import StaffRole, Status
from turnir.domain.tournament import Tournament
from turnir.errors import ConflictError, NotFoundError, Term, UserError
from turnir.services.cards import card_catalogue
from turnir.services.common import Database, TournamentInfo, Tx, changing, reading
from turnir.services.decks import decks_in
from turnir.services.judges import check_staff, staff_roles_in
from turnir.services.queries import get_standings
from turnir.storage import formats_repo
from turnir.storage.mappers import load_tournament, tournament_row

_ORGANIZER = frozenset({StaffRole.ORGANIZER})
MAX_PUBLISHED = 1000
"""The most decks one publication may name (more than any tournament's players)."""
SUGGESTED = 8
"""The count the form offers first without a top (a top 8)."""


@dataclass(frozen=True, slots=True)
class PublishedLine:
    """A line of a published deck: copies and the card (element, cost, type from the catalogue;
    empty for a name the catalogue does not know)."""

    count: int
    name: str
    element: str
    cost: int | None
    type: str
    crystal: Crystal | None = None
    """The kind of crystal it costs (``None`` for a name the catalogue does not know)."""


@dataclass(frozen=True, slots=True)
class PublishedDeck:
    """A top player's deck as published."""

    place: int
    number: int
    player: str
    registered: bool
    """The player registered a deck (else ``lines`` is empty)."""
    lines: tuple[PublishedLine, ...]
    """Sorted for reading: by element, then cost, type and name; unknown names last."""
    total: int
    elements: tuple[str, ...]
    """The deck's main element(s) (``turnir.domain.metagame.deck_elements``)."""


@dataclass(frozen=True, slots=True)
class TopDecksPage:
    """The public page of the top decks, and the organizer's form on it."""

    info: TournamentInfo
    finished: bool
    constructed: bool
    """The tournament has a deck format (and so decks)."""
    published: int
    """How many top decks are published (0: none)."""
    decks: tuple[PublishedDeck, ...]
    may_publish: bool
    """The visitor is the tournament's organizer."""
    ranked: int
    """How many players have a final place (the most decks that can be published)."""
    suggested: int = 0
    """The count the organizer's form offers: the tournament's top size if it has a top (P-5),
    else :data:`SUGGESTED`, never more than ``ranked``."""


def _places(t: Tournament) -> list[tuple[int, int, str]]:
    """(place, entry number, player) by final place (P-6)."""
    return [(place, int(pid), t.player(pid).name)
            for place, pid in enumerate(t.final_places(), start=1)]


def publish_top_decks(db: Database, tournament_id: int, count: int, *, actor: str,
                      account_id: int | None) -> int:
    """Publish the decks of the top ``count`` players by final place (0: withdraw); the
    tournament's organizer (``account_id=None``: the local operator), once it is finished."""
    if not 0 <= count <= MAX_PUBLISHED:
        raise UserError("publish from 0 to {high} decks", code="bad_count", high=MAX_PUBLISHED)
    with changing(db, tournament_id, actor) as change:
        conn = change.conn
        row = tournament_row(conn, tournament_id)
        check_staff(conn, tournament_id, account_id, _ORGANIZER,
                    what=Term("publish the top decks"))
        if row["status"] != Status.FINISHED:
            raise ConflictError("the top decks of {name!r} are published once the tournament "
                                "is finished", code="not_finished", name=row["name"])
        settings = formats_repo.tournament_decks_of(conn, tournament_id)
        if settings.format_id is None:
            raise UserError("the tournament {name!r} has no deck format, so it has no decks "
                            "to publish", code="no_deck_format", name=row["name"])
        ranked = len(load_tournament(conn, tournament_id).final_places())
        if count > ranked:
            raise UserError("the tournament has {ranked} ranked players; publish from 0 to "
                            "{ranked} decks", code="bad_count", ranked=ranked)
        if settings.published_decks == count:
            return count
        if not formats_repo.save_tournament_decks(conn, replace(settings,
                                                                published_decks=count)):
            raise ConflictError("the tournament's deck settings were changed meanwhile; try "
                                "again", code="stale_version")
        change.log(tournament_id, "deck.publish", "tournament_decks", tournament_id,
                   {"published": settings.published_decks}, {"published": count})
    return count


def _reading_lines(cards: DeckCards, catalogue: CardCatalogue) -> tuple[PublishedLine, ...]:
    lines = []
    for name, element, count in cards.cards:
        card = catalogue.find(name)
        lines.append(PublishedLine(count=count, name=name, element=element,
                                   cost=card.cost if card is not None else None,
                                   type=card.type if card is not None else "",
                                   crystal=card.crystal if card is not None else None))
    lines.sort(key=lambda line: (line.cost is None, card_key(line.element),
                                 line.cost or 0, card_key(line.type), card_key(line.name)))
    return tuple(lines)


def _published(t: Tournament, count: int, decks: dict[int, DeckList],
               catalogue: CardCatalogue) -> tuple[PublishedDeck, ...]:
    found = []
    for place, number, player in _places(t)[:count]:
        deck = decks.get(number)
        cards = deck_cards(number, place, deck or DeckList(()), catalogue)
        found.append(PublishedDeck(
            place=place, number=number, player=player, registered=deck is not None,
            lines=_reading_lines(cards, catalogue), total=deck.total if deck else 0,
            elements=deck_elements(cards)))
    return tuple(found)


def _decks_and_count(tx: Tx, tournament_id: int) -> tuple[dict[int, DeckList], int, bool]:
    settings = formats_repo.tournament_decks_of(tx, tournament_id)
    return decks_in(tx, tournament_id), settings.published_decks, settings.format_id is not None


def published_decks(db: Database, tournament_id: int) -> list[PublishedDeck]:
    """The published decks of the top players by final place (none before the organizer
    publishes them); public."""
    view = get_standings(db, tournament_id)
    if view.info.status is not Status.FINISHED:
        return []
    with reading(db) as tx:
        decks, count, _ = _decks_and_count(tx, tournament_id)
    if not count:
        return []
    return list(_published(view.tournament, count, decks, card_catalogue(db)))


def top_decks_page(db: Database, tournament_id: int, *,
                   account_id: int | None) -> TopDecksPage:
    """The top decks page: the published decks (public) and whether the visitor may publish."""
    view = get_standings(db, tournament_id)
    finished = view.info.status is Status.FINISHED
    with reading(db) as tx:
        decks, count, constructed = _decks_and_count(tx, tournament_id)
        organizer = account_id is not None and StaffRole.ORGANIZER in staff_roles_in(
            tx, tournament_id, account_id)
    ranked = len(view.tournament.final_places()) if finished else 0
    top = view.tournament.settings.top_size
    shown = _published(view.tournament, count, decks, card_catalogue(db)) \
        if finished and count else ()
    return TopDecksPage(info=view.info, finished=finished, constructed=constructed,
                        published=count if finished else 0, decks=shown,
                        may_publish=organizer, ranked=ranked,
                        suggested=min(top or SUGGESTED, ranked))


@dataclass(frozen=True, slots=True)
class MetagamePage:
    """The public metagame page: the summary once the tournament is finished."""

    info: TournamentInfo
    finished: bool
    constructed: bool
    game: Metagame | None
    """``None`` before the finish or without a deck format."""
    published: int
    """How many top decks are published (the page links to them)."""


def _ranked_decks(db: Database, t: Tournament, decks: dict[int, DeckList]) -> list[DeckCards]:
    catalogue = card_catalogue(db)
    return [deck_cards(number, place, decks[number], catalogue)
            for place, number, _ in _places(t) if number in decks]


def metagame(db: Database, tournament_id: int) -> Metagame:
    """The elements and the most played cards of every ranked player's deck; public once the
    tournament is finished (refused before: the decks are private while it runs)."""
    view = get_standings(db, tournament_id)
    if view.info.status is not Status.FINISHED:
        raise ConflictError("the metagame of {name!r} is shown once the tournament is "
                            "finished", code="not_finished", name=view.info.name)
    with reading(db) as tx:
        decks, _, constructed = _decks_and_count(tx, tournament_id)
    if not constructed:
        raise NotFoundError("the tournament {name!r} has no deck format, so it has no "
                            "metagame", code="no_deck_format", name=view.info.name)
    return metagame_of(_ranked_decks(db, view.tournament, decks))


def metagame_page(db: Database, tournament_id: int) -> MetagamePage:
    """The metagame page: the summary, or why there is none yet."""
    view = get_standings(db, tournament_id)
    finished = view.info.status is Status.FINISHED
    with reading(db) as tx:
        decks, count, constructed = _decks_and_count(tx, tournament_id)
    game = metagame_of(_ranked_decks(db, view.tournament, decks)) \
        if finished and constructed else None
    return MetagamePage(info=view.info, finished=finished, constructed=constructed, game=game,
                        published=count if finished else 0)
