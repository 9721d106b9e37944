"""A whole draft run in memory (``turnir draft simulate``): seating by lot (D-2), boosters from
the sample catalogue, the pick/pass engine (D-4) with simulated players who pick at random
times, sometimes let the timer run out, sometimes send a pick twice (a reconnecting client) and
sometimes leave for good; no database, no clock (time is simulated seconds).

The report per table says how many picks were made, how many were automatic, how many repeated
picks the engine refused, the pool sizes, and whether every card drawn ended in exactly one
pool. It is a demonstration and a smoke test of the engine, not a service of a tournament.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from functools import cache

from turnir.domain.cards import CardCatalogue, catalogue_of
from turnir.domain.draft.boosters import DraftCard, default_template, draw_booster
from turnir.domain.draft.engine import DraftEngine, PickRefused
from turnir.domain.draft.plan import DraftPlan, DraftProfile, default_plan, make_plan
from turnir.domain.draft.seating import seat_by_lot
from turnir.domain.model import PlayerId
from turnir.errors import InvariantError, UserError
from turnir.formats.cards_file import read_cards_bytes
from turnir.services.cards import sample_cards_bytes

MAX_PLAYERS = 512
MAX_STEPS_PER_CARD = 20
"""A guard: a table that needs more engine steps than this per card has stalled (a bug)."""


@dataclass(frozen=True, slots=True)
class TableReport:
    """One draft table after the simulated draft."""

    number: int
    players: int
    picks: int
    """Every pick in the table's log."""
    auto_picks: int
    """Picks the engine made itself (a timeout, an away or a dropped player, a booster's last
    card)."""
    refused: int
    """Repeated picks the engine refused (never applied twice)."""
    late: int
    """Picks the engine refused because the timer had already picked for the player."""
    dropped: int
    pool_sizes: tuple[int, ...]
    """Each seat's pool size, seat 1 first."""
    cards: int
    """Cards drawn for the table."""
    every_card_once: bool
    """Every card drawn is in exactly one pool, and the pick log has every pick."""
    pools_full: bool
    """Every pool has the plan's number of cards."""
    minutes: float
    """Simulated time from the first booster to the last pick."""


@dataclass(frozen=True, slots=True)
class SimulationReport:
    plan: DraftPlan
    players: int
    seed: int
    tables: tuple[TableReport, ...]

    @property
    def ok(self) -> bool:
        return all(table.every_card_once and table.pools_full for table in self.tables)


@cache
def _sample_catalogue() -> CardCatalogue:
    return catalogue_of(read_cards_bytes(sample_cards_bytes()).cards)


def simulate_draft(*, players: int, boosters: int, profile: DraftProfile, seed: int,
                   size: int | None = None, timeouts: float = 0.05,
                   drops: int = 1) -> SimulationReport:
    """Seat ``players`` by lot and draft ``boosters`` boosters of ``size`` cards (default:
    12 at the table, 7 online) at every table; ``timeouts`` is the chance a pick is never
    made (the timer runs out), ``drops`` the players of each table who leave mid-draft."""
    if not 4 <= players <= MAX_PLAYERS:
        raise UserError("a simulated draft has 4 to {most} players", code="bad_simulation",
                        most=MAX_PLAYERS)
    if not 0 <= timeouts <= 1 or not 0 <= drops <= players:
        raise UserError("the share of timeouts is 0 to 1 and the drops 0 to the players",
                        code="bad_simulation")
    chosen = size if size is not None else default_plan(profile).boosters[0]
    if chosen not in (7, 12):
        raise UserError("a booster has 7 or 12 cards, not {size}", code="bad_draft_plan",
                        size=chosen)
    plan = make_plan(twelves=boosters if chosen == 12 else 0,
                     sevens=boosters if chosen == 7 else 0, profile=profile)
    rng = random.Random(seed)
    seating = seat_by_lot(list(range(1, players + 1)), profile, rng)
    tables = tuple(
        _simulate_table(number, seats, plan, random.Random(rng.getrandbits(64)),
                        timeouts=timeouts, drops=min(drops, len(seats) - 1))
        for number, seats in enumerate(seating.tables, start=1))
    return SimulationReport(plan, players, seed, tables)


def _draw(plan: DraftPlan, seats: int, rng: random.Random) -> list[list[tuple[DraftCard, ...]]]:
    catalogue = _sample_catalogue()
    return [[draw_booster(default_template(size), catalogue, rng,
                          prefix=f"b{round_index * seats + seat + 1}")
             for seat in range(seats)]
            for round_index, size in enumerate(plan.boosters)]


