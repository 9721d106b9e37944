"""``turnir penalty …``: penalties and judging in a stored tournament (J-1..J-8, S-8, S-9).

    turnir penalty give T PLAYER REASON       # the guide's penalty, escalated and explained
    turnir penalty list T [PLAYER]            # with reasons and explanations
    turnir penalty appeal T SEQ --outcome upheld|changed|withdrawn [--to PENALTY]
    turnir penalty withdraw T SEQ --reason …  # the head judge: entered in error
    turnir penalty report T [--lang en]       # the report's penalties section (Markdown)
    turnir penalty history PERSON             # one person's penalties in every tournament
    turnir penalty games T ROUND TABLE a b:concession draw   # a match game by game
    turnir penalty technical T ROUND TABLE --a-silver 9 --b-silver 7      (S-8)
    turnir penalty claim T ROUND TABLE PLAYER --kind clean-victory --granted  (S-9)
    turnir penalty settings T [--official] [--margin 2] [--points 0/1/2/3/4/5/6]
    turnir penalty catalogue show|set|default|remove …
    turnir penalty suspension add|list|term …

Who acts is ``--actor`` (default ``$TURNIR_ACTOR`` or the login name); the judge acting is
``--judge`` (default: the actor), a judge of the tournament (``turnir judge add``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any

import typer

from turnir.cli.db_common import actor_name, command, console, content_language
from turnir.cli.options import (
    ActorOption,
    ExpectedVersionOption,
    JsonOption,
    JudgeCorrectOption,
    LangOption,
    PersonArg,
    TournamentArg,
    command_group,
)
from turnir.cli.output import write, write_json
from turnir.cli.parsing import numbers
from turnir.cli.penalty_admin import catalogue_app, parse_day, parse_penalty, suspension_app
from turnir.cli.session import database, opened, show_view
from turnir.domain.penalties import AppealOutcome, ClaimKind
from turnir.errors import UserError

if TYPE_CHECKING:
    from rich.table import Table

    from turnir.domain.penalties import GivenAt, PenaltyPoints, Text
    from turnir.services.common import Database
    from turnir.services.game_rulings import GameRulingView, RulingOutcome
    from turnir.services.penalties import PenaltyView
    from turnir.services.results import GameReport

penalty_app = command_group()
penalty_app.add_typer(catalogue_app, name="catalogue")
penalty_app.add_typer(suspension_app, name="suspension")

JudgeOption = Annotated[str | None, typer.Option(
    "--judge", help="The judge acting (default: the actor).")]


def _text(text: Text, lang: str) -> str:
    return text.ru if lang == "ru" else text.en


def _moment(round_number: int | None, game: int | None, moment: str | None) -> GivenAt | None:
    from turnir.domain.penalties import GivenAt, Moment

    if round_number is None and game is None and moment is None:
        return None
    if round_number is None:
        raise UserError("--round is needed with --game or --moment", code="bad_moment")
    kind = (Moment(moment.replace("-", "_")) if moment is not None
            else Moment.DURING_GAME if game is not None else Moment.BETWEEN_MATCHES)
    return GivenAt(round_number, kind, game or 0)


def _print_penalty(view: PenaltyView, lang: str) -> None:
    when = _text(view.given_at.text, lang)
    console.print(f"Penalty #{view.seq}: {view.player_name} (#{view.player}) — "
                  f"{_text(view.penalty.name_text, lang)} for {_text(view.reason_name, lang)} "
                  f"({when})", highlight=False)
    console.print(f"  {_text(view.explanation, lang)}", highlight=False)
    if view.pending_loss:
        console.print("  The loss waits for the player's next result (J-3).", highlight=False)


RoundArg = Annotated[int, typer.Argument(metavar="ROUND", help="Round number.")]
TableArg = Annotated[int, typer.Argument(help="Table number.")]
GamesBeforeOption = Annotated[str, typer.Option(
    "--games", help="The games played before, e.g. a,b.")]
CorrectOption = Annotated[bool, typer.Option(help="Replace an existing result.")]


@command(penalty_app, "give")
def give(
    tournament: TournamentArg,
    player: Annotated[str, typer.Argument(help="The player: number or name.")],
    reason: Annotated[str, typer.Argument(help="The infraction code (`penalty catalogue show`).")],
    penalty: Annotated[str | None, typer.Option(
        help="Another penalty than the guide's (a deviation, J-7).")] = None,
    confirmed_by: Annotated[str | None, typer.Option(
        help="The head judge who confirmed the deviation (Professional level and up).")] = None,
    round: Annotated[int | None, typer.Option(help="The round it is given in or after.")]
    = None,
    game: Annotated[int | None, typer.Option(help="The game it is given during or after.")]
    = None,
    moment: Annotated[str | None, typer.Option(
        help="during-game, between-games or between-matches (default: during the player's "
             "current match, else after the last round).")] = None,
    defer: Annotated[bool, typer.Option(
        help="Move the loss to the next game (or match), J-3.")] = False,
    note: Annotated[str, typer.Option(help="What happened.")] = "",
    until: Annotated[str | None, typer.Option(
        help="A suspension's last day (YYYY-MM-DD), when known.")] = None,
    key: Annotated[str | None, typer.Option(
        help="A request key: the same key again gives no second penalty.")] = None,
    dry_run: Annotated[bool, typer.Option(
        "--dry-run", help="Show what would be given, give nothing.")] = False,
    judge: JudgeOption = None,
    lang: LangOption = None,
    actor: ActorOption = None,
) -> None:
    """Give a penalty: the guide's for the reason at the rules level, escalated for a repeated
    reason (J-6); its loss lands on the right result (J-3)."""
    from turnir.services.penalties import give_penalty, preview_penalty

    lang = content_language(lang)
    with opened(tournament) as (db, tid):
        who = actor_name(actor)
        at = _moment(round, game, moment)
        chosen = None if penalty is None else parse_penalty(penalty)
        if dry_run:
            preview = preview_penalty(db, tid, player=player, reason=reason,
                                      judge=judge or who, penalty=chosen,
                                      given_at=at)
            console.print(f"Would give {preview.player_name} (#{preview.player}) a "
                          f"{_text(preview.penalty.name_text, lang)} for "
                          f"{_text(preview.reason_name, lang)} "
                          f"({_text(preview.given_at.text, lang)}).", highlight=False)
            console.print(f"  {_text(preview.explanation, lang)}", highlight=False)
            if preview.needs_head_judge:
                console.print("  A deviation: the head judge must confirm (--confirmed-by).")
            return
        done = give_penalty(
            db, tid, player=player, reason=reason, actor=who, judge=judge, penalty=chosen,
            given_at=at, confirmed_by=confirmed_by, deferred=defer, note=note,
            suspension_until=None if until is None else parse_day(until),
            idempotency_key=key)
    _print_penalty(done.penalty, lang)
    for result in done.results:
        console.print(f"  Round {result.round} table {result.table}: result {result.status.value}"
                      f" as {result.result.score} ({result.result.ending.value}).")
    if done.dropped_after is not None:
        console.print(f"  Disqualified: out of the pairings after round {done.dropped_after}.")
    if done.suspension_id is not None:
        console.print(f"  Suspension register entry #{done.suspension_id}.")


def _views_json(views: list[PenaltyView]) -> list[dict[str, Any]]:
    return [v.as_json() for v in views]


def _penalty_table(views: list[PenaltyView], lang: str, title: str) -> Table:
    from rich.table import Table

    table = Table(title=title)
    for header in ("#", "Player", "When", "Reason", "Penalty", "Guide", "Judge", "Explanation",
                   "Status"):
        table.add_column(header)
    for v in views:
        status = v.status.value + (" (loss pending)" if v.pending_loss else "")
        table.add_row(str(v.seq), f"#{v.player} {v.player_name}", _text(v.given_at.text, lang),
                      _text(v.reason_name, lang), _text(v.penalty.name_text, lang),
                      _text(v.guide_penalty.name_text, lang), v.judge or "auto",
                      _text(v.explanation, lang), status)
    return table


@command(penalty_app, "list")
def list_(
    tournament: TournamentArg,
    player: Annotated[str | None, typer.Argument(help="Only this player's.")] = None,
    pending: Annotated[bool, typer.Option(help="Only losses still waiting (J-3).")] = False,
    as_json: JsonOption = False,
    lang: LangOption = None,
) -> None:
    """The penalties with their reasons and explanations (withdrawn ones too)."""
    from turnir.services.penalties import list_penalties

    lang = content_language(lang)
    show_view(tournament, lambda db, tid: [v for v in list_penalties(db, tid, player)
                                           if v.pending_loss or not pending],
              as_json=as_json, to_json=_views_json,
              render=lambda views: console.print(
                  _penalty_table(views, lang, f"Penalties ({len(views)})")))


@command(penalty_app, "appeal")
def appeal(
    tournament: TournamentArg,
    seq: Annotated[int, typer.Argument(help="The penalty's number (`penalty list`).")],
    outcome: Annotated[AppealOutcome, typer.Option(help="The head judge's decision.")],
    to: Annotated[str | None, typer.Option(help="The new penalty, when changed.")] = None,
    note: Annotated[str, typer.Option(help="The head judge's reasons.")] = "",
    expected_version: Annotated[int | None, typer.Option(
        help="The penalty's version you saw; refused when it changed since.")] = None,
    judge: JudgeOption = None,
    lang: LangOption = None,
    actor: ActorOption = None,
) -> None:
    """The head judge decides an appeal against a floor judge's penalty (J-8)."""
    from turnir.services.penalty_appeals import decide_appeal

    lang = content_language(lang)
    with opened(tournament) as (db, tid):
        changed = None if to is None else parse_penalty(to)
        done = decide_appeal(
            db, tid, seq, outcome=outcome, actor=actor_name(actor), judge=judge,
            changed_to=changed, note=note, expected_version=expected_version)
    console.print(f"Appeal against penalty #{seq}: {done.appeal.outcome.value} by "
                  f"{done.appeal.decided_by}.", highlight=False)
    _print_penalty(done.penalty, lang)
    if done.also_withdrawn:
        console.print("  Also withdrawn (their three no longer add up, J-6): "
                      + ", ".join(f"#{s}" for s in done.also_withdrawn))
    for line in done.results:
        console.print(f"  {line}")


