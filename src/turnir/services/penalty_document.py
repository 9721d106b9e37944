"""The penalties document: the penalties section of the tournament report the head judge
submits (J-4, J-7, J-8). (Not a player's report of a result, ``services.reports``, nor the
result as reported before penalties, ``domain.penalties.ReportedResult``.)

``penalty_document`` gathers it from one snapshot: every penalty with its reason, the guide's
penalty and the explanation (withdrawn ones marked), the disqualifications with their prize
and rating flags (J-4: "without prizes" is named in the report and read by the ratings, R-4),
appeals and their outcomes, suspensions given, technical results and claims (S-8, S-9), and
each player's T-6 counts. ``render_penalty_document`` writes it as Markdown in Russian or
English.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from turnir.domain.model import RulesLevel
from turnir.domain.model import StaffRole as JudgeRole
from turnir.domain.penalties import GivenAt, Moment, Penalty, Text, disqualification_effects
from turnir.domain.penalties.ladder import level_name
from turnir.domain.standings import PenaltyCounts
from turnir.services.common import Database, reading
from turnir.services.game_rulings import GameRulingView, rulings_in
from turnir.services.penalties import PenaltyView, views_in
from turnir.services.penalty_appeals import AppealView, appeal_views
from turnir.services.rulings_page import ruling_words
from turnir.services.suspensions import SuspensionView, suspensions_in
from turnir.storage.mappers import load_penalties, load_tournament, tournament_row
from turnir.storage.penalties_repo import entry_lines, staff_names
from turnir.storage.penalty_rows import judging_settings_of

Language = Literal["ru", "en"]


@dataclass(frozen=True, slots=True)
class DisqualificationLine:
    """A disqualified player (J-4)."""

    player: int
    name: str
    person_id: int | None
    penalty: Penalty
    seq: int
    dropped_after: int | None
    prize_eligible: bool
    """A plain disqualification keeps the prizes of the place."""
    rating_reset: bool
    """Without prizes: the rating falls to the newcomer value (R-4), read by the ratings."""
    explanation: Text


@dataclass(frozen=True, slots=True)
class PenaltyDocument:
    tournament_id: int
    tournament: str
    rules_level: RulesLevel
    official: bool
    head_judge: str
    judges: tuple[tuple[str, str], ...]
    """(name, role) of every judge."""
    names: dict[int, str]
    penalties: tuple[PenaltyView, ...]
    appeals: tuple[AppealView, ...]
    disqualifications: tuple[DisqualificationLine, ...]
    suspensions: tuple[SuspensionView, ...]
    rulings: tuple[GameRulingView, ...]
    counts: dict[int, PenaltyCounts]
    """Every penalised player's T-6 counts (imported and recorded)."""
    ruling_words: dict[int, Text] = field(default_factory=dict)
    """Each ruling (by id) with the players' names (``rulings_page.ruling_words``)."""

    @property
    def without_prizes(self) -> frozenset[int]:
        """Players disqualified without prizes (J-4): no prizes, rating reset (R-4)."""
        return frozenset(d.player for d in self.disqualifications if d.rating_reset)

    def as_json(self) -> dict[str, Any]:
        return {
            "tournament_id": self.tournament_id, "tournament": self.tournament,
            "rules_level": self.rules_level.value, "official": self.official,
            "head_judge": self.head_judge,
            "judges": [{"name": n, "role": r} for n, r in self.judges],
            "penalties": [p.as_json() for p in self.penalties],
            "appeals": [a.as_json() for a in self.appeals],
            "disqualifications": [
                {"player": d.player, "name": d.name, "person_id": d.person_id,
                 "penalty": d.penalty.value, "penalty_seq": d.seq,
                 "dropped_after": d.dropped_after, "prize_eligible": d.prize_eligible,
                 "rating_reset": d.rating_reset,
                 "explanation": {"ru": d.explanation.ru, "en": d.explanation.en}}
                for d in self.disqualifications],
            "without_prizes": sorted(self.without_prizes),
            "suspensions": [s.as_json() for s in self.suspensions],
            "rulings": [r.as_json() for r in self.rulings],
            "counts": {str(k): {"match_losses": c.match_losses, "game_losses": c.game_losses,
                                "penalty_points": c.penalty_points, "warnings": c.warnings}
                       for k, c in sorted(self.counts.items())},
        }


