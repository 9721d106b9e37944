"""The rating database through the services (R-1..R-7, J-4, J-8, C-2), on SQLite and
PostgreSQL: the hand-worked examples of docs/ratings.md played as stored tournaments, submission
by the head judge and its idempotency, corrections and late submissions replaying the history,
refusals that change nothing, replays and the settings."""

from __future__ import annotations

import random
from decimal import Decimal
from fractions import Fraction

import pytest
from sqlalchemy import select, update

from tests.services.builders import snapshot
from tests.services.rating_builders import (
    HEAD,
    ORGANIZER,
    assert_book_consistent,
    finished_event,
    flip_match,
    load_list,
)
from turnir.domain.ratings import Bound, RatedFormat, WarlockFirstTournament
from turnir.errors import ConflictError, UserError
from turnir.services.common import TournamentFormat
from turnir.services.queries import audit_log
from turnir.services.rating_queries import player_rating, tournament_rating_report
from turnir.services.rating_reports import SubmissionStatus
from turnir.services.rating_terms import set_rating_terms, tournament_rating_terms
from turnir.services.ratings import (
    SubmitStatus,
    change_rating_settings,
    preview_tournament,
    rating_settings,
    replay_ratings,
    submit_tournament,
)
from turnir.storage.database import Database
from turnir.storage.tables_ratings import rating_current

EIGHT_NAMES = ["Анна", "Борис", "Вера", "Глеб", "Денис", "Ефим", "Жанна", "Зоя"]
EIGHT = ["152.40", "118.75", "203.10", "100.00", "137.25", "171.60", "126.90", "101.20"]
EIGHT_WARLOCK = ["250.00", None, "412.50", "100.00", "180.00", None, "305.25", "150.00"]
EIGHT_AFTER = ["163.87", "128.84", "201.91", "104.67", "135.99", "164.65", "120.91", "100.00"]
EIGHT_CHANGE = ["11.47", "10.09", "-1.19", "4.67", "-1.26", "-6.95", "-5.99", "-1.20"]
EIGHT_WARLOCK_AFTER = ["261.50", "100.00", "414.82", "107.19", "183.20", "100.00", "306.60",
                       "152.40"]


def d(value: str) -> Decimal:
    return Decimal(value)


def eight_player_draft(db: Database, *, dq: tuple[int, ...] = ()) -> int:
    """Example 1 (and 5): eight players of different ratings, a 4-booster draft, K = 1.4."""
    tid = finished_event(db, EIGHT_NAMES, format=TournamentFormat.DRAFT)
    load_list(db, EIGHT_NAMES, EIGHT, EIGHT_WARLOCK)
    set_rating_terms(db, tid, actor=ORGANIZER, professional_k="1.4",
                     disqualified_without_prizes=list(dq))
    return tid


# --- the hand-worked examples, through the database ----------------------------------------


def test_rule_R1_eight_player_example_through_the_database(db: Database) -> None:
    tid = eight_player_draft(db)
    answer = submit_tournament(db, tid, actor=HEAD)
    assert answer.status is SubmitStatus.NEW and answer.replayed == 0
    report = answer.report
    assert report.status is SubmissionStatus.SUBMITTED and report.version == 1
    assert report.rated_format is RatedFormat.DRAFT_4_BOOSTERS
    assert report.professional_rt == Fraction("138.9") and report.professional_k == Fraction(7, 5)
    assert [line.person.name for line in report.lines] == EIGHT_NAMES
    assert [line.change.professional.after for line in report.lines] == [d(a) for a in EIGHT_AFTER]
    assert [line.change.professional.change for line in report.lines] == [
        d(c) for c in EIGHT_CHANGE]
    assert [line.change.professional.floor_applied for line in report.lines] == [False] * 7 + [True]
    assert [line.change.professional.bound for line in report.lines] == [Bound.NONE] * 8
    # the stored history says the same, and the current ratings follow it
    profile = player_rating(db, report.lines[0].person.id)
    assert [(h.place, h.professional_before, h.professional_change, h.professional_after)
            for h in profile.history] == [(1, d("152.40"), d("11.47"), d("163.87"))]
    assert profile.professional == d("163.87") and profile.tournaments == 1
    last = player_rating(db, report.lines[7].person.id).history[0]
    assert last.floor_applied and last.professional_after == d("100.00")
    assert_book_consistent(db)


