"""After the draft: each player's deck or hand from their pool (D-6), and the judges'
replacements of wrong-edition and promo cards (D-7).

- :func:`pool_deck`: the player's pool (a live draft's, ``services.live_draft.pool_in``, with
  this tournament's replacements applied), grouped by element, with the cards of the saved deck
  marked, what the pool becomes by the plan (``DraftPlan.pool_use``: hand, squad or deck; all
  the cards or a deck of ``deck_min`` and more) and the saved deck's D-6 problems.
- :func:`save_pool_deck`: the chosen cards (their uids) stored as the entry's deck in the
  ``decks`` table (``storage.decks_repo``), like a constructed deck
  (``services.decks.register_deck``): lines by name and edition, marked not valid when D-6
  finds a problem, so the judges' deck list ``/t/{tid}/decks`` shows it. A pool that is all
  the hand (or squad, or an online 1-2 booster deck) is saved whole, whatever was chosen.
  **Who may, when:** the entry's player until round 1 is paired; the tournament's judges and
  organizer any time (after round 1 logged as ``deck.judge_change``). A finished tournament
  refuses every change.
- A tabletop draft has no live pool: the player types the deck as in constructed, on the deck
  page (``services.decks.register_deck``), which checks a draft tournament's deck by D-6's size
  and D-1's no copy limit (``turnir.domain.draft.pool_deck.check_typed_deck``), not by C-1;
  :func:`save_typed_deck` is that path for callers of this module.
- :func:`record_replacement`: a judge of the tournament records a D-7 replacement: the card as
  reported (name, edition, rarity; in a live draft found in the player's pool, which gives its
  rarity), the card given from the catalogue (same rarity and one of the draft's editions:
  ``boosters.check_replacement``) and a reason; audited (``deck.draft_replacement``). In a live
  draft the replacement swaps the card in the pool this module builds decks from.
- :func:`replacements`: the tournament's replacements (judges: all; a player: their own).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from turnir.domain.cards import Card, CardCatalogue, card_key
from turnir.domain.decks import DeckList, DeckProblem
from turnir.domain.draft.boosters import BoosterTemplate, DraftCard, check_replacement
from turnir.domain.draft.plan import DraftPlan, PoolUse
from turnir.domain.draft.pool_deck import (
    PoolRule,
    check_pool_deck,
    pool_deck_list,
    pool_rule,
    uids_of,
)
from turnir.domain.model import Status
from turnir.domain.text import REASON_LEN, clean_text
from turnir.errors import ConflictError, ForbiddenError, NotFoundError, Term, UserError
from turnir.services.cards import card_catalogue
from turnir.services.common import Database, Tx, changing, reading, refuse_when_finished
from turnir.services.decks import DeckView, deck_access, decks_locked, register_deck
from turnir.services.draft_setup import plan_in, seating_in
from turnir.services.judges import staff_roles_in
from turnir.services.live_draft import pool_in
from turnir.services.reports import player_numbers
from turnir.storage import (
    accounts_repo,
    decks_repo,
    draft_replacements_repo,
    live_draft_repo,
    players_repo,
)
from turnir.storage.decks_repo import DeckValues, StoredDeck
from turnir.storage.draft_replacements_repo import ReplacementValues, StoredReplacement
from turnir.storage.mappers import tournament_row
from turnir.storage.repositories import Change, check_version

MAX_UIDS = 200
"""The most cards a saved choice may name (a pool has at most 4 × 12)."""
CARD_TEXT = 200
"""The longest card name, edition or rarity a replacement takes."""


@dataclass(frozen=True, slots=True)
class PoolCard:
    """One card of a player's pool, as the deck page lists it."""

    uid: str
    name: str
    edition: str
    rarity: str
    element: str
    """From the catalogue ("" for a card it does not know)."""
    cost: int
    chosen: bool
    """In the saved deck."""
    replaced: bool
    """A judge's replacement (D-7) put it in the pool."""


@dataclass(frozen=True, slots=True)
class PoolGroup:
    """The pool's cards of one element, by cost then name."""

    element: str
    cards: tuple[PoolCard, ...]

    @property
    def chosen(self) -> int:
        return sum(card.chosen for card in self.cards)