@command(penalty_app, "withdraw")
def withdraw(
    tournament: TournamentArg,
    seq: Annotated[int, typer.Argument(help="The penalty's number.")],
    reason: Annotated[str, typer.Option(help="Why (e.g. the wrong player was entered).")],
    expected_version: ExpectedVersionOption = None,
    judge: JudgeOption = None,
    lang: LangOption = None,
    actor: ActorOption = None,
) -> None:
    """The head judge withdraws a penalty entered in error."""
    from turnir.services.penalty_appeals import withdraw_penalty

    lang = content_language(lang)
    with opened(tournament) as (db, tid):
        view = withdraw_penalty(db, tid, seq, reason=reason,
                                actor=actor_name(actor), judge=judge,
                                expected_version=expected_version)
    _print_penalty(view, lang)


@command(penalty_app, "history")
def history(
    person: PersonArg,
    as_json: JsonOption = False,
    lang: LangOption = None,
) -> None:
    """One person's penalties in every tournament, with the reasons."""
    from rich.table import Table

    from turnir.services.penalties import person_history

    lang = content_language(lang)
    with database() as db:
        lines = person_history(db, person)
    if as_json:
        write_json([{"tournament_id": h.tournament_id,
                                      "tournament": h.tournament, **h.penalty.as_json()}
                                     for h in lines])
        return
    table = Table(title=f"Penalties of {person}")
    for header in ("Tournament", "#", "When", "Reason", "Penalty", "Explanation", "Status"):
        table.add_column(header)
    for h in lines:
        v = h.penalty
        table.add_row(h.tournament, str(v.seq), _text(v.given_at.text, lang),
                      _text(v.reason_name, lang), _text(v.penalty.name_text, lang),
                      _text(v.explanation, lang), v.status.value)
    console.print(table)