class _Players:
    """The simulated players of one table: when each will pick from the booster they hold."""

    def __init__(self, engine: DraftEngine, plan: DraftPlan, rng: random.Random,
                 timeouts: float) -> None:
        self.engine, self.plan, self.rng, self.timeouts = engine, plan, rng, timeouts
        self.planned: dict[PlayerId, tuple[int, int, float | None]] = {}
        self.refused = 0
        self.late = 0

    def plan_picks(self, players: tuple[PlayerId, ...], now: float) -> None:
        """Give every player holding a new booster a pick time (None: lets the timer run)."""
        for player in players:
            view = self.engine.seat_view(player)
            if view.away and self.rng.random() < 0.3:  # back at the screen: «Я здесь»
                self.engine.resume(player, now)
            if view.booster is None or view.dropped:
                continue
            key = (view.booster, view.cards_left)
            known = self.planned.get(player)
            if known is not None and known[:2] == key:
                continue
            at: float | None = None
            if self.rng.random() >= self.timeouts:
                time = self.plan.pick_timer(view.cards_left)
                if view.deadline is not None:
                    time = min(time, int(view.deadline - now))
                at = now + self.rng.uniform(0.1, max(0.9 * time, 0.2))
            self.planned[player] = (*key, at)

    def next_time(self) -> float | None:
        times = [at for _, _, at in self.planned.values() if at is not None]
        return min(times, default=None)

    def pick_due(self, now: float) -> None:
        for player, (booster, cards_left, at) in list(self.planned.items()):
            if at is None or at > now:
                continue
            self.planned[player] = (booster, cards_left, None)
            view = self.engine.seat_view(player)
            if (view.booster != booster or view.cards_left != cards_left or not view.cards
                    or view.dropped):
                continue
            card = self.rng.choice(view.cards).uid
            try:
                self.engine.pick(player, booster=booster, cards_left=cards_left, card=card,
                                 now=now)
            except PickRefused:
                self.late += 1
                continue
            if self.rng.random() < 0.1:  # a client that sends the same pick again
                try:
                    self.engine.pick(player, booster=booster, cards_left=cards_left,
                                     card=card, now=now)
                except PickRefused:
                    self.refused += 1


def _simulate_table(number: int, seats: tuple[PlayerId, ...], plan: DraftPlan,
                    rng: random.Random, *, timeouts: float, drops: int) -> TableReport:
    drawn = _draw(plan, len(seats), rng)
    engine = DraftEngine.start(seats, drawn, plan, 0.0)
    players = _Players(engine, plan, rng, timeouts)
    leaving = dict(zip(rng.sample(seats, drops),
                       (rng.uniform(1.0, plan.cards * 10.0) for _ in range(drops)), strict=True))
    now, steps = 0.0, 0
    limit = MAX_STEPS_PER_CARD * plan.cards * len(seats)
    while not engine.done:
        players.plan_picks(seats, now)
        times = [t for t in (players.next_time(), engine.next_deadline(),
                             min(leaving.values(), default=None)) if t is not None]
        if not times or steps > limit:
            raise InvariantError(f"the simulated draft stalled at table {number}")
        now, steps = max(now, min(times)), steps + 1
        engine.advance(now)
        for player, at in list(leaving.items()):
            if at <= now:
                del leaving[player]
                engine.drop(player, now)
        players.pick_due(now)
    return _report(number, seats, drawn, engine, players, drops, now)


def _report(number: int, seats: tuple[PlayerId, ...],
            drawn: list[list[tuple[DraftCard, ...]]], engine: DraftEngine, players: _Players,
            dropped: int, now: float) -> TableReport:
    cards = [card.uid for row in drawn for booster in row for card in booster]
    pools = engine.pools
    pooled = Counter(card.uid for player in seats for card in pools.get(player, ()))
    logged = Counter(entry.card.uid for entry in engine.log)
    once = pooled == logged == Counter(cards) and all(v == 1 for v in pooled.values())
    return TableReport(
        number=number, players=len(seats), picks=len(engine.log),
        auto_picks=sum(1 for entry in engine.log if entry.auto), refused=players.refused,
        late=players.late, dropped=dropped,
        pool_sizes=tuple(len(pools.get(player, ())) for player in seats), cards=len(cards),
        every_card_once=once,
        pools_full=all(len(pools.get(player, ())) == players.plan.cards for player in seats),
        minutes=round(now / 60, 1))