def test_rule_R5_warlock_example_through_the_database(db: Database) -> None:
    tid = eight_player_draft(db)
    report = submit_tournament(db, tid, actor=HEAD).report
    assert report.warlock_k == Fraction("1.8") and report.warlock_rt == Fraction("199.71875")
    assert [line.change.warlock.after for line in report.lines] == [
        d(a) for a in EIGHT_WARLOCK_AFTER]
    newcomer = player_rating(db, report.lines[1].person.id)
    assert newcomer.warlock == d("100.00")
    assert newcomer.history[0].warlock_before is None
    assert newcomer.history[0].warlock_change == d("100.00")


def test_rule_R5_first_tournament_setting_replays_the_book(db: Database) -> None:
    tid = eight_player_draft(db)
    submit_tournament(db, tid, actor=HEAD)
    result = change_rating_settings(
        db, actor=ORGANIZER, warlock_first_tournament=WarlockFirstTournament.START_AT_100)
    assert {line.person.name: line.new_warlock for line in result.changed} == {
        "Борис": d("114.38"), "Ефим": d("104.79")}
    assert result.tournaments == 1 and result.rewritten == 1
    assert rating_settings(db).warlock_first_tournament is WarlockFirstTournament.START_AT_100
    assert_book_consistent(db)


def test_rule_R4_disqualification_without_prizes_resets_through_the_database(
        db: Database) -> None:
    tid = eight_player_draft(db, dq=(5,))
    report = submit_tournament(db, tid, actor=HEAD).report
    fifth = report.lines[4]
    assert fifth.change.disqualified_without_prizes and fifth.change.professional.reset_applied
    assert fifth.change.professional.after == d("100.00")
    assert fifth.change.professional.change == d("-37.25")
    assert fifth.change.warlock.after == d("183.20")  # not reset by default (J-4 setting)
    others = [line.change.professional.after for i, line in enumerate(report.lines) if i != 4]
    assert others == [d(a) for i, a in enumerate(EIGHT_AFTER) if i != 4]
    # the setting resets the Warlock rating too, and the whole book is replayed with it
    result = change_rating_settings(db, actor=ORGANIZER, reset_warlock_on_disqualification=True)
    assert [(line.person.name, line.new_warlock) for line in result.changed] == [
        ("Денис", d("100.00"))]
    assert player_rating(db, fifth.person.id).history[0].warlock_reset
    assert_book_consistent(db)


@pytest.mark.parametrize(("k", "after"), [
    ("1", ["303.00", "250.00", "110.00", "127.00"]),
    ("1.4", ["304.20", "250.00", "110.00", "125.80"]),
])
def test_rule_R2_bounds_through_the_database(db: Database, k: str, after: list[str]) -> None:
    names = ["Анна", "Борис", "Вера", "Глеб"]
    tid = finished_event(db, names)
    load_list(db, names, ["300", "250", "110", "130"])
    set_rating_terms(db, tid, actor=ORGANIZER, professional_k=k)
    report = submit_tournament(db, tid, actor=HEAD).report
    assert [line.change.professional.bound for line in report.lines] == [
        Bound.WINNER_AT_LEAST_3, Bound.SECOND_AT_LEAST_0, Bound.SECOND_TO_LAST_AT_MOST_0,
        Bound.LAST_AT_MOST_MINUS_3]
    assert [line.change.professional.after for line in report.lines] == [d(a) for a in after]
    stored = [player_rating(db, line.person.id).history[0].bound for line in report.lines]
    assert stored == [line.change.professional.bound for line in report.lines]


def test_rule_R3_floor_through_the_database(db: Database) -> None:
    names = ["Анна", "Борис", "Вера", "Глеб"]
    tid = finished_event(db, names)
    load_list(db, names, ["300", "250", "110", "101"])
    set_rating_terms(db, tid, actor=ORGANIZER, professional_k="1.4")
    last = submit_tournament(db, tid, actor=HEAD).report.lines[3].change.professional
    assert last.bound is Bound.LAST_AT_MOST_MINUS_3 and last.exact == Fraction("96.8")
    assert last.after == d("100.00") and last.floor_applied and last.change == d("-1.00")


