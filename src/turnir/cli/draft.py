"""``turnir draft …``: drafts (docs/drafts.md, D-1..D-6).

- ``plan TID [--twelves N --sevens N --profile P …]``: show a draft tournament's plan, or set
  it (the boosters, the profile and the timers; the local operator acts as the organizer);
- ``seat TID [--method lot|standings] [--tables N] [--profile P]``: seat the players at draft
  tables (D-2 by lot from the recorded seed, D-3 by the current standings) and print the
  tables; ``--profile`` first sets the plan's profile (tabletop 8-16 a table, online 6-12);
- ``simulate --players 32 --boosters 4 [--profile online|tabletop] [--seed N]``: a whole
  draft in memory (no database): simulated players pick at random times, some let the timer
  run out, some send a pick twice, one per table leaves; prints per table the picks, the
  automatic picks, the pool sizes and whether every card ended in exactly one pool (exit code
  1 if not: a bug).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from turnir.cli.db_common import actor_name, command, console, language
from turnir.cli.options import ActorOption, JsonOption, TournamentArg, command_group
from turnir.cli.output import emit, styled
from turnir.cli.session import opened

if TYPE_CHECKING:
    from turnir.domain.draft.plan import DraftPlan
    from turnir.services.draft_setup import SeatingView
    from turnir.services.draft_simulation import SimulationReport

draft_app = command_group()

ProfileOption = Annotated[str | None, typer.Option(
    "--profile", help="tabletop (8-16 a table) or online (6-12).", show_default=False)]

_TEXTS: dict[str, dict[str, str]] = {
    "ru": {
        "no_plan": "План драфта не задан (по умолчанию: {plan}).",
        "plan": "Драфт: {boosters}, {profile}; на выбор {pick} с + {per_card} с за карту, "
                "просмотр {review} с, колода от {deck_min} карт; {level}.",
        "tabletop": "за столом", "online": "онлайн",
        "amateur": "любительский уровень", "professional": "профессиональный уровень",
        "booster": "{count}×{size}",
        "table": "Стол {number} — игроков: {count}",
        "seat_head": "Место|№|Игрок",
        "seated": "Рассадка {method}, {profile}; сид {seed}.",
        "lot": "жребием", "standings": "по турнирной таблице",
        "sim": "Драфт в памяти: игроков {players}, {boosters} ({profile}), сид {seed}.",
        "sim_head": "Стол|Игроков|Выборов|Автовыборов|Повторов отклонено|Ушли|Пулы|"
                    "Карты сошлись",
        "yes": "да", "no": "НЕТ",
        "ok": "Каждая карта оказалась ровно в одном пуле, все пулы полные.",
        "bad": "Ошибка движка: карты потеряны или задвоены.",
    },
    "en": {
        "no_plan": "No draft plan is set (the default: {plan}).",
        "plan": "Draft: {boosters}, {profile}; pick timer {pick} s + {per_card} s a card, "
                "review {review} s, decks of {deck_min}+ cards; {level}.",
        "tabletop": "at the table", "online": "online",
        "amateur": "Amateur level", "professional": "Professional level",
        "booster": "{count}×{size}",
        "table": "Table {number} — {count} players",
        "seat_head": "Seat|#|Player",
        "seated": "Seated {method}, {profile}; seed {seed}.",
        "lot": "by lot", "standings": "by standings",
        "sim": "A draft in memory: {players} players, {boosters} ({profile}), seed {seed}.",
        "sim_head": "Table|Players|Picks|Auto-picks|Repeats refused|Dropped|Pools|"
                    "Cards check",
        "yes": "yes", "no": "NO",
        "ok": "Every card ended in exactly one pool, every pool is full.",
        "bad": "An engine bug: cards lost or doubled.",
    },
}


def _say(key: str, **values: object) -> str:
    return _TEXTS.get(language(), _TEXTS["ru"])[key].format(**values)


def _boosters(plan: DraftPlan) -> str:
    parts = [_say("booster", count=plan.boosters.count(size), size=size)
             for size in (12, 7) if size in plan.boosters]
    return " + ".join(parts)


def _plan_line(plan: DraftPlan) -> str:
    return _say("plan", boosters=_boosters(plan), profile=_say(plan.profile.value),
                pick=plan.pick_seconds, per_card=plan.pick_seconds_per_card,
                review=plan.review_seconds, deck_min=plan.deck_min,
                level=_say(plan.rules_level.value))


@command(draft_app, "plan")
def plan(
    tournament: TournamentArg,
    twelves: Annotated[int | None, typer.Option(help="12-card boosters.")] = None,
    sevens: Annotated[int | None, typer.Option(help="7-card boosters.")] = None,
    profile: ProfileOption = None,
    single: Annotated[str | None, typer.Option(
        help="A 1-booster draft makes: hand or squad.", show_default=False)] = None,
    pick_seconds: Annotated[int | None, typer.Option(help="Pick timer base (s).")] = None,
    per_card: Annotated[int | None, typer.Option(help="Pick timer per card (s).")] = None,
    review_seconds: Annotated[int | None, typer.Option(help="Review after a booster.")] = None,
    deck_min: Annotated[int | None, typer.Option(help="Smallest deck from a pool.")] = None,
    actor: ActorOption = None, as_json: JsonOption = False,
) -> None:
    """Show the draft plan, or set it when any setting is given (the others keep theirs)."""
    from turnir.domain.draft.plan import DraftProfile, default_plan, make_plan
    from turnir.services.draft_setup import draft_plan, set_draft_plan

    with opened(tournament) as (db, tid):
        current = draft_plan(db, tid)
        given = (twelves, sevens, profile, single, pick_seconds, per_card, review_seconds,
                 deck_min)
        if any(value is not None for value in given):
            base = current or default_plan(DraftProfile(_profile(profile or "tabletop")))
            if twelves is None and sevens is None:
                twelves, sevens = base.twelves, base.sevens
            chosen = make_plan(
                twelves=twelves or 0, sevens=sevens or 0,
                profile=_profile(profile) if profile else base.profile,
                single=single or base.single,
                pick_seconds=_or(pick_seconds, base.pick_seconds),
                pick_seconds_per_card=_or(per_card, base.pick_seconds_per_card),
                review_seconds=_or(review_seconds, base.review_seconds),
                deck_min=_or(deck_min, base.deck_min), away_after=base.away_after)
            set_draft_plan(db, tid, actor=actor_name(actor), account_id=None, plan=chosen)
            current = chosen
    if as_json:
        emit(current, as_json=True, json_of=lambda p: None if p is None else p.to_json(),
             render=lambda _: None)
    elif current is None:
        console.print(_say("no_plan", plan=_plan_line(default_plan(DraftProfile.TABLETOP))),
                      highlight=False)
    else:
        console.print(_plan_line(current), highlight=False)


def _or(value: int | None, kept: int) -> int:
    return kept if value is None else value


def _seating_json(view: SeatingView) -> dict[str, Any]:
    return {"profile": str(view.profile), "method": view.method, "seed": view.seed, "tables": [
        {"number": table.number, "seats": [
            {"seat": line.seat, "number": line.number, "name": line.name}
            for line in table.seats]}
        for table in view.tables]}


def _render_seating(view: SeatingView) -> None:
    from rich.table import Table

    console.print(_say("seated", method=_say(view.method), profile=_say(view.profile.value),
                       seed=view.seed), highlight=False)
    for table in view.tables:
        shown = Table(title=_say("table", number=table.number, count=len(table.seats)))
        for column in _say("seat_head").split("|"):
            shown.add_column(column)
        for line in table.seats:
            shown.add_row(str(line.seat), str(line.number), line.name)
        console.print(shown)


@command(draft_app, "seat")
def seat(
    tournament: TournamentArg,
    method: Annotated[str, typer.Option(help="lot (D-2) or standings (D-3, a later stage).")]
    = "lot",
    tables: Annotated[int | None, typer.Option(
        help="Draft tables: a power of two (default: the fewest allowed).")] = None,
    profile: ProfileOption = None,
    actor: ActorOption = None, as_json: JsonOption = False,
) -> None:
    """Seat the players at draft tables and print the tables."""
    from turnir.domain.draft.plan import DraftPlan, DraftProfile, default_plan
    from turnir.services.draft_setup import draft_plan, seat_draft, set_draft_plan

    who = actor_name(actor)
    with opened(tournament) as (db, tid):
        if profile is not None:
            chosen = DraftProfile(_profile(profile))
            current = draft_plan(db, tid)
            if current is None or current.profile is not chosen:
                settings = (current or default_plan(chosen)).to_json()
                settings["profile"] = chosen.value
                set_draft_plan(db, tid, actor=who, account_id=None,
                               plan=DraftPlan.from_json(settings))
        view = seat_draft(db, tid, actor=who, account_id=None, method=_method(method),
                          tables=tables)
    emit(view, as_json=as_json, json_of=_seating_json, render=_render_seating)


def _profile(value: str) -> str:
    if value not in ("tabletop", "online"):
        raise typer.BadParameter("use tabletop or online", param_hint="--profile")
    return value


def _method(value: str) -> str:
    if value not in ("lot", "standings"):
        raise typer.BadParameter("use lot or standings", param_hint="--method")
    return value


def _simulation_json(report: SimulationReport) -> dict[str, Any]:
    return {"ok": report.ok, "players": report.players, "seed": report.seed,
            "plan": report.plan.to_json(), "tables": [
                {"table": t.number, "players": t.players, "picks": t.picks,
                 "auto_picks": t.auto_picks, "refused": t.refused, "late": t.late,
                 "dropped": t.dropped, "pool_sizes": list(t.pool_sizes), "cards": t.cards,
                 "every_card_once": t.every_card_once, "pools_full": t.pools_full,
                 "minutes": t.minutes}
                for t in report.tables]}


def _pools(sizes: tuple[int, ...]) -> str:
    if len(set(sizes)) == 1:
        return f"{sizes[0]}×{len(sizes)}"
    return ", ".join(map(str, sizes))


def _render_simulation(report: SimulationReport) -> None:
    from rich.table import Table

    console.print(_say("sim", players=report.players, boosters=_boosters(report.plan),
                       profile=_say(report.plan.profile.value), seed=report.seed),
                  highlight=False)
    shown = Table()
    for column in _say("sim_head").split("|"):
        shown.add_column(column)
    for t in report.tables:
        once = t.every_card_once and t.pools_full
        shown.add_row(str(t.number), str(t.players), str(t.picks), str(t.auto_picks),
                      str(t.refused), str(t.dropped), _pools(t.pool_sizes),
                      _say("yes") if once else _say("no"))
    console.print(shown)
    if report.ok:
        console.print(styled(("✓ ", "bold green"), _say("ok")), highlight=False)
    else:
        console.print(styled(("✗ ", "bold red"), _say("bad")), highlight=False)


@command(draft_app, "simulate")
def simulate(
    players: Annotated[int, typer.Option(help="Players (4-512).")] = 32,
    boosters: Annotated[int, typer.Option(help="Boosters per player (1-4).")] = 4,
    profile: Annotated[str, typer.Option(help="tabletop or online.")] = "tabletop",
    size: Annotated[int | None, typer.Option(
        help="Cards in a booster: 7 or 12 (default: 12 at the table, 7 online).")] = None,
    seed: Annotated[int, typer.Option(help="Random seed.")] = 2026,
    timeouts: Annotated[float, typer.Option(help="Share of picks left to the timer.")] = 0.05,
    drops: Annotated[int, typer.Option(help="Players who leave, per table.")] = 1,
    as_json: JsonOption = False,
) -> None:
    """Run a whole draft in memory with simulated players and check every pool."""
    from turnir.domain.draft.plan import DraftProfile
    from turnir.services.draft_simulation import simulate_draft

    report = simulate_draft(players=players, boosters=boosters,
                            profile=DraftProfile(_profile(profile)), seed=seed, size=size,
                            timeouts=timeouts, drops=drops)
    emit(report, as_json=as_json, json_of=_simulation_json, render=_render_simulation)
    if not report.ok:
        raise typer.Exit(code=1)
