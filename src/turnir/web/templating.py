"""Jinja2 environments, one per language (each with its catalog installed), and the
page-rendering helper every page route uses."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import tzinfo
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

from turnir.domain.ratings import exact_text
from turnir.domain.standings import TieBreak
from turnir.web.i18n import LOCALES, Formats, load_translations

TEMPLATES = Path(__file__).resolve().parent / "templates"


def N_(text: str) -> str:
    """Marks a string for the catalogs; translated where it is shown."""
    return text


STATUS_NAMES = {"registration": N_("Registration"), "running": N_("Running"),
                "finished": N_("Finished")}
FORMAT_NAMES = {"swiss": N_("Swiss"), "draft": N_("Draft"), "constructed": N_("Constructed")}
LEVEL_NAMES = {"amateur": N_("Amateur"), "professional": N_("Professional"),
               "highest": N_("Highest")}
KIND_NAMES = {"match": N_("Match"), "bye": N_("Bye"), "privilege_bye": N_("Privilege bye")}
ROLE_NAMES = {"organizer": N_("organizer"), "head_judge": N_("head judge"),
              "floor_judge": N_("floor judge"), "player": N_("player"),
              "anonymous": N_("anonymous")}


ERROR_TEXTS = {
    "login_required": N_("Log in to do this."),
    "forbidden": N_("Your role does not allow this."),
    "not_staff": N_("You are not on this tournament's staff: its organizer, head judge and floor "
                    "judges act in it."),
    "last_staff_organizer": N_("The tournament keeps at least one organizer with a login."),
    "player_account": N_("A player's login cannot be on the staff; a judge needs a login of "
                         "their own."),
    "not_your_match": N_("You can report only your own match."),
    "csrf": N_("The form has expired; reload the page and send it again."),
    "too_many_attempts": N_("Too many failed logins; wait a few minutes."),
    "bad_credentials": N_("Wrong login or password."),
    "finished": N_("The tournament is finished; nothing can change in it."),
    "result_exists": N_("This table already has a result; a judge corrects it."),
    "round_not_finished": N_("The round is not finished: some results are missing."),
    "round_has_results": N_("Only a round without results can be undone."),
    "no_round": N_("No round has been paired yet."),
    "unknown_tournament": N_("There is no such tournament."),
    "not_found": N_("There is no such page."),
    "bad_result": N_("This result is not possible here."),
    "drawn_elimination": N_("A top match cannot end drawn."),
    "duplicate_player": N_("This player is already registered."),
    "duplicate_login": N_("This login is taken."),
    "weak_password": N_("The password needs at least 8 characters."),
    "last_organizer": N_("This is the last active organizer; make another organizer first."),
    "unknown_account": N_("There is no such account."),
    "no_person": N_("A player's account must name the player; choose another role for an "
                    "organizer or a judge."),
    "stale_version": N_("Someone changed this meanwhile; reload and try again."),
    "round_closed": N_("This round is closed; ask a judge."),
    "invalid_request": N_("The form is not filled in correctly."),
    "busy": N_("The database is busy; try again."),
    "too_large": N_("The form or file is too large for the server."),
    "no_file": N_("Choose the players file to import."),
}


def _names(gettext: Callable[[str], str]) -> dict[str, dict[str, str]]:
    def tr(names: dict[str, str]) -> dict[str, str]:
        return {key: gettext(text) for key, text in names.items()}

    return {"status_names": tr(STATUS_NAMES), "format_names": tr(FORMAT_NAMES),
            "level_names": tr(LEVEL_NAMES), "kind_names": tr(KIND_NAMES),
            "role_names": tr(ROLE_NAMES), "error_texts": tr(ERROR_TEXTS)}


def _tiebreak_helpers(locale: str) -> dict[str, Any]:
    ru = locale == "ru"

    def name(tb: TieBreak) -> str:
        return tb.name_ru if ru else tb.name_en

    def abbr(tb: TieBreak) -> str:
        return tb.abbr_ru if ru else tb.abbr_en

    def explain(tb: TieBreak) -> str:
        return tb.explanation_ru if ru else tb.explanation_en

    return {"tb_name": name, "tb_abbr": abbr, "tb_explain": explain}


class Templates:
    """The templates in every language."""

    def __init__(self, tz: tzinfo, globals_: Mapping[str, Any]) -> None:
        self.envs: dict[str, Environment] = {}
        for locale in LOCALES:
            env = Environment(
                loader=FileSystemLoader(TEMPLATES),
                autoescape=select_autoescape(("html",)),
                extensions=["jinja2.ext.i18n"],
                trim_blocks=True,
                lstrip_blocks=True,
                auto_reload=False,
            )
            translations = load_translations(locale)
            env.install_gettext_translations(  # type: ignore[attr-defined]
                translations, newstyle=True)
            env.globals.update(_names(translations.gettext))
            formats = Formats(locale, tz)
            env.filters["num"] = formats.number
            env.filters["dt"] = formats.datetime
            env.filters["tm"] = formats.time
            env.filters["rating"] = formats.rating
            env.filters["signed"] = formats.signed
            env.filters["exact"] = exact_text
            env.globals.update(globals_)
            env.globals.update(_tiebreak_helpers(locale))
            env.globals["locale"] = locale
            env.globals["TieBreak"] = TieBreak
            self.envs[locale] = env

        self.gettext = {locale: load_translations(locale).gettext for locale in LOCALES}

    def render(self, locale: str, name: str, context: Mapping[str, Any]) -> str:
        return self.envs[locale].get_template(name).render(context)