@command(penalty_app, "report")
def report(
    tournament: TournamentArg,
    as_json: JsonOption = False,
    lang: LangOption = None,
) -> None:
    """The penalties section of the tournament report (Markdown), for the head judge."""
    from turnir.services.penalty_document import penalty_document, render_penalty_document

    lang = content_language(lang)
    show_view(tournament, penalty_document, as_json=as_json,
              to_json=lambda found: found.as_json(),
              render=lambda found: write(render_penalty_document(
                  found, lang="ru" if lang == "ru" else "en")))


def parse_game(text: str) -> GameReport:
    """``a``, ``b`` or ``draw``, optionally ``:reason`` (``a:lethal_damage``)."""
    from turnir.domain.results import GameReason
    from turnir.services.results import GameReport

    who, _, why = text.strip().lower().partition(":")
    winners: dict[str, Any] = {"a": "a", "b": "b", "draw": None, "d": None, "=": None}
    if who not in winners:
        raise UserError("game {text!r}: write a, b or draw, optionally with :reason",
                        code="bad_game", text=text)
    try:
        reason = GameReason(why) if why else GameReason.UNSPECIFIED
    except ValueError:
        known = ", ".join(r.value for r in GameReason)
        raise UserError("game {text!r}: unknown reason; known: {known}", code="bad_game",
                        text=text, known=known) from None
    return GameReport(winners[who], reason)  # refuses a reason that does not fit the winner