def penalty_document(db: Database, tournament_id: int) -> PenaltyDocument:
    """The penalties section of the tournament's report, from one snapshot."""
    with reading(db) as conn:
        row = tournament_row(conn, tournament_id)
        settings = judging_settings_of(conn, tournament_id, row["rules_level"])
        people = entry_lines(conn, tournament_id)
        staff = staff_names(conn, tournament_id)
        given = views_in(conn, tournament_id)
        report_appeals = appeal_views(conn, tournament_id)
        suspended = suspensions_in(conn, tournament_id)
        rulings = rulings_in(conn, tournament_id)
        counts = load_penalties(conn, tournament_id)
        t = load_tournament(conn, tournament_id)
    disqualified = []
    for view in given:
        effects = disqualification_effects(view.penalty) if view.active else None
        if effects is None:
            continue
        entry = people[view.player]
        disqualified.append(DisqualificationLine(
            view.player, entry.name, entry.person_id, view.penalty, view.seq,
            entry.dropped_after, effects.prize_eligible, effects.rating_reset,
            view.explanation))
    head = next((n for n, r in staff if r == JudgeRole.HEAD_JUDGE.value), "")
    return PenaltyDocument(
        tournament_id=tournament_id, tournament=row["name"],
        rules_level=RulesLevel(row["rules_level"]), official=settings.official,
        head_judge=head, judges=tuple(staff),
        names={number: entry.name for number, entry in people.items()},
        penalties=tuple(given), appeals=tuple(report_appeals),
        disqualifications=tuple(disqualified), suspensions=tuple(suspended),
        rulings=tuple(rulings), counts={k: v for k, v in counts.items() if v != PenaltyCounts()},
        ruling_words={r.id: ruling_words(t, r) for r in rulings},
    )


# ----- the layout: the words and the cells, shared by the Markdown and the web page -------

_WORDS: dict[str, Text] = {
    "title": Text("Пенальти", "Penalties"),
    "level": Text("Уровень правил", "Rules level"),
    "official": Text("Официальный турнир", "Official tournament"),
    "yes": Text("да", "yes"), "no": Text("нет", "no"),
    "head": Text("Главный судья", "Head judge"),
    "judges": Text("Судьи", "Judges"),
    "none": Text("Пенальти не выдавались.", "No penalties were given."),
    "given": Text("Выданные пенальти", "Penalties given"),
    "active": Text("действует", "active"), "withdrawn": Text("снято", "withdrawn"),
    "automatic": Text("автоматически", "automatic"),
    "dq": Text("Дисквалификации", "Disqualifications"),
    "after": Text("после тура", "after round"),
    "prizes_kept": Text("призы места сохраняются", "keeps the prizes of the place"),
    "no_prizes": Text("без призов; рейтинг сбрасывается до начального (R-4)",
                      "without prizes; the rating resets to the newcomer value (R-4)"),
    "appeals": Text("Апелляции", "Appeals"),
    "appeal_of": Text("апелляция на пенальти", "appeal against penalty"),
    "upheld": Text("оставлено в силе", "upheld"), "changed": Text("изменено на", "changed to"),
    "suspensions": Text("Приостановления членства", "Suspensions"),
    "open": Text("срок устанавливает координатор", "term to be set by the coordinator"),
    "rulings": Text("Технические результаты и требования", "Technical results and claims"),
    "round": Text("тур", "round"), "table": Text("стол", "table"), "game": Text("партия", "game"),
    "counts": Text("Итог по игрокам (T-6)", "Totals per player (T-6)"),
}

_COLUMNS: dict[str, tuple[Text, ...]] = {
    "given": (Text("№", "#"), Text("Игрок", "Player"), Text("Когда", "When"),
              Text("Нарушение", "Infraction"), Text("Пенальти", "Penalty"),
              Text("По Уложению", "Guide"), Text("Судья", "Judge"),
              Text("Объяснение", "Explanation"), Text("Статус", "Status")),
    "counts": (Text("Игрок", "Player"), Text("Поражения в матче", "Match losses"),
               Text("Поражения в партии", "Game losses"), Text("Штрафные очки", "Penalty points"),
               Text("Предупреждения", "Warnings")),
}


@dataclass(frozen=True, slots=True)
class DocumentSection:
    """One section of the document: a table (``columns`` and ``rows``) or a list (``items``)."""

    key: str
    heading: str
    columns: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    items: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class DocumentLayout:
    """The document in one language, as texts in their places: the Markdown and the web page
    (which escapes every text, names included) are both written from it."""

    title: str
    facts: tuple[str, ...]
    note: str
    """"No penalties were given" when there are none, else empty."""
    sections: tuple[DocumentSection, ...]


def _w(key: str, lang: Language) -> str:
    text = _WORDS[key]
    return text.ru if lang == "ru" else text.en


def _t(text: Text, lang: Language) -> str:
    return text.ru if lang == "ru" else text.en


def _cell(text: str) -> str:
    return " ".join(text.replace("|", "\\|").split())


