"""``turnir rating …``: the rating database (docs/ratings.md, R-1..R-7, J-8).

``terms`` (a tournament's K, boosters, starter, entry fee, J-4 flags), ``preview`` and
``submit`` (the head judge), ``report`` (a tournament's rating report), ``show`` (a player's
history, optionally its SVG chart), ``top`` (the leaderboard), ``replay`` (from scratch, with a
progress bar), ``export`` and ``import`` (the rating list, CSV or JSON), ``settings``.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from turnir.cli.db_common import actor_name, command, console, progress_bar, refuse_existing
from turnir.cli.options import ActorOption, ForceOption, JsonOption, TournamentArg, command_group
from turnir.cli.output import emit, write, write_json
from turnir.cli.session import database, opened
from turnir.domain.ratings import (
    Bound,
    RatingKind,
    RatingSettings,
    WarlockFirstTournament,
    exact_text,
)

if TYPE_CHECKING:
    from rich.table import Table

    from turnir.services.rating_reports import TournamentRatingReport
    from turnir.services.rating_terms import RatingTerms
    from turnir.services.ratings import RatingDiffLine, RatingSubmission, ReplayResult

rating_app = command_group()
_BOUND = {Bound.NONE: "", Bound.WINNER_AT_LEAST_3: "≥ +3", Bound.SECOND_AT_LEAST_0: "≥ 0",
          Bound.SECOND_TO_LAST_AT_MOST_0: "≤ 0", Bound.LAST_AT_MOST_MINUS_3: "≤ −3"}


def _signed(value: Decimal) -> str:
    return f"+{value}" if value > 0 else str(value)


def _rating(value: Decimal | None) -> str:
    return "—" if value is None else str(value)


# ----- rendering ---------------------------------------------------------------------------


def _report_table(report: TournamentRatingReport) -> Table:
    from rich.table import Table

    title = (f"{report.tournament_name}: {report.status.value}, {report.rated_format.value}, "
             f"U = {report.participants}, K = {exact_text(report.professional_k)}, "
             f"Warlock K = {exact_text(report.warlock_k)}, "
             f"Rt = {float(report.professional_rt):.2f}")
    table = Table(title=title)
    for column in ("place", "player", "before", "formula", "bound", "change", "after",
                   "Warlock before", "Warlock after", "notes"):
        table.add_column(column)
    for line in report.lines:
        pro, war = line.change.professional, line.change.warlock
        notes = [n for n, on in (("floor", pro.floor_applied), ("reset (J-4)", pro.reset_applied),
                                 ("first", war.first_tournament),
                                 ("Warlock reset", war.reset_applied)) if on]
        if line.prize is not None:
            notes.append(f"prize {line.prize}" + (" withheld" if line.prize_withheld else ""))
        table.add_row(str(line.change.place), line.person.name, str(pro.before),
                      f"{float(pro.formula):.4f}", _BOUND[pro.bound], _signed(pro.change),
                      str(pro.after), _rating(war.before), str(war.after), ", ".join(notes))
    return table


def _print_report(report: TournamentRatingReport) -> None:
    console.print(_report_table(report))
    if report.prize_fund is not None and report.prize_split is not None:
        console.print(f"Prize fund {report.prize_fund}: winner {report.prize_split.winner} "
                      f"(70%), second {report.prize_split.second} (30%) (R-7).")


def _print_changed(changed: tuple[RatingDiffLine, ...], *, limit: int = 50) -> None:
    if not changed:
        return
    console.print(f"{len(changed)} player(s) changed:")
    for diff in changed[:limit]:
        console.print(f"  #{diff.person.id} {diff.person.name}: professional "
                      f"{_rating(diff.old_professional)} → {_rating(diff.new_professional)}, "
                      f"Warlock {_rating(diff.old_warlock)} → {_rating(diff.new_warlock)}")
    if len(changed) > limit:
        console.print(f"  … and {len(changed) - limit} more")


def _print_submission(answer: RatingSubmission, *, done: bool) -> None:
    from turnir.services.ratings import SubmitStatus

    _print_report(answer.report)
    if answer.status is SubmitStatus.UNCHANGED:
        console.print("Already submitted with the same results: nothing changes.")
        return
    verb = {SubmitStatus.NEW: "Submitted", SubmitStatus.CORRECTED: "Corrected"}[answer.status]
    if not done:
        verb = {SubmitStatus.NEW: "Would submit", SubmitStatus.CORRECTED: "Would correct"}[
            answer.status]
    later = f"; {answer.replayed} later tournament(s) replayed" if answer.replayed else ""
    console.print(f"{verb} {answer.report.tournament_name}{later}.")
    _print_changed(answer.changed)


def _print_terms(terms: RatingTerms) -> None:
    dq = ", ".join(f"#{n}" for n in terms.disqualified_without_prizes) or "none"
    console.print(
        f"Tournament #{terms.tournament_id}: {terms.format.value} → rated as "
        f"{terms.rated_format.value}" + ("" if terms.rated else " (unrated, C-2)")
        + f"; professional K {exact_text(terms.professional_k)}; boosters {terms.boosters}; "
        f"entry fee {_rating(terms.entry_fee)}; prize fund {_rating(terms.prize_fund)}; "
        f"disqualified without prizes: {dq}; version {terms.version}")


def _print_replay(result: ReplayResult) -> None:
    console.print(f"Replayed {result.tournaments} tournament(s); {result.rewritten} rewritten.")
    if not result.changed:
        console.print("Nobody's ratings changed.")
    _print_changed(result.changed)


# ----- commands ----------------------------------------------------------------------------


@command(rating_app, "terms")
def terms(
    tournament: TournamentArg,
    k: Annotated[str | None, typer.Option("--k", help="Professional K (1.4 or 7/5).")] = None,
    boosters: Annotated[int | None, typer.Option(help="A draft's boosters, 1-4.")] = None,
    starter: Annotated[bool | None, typer.Option(
        "--starter/--not-starter", help="Starter constructed (unrated, C-2).")] = None,
    entry_fee: Annotated[str | None, typer.Option(help="Entry fee per player (R-7).")] = None,
    prize_fund: Annotated[str | None, typer.Option(help="The whole prize fund (R-7).")] = None,
    no_money: Annotated[bool, typer.Option(help="Forget the entry fee and prize fund.")]
    = False,
    dq: Annotated[list[str] | None, typer.Option(
        "--dq", help="A player disqualified without prizes (J-4); repeat for more.")] = None,
    clear_dq: Annotated[bool, typer.Option(help="Nobody is disqualified without prizes.")]
    = False,
    actor: ActorOption = None,
) -> None:
    """Show or change a tournament's rating terms (K, boosters, starter, prize fund, J-4)."""
    from turnir.services.rating_terms import KEEP, Keep, set_rating_terms, tournament_rating_terms

    with opened(tournament) as (db, tid):
        changes = any(v is not None for v in (k, boosters, starter, entry_fee, prize_fund, dq))
        if not changes and not no_money and not clear_dq:
            _print_terms(tournament_rating_terms(db, tid))
            return
        fee: str | Keep | None = None if no_money else (KEEP if entry_fee is None else entry_fee)
        fund: str | Keep | None = None if no_money else (
            KEEP if prize_fund is None else prize_fund)
        flagged: list[str] | Keep = [] if clear_dq else (KEEP if dq is None else dq)
        result = set_rating_terms(
            db, tid, actor=actor_name(actor), professional_k=KEEP if k is None else k,
            boosters=KEEP if boosters is None else boosters,
            starter=KEEP if starter is None else starter, entry_fee=fee, prize_fund=fund,
            disqualified_without_prizes=flagged)
    _print_terms(result)


