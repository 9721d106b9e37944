"""The card catalogue file (``docs/cards.md``): CSV, JSON or an Excel ``.xlsx`` sheet.

- **CSV** (or the first sheet of an ``.xlsx`` workbook): a header row, then one card a row;
  ``,``, ``;`` or tab separated; UTF-8 (a BOM is ignored), UTF-16 with a BOM or Windows-1251
  (``turnir.formats.tabular`` reads the rows).
- **JSON** (in the same encodings): a list of objects, or ``{"cards": [...]}``, with the
  same names as keys; features and aliases may be lists, cost a number, uniqueness a boolean.

Columns in any order, their names in English or Russian (case, ё/е and spaces ignored):
``name``/``название`` and ``edition``/``выпуск`` are required; ``number``/``номер``,
``rarity``/``редкость``, ``element``/``стихия``, ``cost``/``стоимость`` (0-99, empty: 0),
``crystal``/``кристалл`` (gold/silver, золото/серебро, золотой/серебряный; empty: silver),
``type``/``тип``, ``features``/``особенности`` (separated by ``,`` or ``;``),
``unique``/``уникальность`` (да/нет, yes/no, 1/0, true/false; empty: no) and
``aliases``/``другие названия`` (separated by ``|``). Other columns are ignored and named.

A file is at most ``MAX_BYTES`` bytes and ``MAX_ROWS`` cards; a value at most
``turnir.domain.cards.MAX_NAME`` characters. Every bad value is reported with its row and
column (a ``CardFileError``; the first ``MAX_REPORTED`` in its message), and then nothing is
read: a file is taken whole or not at all.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import reduce
from typing import Any

from turnir.domain.cards import MAX_NAME, Card, Crystal, card_key, catalogue_of
from turnir.errors import Term, UserError
from turnir.formats.tabular import Row, check_size, decode_text, read_table
from turnir.formats.tabular import _csv_problem as csv_problem

_LINE_END = re.compile(r"\r\n|\r|\n")

MAX_BYTES = 5_000_000
"""The largest catalogue file (5 MB)."""
MAX_ROWS = 20_000
"""The most cards in one file."""
MAX_REPORTED = 20
"""The problems named in the error's message (all are counted)."""
MAX_LIST = 30
"""The most features or aliases of one card."""
THE_FILE = Term("the card file")
"""What a file without a name is called in messages."""

FIELDS = ("name", "edition", "number", "rarity", "element", "cost", "crystal", "type",
          "features", "unique", "aliases")
_NAMES: dict[str, tuple[str, ...]] = {
    "name": ("name", "название", "имя", "карта", "card"),
    "edition": ("edition", "выпуск", "сет", "set", "издание"),
    "number": ("number", "номер", "№", "no"),
    "rarity": ("rarity", "редкость"),
    "element": ("element", "стихия"),
    "cost": ("cost", "стоимость", "цена"),
    "crystal": ("crystal", "кристалл", "кристаллы"),
    "type": ("type", "тип"),
    "features": ("features", "особенности", "свойства"),
    "unique": ("unique", "уникальность", "уникальная"),
    "aliases": ("aliases", "другие названия", "другие имена", "алиасы"),
}
COLUMNS: dict[str, str] = {card_key(alias): field for field, names in _NAMES.items()
                           for alias in names}
"""A column name's card key → the field it fills."""
_CRYSTALS = {card_key(word): crystal for crystal, words in (
    (Crystal.GOLD, ("gold", "золото", "золотой", "золотая", "з", "g")),
    (Crystal.SILVER, ("silver", "серебро", "серебряный", "серебряная", "с", "s")),
) for word in words}
_YES = {card_key(w) for w in ("да", "yes", "1", "true", "+", "уникальная", "unique")}
_NO = {card_key(w) for w in ("нет", "no", "0", "false", "-")}
_FEATURES = re.compile(r"[,;]")


@dataclass(frozen=True, slots=True)
class CardFile:
    """What a catalogue file holds."""

    cards: tuple[Card, ...]
    ignored: tuple[str, ...] = ()
    """The columns (or JSON keys) that are not card fields, as written."""


class CardFileError(UserError):
    """A catalogue file with problems: ``problems`` lists every one (row and column each)."""

    code = "bad_card_file"

    def __init__(self, source: str, problems: Sequence[UserError]) -> None:
        shown = list(problems[:MAX_REPORTED])
        if len(problems) > MAX_REPORTED:
            shown.append(UserError("and {more} more", more=len(problems) - MAX_REPORTED))
        super().__init__("{source}: {count} problems, nothing was imported: {problems}",
                         source=source, count=len(problems), problems=_joined(shown))
        self.problems = tuple(problems)


def _joined(problems: Sequence[UserError]) -> UserError:
    """The problems as one message, each translated in its place."""
    return reduce(lambda rest, first: UserError("{first}; {rest}", first=first, rest=rest),
                  reversed(problems[:-1]), problems[-1])


