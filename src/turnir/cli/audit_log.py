"""``turnir log TOURNAMENT`` (who changed what, before and after) and ``turnir log verify
[TOURNAMENT]`` (the tamper-evident chain and the stored pairings and results checked against
it, ``turnir.services.audit``): "verified: N entries" and exit 0, or the first entry that does
not match and exit 2."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from turnir.cli.db_common import console
from turnir.cli.options import JsonOption
from turnir.cli.output import write_json
from turnir.cli.session import database, opened, tournament_id
from turnir.errors import UserError

if TYPE_CHECKING:
    from turnir.services.audit import ChainReport, Problem, Verification

VERIFY = "verify"


def log(
    tournament: Annotated[str, typer.Argument(
        metavar="TOURNAMENT|verify",
        help="The tournament (its number or its name); or `verify`, then optionally the "
             "tournament (default: every chain of the database).")],
    target: Annotated[str | None, typer.Argument(
        metavar="[TOURNAMENT]", help="After `verify`: the tournament to verify.",
        show_default=False)] = None,
    action: Annotated[str | None, typer.Option(help="Only actions starting with this.")]
    = None,
    limit: Annotated[int | None, typer.Option(help="At most this many records.")] = None,
    anchor: Annotated[str | None, typer.Option(
        help="With `verify TOURNAMENT`: SEQ:HASH from an earlier verification; the entry SEQ "
             "must still have that hash.")] = None,
    as_json: JsonOption = False,
) -> None:
    """The tournament's audit log: who changed what, when, before and after.

    `turnir log verify [TOURNAMENT]` checks the log's hash chain and every stored pairing and
    result against it; exit code 2 when something does not match.
    """
    if tournament == VERIFY:
        verify(target, anchor=anchor, as_json=as_json)
        return
    if target is not None:
        raise UserError("unexpected argument {target!r} (did you mean `turnir log verify "
                        "{target}`?)", code="bad_argument", target=target)
    if anchor is not None:
        raise UserError("--anchor goes with `turnir log verify TOURNAMENT`",
                        code="bad_argument")
    show(tournament, action=action, limit=limit, as_json=as_json)


def show(tournament: str, *, action: str | None, limit: int | None, as_json: bool) -> None:
    from turnir.services.audit import brief
    from turnir.services.queries import audit_log

    with opened(tournament) as (db, tid):
        entries = audit_log(db, tid, action=action, limit=limit)
    if as_json:
        write_json([
            {"id": e.id, "seq": e.seq, "at": e.at.isoformat(), "actor": e.actor,
             "action": e.action, "entity": e.entity, "entity_id": e.entity_id,
             "before": e.before, "after": e.after, "hash": e.digest}
            for e in entries
        ])
        return
    console.print(f"Audit log of tournament #{tid} (times in UTC)", highlight=False)
    for e in entries:
        before, after = brief(e.before, limit=100) or "—", brief(e.after, limit=100) or "—"
        _say(f"#{e.id} {e.at:%Y-%m-%d %H:%M:%S} {e.actor}: {e.action} {e.entity} "
             f"{e.entity_id}: {before} → {after}")


def _say(text: str) -> None:
    console.print(text, highlight=False, soft_wrap=True)  # a SafeConsole: controls escaped


# ----- verify ------------------------------------------------------------------------------


def verify(tournament: str | None, *, anchor: str | None, as_json: bool) -> None:
    """``turnir log verify [TOURNAMENT]``: exit 0 when everything matches, else 2."""
    from turnir.services.audit import Anchor, verify_log

    with database() as db:
        tid = tournament_id(db, tournament)
        mark = None if anchor is None else Anchor.parse(anchor)
        done = verify_log(db, tid, anchor=mark)
    if as_json:
        write_json(_verification_json(done))
    else:
        for chain in done.chains:
            _say_chain(chain)
        if done.ok:
            _say(f"verified: {done.entries} entries")
    if not done.ok:
        broken = sum(1 for c in done.chains if not c.ok)
        raise UserError("verification failed: {broken} of {count} chain(s) do not match",
                        code="verification_failed", broken=broken, count=len(done.chains))


def _chain_name(chain: ChainReport) -> str:
    return ("server-wide entries" if chain.tournament_id is None
            else f"tournament #{chain.tournament_id}")


def _say_chain(chain: ChainReport) -> None:
    name = _chain_name(chain)
    _say(f"{name}: {chain.entries} entries, head seq {chain.head_seq} hash "
         f"{chain.head_digest or '—'}")
    if chain.first is not None:
        more = chain.problem_count - 1
        _say(f"  BROKEN: {chain.first.describe()}"
             + (f" (and {more} more finding{'s' if more != 1 else ''})" if more else ""))
    for item in chain.unchecked:
        _say(f"  not checked: {item.action} ({item.count} entr{'ies' if item.count != 1 else 'y'}"
             f", first #{item.first.id} seq {item.first.seq}): the replay cannot tell what it "
             "did to pairings and results")
    if chain.tournament_id is not None and not chain.pairings_checked:
        _say("  pairings and results not compared: the log does not record all of them")


def _problem_json(problem: Problem) -> dict[str, Any]:
    entry = problem.entry
    return {
        "kind": problem.kind.value,
        "entry": None if entry is None else {"id": entry.id, "seq": entry.seq,
                                             "action": entry.action},
        "round": problem.round, "table": problem.table, "expected_seq": problem.expected_seq,
        "differences": [{"field": d.field, "logged": d.logged, "stored": d.stored}
                        for d in problem.differences],
        "note": problem.note, "text": problem.describe(),
    }


def _verification_json(done: Verification) -> dict[str, Any]:
    return {"ok": done.ok, "entries": done.entries, "chains": [
        {"tournament": c.tournament_id, "ok": c.ok, "entries": c.entries,
         "head_seq": c.head_seq, "head_hash": c.head_digest,
         "pairings_checked": c.pairings_checked, "problem_count": c.problem_count,
         "problems": [_problem_json(p) for p in c.problems],
         "unchecked": [{"action": u.action, "count": u.count, "first": u.first.id}
                       for u in c.unchecked]}
        for c in done.chains]}
