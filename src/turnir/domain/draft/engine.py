"""The pick/pass engine of a live draft table (D-4, D-8): a draft that never stalls.

Terms (Russian in brackets):

- *seat* (место): 1..n around the table in the order the players were seated; *left* is the
  next seat number (seat n to seat 1), *right* the previous one (D-4);
- *booster round* (круг): every seat opens its booster ``r`` and the table picks until all of
  them are empty; odd rounds pass left, even rounds right (D-4); the next round opens
  ``plan.review_seconds`` after the last pick of a round (the review minute, D-4) and the draft
  is *done* at the last pick of the last round;
- *booster id*: ``(round - 1) * n + seat`` of the seat that opened it, unique in the table;
- *queue* (очередь): the boosters passed to a seat and not picked from yet, in arrival order;
  the player picks from the *front* one only; it gets its *deadline* (``plan.pick_timer`` of
  its cards) when it reaches the front;
- *automatic pick* (автовыбор, ``boosters.autopick``): made for the front booster at its
  deadline (reason ``timeout``); a player with ``plan.away_after`` timeouts in a row is *away*
  (отошёл) and a booster reaching them is picked for them at once (``away``) until they come
  back (``resume``: the page's «Я здесь»); a dropped player is picked for at once
  (``dropped``); the *last card* of a booster is no choice: a booster of one card reaching
  the front of a queue goes to that player's pool at once, at that very time (``last``; it
  counts as no timeout), so the table never waits a timer for it (D-4: the last card is
  passed and taken);
- *time*: seconds (a float) passed in by the caller; the engine has no clock. Every event is
  applied at its own time, in time order and then seat order, so the state after
  ``advance(t)`` does not depend on how often or when ``advance`` was called before; a read
  (a reconnect, a poll) never changes anything.

A pick names the booster and the number of cards it had when the player saw it: a pick
repeated, late (the booster was picked for them and passed on) or made on an old view is
refused (``PickRefused``) and changes nothing, so it is never applied twice.

The state is a JSON value (``to_json``/``from_json``, exact: floats round-trip in JSON);
cards are stored once in a table (their names, editions and rarities once in a word list)
and referred to by their index in it everywhere else, so the state of a 16-seat table of 4
boosters of 12 stays small and quick to read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from turnir.domain.draft.boosters import DraftCard, autopick
from turnir.domain.draft.plan import DraftPlan
from turnir.domain.model import PlayerId
from turnir.errors import ConflictError

PICK, TIMEOUT, AWAY, DROPPED, LAST = "pick", "timeout", "away", "dropped", "last"
"""The reasons of a pick-log entry: the player's own pick, and the automatic ones (``last``:
the booster's last card, taken at once)."""
REASONS = (PICK, TIMEOUT, AWAY, DROPPED, LAST)
"""The reasons by their code in the state's log rows ``[booster, pick, seat, card index,
reason code, at]`` (new reasons only at the end: a stored state keeps its codes)."""

STATE_VERSION = 1


class PickRefused(ConflictError):
    """A pick on a booster the player does not hold now, on an old view of it, of a card not
    in it; a repeated or late pick. Nothing changed."""

    code = "stale_pick"


@dataclass(frozen=True, slots=True)
class PickEntry:
    """One line of the pick log."""

    number: int
    """1.. in the table, in the order the picks were made."""
    booster_round: int
    booster: int
    """The booster's id (unique in the table)."""
    pick: int
    """1.. within that booster."""
    seat: int
    player: PlayerId
    card: DraftCard
    auto: bool
    reason: str
    """``pick``, ``timeout``, ``away``, ``dropped`` or ``last``."""
    at: float


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one player sees."""

    seat: int
    booster: int | None
    """The front booster's id, ``None`` when the player waits."""
    cards: tuple[DraftCard, ...]
    cards_left: int
    deadline: float | None
    queue: int
    """Boosters held (the front one and those waiting behind it)."""
    pool: tuple[DraftCard, ...]
    booster_round: int
    rounds: int
    review_until: float | None
    done: bool
    away: bool
    dropped: bool


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat in the judge's table view."""

    seat: int
    player: PlayerId
    holding: int
    """Boosters the player holds."""
    deadline: float | None
    away: bool
    dropped: bool
    picks: int
    """Cards in the player's pool."""


@dataclass(frozen=True, slots=True)
class TableView:
    """The judge's view of a table: who holds how many boosters, whom the table waits on."""

    rows: tuple[SeatRow, ...]
    waiting_on: tuple[PlayerId, ...]
    """Players holding a booster, most boosters first, then by seat."""
    booster_round: int
    review_until: float | None
    done: bool