# ----- one card from its values --------------------------------------------------------------


class _Row:
    """The values of one row (or JSON object) by field, and the problems found in it."""

    def __init__(self, where: UserError, values: Mapping[str, object],
                 labels: Mapping[str, str]) -> None:
        self.where = where
        self.values = values
        self.labels = labels
        self.problems: list[UserError] = []

    def problem(self, field: str, error: UserError) -> None:
        self.problems.append(UserError("{where}, column {column}: {error}", where=self.where,
                                       column=self.labels.get(field, field), error=error))

    def text(self, field: str) -> str:
        value = self.values.get(field)
        if value is None:
            return ""
        if isinstance(value, int | float) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str):
            self.problem(field, UserError("expected text"))
            return ""
        return self._bounded(field, " ".join(value.split()))

    def _bounded(self, field: str, text: str) -> str:
        if len(text) > MAX_NAME:
            self.problem(field, UserError("the value is longer than {limit} characters",
                                          limit=MAX_NAME))
            return text[:MAX_NAME]
        return text

    def items(self, field: str, separator: re.Pattern[str]) -> tuple[str, ...]:
        value = self.values.get(field)
        if value is None or value == "":
            return ()
        if isinstance(value, str):
            parts: Iterable[object] = separator.split(value)
        elif isinstance(value, list):
            parts = value
        else:
            self.problem(field, UserError("expected text or a list of texts"))
            return ()
        if not all(isinstance(part, str) for part in parts):
            self.problem(field, UserError("expected text or a list of texts"))
            return ()
        found = tuple(dict.fromkeys(self._bounded(field, " ".join(str(p).split()))
                                    for p in parts if str(p).strip()))
        if len(found) > MAX_LIST:
            self.problem(field, UserError("more than {most} values", most=MAX_LIST))
        return found[:MAX_LIST]

    def cost(self) -> int:
        value = self.values.get("cost")
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 99:
            return value
        text = "" if value is None else str(value).strip()
        if text == "":
            return 0
        if re.fullmatch(r"\d{1,2}", text):
            return int(text)
        self.problem("cost", UserError("the cost must be a whole number from 0 to 99, not "
                                       "{value!r}", value=text[:20]))
        return 0

    def crystal(self) -> Crystal:
        text = self.text("crystal")
        if not text:
            return Crystal.SILVER
        found = _CRYSTALS.get(card_key(text))
        if found is None:
            self.problem("crystal", UserError("the crystal must be gold or silver, not "
                                              "{value!r}", value=text[:20]))
            return Crystal.SILVER
        return found

    def unique(self) -> bool:
        value = self.values.get("unique")
        if isinstance(value, bool):
            return value
        text = card_key("" if value is None else str(value))
        if text in _YES:
            return True
        if text in _NO or text == "":
            return False
        self.problem("unique", UserError("uniqueness must be yes or no, not {value!r}",
                                         value=str(value)[:20]))
        return False

    def card(self) -> Card | None:
        name, edition = self.text("name"), self.text("edition")
        for field, value in (("name", name), ("edition", edition)):
            if not value:
                self.problem(field, UserError("the value is missing"))
        card = Card(name=name, edition=edition, number=self.text("number"),
                    rarity=self.text("rarity"), element=self.text("element"),
                    cost=self.cost(), crystal=self.crystal(), type=self.text("type"),
                    features=self.items("features", _FEATURES), unique=self.unique(),
                    aliases=self.items("aliases", re.compile(r"\|")))
        return None if self.problems else card


def cards_of(rows: Iterable[tuple[UserError, Mapping[str, object] | None]], *, source: str,
             labels: Mapping[str, str], ignored: Sequence[str] = ()) -> CardFile:
    """The cards of rows already split into fields (``where`` each), or a ``CardFileError``
    naming every problem; a card listed twice in one edition is one of them (``None``
    values: the row is not an object)."""
    problems: list[UserError] = []
    cards: list[Card] = []
    seen: dict[tuple[str, str], UserError] = {}
    for where, values in rows:
        if values is None:
            problems.append(UserError("{where}: expected an object", where=where))
            continue
        row = _Row(where, values, labels)
        card = row.card()
        problems.extend(row.problems)
        if card is None:
            continue
        pair = (card.key, card_key(card.edition))
        if pair in seen:
            row.problem("name", UserError("the card {name!r} of the edition {edition!r} is "
                                          "already listed ({first})", name=card.name,
                                          edition=card.edition, first=seen[pair]))
            problems.extend(row.problems)
            continue
        seen[pair] = where
        cards.append(card)
    if problems:
        raise CardFileError(source, problems)
    if not cards:
        raise UserError("{source} lists no card", code="bad_card_file", source=source)
    catalogue_of(cards)  # the domain's own checks, the last word
    return CardFile(cards=tuple(cards), ignored=tuple(ignored))


# ----- the file kinds -----------------------------------------------------------------------