def test_rule_R6_rounding_half_up_through_the_database(db: Database) -> None:
    names = ["Анна", "Борис", "Вера", "Глеб", "Денис", "Ефим"]
    tid = finished_event(db, names)
    load_list(db, names, ["150", "130", "120", "100", "103", "120"])
    report = submit_tournament(db, tid, actor=HEAD).report
    assert report.professional_rt == Fraction("120.5")
    assert [line.change.professional.after for line in report.lines] == [
        d("155.03"), d("133.28"), d("121.03"), d("100.03"), d("100.88"), d("115.03")]
    assert report.lines[5].change.professional.change == d("-4.97")


# --- the prize fund in the report ------------------------------------------------------


def test_rule_R7_prize_split_in_the_report(db: Database) -> None:
    names = ["Анна", "Борис", "Вера", "Глеб"]
    tid = finished_event(db, names)
    report = preview_tournament(db, tid).report
    assert report.prize_fund is None and report.prize_split is None
    assert all(line.prize is None for line in report.lines)
    set_rating_terms(db, tid, actor=ORGANIZER, entry_fee="250.01")
    report = preview_tournament(db, tid).report
    assert report.prize_fund == d("1000.04")
    assert [line.prize for line in report.lines] == [d("700.03"), d("300.01"), None, None]
    set_rating_terms(db, tid, actor=ORGANIZER, prize_fund="1000.05",
                     disqualified_without_prizes=[1])
    report = submit_tournament(db, tid, actor=HEAD).report
    assert report.prize_split is not None and report.prize_split.winner == d("700.04")
    assert (report.lines[0].prize, report.lines[0].prize_withheld) == (d("700.04"), True)
    assert (report.lines[1].prize, report.lines[1].prize_withheld) == (d("300.01"), False)
    assert tournament_rating_report(db, tid).prize_split == report.prize_split


# --- J-8: submission, preview, idempotency --------------------------------------------------


def test_rule_J8_preview_writes_nothing_and_matches_the_submission(db: Database) -> None:
    tid = eight_player_draft(db)
    before = snapshot(db)
    preview = preview_tournament(db, tid)
    assert snapshot(db) == before
    assert preview.status is SubmitStatus.NEW
    assert preview.report.status is SubmissionStatus.PREVIEW and preview.report.version == 0
    assert tournament_rating_report(db, tid).status is SubmissionStatus.PREVIEW
    submitted = submit_tournament(db, tid, actor=HEAD)
    assert [line.change for line in preview.report.lines] == [
        line.change for line in submitted.report.lines]
    assert [line.person for line in preview.changed] == [line.person for line in submitted.changed]
    assert tournament_rating_report(db, tid).status is SubmissionStatus.SUBMITTED


def test_rule_J8_submitting_twice_changes_nothing(db: Database) -> None:
    tid = eight_player_draft(db)
    first = submit_tournament(db, tid, actor=HEAD)
    before = snapshot(db)
    again = submit_tournament(db, tid, actor=" главный  судья ")  # the same name, spelt loosely
    assert again.status is SubmitStatus.UNCHANGED and again.changed == ()
    assert snapshot(db) == before
    assert [line.change for line in again.report.lines] == [
        line.change for line in first.report.lines]
    assert preview_tournament(db, tid).status is SubmitStatus.UNCHANGED
    actions = [entry.action for entry in audit_log(db, tid, action="rating")]
    assert actions == ["rating.terms", "rating.submit"]


def test_rule_J8_only_the_head_judge_submits(db: Database) -> None:
    tid = finished_event(db, ["Анна", "Борис", "Вера", "Глеб"])
    before = snapshot(db)
    with pytest.raises(UserError, match="only the head judge") as caught:
        submit_tournament(db, tid, actor=ORGANIZER)
    assert caught.value.code == "not_head_judge"
    assert snapshot(db) == before
    headless = finished_event(db, ["Анна", "Борис", "Вера", "Глеб"], name="Без судьи",
                              head=None)
    with pytest.raises(UserError, match="no head judge") as caught:
        submit_tournament(db, headless, actor=HEAD)
    assert caught.value.code == "no_head_judge"
    preview_tournament(db, headless)  # anyone may look


