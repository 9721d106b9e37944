"""What the game rulings pages show and take (issue 12): a head judge's technical result (S-8)
and a judge's decision on a claim after time-out (S-9) from the web, and the infraction
catalogue's editing (J-7). The changes themselves are the services the CLI calls
(``turnir.services.game_rulings``, ``turnir.services.penalty_catalogue``); this module only
reads what the pages show and turns the form's plain values into their arguments."""

from __future__ import annotations

from dataclasses import dataclass, field

from turnir.domain.games import GameRecord, Side
from turnir.domain.penalties import ClaimKind, Infraction, Penalty, RulingKind, Text
from turnir.domain.text import NAME_LEN, clean_name, clean_text
from turnir.domain.tournament import Tournament
from turnir.errors import UserError
from turnir.services.common import Database, reading
from turnir.services.game_rulings import GameRulingView, list_rulings
from turnir.services.pages import RoundPage, round_page
from turnir.storage.mappers import tournament_row
from turnir.storage.penalty_rows import judging_settings_of

MAX_CRYSTALS = 999
"""The largest crystal total one player's cards can cost on the form (S-8)."""
MAX_MARGIN = 100
"""The largest technical win threshold the page sets (S-8; the default is 1)."""
MAX_GAMES_BEFORE = 4
"""Games played before the ruled game, per kind (a best-of-5 has at most four before it)."""


@dataclass(frozen=True, slots=True)
class RulingsPage:
    page: RoundPage
    """The tournament and the round ruled on (``None`` before round 1)."""
    rulings: list[GameRulingView]
    """Every technical result and claim of the tournament, oldest first."""
    margin: int
    """The crystal difference a technical win needs in this tournament (S-8)."""
    said: dict[int, Text] = field(default_factory=dict)
    """Each ruling (by id) in words with the players' names (the stored explanation says
    "player A"/"player B")."""


def rulings_page(db: Database, tournament_id: int, round_number: int | None) -> RulingsPage:
    page = round_page(db, tournament_id, round_number)
    with reading(db) as tx:
        row = tournament_row(tx, tournament_id)
        margin = judging_settings_of(tx, tournament_id, row["rules_level"]).technical_margin
    rulings = list_rulings(db, tournament_id)
    return RulingsPage(page, rulings, margin,
                       {r.id: ruling_words(page.tournament, r) for r in rulings})


def _sides(t: Tournament, ruling: GameRulingView) -> dict[Side, str] | None:
    """The names of the ruled table's players, A and B (``None``: the table is not found)."""
    rnd = next((r for r in t.rounds if r.number == ruling.round), None)
    if rnd is None:
        return None
    names = {p.id: p.name for p in t.players}
    for p in rnd.pairings:
        if p.table == ruling.table and p.b is not None:
            return {Side.A: names.get(p.a, "?"), Side.B: names.get(p.b, "?")}
    return None


def ruling_words(t: Tournament, ruling: GameRulingView) -> Text:
    """A ruling said with the players' names: "техническая победа: Иван Петров (9 кристаллов
    против 6, порог 1)", "Иван Петров требует: чистая победа; удовлетворено" (S-8, S-9)."""
    sides = _sides(t, ruling)
    if sides is None:
        return ruling.explanation
    if ruling.kind is RulingKind.TECHNICAL and ruling.crystals is not None:
        first, second = ruling.crystals
        if ruling.winner is not None:
            mine, theirs = (first, second) if ruling.winner is Side.A else (second, first)
            name = sides[ruling.winner]
            return Text(f"техническая победа: {name} ({mine} кристаллов против {theirs}, "
                        f"порог {ruling.margin})",
                        f"technical win: {name} ({mine} crystals against {theirs}, "
                        f"margin {ruling.margin})")
        return Text(f"техническая ничья: {sides[Side.A]} {first}, {sides[Side.B]} {second} "
                    f"кристаллов (порог {ruling.margin})",
                    f"technical draw: {sides[Side.A]} {first}, {sides[Side.B]} {second} "
                    f"crystals (margin {ruling.margin})")
    if ruling.kind is RulingKind.CLAIM and ruling.claimant is not None:
        clean = ruling.claim is ClaimKind.CLEAN_VICTORY
        what = Text("чистая победа", "a clean victory") if clean else Text("ничья", "a draw")
        verdict = (Text("удовлетворено", "granted") if ruling.granted
                   else Text("отклонено", "refused"))
        name = sides[ruling.claimant]
        return Text(f"{name} требует: {what.ru}; {verdict.ru}",
                    f"{name} claims {what.en}: {verdict.en}")
    return ruling.explanation


def games_before(wins_a: int, wins_b: int, draws: int) -> list[GameRecord]:
    """The games played before the ruled one, from how many each player won and how many
    were drawn (their order does not change the match result)."""
    for count in (wins_a, wins_b, draws):
        if not 0 <= count <= MAX_GAMES_BEFORE:
            raise UserError("games before the ruled one: from 0 to {high} of each kind",
                            code="bad_game", high=MAX_GAMES_BEFORE)
    return ([GameRecord(Side.A)] * wins_a + [GameRecord(Side.B)] * wins_b
            + [GameRecord(None)] * draws)


def infraction_of(*, code: str, name_ru: str, name_en: str, amateur: Penalty,
                  professional: Penalty, highest: Penalty, about_ru: str = "",
                  about_en: str = "") -> Infraction:
    """An infraction typed on the catalogue page (the domain checks the code and the
    defaults: a suspension is never a default, J-5)."""
    return Infraction(
        code.strip(),
        Text(clean_name(name_ru, field="name", max_len=NAME_LEN),
             clean_name(name_en, field="name", max_len=NAME_LEN)),
        amateur, professional, highest,
        Text(clean_text(about_ru, field="note", max_len=500, multiline=False),
             clean_text(about_en, field="note", max_len=500, multiline=False)))