def _games(texts: list[str] | None) -> list[GameReport]:
    return [parse_game(t) for part in texts or () for t in part.split(",") if t.strip()]


@command(penalty_app, "games")
def games(
    tournament: TournamentArg,
    round_number: RoundArg,
    table: TableArg,
    played: Annotated[list[str], typer.Argument(
        metavar="GAME...", help="The games played, in order: a, b or draw[:reason].")],
    correct: JudgeCorrectOption = False,
    expected_version: ExpectedVersionOption = None,
    key: Annotated[str | None, typer.Option(help="A request key.")] = None,
    actor: ActorOption = None,
) -> None:
    """Record a match game by game (S-1); penalty losses land on their games (J-3)."""
    from turnir.cli.db_data import result_word
    from turnir.domain.results import MatchResult
    from turnir.services.results import record_result

    with opened(tournament) as (db, tid):
        reported = _games(played)
        if not reported:
            raise UserError("give at least one game", code="bad_game")
        wins_a = sum(g.winner == "a" for g in reported)
        wins_b = sum(g.winner == "b" for g in reported)
        draws = sum(g.winner is None for g in reported)
        done = record_result(db, tid, round_number, table,
                             MatchResult.played(wins_a, wins_b, draws), actor=actor_name(actor),
                             correction=correct, expected_version=expected_version,
                             idempotency_key=key, games_played=reported)
    console.print(f"Round {round_number} table {table}: {done.result.score} "
                  f"({result_word(done.status)}; version {done.version}).")


def _rule(tournament: str, lang: str | None,
          decide: Callable[[Database, int], RulingOutcome]) -> None:
    """A judge's ruling on a match (S-8, S-9): ``decide`` in the tournament, then shown."""
    shown = content_language(lang)
    with opened(tournament) as (db, tid):
        done = decide(db, tid)
    _print_ruling(done, shown)


def _print_ruling(done: RulingOutcome, lang: str) -> None:
    console.print(f"Round {done.ruling.round} table {done.ruling.table}, game "
                  f"{done.ruling.game}: {_text(done.ruling.explanation, lang)} "
                  f"({done.ruling.judge}).", highlight=False)
    if done.result is not None:
        console.print(f"  Match result {done.result.result.score} ({done.result.status.value}).")