@dataclass(frozen=True)
class PoolDeckView:
    """A player's pool and the deck or hand saved from it."""

    tournament_id: int
    number: int
    player: str
    live: bool
    """The tournament's draft was live (the pool is the server's); else a tabletop draft."""
    ready: bool
    """The pool is complete: the player's draft table is done."""
    rule: PoolRule
    groups: tuple[PoolGroup, ...]
    saved: bool
    chosen: int
    """Cards in the saved deck."""
    problems: tuple[DeckProblem, ...]
    """The saved deck's D-6 problems."""
    locked: bool
    finished: bool
    can_change: bool
    staff: bool
    updated_at: datetime | None
    updated_by: str
    version: int

    @property
    def valid(self) -> bool:
        return self.saved and not self.problems

    @property
    def use(self) -> PoolUse:
        return self.rule.use


@dataclass(frozen=True, slots=True)
class ReplacementLine:
    """A recorded replacement (D-7)."""

    id: int
    number: int
    player: str
    draft_table: int
    booster_round: int
    old_name: str
    old_edition: str
    old_rarity: str
    new_name: str
    new_edition: str
    new_rarity: str
    reason: str
    judge: str
    at: datetime
    in_pool: bool
    """The replaced card was found in the player's live pool and swapped there."""


# ----- reading the pool ------------------------------------------------------------------


def _plan(tx: Tx, tournament_id: int) -> DraftPlan:
    plan = plan_in(tx, tournament_id)
    if plan is None:
        raise UserError("tournament #{tournament} has no draft plan; its organizer sets the "
                        "plan before decks are built", code="no_draft_plan",
                        tournament=tournament_id)
    return plan


def _swapped(card: DraftCard, done: StoredReplacement) -> DraftCard:
    new = done.values
    return replace(card, name=new.new_name, edition=new.new_edition, rarity=new.new_rarity)


def pool_with_replacements(tx: Tx, tournament_id: int,
                           number: int) -> tuple[tuple[DraftCard, ...], frozenset[str]]:
    """The player's live pool with the judges' replacements (D-7) swapped in, and the uids of
    the cards a replacement gave; ``((), ∅)`` for a tabletop draft."""
    pool = tuple(pool_in(tx, tournament_id, number) or ())
    done = {r.values.card_uid: r for r in
            draft_replacements_repo.replacements_of(tx, tournament_id, number)
            if r.values.card_uid}
    return (tuple(_swapped(card, done[card.uid]) if card.uid in done else card
                  for card in pool), frozenset(done) & {card.uid for card in pool})


def _groups(pool: Sequence[DraftCard], chosen: set[str], replaced: frozenset[str],
            catalogue: CardCatalogue) -> tuple[PoolGroup, ...]:
    by_element: dict[str, list[PoolCard]] = {}
    for card in pool:
        known = catalogue.find(card.name, card.edition) or catalogue.find(card.name)
        line = PoolCard(uid=card.uid, name=card.name, edition=card.edition,
                        rarity=card.rarity, element=known.element if known else "",
                        cost=known.cost if known else 0, chosen=card.uid in chosen,
                        replaced=card.uid in replaced)
        by_element.setdefault(line.element, []).append(line)
    return tuple(PoolGroup(element, tuple(sorted(cards, key=lambda c: (c.cost, card_key(c.name),
                                                                        c.uid))))
                 for element, cards in sorted(by_element.items(),
                                              key=lambda item: (not item[0],
                                                                card_key(item[0]))))


def _is_staff(tx: Tx, tournament_id: int, account_id: int | None) -> bool:
    return account_id is None or bool(staff_roles_in(tx, tournament_id, account_id))


