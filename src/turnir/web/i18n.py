"""Russian (default) and English: Babel message catalogs, the visitor's language, and dates
and numbers in the locale's form.

The catalogs are ``locale/{ru,en}/LC_MESSAGES/messages.po`` (English source strings); the
compiled ``messages.mo`` beside each is committed, and ``python -m turnir.web.i18n`` compiles
them again after an edit (``python -m turnir.web.i18n update`` first adds new strings of the
templates and code to both ``.po`` files; ``tests/web/test_i18n.py`` fails when a ``.mo`` is
stale or a string of a template has no Russian translation). The language is the
``turnir_lang`` cookie (set by the switch, remembered a year), else the browser's
``Accept-Language``, else Russian.
"""

from __future__ import annotations

import datetime as dt
import io
import os
import sys
from contextlib import suppress
from datetime import tzinfo
from decimal import Decimal
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel import Locale
from babel.dates import format_date, format_datetime, format_time
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po
from babel.numbers import format_decimal
from babel.support import Translations

LOCALES = ("ru", "en")
DEFAULT_LOCALE = "ru"
COOKIE = "turnir_lang"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"


def po_path(locale: str) -> Path:
    return LOCALE_DIR / locale / "LC_MESSAGES" / "messages.po"


def mo_bytes(locale: str) -> bytes:
    """The catalog compiled from its ``.po``."""
    with po_path(locale).open("rb") as f:
        catalog = read_po(f, locale=locale)
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def load_translations(locale: str) -> Translations:
    """The compiled catalog of ``locale`` (compiled in memory when the ``.mo`` is missing)."""
    mo = po_path(locale).with_suffix(".mo")
    data = mo.read_bytes() if mo.exists() else mo_bytes(locale)
    return Translations(io.BytesIO(data))


def compile_catalogs() -> list[Path]:
    written = []
    for locale in LOCALES:
        target = po_path(locale).with_suffix(".mo")
        target.write_bytes(mo_bytes(locale))
        written.append(target)
    return written


def negotiate(cookie: str | None, accept_language: str | None, default: str) -> str:
    """The visitor's language: the remembered choice, else the browser's, else the default."""
    if cookie in LOCALES:
        return cookie
    for part in (accept_language or "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LOCALES:
            return code
    return default if default in LOCALES else DEFAULT_LOCALE


def zone(name: str | None) -> tzinfo:
    """The zone pages show times in: ``name`` (``TURNIR_TIMEZONE``), else the machine's own
    (``TZ``, else ``/etc/localtime``, with its summer time), else UTC."""
    if name:
        return ZoneInfo(name)
    given = os.environ.get("TZ", "").lstrip(":").strip()
    if given:
        with suppress(ValueError, ZoneInfoNotFoundError):
            return ZoneInfo(given)
    try:
        with open("/etc/localtime", "rb") as local:
            return ZoneInfo.from_file(local, key="localtime")
    except (OSError, ValueError):
        return ZoneInfo("UTC")


class Formats:
    """Dates, times and numbers in one locale's form."""

    def __init__(self, locale: str, tz: tzinfo) -> None:
        self.locale = Locale.parse(locale)
        self.tz = tz

    def number(self, value: float | int | Decimal) -> str:
        return format_decimal(value, locale=self.locale)

    def rating(self, value: Decimal | None) -> str:
        """A rating with its two decimals; a dash when there is none."""
        return "—" if value is None else format_decimal(value, "#,##0.00", locale=self.locale)

    def signed(self, value: Decimal) -> str:
        """A rating change with its sign."""
        return ("+" if value > 0 else "") + format_decimal(value, "#,##0.00",
                                                           locale=self.locale)

    def date(self, value: dt.date | None) -> str:
        """A day in the form of the date part of ``datetime`` ("1 дек. 2026 г.")."""
        if value is None:
            return ""
        return format_date(value, format="medium", locale=self.locale)

    def datetime(self, value: dt.datetime | None) -> str:
        if value is None:
            return ""
        return format_datetime(value, format="medium", tzinfo=self.tz, locale=self.locale)

    def time(self, value: dt.datetime | None) -> str:
        if value is None:
            return ""
        return format_time(value, format="short", tzinfo=self.tz, locale=self.locale)


METHOD_MAP = [("templates/**.html", "jinja2"), ("**.py", "python")]
JINJA_OPTIONS = {"extensions": "jinja2.ext.i18n", "trim_blocks": "true",
                 "lstrip_blocks": "true"}


def extract() -> Catalog:
    """Every translatable string of the web package (templates and Python)."""
    catalog = Catalog(project="turnir", version="1")
    root = Path(__file__).resolve().parent
    for filename, lineno, message, comments, context in extract_from_dir(
        root, METHOD_MAP, options_map={"templates/**.html": JINJA_OPTIONS},
        keywords={**DEFAULT_KEYWORDS, "N_": None},
    ):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments,
                    context=context)
    return catalog


def update_catalogs() -> None:
    """Bring both ``.po`` files up to date with the sources (new strings untranslated), then
    compile them."""
    template = extract()
    for locale in LOCALES:
        path = po_path(locale)
        if path.exists():
            with path.open("rb") as f:
                catalog = read_po(f, locale=locale)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=locale, project="turnir", version="1")
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        with path.open("wb") as f:
            write_po(f, catalog, width=100, omit_header=False, sort_output=True)
    compile_catalogs()


if __name__ == "__main__":  # pragma: no cover - a maintainer's command
    if sys.argv[1:] == ["update"]:
        update_catalogs()
    for path in compile_catalogs():
        sys.stdout.write(f"compiled {path}\n")
