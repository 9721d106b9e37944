"""The reader's language for messages outside the web pages: errors in Russian (default) or
English, for the CLI, the API and the pages alike.

Every ``UserError`` template (``turnir.errors``) is a message id of the ``errors`` catalogue,
``locale/{ru,en}/LC_MESSAGES/errors.po`` beside this module; the compiled ``errors.mo`` is
committed. ``python -m turnir.i18n`` adds the templates found in the code to both catalogues
and compiles them (``turnir.i18n_catalogue``); ``tests/test_error_catalogue.py`` fails when a
template is missing or untranslated.

Reading a catalogue uses only the standard library's ``gettext``, so the CLI pays nothing for
Babel when it prints an error.
"""

from __future__ import annotations

import gettext as stdlib_gettext
import os
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path

from turnir.errors import UserError

LOCALES = ("ru", "en")
DEFAULT_LOCALE = "ru"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "errors"


def catalogue_path(locale: str, suffix: str = ".po") -> Path:
    return LOCALE_DIR / locale / "LC_MESSAGES" / f"{DOMAIN}{suffix}"


def known_locale(value: str | None) -> str | None:
    """``ru``/``en`` from a language tag such as ``en_US.UTF-8`` or ``ru-RU``; else ``None``."""
    if not value:
        return None
    tag = value.strip().replace("-", "_").split(".")[0].split("_")[0].lower()
    return tag if tag in LOCALES else None


@cache
def error_gettext(locale: str) -> Callable[[str], str]:
    """The ``errors`` catalogue of ``locale`` (the English templates themselves when there is
    none)."""
    path = catalogue_path(locale, ".mo")
    if locale not in LOCALES or not path.exists():
        return lambda text: text
    with path.open("rb") as f:
        return stdlib_gettext.GNUTranslations(f).gettext


def error_text(error: UserError, locale: str) -> str:
    """``error``'s message in ``locale``."""
    return error.translated(error_gettext(known_locale(locale) or DEFAULT_LOCALE))


def environment_locale(env: Mapping[str, str] | None = None) -> str:
    """The CLI's language from the environment: English when ``LC_ALL``, ``LC_MESSAGES`` or
    ``LANG`` (the first one set, as gettext reads them) is English; Russian otherwise."""
    environ = os.environ if env is None else env
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "").strip()
        if value:
            return known_locale(value) or DEFAULT_LOCALE
    return DEFAULT_LOCALE


def accept_language_locale(header: str | None) -> str:
    """The first of ``ru``/``en`` in an ``Accept-Language`` header by quality; Russian when
    neither is asked for."""
    best: tuple[float, int, str] | None = None
    for position, part in enumerate((header or "").split(",")[:32]):
        tag, _, params = part.strip().partition(";")
        locale = known_locale(tag)
        if locale is None:
            continue
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if quality > 0 and (best is None or (-quality, position) < (-best[0], best[1])):
            best = (quality, position, locale)
    return best[2] if best is not None else DEFAULT_LOCALE