def test_refusals_not_finished_starter_and_fewer_than_4(db: Database) -> None:
    running = finished_event(db, ["Анна", "Борис", "Вера", "Глеб"], finish=False)
    before = snapshot(db)
    with pytest.raises(ConflictError, match="not finished") as caught:
        submit_tournament(db, running, actor=HEAD)
    assert caught.value.code == "not_finished"
    with pytest.raises(ConflictError, match="not finished"):
        preview_tournament(db, running)
    assert snapshot(db) == before

    three = finished_event(db, ["Анна", "Борис", "Вера"], name="Трое")
    with pytest.raises(UserError, match="3 participants; a rated tournament needs at least 4"
                       ) as caught:
        submit_tournament(db, three, actor=HEAD)
    assert caught.value.code == "unrated_tournament"


def test_rule_C2_starter_constructed_is_refused_with_the_reason(db: Database) -> None:
    tid = finished_event(db, ["Анна", "Борис", "Вера", "Глеб"])
    terms = set_rating_terms(db, tid, actor=ORGANIZER, starter=True)
    assert terms.rated_format is RatedFormat.STARTER_CONSTRUCTED and not terms.rated
    before = snapshot(db)
    with pytest.raises(UserError, match=r"starter constructed.*C-2") as caught:
        submit_tournament(db, tid, actor=HEAD)
    assert caught.value.code == "unrated_tournament"
    assert snapshot(db) == before


def test_players_who_never_played_are_not_participants(db: Database) -> None:
    tid = finished_event(db, ["Анна", "Борис", "Вера", "Глеб"], absent=["Неявка"])
    report = preview_tournament(db, tid).report
    assert report.participants == 4
    assert [line.person.name for line in report.lines] == ["Анна", "Борис", "Вера", "Глеб"]


# --- order of end, corrections, replays ------------------------------------------------


def test_rule_R6_correction_replays_later_tournaments_and_lists_who_changed(
        db: Database) -> None:
    """docs/ratings.md example 8, through the database."""
    first = finished_event(db, ["Анна", "Борис", "Вера", "Глеб"], name="Т1")
    second = finished_event(db, ["Денис", "Борис", "Ефим", "Вера", "Жанна", "Зоя"], name="Т2")
    third = finished_event(db, ["Игорь", "Кира", "Лев", "Мария"], name="Т3")
    for tid in (first, second, third):
        assert submit_tournament(db, tid, actor=HEAD).status is SubmitStatus.NEW
    report = tournament_rating_report(db, second)
    assert [str(line.change.professional.after) for line in report.lines] == [
        "106.51", "105.19", "101.01", "100.00", "100.00", "100.00"]

    flip_match(db, first, 1, 2)  # the judge corrects Т1: Борис won, Анна was second
    preview = preview_tournament(db, first)
    assert preview.status is SubmitStatus.CORRECTED
    answer = submit_tournament(db, first, actor=HEAD)
    assert answer.status is SubmitStatus.CORRECTED and answer.replayed == 2
    assert answer.report.version == 2
    assert [line.person.name for line in answer.report.lines][:2] == ["Борис", "Анна"]
    changed = {line.person.name: (str(line.old_professional), str(line.new_professional))
               for line in answer.changed}
    assert changed == {"Анна": ("104.00", "101.50"), "Борис": ("105.19", "107.58"),
                       "Денис": ("106.51", "106.53"), "Ефим": ("101.01", "101.03")}
    assert [line.person for line in preview.changed] == [line.person for line in answer.changed]
    assert [str(line.change.professional.after) for line in
            tournament_rating_report(db, second).lines][:3] == ["106.53", "107.58", "101.03"]
    log = audit_log(db, first, action="rating.correct")
    assert len(log) == 1 and log[0].after is not None
    assert log[0].after["changed"]["count"] == 4 and log[0].before is not None
    assert_book_consistent(db)
    assert submit_tournament(db, first, actor=HEAD).status is SubmitStatus.UNCHANGED


