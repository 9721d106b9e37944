"""The demo's constructed play (issue 13), seeded after the demo accounts
(``turnir.services.demo.seed_accounts``) on the sample card catalogue and the demo formats
(``turnir.services.demo_formats``):

- «Констрактед: пятничный турнир (демо)» (``DEMO_CONSTRUCTED``): in registration, format
  «Стандарт (образец)», starting next Friday at 19:00 Moscow time; eight players with their
  decks registered, one of them with a banned card and a card four times (the judges see the
  problems in the deck list), and the demo login ``player1`` entered without a deck, to try
  registering one;
- «Стартерный констрактед (демо, завершён)» (``DEMO_STARTER``): six players with the starter
  decks (C-2), three rounds played and finished (unrated: the format is a starter one).

The demo organizer, head judge and floor judge are its staff, as in the other demo tournaments.
Seeding again creates nothing twice.
"""

from __future__ import annotations

import random
from datetime import date, datetime, time, timedelta

from turnir.demo import CITIES, demo_names, strengths
from turnir.domain.cards import Card, CardCatalogue
from turnir.domain.model import Player, Settings, StaffRole, TournamentFormat
from turnir.formats.players_csv import PlayerLine
from turnir.services.accounts import AccountRole, find_account
from turnir.services.cards import card_catalogue
from turnir.services.common import Database
from turnir.services.deck_formats import RULES_ZONE, moscow_today, set_tournament_format
from turnir.services.decks import register_deck
from turnir.services.demo import ACTOR, DEMO_STAFF, _open_table_players, _play
from turnir.services.demo_formats import FUTURE_BANS, STARTER_DECKS, seed_demo_formats
from turnir.services.judges import add_judge, list_judges
from turnir.services.players import list_players, register_player, register_players
from turnir.services.rounds import start_round
from turnir.services.tournaments import create_tournament, finish_tournament, list_tournaments

DEMO_CONSTRUCTED = "Констрактед: пятничный турнир (демо)"
DEMO_STARTER = "Стартерный констрактед (демо, завершён)"
PAIRS = (("Степи", "Горы"), ("Леса", "Болота"), ("Тьма", "Нейтральные"), ("Степи", "Леса"),
         ("Горы", "Тьма"), ("Болота", "Нейтральные"), ("Леса", "Горы"), ("Тьма", "Степи"))
"""The two elements of each demo player's deck (with neutral cards to fill it)."""
WITH_PROBLEMS = 3
"""The demo deck (by index) that breaks C-1: a banned card, and a card four times."""


def _next_friday(day: date) -> datetime:
    ahead = (4 - day.weekday()) % 7 or 7
    return datetime.combine(day + timedelta(days=ahead), time(19, 0), tzinfo=RULES_ZONE)


def _deck_text(catalogue: CardCatalogue, elements: tuple[str, str], *, broken: bool) -> str:
    """A 40-card list, the two elements' cards in turn (neutral ones after), none banned;
    ``broken``: a card without Horde four times and a banned card (C-1)."""
    banned = {name.casefold() for name in FUTURE_BANS}

    def pool(element: str) -> list[Card]:
        return sorted((c for c in catalogue.cards if c.element == element
                       and c.name.casefold() not in banned), key=lambda c: (c.cost, c.name))

    first, second = pool(elements[0]), pool(elements[1])
    mixed = [card for pair in zip(first, second, strict=False) for card in pair]
    longer = first if len(first) > len(second) else second
    ordered = [*mixed, *longer[len(mixed) // 2:], *pool("Нейтральные")]
    unique: dict[str, Card] = {}
    for card in ordered:
        unique.setdefault(card.name, card)
    chosen = list(unique.values())
    lines = [f"3 {card.name}" for card in chosen[:13]] + [f"1 {chosen[13].name}"]
    if broken:
        plain = next(i for i, card in enumerate(chosen[:13]) if not card.horde)
        lines[plain] = f"4 {chosen[plain].name}"
        lines[-1] = f"1 {FUTURE_BANS[0]}"
    return "\n".join(lines)


def _staff(db: Database, tid: int) -> None:
    have = {(j.login, j.role) for j in list_judges(db, tid)}
    for login, role in DEMO_STAFF:
        found = find_account(db, login)
        if found is not None and found.active and found.role is not AccountRole.PLAYER \
                and (login, role) not in have:
            add_judge(db, tid, role=StaffRole(role), login=login, actor=ACTOR)


def _constructed(db: Database, format_id: int, running: int) -> int:
    info = create_tournament(db, name=DEMO_CONSTRUCTED, actor=ACTOR, seed=1313,
                             format=TournamentFormat.CONSTRUCTED,
                             settings=Settings(swiss_rounds=3))
    rng = random.Random(1313)
    register_players(db, info.id, [PlayerLine(name, rng.choice(CITIES))
                                   for name in demo_names(len(PAIRS), rng)], actor=ACTOR)
    set_tournament_format(db, info.id, actor=ACTOR, account_id=None, format_id=format_id,
                          starts_at=_next_friday(moscow_today(db.clock)))
    catalogue = card_catalogue(db)
    for number, elements in enumerate(PAIRS, start=1):
        register_deck(db, info.id, number, actor=ACTOR, account_id=None,
                      text=_deck_text(catalogue, elements, broken=number - 1 == WITH_PROBLEMS))
    pair = _open_table_players(db, running)
    person = next((p for p in list_players(db, running)
                   if pair is not None and p.person_id == pair[0]), None)
    if person is not None:  # player1 of the demo logins, without a deck yet
        register_player(db, info.id, name=person.name, city=person.city, club=person.club,
                        person_id=person.person_id, actor=ACTOR)
    return info.id


def _starter(db: Database, format_id: int) -> int:
    info = create_tournament(db, name=DEMO_STARTER, actor=ACTOR, seed=915,
                             format=TournamentFormat.CONSTRUCTED,
                             settings=Settings(swiss_rounds=3))
    rng = random.Random(915)
    names = demo_names(6, rng)
    register_players(db, info.id, [PlayerLine(n, rng.choice(CITIES)) for n in names],
                     actor=ACTOR)
    set_tournament_format(db, info.id, actor=ACTOR, account_id=None, format_id=format_id)
    for number in range(1, len(names) + 1):
        register_deck(db, info.id, number, actor=ACTOR, account_id=None,
                      text=STARTER_DECKS[number % len(STARTER_DECKS)][1])
    strength = strengths([Player(id=i, name=n) for i, n in enumerate(names, start=1)], rng)
    for _ in range(3):
        _play(db, info.id, start_round(db, info.id, actor=ACTOR), rng, strength)
    finish_tournament(db, info.id, actor=ACTOR)
    return info.id


def seed_constructed_demo(db: Database, running: int) -> None:
    """The demo's constructed tournaments (once), with the demo staff on them; ``running``:
    the running demo tournament, whose ``player1`` enters the constructed one."""
    existing = {t.name: t.id for t in list_tournaments(db)}
    formats = seed_demo_formats(db, actor=ACTOR)
    ids = [existing.get(DEMO_STARTER) or _starter(db, formats.starter_id),
           existing.get(DEMO_CONSTRUCTED) or _constructed(db, formats.standard_id, running)]
    for tid in ids:
        _staff(db, tid)