@command(rating_app, "preview")
def preview(tournament: TournamentArg, as_json: JsonOption = False) -> None:
    """What submitting a finished tournament would change, for every player."""
    from turnir.services.rating_json import submission_json
    from turnir.services.ratings import preview_tournament

    with opened(tournament) as (db, tid), progress_bar("replaying") as bar:
        answer = preview_tournament(db, tid, progress=bar)
    emit(answer, as_json=as_json, json_of=submission_json,
         render=lambda found: _print_submission(found, done=False))


@command(rating_app, "submit")
def submit(tournament: TournamentArg, actor: ActorOption = None,
           as_json: JsonOption = False) -> None:
    """The head judge submits a finished tournament to the rating database (J-8)."""
    from turnir.services.rating_json import submission_json
    from turnir.services.ratings import submit_tournament

    with opened(tournament) as (db, tid), progress_bar("replaying") as bar:
        answer = submit_tournament(db, tid, actor=actor_name(actor), progress=bar)
    emit(answer, as_json=as_json, json_of=submission_json,
         render=lambda found: _print_submission(found, done=True))


@command(rating_app, "report")
def report(tournament: TournamentArg, as_json: JsonOption = False) -> None:
    """A tournament's rating report: as submitted, or the preview before (with the R-7 split)."""
    from turnir.services.rating_json import report_json
    from turnir.services.rating_queries import tournament_rating_report

    with opened(tournament) as (db, tid):
        found = tournament_rating_report(db, tid)
    emit(found, as_json=as_json, json_of=report_json, render=_print_report)


