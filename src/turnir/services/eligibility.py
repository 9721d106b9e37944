"""Who may play (J-5, J-8): the checks registration and the start of round 1 call.

- J-5: a person suspended on the day cannot register for an official tournament (the
  register, ``suspensions``, is kept by person across tournaments). **Decided**: the day is the
  day of registration; a tournament is official from Professional level up unless the
  organizer says otherwise (``penalty settings --official/--unofficial``).
- J-8: the head judge may play only at Amateur level with fewer than 12 participants, the head
  judge counted. The head judge plays when an entry has the head judge's person or name.
  Checked when a player registers (all registered players counted) and when round 1 starts
  (players still in counted).
- C-2: an online starter constructed tournament takes only characters under 18 game years
  (``turnir.services.game_age``), checked when a player registers.

The checks run inside the registering transaction after the new entries are written, so a
refusal leaves the database unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from turnir.domain.penalties import check_head_judge_may_play, check_may_register
from turnir.errors import Term, UserError
from turnir.services.common import Tx
from turnir.services.game_age import check_entry_ages
from turnir.services.judging import head_judge, level_of, utc_today_in
from turnir.storage import players_repo, staff_rows
from turnir.storage.mappers import tournament_row
from turnir.storage.penalty_rows import judging_settings_of
from turnir.storage.players_repo import day as day


def check_registration(tx: Tx, tournament_id: int, numbers: Sequence[int], *,
                       on: date | None = None) -> None:
    """Refuse new entries ``numbers`` that J-5 or J-8 forbids (the entries are already
    written in this transaction)."""
    row = tournament_row(tx, tournament_id)
    settings = judging_settings_of(tx, tournament_id, row["rules_level"])
    if settings.official and numbers:
        new = players_repo.persons_of(tx, tournament_id, numbers)
        register = players_repo.suspensions_of(tx, sorted({person for _, _, person in new}))
        for _, name, person in new:
            try:
                check_may_register(register, str(person), on=day(on or utc_today_in(tx)),
                                   official=True)
            except UserError as error:
                raise UserError("{name}: {reason}", code=error.code, name=name,
                                reason=error) from None
    _check_head_judge(tx, tournament_id, participants=players_repo.count_entries(
        tx, tournament_id), when=Term("registering"))
    check_entry_ages(tx, tournament_id, numbers)  # C-2: online starter, under 18 game years


def check_head_judge_at_start(tx: Tx, tournament_id: int) -> None:
    """J-8 when round 1 starts: the players still in, the head judge among them."""
    _check_head_judge(tx, tournament_id, participants=players_repo.count_entries(
        tx, tournament_id, active_only=True), when=Term("starting round 1"), active_only=True)


def head_judge_entry(tx: Tx, tournament_id: int, *,
                     active_only: bool = False) -> tuple[str, int] | None:
    """The head judge's own entry as a player (name, number), if they play."""
    head = head_judge(tx, tournament_id)
    if head is None:
        return None
    return players_repo.entry_of(tx, tournament_id, name=head.name,
                                 person_id=staff_rows.person_of(tx, head.id),
                                 active_only=active_only)


def _check_head_judge(tx: Tx, tournament_id: int, *, participants: int, when: Term,
                      active_only: bool = False) -> None:
    plays = head_judge_entry(tx, tournament_id, active_only=active_only)
    if plays is None:
        return
    row = tournament_row(tx, tournament_id)
    try:
        check_head_judge_may_play(level=level_of(row), participants=participants)
    except UserError as error:
        raise UserError("{when}: {name} (#{number}) is the head judge and plays; {reason}",
                        code=error.code, when=when, name=plays[0], number=plays[1],
                        reason=error) from None
