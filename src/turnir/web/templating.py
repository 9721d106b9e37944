"""Jinja2 environments, one per language (each with its catalog installed), and the
page-rendering helper every page route uses."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Mapping
from datetime import tzinfo
from fractions import Fraction
from pathlib import Path
from typing import Any

from babel.numbers import get_decimal_symbol
from jinja2 import BytecodeCache, Environment, FileSystemLoader, select_autoescape
from jinja2.bccache import Bucket

from turnir.domain.ratings import exact_text
from turnir.domain.standings import TieBreak
from turnir.services.audit import brief
from turnir.web.i18n import LOCALES, Formats, load_translations

TEMPLATES = Path(__file__).resolve().parent / "templates"
STATIC = Path(__file__).resolve().parent / "static"


def static_versions(folder: Path = STATIC) -> dict[str, str]:
    """Each static file's name and the start of the hash of its content, read once when the
    app starts: ``static("style.css")`` links ``/static/style.css?v=<hash>``, so a browser
    (a phone's above all) fetches a stylesheet or script again as soon as it changes (issue 12,
    item 10)."""
    return {path.name: hashlib.sha256(path.read_bytes()).hexdigest()[:12]
            for path in sorted(folder.iterdir()) if path.is_file()}


def static_link(versions: Mapping[str, str], prefix: str = "/static") -> Callable[[str], str]:
    """The template function ``static(name)``: the versioned address of a static file."""
    def link(name: str) -> str:
        version = versions.get(name)
        return f"{prefix}/{name}" if version is None else f"{prefix}/{name}?v={version}"

    return link


def N_(text: str) -> str:
    """Marks a string for the catalogs; translated where it is shown."""
    return text


STATUS_NAMES = {"registration": N_("Registration"), "running": N_("Running"),
                "finished": N_("Finished")}
FORMAT_NAMES = {"swiss": N_("Swiss"), "draft": N_("Draft"), "constructed": N_("Constructed"),
                # a rating report's rated format (``RatedFormat``, R-5) besides the above
                "starter_constructed": N_("Starter constructed"),
                "draft_1_booster": N_("Draft, 1 booster"),
                "draft_2_boosters": N_("Draft, 2 boosters"),
                "draft_3_boosters": N_("Draft, 3 boosters"),
                "draft_4_boosters": N_("Draft, 4 boosters")}
LEVEL_NAMES = {"amateur": N_("Amateur"), "professional": N_("Professional"),
               "highest": N_("Highest")}
KIND_NAMES = {"match": N_("Match"), "bye": N_("Bye"), "privilege_bye": N_("Privilege bye")}
ROLE_NAMES = {"organizer": N_("organizer"), "head_judge": N_("head judge"),
              "floor_judge": N_("floor judge"), "player": N_("player"),
              "anonymous": N_("anonymous")}


def _names(gettext: Callable[[str], str]) -> dict[str, dict[str, str]]:
    def tr(names: dict[str, str]) -> dict[str, str]:
        return {key: gettext(text) for key, text in names.items()}

    return {"status_names": tr(STATUS_NAMES), "format_names": tr(FORMAT_NAMES),
            "level_names": tr(LEVEL_NAMES), "kind_names": tr(KIND_NAMES),
            "role_names": tr(ROLE_NAMES)}


def exact_in(locale: str) -> Callable[[Fraction], str]:
    """The filter ``exact``: an exact value (a K of 5/2) in the page's locale, "2,5" on a
    Russian page and "2.5" on an English one (issue 12 QA: "K = 2.5" beside "137,53")."""
    symbol = get_decimal_symbol(locale)

    def exact(value: Fraction) -> str:
        return exact_text(value).replace(".", symbol)

    return exact


def _tiebreak_helpers(locale: str) -> dict[str, Any]:
    ru = locale == "ru"

    def name(tb: TieBreak) -> str:
        return tb.name_ru if ru else tb.name_en

    def abbr(tb: TieBreak) -> str:
        return tb.abbr_ru if ru else tb.abbr_en

    def explain(tb: TieBreak) -> str:
        return tb.explanation_ru if ru else tb.explanation_en

    return {"tb_name": name, "tb_abbr": abbr, "tb_explain": explain}


class _CompiledTemplates(BytecodeCache):
    """The compiled templates, kept for the whole process and shared by every environment
    (each language's, and every app the process makes): compiling the 88 templates takes about
    2 s, loading their code a few milliseconds. A template whose source changed is compiled
    again (Jinja checks the source's checksum). Every environment here is made with the same
    settings, which a shared cache requires."""

    def __init__(self) -> None:
        self._codes: dict[str, bytes] = {}
        self._lock = threading.Lock()

    def load_bytecode(self, bucket: Bucket) -> None:
        with self._lock:
            code = self._codes.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        code = bucket.bytecode_to_string()
        with self._lock:
            self._codes[bucket.key] = code


COMPILED = _CompiledTemplates()


class Templates:
    """The templates in every language."""

    def __init__(self, tz: tzinfo, globals_: Mapping[str, Any]) -> None:
        self.envs: dict[str, Environment] = {}
        self.static_versions = static_versions()
        """Each static file's current hash (``static_files.VersionedStaticFiles``)."""
        static = static_link(self.static_versions)
        self.formats: dict[str, Formats] = {}
        for locale in LOCALES:
            env = Environment(
                loader=FileSystemLoader(TEMPLATES),
                autoescape=select_autoescape(("html",)),
                extensions=["jinja2.ext.i18n"],
                trim_blocks=True,
                lstrip_blocks=True,
                auto_reload=False,
                bytecode_cache=COMPILED,
            )
            translations = load_translations(locale)
            env.install_gettext_translations(  # type: ignore[attr-defined]
                translations, newstyle=True)
            env.globals.update(_names(translations.gettext))
            formats = self.formats[locale] = Formats(locale, tz)
            env.filters["num"] = formats.number
            env.filters["dt"] = formats.datetime
            env.filters["tm"] = formats.time
            env.filters["rating"] = formats.rating
            env.filters["signed"] = formats.signed
            env.filters["exact"] = exact_in(locale)
            env.filters["brief"] = brief  # an audit entry's before or after, short
            env.globals.update(globals_)
            env.globals.update(_tiebreak_helpers(locale))
            env.globals["locale"] = locale
            env.globals["static"] = static
            env.globals["TieBreak"] = TieBreak
            self.envs[locale] = env

        self.gettext = {locale: load_translations(locale).gettext for locale in LOCALES}

    def render(self, locale: str, name: str, context: Mapping[str, Any]) -> str:
        return self.envs[locale].get_template(name).render(context)