def _header(cells: Sequence[str], source: str) -> tuple[list[str | None], dict[str, str],
                                                        list[str]]:
    fields: list[str | None] = []
    labels: dict[str, str] = {}
    ignored: list[str] = []
    for cell in cells:
        field = COLUMNS.get(card_key(cell))
        if field is not None and field in labels:
            raise UserError("{source}: the column {column!r} is given twice", code="bad_card_file",
                            source=source, column=cell)
        fields.append(field)
        if field is None:
            if cell:
                ignored.append(cell)
        else:
            labels[field] = cell
    for needed in ("name", "edition"):
        if needed not in labels:
            raise UserError("{source}: the header row needs a column {needed!r} (the columns: "
                            "{columns})", code="bad_card_file", source=source, needed=needed,
                            columns=", ".join(FIELDS))
    return fields, labels, ignored


def _delimiter(header: str) -> str:
    """The separator that splits the header row into the most known columns (``csv.Sniffer``
    guesses wrong on rows with many empty values)."""
    def known(delimiter: str) -> tuple[int, int]:
        cells = next(csv.reader([header], delimiter=delimiter))
        return sum(card_key(cell) in COLUMNS for cell in cells), len(cells)
    return max((";", ",", "\t"), key=known)


def _csv_rows(text: str, source: str) -> list[Row]:
    lines = _LINE_END.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) > MAX_ROWS + 1:  # a header and the cards (blank lines count too)
        raise UserError("{source}: more than {most} cards", code="file_too_large",
                        source=source, most=f"{MAX_ROWS:,}")
    header = next((line for line in lines if line.strip()), "")
    dialect = type("Found", (csv.excel,), {"delimiter": _delimiter(header)})
    rows = []
    for number, line in enumerate(lines, start=1):
        if line.strip():
            try:
                cells = next(csv.reader([line], dialect, strict=True))
            except csv.Error as error:
                raise csv_problem(error, source, number) from None
            rows.append(Row(number, tuple(cell.strip() for cell in cells)))
    return rows


def _table_cards(rows: Sequence[Row], source: str) -> CardFile:
    """The cards of a CSV file's or a sheet's rows: a header row, then a card a row."""
    if not rows:
        raise UserError("{source} is empty", code="bad_card_file", source=source)
    fields, labels, ignored = _header(rows[0].cells, source)
    split = ((UserError("row {row}", row=row.line),
              {field: cell for field, cell in zip(fields, row.cells, strict=False)
               if field is not None})
             for row in rows[1:])
    return cards_of(split, source=source, labels=labels, ignored=ignored)


def read_cards_json(text: str, *, source: str = THE_FILE) -> CardFile:
    """A JSON catalogue: a list of card objects, or ``{"cards": [...]}``."""
    try:
        data = json.loads(text)
    except ValueError as error:
        raise UserError("{source} is not valid JSON: {detail}", code="bad_card_file",
                        source=source, detail=str(error)[:200]) from None
    if isinstance(data, dict):
        data = data.get("cards")
    if not isinstance(data, list):
        raise UserError("{source}: expected a list of cards", code="bad_card_file",
                        source=source)
    if len(data) > MAX_ROWS:
        raise UserError("{source}: more than {most} cards", code="file_too_large",
                        source=source, most=f"{MAX_ROWS:,}")
    labels: dict[str, str] = {}
    ignored: dict[str, None] = {}
    rows: list[tuple[UserError, Mapping[str, object] | None]] = []
    for index, item in enumerate(data, start=1):
        where = UserError("card {index}", index=index)
        if not isinstance(item, dict):
            rows.append((where, None))
            continue
        values: dict[str, Any] = {}
        for key, value in item.items():
            field = COLUMNS.get(card_key(str(key)))
            if field is None:
                ignored.setdefault(str(key)[:MAX_NAME])
            else:
                values[field] = value
                labels.setdefault(field, str(key)[:MAX_NAME])
        rows.append((where, values))
    return cards_of(rows, source=source, labels=labels, ignored=list(ignored))


def read_cards_bytes(data: bytes, *, source: str = THE_FILE) -> CardFile:
    """A catalogue file's bytes, whatever its kind: an ``.xlsx`` workbook by its content, else
    text (UTF-8, UTF-16 with a BOM or Windows-1251): JSON when it starts with ``[`` or ``{``,
    else CSV."""
    check_size(data, source=source, max_bytes=MAX_BYTES)
    if data.startswith((b"PK\x03\x04", b"\xd0\xcf\x11\xe0")):  # .xlsx, or an old .xls
        return _table_cards(read_table(data, source=source, max_bytes=MAX_BYTES,
                                       max_lines=MAX_ROWS + 1), source)
    text = decode_text(data, source=source)
    if text.lstrip(" \t\r\n")[:1] in ("{", "["):
        return read_cards_json(text, source=source)
    return _table_cards(_csv_rows(text, source), source)