def test_rule_R6_changed_terms_are_a_correction(db: Database) -> None:
    first = finished_event(db, ["Анна", "Борис", "Вера", "Глеб"], name="Т1")
    second = finished_event(db, ["Анна", "Борис", "Вера", "Глеб"], name="Т2")
    submit_tournament(db, first, actor=HEAD)
    submit_tournament(db, second, actor=HEAD)
    set_rating_terms(db, first, actor=ORGANIZER, professional_k="2")
    answer = submit_tournament(db, first, actor=HEAD)
    assert answer.status is SubmitStatus.CORRECTED and answer.replayed == 1
    assert answer.report.lines[0].change.professional.after == d("108.00")
    assert_book_consistent(db)


def test_rule_R6_tournaments_apply_in_the_order_of_their_end(db: Database) -> None:
    early = finished_event(db, ["Анна", "Борис", "Вера", "Глеб"], name="Раньше")
    late = finished_event(db, ["Борис", "Анна", "Глеб", "Вера"], name="Позже")
    assert submit_tournament(db, late, actor=HEAD).replayed == 0
    answer = submit_tournament(db, early, actor=HEAD)  # submitted late, ended earlier
    assert answer.status is SubmitStatus.NEW and answer.replayed == 1
    boris = player_rating(db, answer.report.lines[1].person.id)
    assert [h.tournament_name for h in boris.history] == ["Раньше", "Позже"]
    assert boris.history[1].professional_before == boris.history[0].professional_after
    assert_book_consistent(db)


def test_rule_R6_any_submission_order_gives_the_replay_of_the_history(db: Database) -> None:
    rng = random.Random(6)
    pool = ["Анна", "Борис", "Вера", "Глеб", "Денис", "Ефим", "Жанна", "Зоя", "Игорь"]
    ids = [finished_event(db, rng.sample(pool, rng.randint(4, 6)), name=f"Турнир {n}")
           for n in range(5)]
    set_rating_terms(db, ids[2], actor=ORGANIZER, professional_k="1.5",
                     disqualified_without_prizes=[2])
    rng.shuffle(ids)
    for tid in ids:
        submit_tournament(db, tid, actor=HEAD)
        assert_book_consistent(db)
    assert replay_ratings(db, actor=ORGANIZER).changed == ()


def test_replay_from_scratch_repairs_the_book_and_says_who_changed(db: Database) -> None:
    tid = finished_event(db, ["Анна", "Борис", "Вера", "Глеб"])
    submit_tournament(db, tid, actor=HEAD)
    result = replay_ratings(db, actor=ORGANIZER)
    assert (result.tournaments, result.rewritten, result.changed) == (1, 0, ())
    with db.write() as conn:
        conn.execute(update(rating_current).where(rating_current.c.professional == 10400)
                     .values(professional=12345))
    progress: list[tuple[int, int]] = []
    result = replay_ratings(db, actor=ORGANIZER, progress=lambda done, total:
                            progress.append((done, total)))
    assert [(line.person.name, str(line.old_professional), str(line.new_professional))
            for line in result.changed] == [("Анна", "123.45", "104.00")]
    assert progress[-1][0] == progress[-1][1]
    assert [e.action for e in audit_log(db, tid)][-1:] == ["rating.submit"]  # replay: no tid
    assert_book_consistent(db)


# --- terms ----------------------------------------------------------------------------------


def test_terms_defaults_versions_and_refusals(db: Database) -> None:
    tid = finished_event(db, ["Анна", "Борис", "Вера", "Глеб"], format=TournamentFormat.DRAFT)
    terms = tournament_rating_terms(db, tid)
    assert (terms.version, terms.boosters, terms.professional_k) == (0, 4, 1)
    assert terms.rated_format is RatedFormat.DRAFT_4_BOOSTERS
    terms = set_rating_terms(db, tid, actor=ORGANIZER, boosters=2, professional_k="7/5",
                             disqualified_without_prizes=["Вера"])
    assert terms.rated_format is RatedFormat.DRAFT_2_BOOSTERS
    assert terms.professional_k == Fraction(7, 5) and terms.disqualified_without_prizes == (3,)
    with pytest.raises(ConflictError, match="changed by"):
        set_rating_terms(db, tid, actor=ORGANIZER, boosters=1, expected_version=0)
    for bad in ({"boosters": 5}, {"professional_k": "0"}, {"professional_k": "много"},
                {"entry_fee": "-1"}, {"entry_fee": "1.001"},
                {"disqualified_without_prizes": [9]}):
        with pytest.raises(UserError):
            set_rating_terms(db, tid, actor=ORGANIZER, **bad)  # type: ignore[arg-type]
    assert tournament_rating_terms(db, tid) == terms
    report = preview_tournament(db, tid).report
    assert report.warlock_k == Fraction(7, 5) and report.professional_k == Fraction(7, 5)