def pool_deck(db: Database, tournament_id: int, number: int | str, *,
              account_id: int | None) -> PoolDeckView:
    """Entry ``number``'s pool and saved deck (for the player and the tournament's staff)."""
    catalogue = card_catalogue(db)
    with reading(db) as tx:
        row = tournament_row(tx, tournament_id)
        entry = players_repo.entry(tx, tournament_id, number)
        staff = deck_access(tx, tournament_id, entry.number, account_id)
        plan = _plan(tx, tournament_id)
        pool, replaced = pool_with_replacements(tx, tournament_id, entry.number)
        locked = decks_locked(tx, tournament_id)
        stored = decks_repo.deck_row(tx, tournament_id, entry.number)
    finished = row["status"] == Status.FINISHED
    rule = pool_rule(plan, len(pool) if pool else plan.cards)
    chosen = set(uids_of(DeckList.from_json(stored.lines), pool)) if stored else set()
    problems: tuple[DeckProblem, ...] = ()
    if stored is not None and pool:
        problems = check_pool_deck(plan, pool, sorted(chosen)).problems
    return PoolDeckView(
        tournament_id=tournament_id, number=entry.number, player=entry.name, live=bool(pool),
        ready=len(pool) == plan.cards, rule=rule,
        groups=_groups(pool, chosen, replaced, catalogue), saved=stored is not None,
        chosen=stored.total if stored else 0, problems=problems, locked=locked,
        finished=finished, can_change=not finished and (staff or not locked), staff=staff,
        updated_at=stored.updated_at if stored else None,
        updated_by=stored.updated_by if stored else "",
        version=stored.version if stored else 0)


@dataclass(frozen=True, slots=True)
class PoolSummary:
    """A player in the judges' list of pools."""

    number: int
    player: str
    pool: int
    """Cards in the player's live pool (0: a tabletop draft, or not drafted yet)."""
    saved: bool
    total: int
    valid: bool


def pool_players(db: Database, tournament_id: int, *,
                 account_id: int | None) -> list[PoolSummary]:
    """Every entry with its pool size and saved deck, by number; the staff only."""
    with reading(db) as tx:
        tournament_row(tx, tournament_id)
        if not _is_staff(tx, tournament_id, account_id):
            raise ForbiddenError("only the judges and the organizer of tournament "
                                 "#{tournament} see its decks", code="not_staff",
                                 tournament=tournament_id)
        entries = players_repo.entry_list(tx, tournament_id)
        stored = decks_repo.deck_rows(tx, tournament_id)
        pools = Counter(pick.player for _, pick in live_draft_repo.picks(tx, tournament_id))
    return [PoolSummary(number=e.number, player=e.name, pool=pools[e.number],
                        saved=e.number in stored,
                        total=stored[e.number].total if e.number in stored else 0,
                        valid=e.number in stored and stored[e.number].valid)
            for e in entries]


# ----- saving ----------------------------------------------------------------------------


def save_pool_deck(db: Database, tournament_id: int, number: int | str, *, actor: str,
                   account_id: int | None, uids: Sequence[str],
                   expected_version: int | None = None) -> PoolDeckView:
    """Store the cards ``uids`` of entry ``number``'s pool as their deck (D-6); see the module
    docstring for who may and when. ``expected_version``: the deck's version the choice was
    made on (0: none yet); a deck changed meanwhile is refused."""
    if len(uids) > MAX_UIDS:
        raise UserError("at most {limit} cards can be chosen", code="bad_deck", limit=MAX_UIDS)
    with changing(db, tournament_id, actor) as change:
        tx = change.conn
        refuse_when_finished(tournament_row(tx, tournament_id))
        entry = players_repo.entry(tx, tournament_id, number)
        staff = deck_access(tx, tournament_id, entry.number, account_id)
        plan = _plan(tx, tournament_id)
        locked = decks_locked(tx, tournament_id)
        if locked and not staff:
            raise ConflictError("the deck is locked: round 1 is paired; ask a judge",
                                code="deck_locked")
        pool, _ = pool_with_replacements(tx, tournament_id, entry.number)
        if len(pool) != plan.cards:
            raise ConflictError("player #{number} has no complete draft pool yet; the deck is "
                                "built after the draft", code="no_pool", number=entry.number)
        every = pool_rule(plan, len(pool)).all_cards
        before = decks_repo.deck_row(tx, tournament_id, entry.number)
        check_version(tx, tournament_id, "deck", entry.number, Term("the deck"),
                      expected_version, before.version if before else 0)
        _store_deck(change, entry.number, plan, pool,
                    [c.uid for c in pool] if every else list(uids), before=before,
                    action="deck.judge_change" if locked else "deck.register")
    return pool_deck(db, tournament_id, entry.number, account_id=account_id)