@command(rating_app, "show")
def show(
    player: Annotated[str, typer.Argument(help="A person's number (#12) or name.")],
    as_json: JsonOption = False,
    svg: Annotated[Path | None, typer.Option(help="Also write the rating chart (SVG).")]
    = None,
) -> None:
    """A player's ratings, rank and rated tournaments (place, change, K)."""
    from rich.table import Table

    from turnir.formats.tournament_file import write_atomic
    from turnir.services.rating_json import profile_json
    from turnir.services.rating_queries import find_person, player_rating

    with database() as db:
        profile = player_rating(db, find_person(db, player).id)
    if svg is not None:
        write_atomic(svg, profile.chart_svg())
    if as_json:
        write_json(profile_json(profile))
        return
    p = profile.person
    where = ", ".join(x for x in (p.city, p.club) if x)
    rank = f" (#{profile.professional_rank})" if profile.professional_rank else ""
    war_rank = f" (#{profile.warlock_rank})" if profile.warlock_rank else ""
    console.print(f"#{p.id} {p.name}" + (f", {where}" if where else "")
                  + f": professional {profile.professional}{rank}, Warlock "
                  f"{_rating(profile.warlock)}{war_rank}; {profile.tournaments} rated "
                  f"tournament(s).")
    if profile.history:
        table = Table()
        for column in ("ended", "tournament", "place", "K", "before", "change", "after",
                       "Warlock", "notes"):
            table.add_column(column)
        for line in profile.history:
            notes = [n for n, on in (("floor", line.floor_applied),
                                     ("reset (J-4)", line.reset_applied)) if on]
            if line.bound is not Bound.NONE:
                notes.append(f"bound {_BOUND[line.bound]}")
            table.add_row(f"{line.ended_at:%Y-%m-%d}", line.tournament_name,
                          f"{line.place}/{line.participants}", exact_text(line.professional_k),
                          str(line.professional_before), _signed(line.professional_change),
                          str(line.professional_after),
                          f"{_rating(line.warlock_before)} → {line.warlock_after}",
                          ", ".join(notes))
        console.print(table)
    if svg is not None:
        console.print(f"Wrote the rating chart to {svg}.")


@command(rating_app, "top")
def top(
    by: Annotated[RatingKind, typer.Option(help="Rank by this rating.")]
    = RatingKind.PROFESSIONAL,
    search: Annotated[str, typer.Option(help="A part of the name.")] = "",
    city: Annotated[str, typer.Option(help="Only this city.")] = "",
    club: Annotated[str, typer.Option(help="Only this club.")] = "",
    page: Annotated[int, typer.Option(help="Page number.")] = 1,
    per_page: Annotated[int, typer.Option(help="Lines a page.")] = 30,
    as_json: JsonOption = False,
) -> None:
    """The leaderboard: both ratings, strongest first."""
    from rich.table import Table

    from turnir.services.rating_json import leaderboard_json
    from turnir.services.rating_queries import leaderboard

    with database() as db:
        board = leaderboard(db, by=by, search=search, city=city, club=club,
                            page=page, per_page=per_page)
    if as_json:
        write_json(leaderboard_json(board))
        return
    table = Table(title=f"Rating list by {board.by.value}: page {board.page} of {board.pages}, "
                        f"{board.total} player(s)")
    for column in ("rank", "#", "player", "city", "club", "professional", "Warlock",
                   "tournaments"):
        table.add_column(column)
    for line in board.lines:
        table.add_row(str(line.rank), str(line.person.id), line.person.name, line.person.city,
                      line.person.club, str(line.professional), _rating(line.warlock),
                      str(line.tournaments))
    console.print(table)