def test_rated_tournament_rows_keep_k_as_exact_text(db: Database) -> None:
    from turnir.storage.tables_ratings import rating_tournaments

    tid = finished_event(db, ["Анна", "Борис", "Вера", "Глеб"])
    set_rating_terms(db, tid, actor=ORGANIZER, professional_k="4/3")
    submit_tournament(db, tid, actor=HEAD)
    with db.read() as conn:
        row = conn.execute(select(rating_tournaments.c.professional_k,
                                  rating_tournaments.c.warlock_k)).one()
    assert tuple(row) == ("4/3", "1")


def test_whole_history_reads_straight_from_the_driver(db: Database,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import turnir.storage.ratings as repository

    monkeypatch.setattr(repository, "_WHOLE_HISTORY", 1)  # every read takes the fast path
    first = finished_event(db, ["Анна", "Борис", "Вера", "Глеб"], name="Т1")
    second = finished_event(db, ["Глеб", "Вера", "Борис", "Анна"], name="Т2")
    submit_tournament(db, second, actor=HEAD)
    assert submit_tournament(db, first, actor=HEAD).replayed == 1
    set_rating_terms(db, first, actor=ORGANIZER, disqualified_without_prizes=[1])
    assert submit_tournament(db, first, actor=HEAD).status is SubmitStatus.CORRECTED
    assert tournament_rating_report(db, first).lines[0].change.professional.reset_applied
    assert replay_ratings(db, actor=ORGANIZER).changed == ()
    assert_book_consistent(db)


def test_concurrent_submissions_are_serialised(db: Database, database_url: str) -> None:
    """Three head judges submit at once (threads, each its own connection pool): the rating lock
    keeps the book equal to the replay of the history, whatever the interleaving."""
    import threading

    names = ["Анна", "Борис", "Вера", "Глеб", "Денис"]
    ids = [finished_event(db, names[n:n + 4], name=f"Т{n}") for n in (0, 1, 0)]
    errors: list[BaseException] = []
    start = threading.Barrier(len(ids))

    def submit(tid: int) -> None:
        own = Database.open(database_url)
        try:
            start.wait()
            submit_tournament(own, tid, actor=HEAD)
        except BaseException as error:
            errors.append(error)
        finally:
            own.close()

    threads = [threading.Thread(target=submit, args=(tid,)) for tid in reversed(ids)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == []
    assert_book_consistent(db)
    assert replay_ratings(db, actor=ORGANIZER).changed == ()


def test_rule_R4_a_recorded_disqualification_without_prizes_resets(db: Database) -> None:
    """The J-4 flag comes from the penalties the judges record (and the terms, by hand)."""
    from turnir.domain.penalties import Penalty
    from turnir.services.penalties import give_penalty
    from turnir.services.tournaments import finish_tournament

    names = ["Анна", "Борис", "Вера", "Глеб"]
    tid = finished_event(db, names, finish=False)
    load_list(db, names, ["300", "250", "110", "130"])
    given = give_penalty(db, tid, player=4, reason="cheating", actor=HEAD,
                         penalty=Penalty.DISQUALIFICATION_WITHOUT_PRIZES)
    assert given.penalty.penalty is Penalty.DISQUALIFICATION_WITHOUT_PRIZES
    finish_tournament(db, tid, actor=ORGANIZER)
    report = submit_tournament(db, tid, actor=HEAD).report
    last = report.lines[3]
    assert last.person.name == "Глеб" and last.change.disqualified_without_prizes
    assert last.change.professional.reset_applied and last.change.professional.after == d("100.00")
    assert [line.change.professional.after for line in report.lines[:3]] == [
        d("303.00"), d("250.00"), d("110.00")]