@command(penalty_app, "technical")
def technical(
    tournament: TournamentArg,
    round_number: RoundArg,
    table: TableArg,
    a_silver: Annotated[int, typer.Option(help="Player A: cards' cost in silver crystals.")] = 0,
    a_gold: Annotated[int, typer.Option(help="Player A: cards' cost in gold crystals.")] = 0,
    b_silver: Annotated[int, typer.Option(help="Player B: cards' cost in silver crystals.")] = 0,
    b_gold: Annotated[int, typer.Option(help="Player B: cards' cost in gold crystals.")] = 0,
    before: GamesBeforeOption = "",
    correct: CorrectOption = False,
    note: Annotated[str, typer.Option(help="Remarks.")] = "",
    judge: JudgeOption = None,
    lang: LangOption = None,
    actor: ActorOption = None,
) -> None:
    """The head judge's technical result by crystal count (S-8); records the match."""
    from turnir.domain.penalties import CrystalCount
    from turnir.services.game_rulings import record_technical_result

    _rule(tournament, lang, lambda db, tid: record_technical_result(
        db, tid, round_number, table, crystals_a=CrystalCount(a_silver, a_gold),
        crystals_b=CrystalCount(b_silver, b_gold), actor=actor_name(actor), judge=judge,
        games_before=_games([before]), correction=correct, note=note))


@command(penalty_app, "claim")
def claim(
    tournament: TournamentArg,
    round_number: RoundArg,
    table: TableArg,
    player: Annotated[str, typer.Argument(help="The claimant: number or name.")],
    kind: Annotated[ClaimKind, typer.Option(help="What is claimed (S-9).")],
    granted: Annotated[bool, typer.Option("--granted/--refused", help="The decision.")],
    before: GamesBeforeOption = "",
    correct: CorrectOption = False,
    note: Annotated[str, typer.Option(help="The judge's reasons.")] = "",
    judge: JudgeOption = None,
    lang: LangOption = None,
    actor: ActorOption = None,
) -> None:
    """A judge decides a claim after time-out (S-9); granted, the match is recorded."""
    from turnir.services.game_rulings import decide_time_out_claim

    _rule(tournament, lang, lambda db, tid: decide_time_out_claim(
        db, tid, round_number, table, claimant=player, kind=kind, granted=granted,
        actor=actor_name(actor), judge=judge, games_before=_games([before]), correction=correct,
        note=note))


@command(penalty_app, "rulings")
def rulings(tournament: TournamentArg, as_json: JsonOption = False,
            lang: LangOption = None) -> None:
    """Technical results and claims (S-8, S-9)."""
    from turnir.services.game_rulings import list_rulings

    lang = content_language(lang)

    def render(found: list[GameRulingView]) -> None:
        for r in found:
            console.print(f"#{r.id} round {r.round} table {r.table} game {r.game}: "
                          f"{_text(r.explanation, lang)} ({r.judge})", highlight=False)

    show_view(tournament, list_rulings, as_json=as_json,
              to_json=lambda found: [r.as_json() for r in found], render=render)


def parse_weights(text: str) -> PenaltyPoints:
    from turnir.domain.penalties import PenaltyPoints

    parts = numbers(text, 7)
    if parts is None:
        raise UserError("points {text!r}: write seven weights remark/warning/game loss/match "
                        "loss/disqualification/without prizes/suspension, e.g. 0/1/2/3/4/5/6",
                        code="bad_penalty_points", text=text)
    return PenaltyPoints(*parts)


@command(penalty_app, "settings")
def settings(
    tournament: TournamentArg,
    official: Annotated[bool | None, typer.Option(
        "--official/--unofficial", help="Suspended players cannot register (J-5).")] = None,
    margin: Annotated[int | None, typer.Option(
        help="Crystal difference for a technical win (S-8).")] = None,
    points: Annotated[str | None, typer.Option(
        help="Penalty-point weights for T-6, remark first: 0/1/2/3/4/5/6.")] = None,
    judge: JudgeOption = None,
    actor: ActorOption = None,
) -> None:
    """Show or change the judging settings (the organizer or the head judge)."""
    from turnir.services.penalty_catalogue import get_judging_settings, set_judging_settings

    with opened(tournament) as (db, tid):
        if official is None and margin is None and points is None:
            found = get_judging_settings(db, tid)
        else:
            found = set_judging_settings(
                db, tid, actor=actor_name(actor), judge=judge, official=official,
                technical_margin=margin,
                penalty_points=None if points is None else parse_weights(points))
    console.print(f"Official: {'yes' if found.official else 'no'}; technical win margin: "
                  f"{found.technical_margin}; penalty points: "
                  f"{'/'.join(map(str, found.points.as_list()))}; version {found.version}")
