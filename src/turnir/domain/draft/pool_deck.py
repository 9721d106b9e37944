"""The deck or hand a player builds from their draft pool (D-6, D-1).

Terms (Russian in brackets):

- *pool* (пул): every card a player drafted (``DraftCard``, each with a uid unique in its draft
  table); its size is the plan's cards per player;
- *pool use* (что собирают из пула, D-6): what the pool becomes, by the plan
  (``DraftPlan.pool_use``): one booster → the *hand* (раздача, the classic draft) or the
  *squad* (отряд); two 12-card boosters → a *deck* of ``deck_min`` (20) or more, and a pool of
  fewer cards than that becomes the hand; three and four boosters → a deck. Online, one booster
  uses all 7 cards, two use all 14 (``DraftPlan.uses_all_cards``), four give 28 cards for a
  deck of 20 or more;
- *all cards* (все карты пула): the hand, the squad and an online 1- or 2-booster deck take the
  whole pool; nothing is chosen;
- a deck has no copy limit (D-1) and no upper size but the pool's.

Two checks:

- :func:`check_pool_deck`: the uids a player chose from a live draft's pool (every uid from the
  pool and at most once, else refused outright: no form sends that), with the D-6 size problems
  collected so the deck can be stored marked not valid and fixed later;
- :func:`check_typed_deck`: a tabletop draft (no live pool): the list typed as in constructed,
  read with ``turnir.domain.decks.parse_deck`` and the card catalogue for names and editions,
  checked by D-6's size and D-1's no copy limit instead of C-1 (no ban list, no format).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date

from turnir.domain.cards import CardCatalogue, card_key
from turnir.domain.decks import (
    DeckCheck,
    DeckFormat,
    DeckLine,
    DeckList,
    DeckProblem,
    ProblemKind,
    check_deck,
)
from turnir.domain.draft.boosters import DraftCard
from turnir.domain.draft.plan import DraftPlan, PoolUse
from turnir.errors import Term, UserError

RULE = "D-6"
"""The rule a pool deck's problems cite."""

_USE_WORDS = {PoolUse.HAND: Term("hand"), PoolUse.SQUAD: Term("squad"),
              PoolUse.DECK: Term("deck")}


@dataclass(frozen=True, slots=True)
class PoolRule:
    """What the pool of a draft becomes (D-6)."""

    use: PoolUse
    pool: int
    """Cards in the pool."""
    all_cards: bool
    """The whole pool is the hand, squad or deck: nothing is chosen."""
    deck_min: int
    """The fewest cards a deck built by choice has (D-6, D-8: a setting, 20 by default)."""


def pool_rule(plan: DraftPlan, pool: int) -> PoolRule:
    """What a pool of ``pool`` cards becomes in a draft by ``plan`` (D-6)."""
    use = plan.pool_use(pool)
    every = use is not PoolUse.DECK or plan.uses_all_cards
    return PoolRule(use=use, pool=pool, all_cards=every, deck_min=plan.deck_min)


@dataclass(frozen=True, slots=True)
class PoolCheck:
    """The cards a player chose from their pool, and what is wrong with them (D-6)."""

    rule: PoolRule
    cards: tuple[DraftCard, ...]
    """The chosen cards, in the pool's order."""
    problems: tuple[DeckProblem, ...]

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def total(self) -> int:
        return len(self.cards)


def _size_problems(rule: PoolRule, total: int) -> tuple[DeckProblem, ...]:
    """The D-6 problem of ``total`` cards built from a pool by ``rule``, if any."""
    if rule.all_cards:
        if total == rule.pool:
            return ()
        error = UserError("in this draft all {pool} cards of the pool are the {use}; "
                          "{total} are given (D-6)", code="pool_size", pool=rule.pool,
                          use=_USE_WORDS[rule.use], total=total)
    elif total < rule.deck_min:
        error = UserError("the deck has {total} cards; a draft deck has at least {low} (D-6)",
                          code="pool_size", total=total, low=rule.deck_min)
    elif total > rule.pool:
        error = UserError("the deck has {total} cards; the pool of this draft has only {pool} "
                          "(D-6)", code="pool_size", total=total, pool=rule.pool)
    else:
        return ()
    return (DeckProblem(kind=ProblemKind.SIZE, rule=RULE, error=error),)


def check_pool_deck(plan: DraftPlan, pool: Sequence[DraftCard],
                    uids: Sequence[str]) -> PoolCheck:
    """The deck or hand of the cards ``uids`` chosen from ``pool`` (D-6).

    A uid not in the pool or given twice is refused (``UserError``); a wrong size is a problem
    of the check. No copy limit (D-1): a draft deck holds whatever the pool holds."""
    by_uid = {card.uid: card for card in pool}
    seen: set[str] = set()
    for uid in uids:
        if uid not in by_uid:
            raise UserError("the card {uid!r} is not in this player's pool (D-6)",
                            code="not_in_pool", uid=uid[:20])
        if uid in seen:
            raise UserError("the card {uid!r} is chosen twice (D-6)", code="not_in_pool",
                            uid=uid)
        seen.add(uid)
    rule = pool_rule(plan, len(pool))
    cards = tuple(card for card in pool if card.uid in seen)
    return PoolCheck(rule=rule, cards=cards, problems=_size_problems(rule, len(cards)))


def pool_deck_list(cards: Sequence[DraftCard]) -> DeckList:
    """The chosen cards as deck lines: one line a name and edition, in the pool's order."""
    counts: dict[tuple[str, str], int] = {}
    for card in cards:
        key = (card.name, card.edition)
        counts[key] = counts.get(key, 0) + 1
    return DeckList(tuple(DeckLine(count=count, name=name, edition=edition or None, line=n)
                          for n, ((name, edition), count) in enumerate(counts.items(), 1)))


def uids_of(deck: DeckList, pool: Sequence[DraftCard]) -> tuple[str, ...]:
    """The pool's uids of a stored deck's lines (the first cards of each name and edition, in
    the pool's order: such cards are alike); a line the pool cannot give is left out."""
    wanted: dict[tuple[str, str], int] = {}
    for line in deck.lines:
        key = (card_key(line.name), card_key(line.edition or ""))
        wanted[key] = wanted.get(key, 0) + line.count
    chosen = []
    for card in pool:
        key = (card_key(card.name), card_key(card.edition))
        if wanted.get(key, 0) > 0:
            wanted[key] -= 1
            chosen.append(card.uid)
    return tuple(chosen)


_NO_LIMITS = DeckFormat(name="draft", min_cards=0, max_cards=10**6, max_copies=10**6,
                        max_horde_copies=10**6)
"""A format that checks only names and editions: a draft has no copy limit (D-1), no ban list
and its own sizes (D-6)."""
_ANY_DAY = date(2000, 1, 1)
"""The day a typed draft deck is checked on: with no ban list, any day."""


def check_typed_deck(deck: DeckList, catalogue: CardCatalogue, plan: DraftPlan, *,
                     syntax: Sequence[DeckProblem] = ()) -> DeckCheck:
    """A tabletop draft's deck or hand as typed (D-6, D-1): every line read and each card found
    in the catalogue (the edition, when given, one the card is printed in), then the size the
    plan asks of a pool of ``plan.cards`` cards. Problems cite D-6, never C-1."""
    names = check_deck(deck, catalogue, _NO_LIMITS, on=_ANY_DAY, syntax=syntax)
    problems = tuple(replace(p, rule=RULE) if p.rule else p for p in names.problems)
    sizes = _size_problems(pool_rule(plan, plan.cards), deck.total)
    return DeckCheck(problems=problems + sizes, cards=names.cards, total=deck.total)