def _store_deck(change: Change, number: int, plan: DraftPlan, pool: Sequence[DraftCard],
                uids: Sequence[str], *, before: StoredDeck | None, action: str,
                reason: str = "") -> None:
    """Store the cards ``uids`` of ``pool`` as entry ``number``'s deck, checked (D-6), and log
    it; ``before``: the deck's row read in this transaction."""
    assert change.locked is not None
    check = check_pool_deck(plan, pool, uids)
    deck = pool_deck_list(check.cards)
    values = DeckValues(lines=deck.to_json(), source=deck.text(), total=deck.total,
                        valid=check.ok, at=change.at, by=change.actor)
    decks_repo.save_deck(change.conn, change.locked, number, values, before=before)
    after: dict[str, Any] = {"lines": deck.to_json(), "total": deck.total, "valid": check.ok,
                             "pool": True}
    if reason:
        after["reason"] = reason
    change.log(change.locked, action, "deck", number,
               None if before is None else {"lines": before.lines, "total": before.total,
                                            "valid": before.valid}, after)


def _swap_in_saved_deck(change: Change, number: int, plan: DraftPlan, old: DraftCard,
                        new: Card, reason: str) -> None:
    """A replaced card that is in the player's saved deck is replaced there too (a judge's
    change, with the judge's reason)."""
    assert change.locked is not None
    before = decks_repo.deck_row(change.conn, change.locked, number)
    if not old.uid or before is None:
        return
    pool, _ = pool_with_replacements(change.conn, change.locked, number)
    chosen = uids_of(DeckList.from_json(before.lines), pool)
    if old.uid not in chosen:
        return
    given = DraftCard(uid=old.uid, name=new.name, edition=new.edition, rarity=new.rarity)
    swapped = tuple(given if card.uid == old.uid else card for card in pool)
    _store_deck(change, number, plan, swapped, chosen, before=before,
                action="deck.judge_change", reason=reason or "D-7")


def save_typed_deck(db: Database, tournament_id: int, number: int | str, *, text: str,
                    actor: str, account_id: int | None, expected_version: int | None = None,
                    reason: str = "") -> DeckView:
    """A tabletop draft's deck or hand typed as in constructed, checked by D-6 and D-1 (the
    deck page's path, ``services.decks.register_deck``)."""
    return register_deck(db, tournament_id, number, text=text, actor=actor,
                         account_id=account_id, expected_version=expected_version,
                         reason=reason)


# ----- replacements (D-7) ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reported:
    """A replacement as the judge gives it: the card reported and the card given."""

    number: int
    booster_round: int
    old_name: str
    new_name: str
    old_edition: str = ""
    old_rarity: str = ""
    new_edition: str = ""
    reason: str = ""


def _draft_editions(tx: Tx, tournament_id: int) -> tuple[str, ...]:
    """The editions the tournament's live boosters were drawn from; none (any edition) for a
    tabletop draft or a template that names none."""
    editions: dict[str, str] = {}
    for draft in live_draft_repo.drafts_of(tx, tournament_id):
        for data in draft.templates:
            template = BoosterTemplate.from_json(data)
            if not template.editions:
                return ()
            editions.update((card_key(e), e) for e in template.editions)
    return tuple(editions.values())


def _text(value: str, field: str) -> str:
    return clean_text(value, field=field, max_len=CARD_TEXT, multiline=False)


def _new_card(catalogue: CardCatalogue, name: str, edition: str) -> Card:
    found = catalogue.find(name, edition or None)
    if found is None:
        if edition and catalogue.printings(name):
            raise NotFoundError("the card {name!r} is not printed in the edition {edition!r}",
                                code="wrong_edition", name=name, edition=edition)
        raise NotFoundError("no card {name!r} in the catalogue", code="unknown_card", name=name)
    return found


def _reported_card(tx: Tx, tournament_id: int, given: Reported) -> DraftCard:
    """The replaced card: in a live pool, the first card there of that name (and edition, when
    given), else the card as reported (its rarity required)."""
    pool, _ = pool_with_replacements(tx, tournament_id, given.number)
    if pool:
        for card in pool:
            if card_key(card.name) == card_key(given.old_name) and (
                    not given.old_edition
                    or card_key(card.edition) == card_key(given.old_edition)):
                return card
        raise NotFoundError("player #{number} has no card {card!r} in their draft pool",
                            code="not_in_pool", number=given.number, card=given.old_name)
    if not given.old_rarity:
        raise UserError("give the replaced card's rarity", code="bad_replacement")
    return DraftCard(uid="", name=given.old_name, edition=given.old_edition,
                     rarity=given.old_rarity)