def layout_penalty_document(document: PenaltyDocument, *,
                            lang: Language = "ru") -> DocumentLayout:
    """The penalties section in ``lang`` (``ru`` or ``en``): the facts and the non-empty
    sections, in the report's order."""
    official = _w("yes" if document.official else "no", lang)
    facts = [f"{_w('level', lang)}: {_t(level_name(document.rules_level), lang)}; "
             f"{_w('official', lang)}: {official}",
             f"{_w('head', lang)}: {document.head_judge or '—'}"]
    others = [n for n, r in document.judges if r == JudgeRole.FLOOR_JUDGE.value]
    if others:
        facts.append(f"{_w('judges', lang)}: {', '.join(others)}")
    lists = (("dq", _disqualifications(document, lang)), ("appeals", _appeals(document, lang)),
             ("suspensions", _suspensions(document, lang)), ("rulings", _rulings(document, lang)))
    sections = [_given(document, lang),
                *(DocumentSection(key, _w(key, lang), items=tuple(items)) for key, items in lists),
                _counts(document, lang)]
    return DocumentLayout(
        title=f"{_w('title', lang)}: {document.tournament}", facts=tuple(facts),
        note="" if document.penalties else _w("none", lang),
        sections=tuple(s for s in sections if s.rows or s.items))


def render_penalty_document(document: PenaltyDocument, *, lang: Language = "ru") -> str:
    """The penalties section as Markdown (``lang``: ``ru`` or ``en``)."""
    layout = layout_penalty_document(document, lang=lang)
    lines = [f"## {layout.title}", "", *(f"- {fact}" for fact in layout.facts), ""]
    if layout.note:
        lines += [layout.note, ""]
    for section in layout.sections:
        lines += [f"### {section.heading}", ""]
        if section.columns:
            lines += ["| " + " | ".join(section.columns) + " |",
                      "|" + "---|" * len(section.columns)]
        lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in section.rows]
        lines += [f"- {item}" for item in section.items]
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _table(key: str, lang: Language, rows: Sequence[tuple[str, ...]]) -> DocumentSection:
    return DocumentSection(key, _w(key, lang), columns=tuple(_t(c, lang) for c in _COLUMNS[key]),
                           rows=tuple(rows))


def _given(document: PenaltyDocument, lang: Language) -> DocumentSection:
    rows = []
    for p in document.penalties:
        status = _w("active" if p.active else "withdrawn", lang)
        judge = p.judge or _w("automatic", lang)
        if p.confirmed_by and p.confirmed_by != p.judge:
            judge += f" ({p.confirmed_by})"
        rows.append((str(p.seq), f"#{p.player} {p.player_name}", _t(_moment(p.given_at), lang),
                     _t(p.reason_name, lang), _t(p.penalty.name_text, lang),
                     _t(p.guide_penalty.name_text, lang), judge, _t(p.explanation, lang),
                     status))
    return _table("given", lang, rows)


def _moment(at: GivenAt) -> Text:
    """When the penalty was given, as the judge said it: the web's three taps give no game,
    and the service then stores game 1 of the current match (``default_moment``); so game 1
    during a game reads "round 3, during the match", a later game is named."""
    if at.moment is Moment.DURING_GAME and at.game == 1:
        return Text(f"тур {at.round}, во время матча", f"round {at.round}, during the match")
    return at.text


def _disqualifications(document: PenaltyDocument, lang: Language) -> list[str]:
    lines = []
    for d in document.disqualifications:
        after = "" if d.dropped_after is None else f" ({_w('after', lang)} {d.dropped_after})"
        flag = _w("prizes_kept" if d.prize_eligible else "no_prizes", lang)
        lines.append(f"#{d.player} {d.name}: {_t(d.penalty.name_text, lang)}{after}; "
                     f"{flag} — {_t(d.explanation, lang)}")
    return lines


def _appeals(document: PenaltyDocument, lang: Language) -> list[str]:
    lines = []
    for a in document.appeals:
        if a.changed_to is not None:
            what = f"{_w('changed', lang)} {_t(a.changed_to.name_text, lang)}"
        else:
            what = _w(a.outcome.value, lang)
        note = f" ({a.note})" if a.note else ""
        lines.append(f"{_w('appeal_of', lang)} {a.penalty_seq} (#{a.player} "
                     f"{a.player_name}, {_t(a.before.name_text, lang)}): {what}, "
                     f"{a.decided_by}{note}")
    return lines


def _suspensions(document: PenaltyDocument, lang: Language) -> list[str]:
    lines = []
    for s in document.suspensions:
        until = s.until.isoformat() if s.until is not None else _w("open", lang)
        lines.append(f"{s.person_name}: {s.start.isoformat()} — {until}; "
                     f"{_t(s.reason, lang)} ({s.issued_by})")
    return lines


def _rulings(document: PenaltyDocument, lang: Language) -> list[str]:
    return [f"{_w('round', lang)} {r.round}, {_w('table', lang)} {r.table}, "
            f"{_w('game', lang)} {r.game}: "
            f"{_t(document.ruling_words.get(r.id, r.explanation), lang)} ({r.judge})"
            for r in document.rulings]


def _counts(document: PenaltyDocument, lang: Language) -> DocumentSection:
    rows = [(f"#{number} {document.names.get(number, '?')}", str(c.match_losses),
             str(c.game_losses), str(c.penalty_points), str(c.warnings))
            for number, c in sorted(document.counts.items())]
    return _table("counts", lang, rows)