class DraftEngine:
    """One draft table's picking; see the module docstring. Build with ``start`` or
    ``from_json``."""

    __slots__ = ("_away", "_cards", "_contents", "_deadlines", "_done", "_dropped", "_index",
                 "_kind_of", "_kinds", "_last", "_left", "_log", "_log_rows", "_n", "_pools",
                 "_queues", "_review_until", "_round", "_timeouts", "_uids", "plan", "players")

    def __init__(self, plan: DraftPlan, players: Sequence[PlayerId], uids: list[str],
                 kind_of: list[int], kinds: list[list[str]]) -> None:
        self.plan = plan
        self.players: tuple[PlayerId, ...] = tuple(players)
        self._n = len(self.players)
        self._index = {player: seat for seat, player in enumerate(self.players)}
        if len(self._index) != self._n or self._n < 2:
            raise ValueError("a draft table needs two or more different players")
        self._uids = uids
        """Card index → its uid."""
        self._kind_of = kind_of
        """Card index → its kind's index in ``_kinds``."""
        self._kinds = kinds
        """The different ``[name, edition, rarity]`` of the table's cards."""
        self._cards: dict[int, DraftCard] = {}
        self._contents: dict[int, list[int]] = {}
        self._queues: list[list[int]] = [[] for _ in range(self._n)]
        self._deadlines: list[float | None] = [None] * self._n
        self._timeouts = [0] * self._n
        self._away = [False] * self._n
        self._dropped = [False] * self._n
        self._pools: list[list[int]] = [[] for _ in range(self._n)]
        self._round = 0
        self._left = 0
        self._review_until: float | None = None
        self._done = False
        self._last = 0.0
        self._log_rows: list[list[Any]] = []
        self._log: tuple[PickEntry, ...] = ()

    # ----- building ---------------------------------------------------------------------------

    @classmethod
    def start(cls, players: Sequence[PlayerId],
              boosters: Sequence[Sequence[tuple[DraftCard, ...]]], plan: DraftPlan,
              now: float) -> DraftEngine:
        """A table of ``players`` in seat order; ``boosters[r][s]`` is what seat ``s + 1``
        opens in booster round ``r + 1``. Round 1 opens at ``now``."""
        n = len(players)
        if len(boosters) != plan.count or any(len(row) != n for row in boosters):
            raise ValueError("one booster per seat and booster round is needed")
        uids: list[str] = []
        kind_of: list[int] = []
        kinds: dict[tuple[str, str, str], int] = {}
        cards: dict[int, DraftCard] = {}
        contents: dict[int, list[int]] = {}
        for r, row in enumerate(boosters):
            for s, booster in enumerate(row):
                if len(booster) != plan.boosters[r]:
                    raise ValueError(f"booster round {r + 1} has {plan.boosters[r]} cards")
                contents[r * n + s + 1] = list(range(len(uids), len(uids) + len(booster)))
                for card in booster:
                    cards[len(uids)] = card
                    uids.append(card.uid)
                    kind_of.append(kinds.setdefault((card.name, card.edition, card.rarity),
                                                    len(kinds)))
        if len(set(uids)) != len(uids):
            raise ValueError("card uids must be unique in a draft table")
        engine = cls(plan, players, uids, kind_of, [list(kind) for kind in kinds])
        engine._contents = contents
        engine._cards = cards
        engine._last = now
        engine._open_round(1, now)
        engine._run(now)
        return engine

    def to_json(self) -> dict[str, Any]:
        """The whole state as a JSON value."""
        return {
            "v": STATE_VERSION, "plan": self.plan.to_json(), "players": list(self.players),
            "uids": list(self._uids), "kind_of": list(self._kind_of),
            "kinds": list(self._kinds),
            "contents": {str(b): list(cards) for b, cards in self._contents.items()},
            "queues": [list(q) for q in self._queues], "deadlines": list(self._deadlines),
            "timeouts": list(self._timeouts), "away": list(self._away),
            "dropped": list(self._dropped), "pools": [list(p) for p in self._pools],
            "round": self._round, "left": self._left, "review_until": self._review_until,
            "done": self._done, "last": self._last, "log": list(self._log_rows),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DraftEngine:
        """The engine ``to_json`` wrote; it behaves exactly as the one that wrote it."""
        if data.get("v") != STATE_VERSION:
            raise ValueError("unknown draft state version")
        engine = cls(DraftPlan.from_json(data["plan"]), data["players"], list(data["uids"]),
                     list(data["kind_of"]), list(data["kinds"]))
        engine._contents = {int(b): list(cards) for b, cards in data["contents"].items()}
        engine._queues = [list(q) for q in data["queues"]]
        engine._deadlines = list(data["deadlines"])
        engine._timeouts = list(data["timeouts"])
        engine._away = list(data["away"])
        engine._dropped = list(data["dropped"])
        engine._pools = [list(p) for p in data["pools"]]
        engine._round = data["round"]
        engine._left = data["left"]
        engine._review_until = data["review_until"]
        engine._done = data["done"]
        engine._last = data["last"]
        engine._log_rows = list(data["log"])
        return engine

    # ----- changing ---------------------------------------------------------------------------

    def pick(self, player: PlayerId, *, booster: int, cards_left: int, card: str,
             now: float) -> PickEntry:
        """The player's own pick of ``card`` from ``booster`` as they saw it with
        ``cards_left`` cards. Expired deadlines up to ``now`` are applied first; a pick that
        does not fit the state then is refused and changes nothing."""
        self.advance(now)
        now = max(now, self._last)
        seat = self._seat(player)
        if self._done:
            raise PickRefused("the draft is over", code="stale_pick")
        if self._dropped[seat]:
            raise PickRefused("you have dropped from the draft", code="stale_pick")
        queue = self._queues[seat]
        if not queue or queue[0] != booster:
            raise PickRefused("the booster {booster} is not in front of you now: it was "
                              "picked or passed on", code="stale_pick", booster=booster)
        inside = self._contents[booster]
        if len(inside) != cards_left:
            raise PickRefused("the booster {booster} has {left} cards now, not {cards_left}",
                              code="stale_pick", booster=booster, left=len(inside),
                              cards_left=cards_left)
        index = next((i for i in inside if self._uids[i] == card), None)
        if index is None:
            raise PickRefused("the card {card} is not in the booster {booster}",
                              code="stale_pick", card=str(card)[:20], booster=booster)
        self._timeouts[seat] = 0
        self._away[seat] = False
        entry = self._take(seat, index, now, PICK)
        self._run(now)
        return entry

    def advance(self, now: float) -> list[PickEntry]:
        """Apply every event due by ``now`` at its own time: automatic picks at expired
        deadlines and for away or dropped players, the next booster round after the review.
        Returns the picks made."""
        start = len(self._log_rows)
        self._run(now)
        return self._entries(start)

    def drop(self, player: PlayerId, now: float) -> list[PickEntry]:
        """From ``now`` on the player is picked for at once (a drop is for good)."""
        self.advance(now)
        now = max(now, self._last)
        seat = self._seat(player)
        start = len(self._log_rows)
        if not self._done and not self._dropped[seat]:
            self._dropped[seat] = True
            if self._queues[seat]:
                self._deadlines[seat] = now
            self._run(now)
        return self._entries(start)

    def resume(self, player: PlayerId, now: float) -> list[PickEntry]:
        """An away player is back («Я здесь»): the next booster reaching them waits for their
        pick again. Not for a dropped player."""
        entries = self.advance(now)
        seat = self._seat(player)
        self._away[seat] = False
        self._timeouts[seat] = 0
        return entries

    # ----- reading ----------------------------------------------------------------------------

    @property
    def done(self) -> bool:
        return self._done

    @property
    def booster_round(self) -> int:
        return self._round

    @property
    def review_until(self) -> float | None:
        return self._review_until

    @property
    def log(self) -> tuple[PickEntry, ...]:
        """Every pick, in order."""
        if len(self._log) != len(self._log_rows):
            self._log = (*self._log, *self._entries(len(self._log)))
        return self._log

    @property
    def log_size(self) -> int:
        """The number of picks made so far (``len(log)`` without building the log)."""
        return len(self._log_rows)

    def log_since(self, start: int) -> tuple[PickEntry, ...]:
        """``log[start:]``, building only those entries (a stored table's new picks)."""
        if len(self._log) == len(self._log_rows):
            return self._log[start:]
        return tuple(self._entries(max(start, 0)))

    @property
    def pools(self) -> dict[PlayerId, tuple[DraftCard, ...]]:
        """Each player's picked cards, in pick order."""
        return {player: tuple(map(self._card, self._pools[seat]))
                for seat, player in enumerate(self.players)}

    def next_deadline(self) -> float | None:
        """When the next event is due (``None`` when the draft is done)."""
        if self._done:
            return None
        if self._review_until is not None:
            return self._review_until
        return min((d for d in self._deadlines if d is not None), default=None)

    def seat_view(self, player: PlayerId) -> SeatView:
        """What ``player`` sees now (a read: changes nothing)."""
        seat = self._seat(player)
        queue = self._queues[seat]
        front = queue[0] if queue else None
        cards = tuple(map(self._card, self._contents[front])) if front is not None else ()
        return SeatView(
            seat=seat + 1, booster=front, cards=cards, cards_left=len(cards),
            deadline=self._deadlines[seat], queue=len(queue),
            pool=tuple(map(self._card, self._pools[seat])), booster_round=self._round,
            rounds=self.plan.count, review_until=self._review_until, done=self._done,
            away=self._away[seat], dropped=self._dropped[seat])

    def table_view(self) -> TableView:
        """The judge's view of the table (a read: changes nothing)."""
        rows = tuple(SeatRow(seat=seat + 1, player=player, holding=len(self._queues[seat]),
                             deadline=self._deadlines[seat], away=self._away[seat],
                             dropped=self._dropped[seat], picks=len(self._pools[seat]))
                     for seat, player in enumerate(self.players))
        holding = sorted((row for row in rows if row.holding), key=lambda r: -r.holding)
        return TableView(rows=rows, waiting_on=tuple(row.player for row in holding),
                         booster_round=self._round, review_until=self._review_until,
                         done=self._done)

    # ----- inside -----------------------------------------------------------------------------

    def _seat(self, player: PlayerId) -> int:
        seat = self._index.get(player)
        if seat is None:
            raise PickRefused("you are not at this draft table", code="stale_pick")
        return seat

    def _card(self, index: int) -> DraftCard:
        card = self._cards.get(index)
        if card is None:  # from JSON: made on first use
            name, edition, rarity = self._kinds[self._kind_of[index]]
            card = self._cards[index] = DraftCard(self._uids[index], name, edition, rarity)
        return card

    def _entries(self, start: int) -> list[PickEntry]:
        n = self._n
        return [PickEntry(number=number, booster_round=(booster - 1) // n + 1,
                          booster=booster, pick=pick, seat=seat,
                          player=self.players[seat - 1], card=self._card(card),
                          auto=reason > 0, reason=REASONS[reason], at=at)
                for number, (booster, pick, seat, card, reason, at)
                in enumerate(self._log_rows[start:], start=start + 1)]

    def _run(self, now: float) -> None:
        """Apply the events due by ``now`` in (time, seat) order."""
        while not self._done:
            if self._review_until is not None:
                if self._review_until > now:
                    return
                at, self._review_until = self._review_until, None
                self._last = at
                self._open_round(self._round + 1, at)
                continue
            seat, due = -1, now
            for index, deadline in enumerate(self._deadlines):
                if deadline is not None and deadline <= due and (seat < 0 or deadline < due):
                    seat, due = index, deadline
            if seat < 0:
                return
            self._expire(seat, due)

    def _expire(self, seat: int, at: float) -> None:
        """The automatic pick for the front booster of ``seat`` at ``at``."""
        booster = self._queues[seat][0]
        inside = self._contents[booster]
        if len(inside) == 1:
            reason = LAST
        elif self._dropped[seat]:
            reason = DROPPED
        elif self._away[seat]:
            reason = AWAY
        else:
            reason = TIMEOUT
            self._timeouts[seat] += 1
            if self._timeouts[seat] >= self.plan.away_after:
                self._away[seat] = True
        card = autopick([self._card(index) for index in inside])
        self._take(seat, next(i for i in inside if self._card(i) is card), at, reason)

    def _take(self, seat: int, index: int, at: float, reason: str) -> PickEntry:
        """Move card ``index`` from the seat's front booster to its pool and pass the rest
        on."""
        queue = self._queues[seat]
        booster = queue.pop(0)
        inside = self._contents[booster]
        size = self.plan.boosters[self._round - 1]
        pick_number = size - len(inside) + 1
        inside.remove(index)
        self._pools[seat].append(index)
        self._last = at
        self._log_rows.append([booster, pick_number, seat + 1, index, REASONS.index(reason),
                               at])
        self._left -= 1
        if inside:
            target = (seat + self.plan.direction(self._round).step) % self._n
            self._queues[target].append(booster)
            if len(self._queues[target]) == 1:
                self._front(target, at)
        else:
            del self._contents[booster]
        self._deadlines[seat] = None
        if queue:
            self._front(seat, at)
        if self._left == 0:
            self._end_round(at)
        return self._entries(len(self._log_rows) - 1)[0]

    def _front(self, seat: int, at: float) -> None:
        """A booster reached the front of the seat's queue at ``at``: its deadline (``at``
        itself for its last card and for an away or a dropped player)."""
        cards = len(self._contents[self._queues[seat][0]])
        if cards == 1 or self._dropped[seat] or self._away[seat]:
            self._deadlines[seat] = at
        else:
            self._deadlines[seat] = at + self.plan.pick_timer(cards)

    def _open_round(self, booster_round: int, at: float) -> None:
        self._round = booster_round
        self._left = self._n * self.plan.boosters[booster_round - 1]
        for seat in range(self._n):
            self._queues[seat].append((booster_round - 1) * self._n + seat + 1)
            self._front(seat, at)

    def _end_round(self, at: float) -> None:
        if self._round == self.plan.count:
            self._done = True
            self._deadlines = [None] * self._n
        else:
            self._review_until = at + self.plan.review_seconds