def record_replacement(db: Database, tournament_id: int, given: Reported, *, actor: str,
                       account_id: int | None) -> ReplacementLine:
    """A judge of the tournament replaces a wrong-edition or promo card (D-7)."""
    catalogue = card_catalogue(db)
    given = replace(given, old_name=_text(given.old_name, "name"),
                    old_edition=_text(given.old_edition, "name"),
                    old_rarity=_text(given.old_rarity, "name"),
                    new_name=_text(given.new_name, "name"),
                    new_edition=_text(given.new_edition, "name"),
                    reason=clean_text(given.reason, field="reason", max_len=REASON_LEN))
    if not given.old_name or not given.new_name:
        raise UserError("name the card reported and the card given", code="bad_replacement")
    new = _new_card(catalogue, given.new_name, given.new_edition)
    with changing(db, tournament_id, actor) as change:
        tx = change.conn
        refuse_when_finished(tournament_row(tx, tournament_id))
        if not _is_staff(tx, tournament_id, account_id):
            raise ForbiddenError("only the judges of tournament #{tournament} replace cards "
                                 "(D-7)", code="not_staff", tournament=tournament_id)
        entry = players_repo.entry(tx, tournament_id, given.number)
        plan = _plan(tx, tournament_id)
        if not 1 <= given.booster_round <= plan.count:
            raise UserError("the booster is 1 to {count}, not {round}", code="bad_replacement",
                            count=plan.count, round=given.booster_round)
        old = _reported_card(tx, tournament_id, replace(given, number=entry.number))
        check_replacement(old, new, _draft_editions(tx, tournament_id))
        seating = seating_in(tx, tournament_id)
        table = seating.table_of(entry.number) if seating and entry.number in \
            seating.mapping else 1
        _swap_in_saved_deck(change, entry.number, plan, old, new, given.reason)
        values = ReplacementValues(
            number=entry.number, draft_table=table, booster_round=given.booster_round,
            card_uid=old.uid, old_name=old.name, old_edition=old.edition,
            old_rarity=old.rarity, new_name=new.name, new_edition=new.edition,
            new_rarity=new.rarity, reason=given.reason, judge_account_id=account_id,
            judge_name=change.actor, at=change.at)
        new_id = draft_replacements_repo.add_replacement(tx, tournament_id, values)
        change.log(tournament_id, "deck.draft_replacement", "draft_replacement", new_id, None,
                   {"number": entry.number, "booster_round": given.booster_round,
                    "old": [old.name, old.edition, old.rarity],
                    "new": [new.name, new.edition, new.rarity], "reason": given.reason})
    return _line(draft_replacements_repo.StoredReplacement(new_id, values), entry.name)


def _line(stored: StoredReplacement, player: str) -> ReplacementLine:
    v = stored.values
    return ReplacementLine(
        id=stored.id, number=v.number, player=player, draft_table=v.draft_table,
        booster_round=v.booster_round, old_name=v.old_name, old_edition=v.old_edition,
        old_rarity=v.old_rarity, new_name=v.new_name, new_edition=v.new_edition,
        new_rarity=v.new_rarity, reason=v.reason, judge=v.judge_name, at=v.at,
        in_pool=bool(v.card_uid))


def replacements(db: Database, tournament_id: int, *,
                 account_id: int | None) -> list[ReplacementLine]:
    """The tournament's replacements, oldest first: all of them for its staff, a player's own
    for a player of the tournament; anyone else is refused."""
    with reading(db) as tx:
        tournament_row(tx, tournament_id)
        mine: list[int] | None = None
        if not _is_staff(tx, tournament_id, account_id):
            assert account_id is not None
            account = accounts_repo.account_by_id(tx, account_id)
            mine = player_numbers(tx, tournament_id, account.person_id)
            if not mine:
                raise ForbiddenError("only the judges and the players of tournament "
                                     "#{tournament} see its card replacements",
                                     code="not_staff", tournament=tournament_id)
        names = {e.number: e.name for e in players_repo.entry_list(tx, tournament_id)}
        stored = draft_replacements_repo.replacements_of(tx, tournament_id)
    return [_line(s, names.get(s.values.number, "")) for s in stored
            if mine is None or s.values.number in mine]
