"""The demo's formats (issue 13), built on the sample card catalogue
(``turnir/data/sample_cards.csv``, loaded first when the catalogue is empty):

- «Стандарт (образец)»: every sample edition; a ban list in force since a past day (two sample
  cards) and one that takes effect in a month (three);
- «Стартерный констрактед (образец)»: a starter format (C-2) with two 30-card starter decks.

Seeding again finds the formats by name and adds nothing twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from turnir.errors import UserError
from turnir.services.cards import card_catalogue, load_sample_cards
from turnir.services.common import Database
from turnir.services.deck_formats import format_view, moscow_today
from turnir.services.format_edits import (
    create_format,
    find_format,
    set_ban_list,
    set_starter_deck,
)

STANDARD = "Стандарт (образец)"
STARTER = "Стартерный констрактед (образец)"
PAST_BANS = ("Хан Урал-Бек", "Дракон ледника")
FUTURE_BANS = ("Хан Урал-Бек", "Дракон ледника", "Костяной дракон")
PAST_DAY = date(2025, 9, 1)

STARTER_DECKS: tuple[tuple[str, str], ...] = (
    ("Степная орда", """\
3 Степной разведчик
3 Кочевник-лучник
3 Всадник ветра
1 Табунщица Айла
5 Гонец курганов
2 Пыльный смерч
2 Шаман ковыля
2 Ханская стража
3 Степной орёл
1 Батыр Тургай
4 Волчья стая
1 Хан Урал-Бек"""),
    ("Лесная стража", """\
3 Лесной лучник
3 Дриада
2 Друид дубравы
4 Белка-вестница
2 Медведь-шатун
3 Эльфийский следопыт
2 Древень
2 Ядовитый плющ
1 Королева эльфов Лиэнна
3 Сова-провидица
2 Хранитель чащи
3 Целитель трав"""),
)
"""The starter decks: name and list (30 cards each, from the sample catalogue)."""


@dataclass(frozen=True, slots=True)
class DemoFormats:
    standard_id: int
    starter_id: int


def _existing(db: Database, name: str) -> int | None:
    try:
        return find_format(db, name)
    except UserError:
        return None


def seed_demo_formats(db: Database, *, actor: str = "Организатор (демо)") -> DemoFormats:
    """The demo's two formats (made once; their ids)."""
    if not len(card_catalogue(db)):
        load_sample_cards(db, actor=actor)
    standard = _existing(db, STANDARD)
    if standard is None:
        standard = create_format(db, actor=actor, account_id=None, name=STANDARD,
                                 editions=card_catalogue(db).editions()).id
        future = moscow_today(db.clock) + timedelta(days=30)
        set_ban_list(db, standard, actor=actor, account_id=None, effective=PAST_DAY,
                     cards=PAST_BANS)
        set_ban_list(db, standard, actor=actor, account_id=None, effective=future,
                     cards=FUTURE_BANS)
    starter = _existing(db, STARTER)
    if starter is None:
        starter = create_format(db, actor=actor, account_id=None, name=STARTER,
                                starter=True).id
    have = {deck.name for deck in format_view(db, starter).format.starter_decks}
    for name, text in STARTER_DECKS:
        if name not in have:
            set_starter_deck(db, starter, actor=actor, account_id=None, name=name, text=text)
    return DemoFormats(standard_id=standard, starter_id=starter)