@command(rating_app, "replay")
def replay(actor: ActorOption = None, as_json: JsonOption = False) -> None:
    """Replay the whole rating book from scratch (the imported list, then every rated
    tournament in the order of end) and report who changed."""
    from turnir.services.rating_json import replay_json
    from turnir.services.ratings import replay_ratings

    with database() as db, progress_bar("replaying the rating book", after_s=0.0) as bar:
        result = replay_ratings(db, actor=actor_name(actor), progress=bar)
    emit(result, as_json=as_json, json_of=replay_json, render=_print_replay)


@command(rating_app, "export")
def export(
    output: Annotated[str, typer.Argument(help="The file to write (.csv or .json), or - .")],
    as_json: Annotated[bool, typer.Option("--json", help="JSON even without .json.")] = False,
    force: ForceOption = False,
) -> None:
    """Write everyone's current ratings as a rating list (CSV or JSON)."""
    from turnir.formats.rating_list import dump_rating_list_csv, dump_rating_list_json
    from turnir.formats.tournament_file import write_atomic
    from turnir.services.rating_lists import export_rating_list

    path = None if output == "-" else Path(output)
    if path is not None:
        refuse_existing(path, force=force)
    with database() as db:
        lines = export_rating_list(db)
    use_json = as_json or (path is not None and path.suffix.lower() == ".json")
    text = dump_rating_list_json(lines) if use_json else dump_rating_list_csv(lines)
    if path is None:
        write(text)
        return
    write_atomic(path, text)
    console.print(f"Wrote {len(lines)} rating(s) to {path}.")


@command(rating_app, "import")
def import_(
    file: Annotated[Path, typer.Argument(help="A rating list (.csv, .xlsx or .json).")],
    replace: Annotated[bool, typer.Option(
        help="Replace the whole imported list (people not listed lose their imported "
             "ratings).")] = False,
    actor: ActorOption = None,
) -> None:
    """Load an existing rating list; the rated tournaments are replayed on top of it."""
    from turnir.formats.rating_list import read_rating_list_file
    from turnir.services.rating_lists import import_rating_list

    lines = read_rating_list_file(file)
    with database() as db, progress_bar("replaying") as bar:
        result = import_rating_list(db, lines, actor=actor_name(actor),
                                    replace_all=replace, source=str(file),
                                    progress=bar)
    console.print(f"Imported {result.lines} rating(s) from {file}: {result.matched} matched, "
                  f"{result.created} new people.")
    _print_replay(result.replay)


@command(rating_app, "settings")
def settings(
    many_participants: Annotated[int | None, typer.Option(
        help="A 4-booster draft of at least this many players has Warlock K 2.0.")] = None,
    three_booster_k: Annotated[str | None, typer.Option(
        help="Warlock K of a 3-booster draft.")] = None,
    warlock_first: Annotated[WarlockFirstTournament | None, typer.Option(
        help="How a first tournament sets the Warlock rating.")] = None,
    reset_warlock: Annotated[bool | None, typer.Option(
        "--reset-warlock/--keep-warlock",
        help="Whether a disqualification without prizes also resets the Warlock rating.")]
    = None,
    actor: ActorOption = None,
) -> None:
    """Show or change the rating settings; a change replays the whole book."""
    from turnir.services.ratings import change_rating_settings, rating_settings

    with database() as db:
        if all(v is None for v in (many_participants, three_booster_k, warlock_first,
                                   reset_warlock)):
            _print_settings(rating_settings(db))
            return
        with progress_bar("replaying") as bar:
            result = change_rating_settings(
                db, actor=actor_name(actor), many_participants=many_participants,
                three_booster_k=three_booster_k, warlock_first_tournament=warlock_first,
                reset_warlock_on_disqualification=reset_warlock, progress=bar)
        _print_settings(rating_settings(db))
    _print_replay(result)


def _print_settings(current: RatingSettings) -> None:
    console.print(
        f"many participants {current.many_participants}; 3-booster Warlock K "
        f"{exact_text(current.three_booster_k)}; Warlock first tournament "
        f"{current.warlock_first_tournament.value}; Warlock reset on disqualification "
        f"{'on' if current.reset_warlock_on_disqualification else 'off'}")
