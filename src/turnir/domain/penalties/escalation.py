"""Escalation and accumulation of penalties (rule J-6; 000 Appendix 1 "Сложение пенальти").

Terms (Russian in brackets):

- *escalation* (рост силы пенальти): a penalty for a reason the player was already penalised for
  in this tournament is one step stronger than the strongest earlier one for that reason, and
  never weaker than the default. The guide's example: swearing brings a remark, then a warning,
  then a game loss.
- *accumulation* (сложение пенальти): three penalties of one strength for three different
  reasons give the next strength automatically at the end of the match; the three are then
  used up (each counts in one accumulation only), and the new penalty can itself add up with
  others of its strength.
- *single disqualification* (однократная дисквалификация): a player cannot be disqualified
  twice, so neither escalation nor accumulation goes past a disqualification; a suspension
  never comes by adding up.

**Decided** (documented in ``docs/penalties.md``):

- "One step stronger than the *strongest* earlier penalty for the reason" (the digest says "the
  last"; they are the same unless a judge gave a milder penalty by deviation, and then the
  strongest keeps a lenient ruling from resetting the count, as "the penalty grows in strength"
  in the original says).
- Attached penalties (J-2) do not add up: three game losses bring a match loss, but their three
  attached warnings do not bring a game loss as well. Remarks do add up ("складывается с другими
  пенальти").
- When more than three reasons are waiting, the triples are formed one penalty from each of the
  three reasons with the most waiting penalties (ties: the earliest first), which forms as many
  triples as possible.
- The automatic penalty is given between matches (after the match that ended), so a game loss
  goes to the player's next game and a match loss to the next match (J-3). A disqualified
  player gets no automatic penalties.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from turnir.domain.model import PlayerId, RulesLevel
from turnir.domain.penalties.catalogue import ACCUMULATION, Catalogue, Infraction
from turnir.domain.penalties.ladder import ESCALATION_CAP, Penalty, Text, level_name
from turnir.domain.penalties.records import GivenAt, PenaltyRecord

ADDS_UP: tuple[Penalty, ...] = (
    Penalty.REMARK, Penalty.WARNING, Penalty.GAME_LOSS, Penalty.MATCH_LOSS
)
"""The strengths that add up three to one (J-6); three match losses give the disqualification."""

_ORDINALS_RU = ("первое", "второе", "третье", "четвёртое", "пятое", "шестое", "седьмое",
                "восьмое", "девятое", "десятое")
_ORDINALS_EN = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
                "ninth", "tenth")


def ordinal(n: int) -> Text:
    """``второе`` / ``second`` for 2; ``11-е`` / ``11th`` past ten."""
    if 1 <= n <= len(_ORDINALS_EN):
        return Text(_ORDINALS_RU[n - 1], _ORDINALS_EN[n - 1])
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return Text(f"{n}-е", f"{n}{suffix}")


def _in_sentence(name: Text) -> Text:
    """A reason's name inside a sentence: «…» in Russian, lower case in English."""
    return Text(f"«{name.ru}»", name.en[:1].lower() + name.en[1:])


@dataclass(frozen=True, slots=True)
class Escalation:
    """The penalty the guide prescribes for an offence, with the reason why (J-6)."""

    penalty: Penalty
    """The prescribed penalty: the default, raised for a repeated reason."""
    default: Penalty
    """The catalogue's default at the tournament's rules level."""
    offence: int
    """1 for a first offence for this reason in the tournament, 2 for the second, …"""
    previous: Penalty | None
    """The strongest earlier penalty for this reason, if any."""
    explanation: Text
    """E.g. "second offence for slow play: raised from warning to game loss"."""


def _own_active(history: Iterable[PenaltyRecord], player: PlayerId) -> list[PenaltyRecord]:
    return sorted((r for r in history if r.player == player and r.active), key=lambda r: r.id)


def escalate(
    history: Iterable[PenaltyRecord], *, player: PlayerId, infraction: Infraction,
    level: RulesLevel,
) -> Escalation:
    """The penalty the guide prescribes for ``player``'s new offence ``infraction`` (J-6, J-7).

    ``history`` is the tournament's penalty records (any players; withdrawn ones are ignored).
    The result is ``max(default, one step above the strongest earlier penalty for the same
    reason)``, where the step never goes past a (plain) disqualification.
    """
    default = infraction.default(level)
    earlier = [r.penalty for r in _own_active(history, player) if r.reason == infraction.code]
    offence = len(earlier) + 1
    reason = _in_sentence(infraction.name)
    if not earlier:
        text = Text(
            f"{infraction.name.ru}: {default.name_text.ru} (рекомендация Уложения, "
            f"{level_name(level).ru} уровень)",
            f"{infraction.name.en}: {default.name_text.en} (the guide's default at "
            f"{level_name(level).en} level)",
        )
        return Escalation(default, default, 1, None, text)
    previous = max(earlier)
    raised = min(previous.escalated(), ESCALATION_CAP)
    penalty = max(default, raised)
    nth = ordinal(offence)
    head = Text(f"{nth.ru} нарушение по причине {reason.ru}: ",
                f"{nth.en} offence for {reason.en}: ")
    if penalty is raised and raised > previous:
        body = Text(
            f"повышено с {previous.genitive_ru} до {penalty.genitive_ru}",
            f"raised from {previous.name_text.en} to {penalty.name_text.en}",
        )
    elif penalty is default and default > raised:
        body = Text(
            f"{default.name_text.ru}: рекомендация Уложения и так строже, чем шаг после "
            f"{previous.genitive_ru}",
            f"{default.name_text.en}: the guide's default is already stronger than one step "
            f"above {previous.name_text.en}",
        )
    else:
        body = Text(
            f"{penalty.name_text.ru}: пенальти не растёт дальше одной дисквалификации",
            f"{penalty.name_text.en}: penalties never grow past a single disqualification",
        )
    return Escalation(penalty, default, offence, previous, head + body)


def _waiting(records: Sequence[PenaltyRecord]) -> list[PenaltyRecord]:
    """Penalties not yet used up by an accumulation."""
    used = {source for r in records if r.automatic for source in r.sources}
    return [r for r in records if r.id not in used]


def accumulate(
    history: Iterable[PenaltyRecord], *, player: PlayerId, after_round: int, next_id: int,
    catalogue: Catalogue,
) -> tuple[PenaltyRecord, ...]:
    """The automatic penalties ``player`` gets at the end of their match in ``after_round`` (J-6).

    Returns the new records (ids from ``next_id`` on), weakest first; an accumulation can
    cascade (three remarks give a warning, which may complete three warnings). Nothing goes past
    a single disqualification, and a player already disqualified gets nothing.
    """
    own = _own_active(history, player)
    if any(r.penalty.is_disqualification for r in own):
        return ()
    new: list[PenaltyRecord] = []
    for strength in ADDS_UP:
        groups: dict[str, list[PenaltyRecord]] = {}
        for record in _waiting([*own, *new]):
            if record.penalty is strength:
                groups.setdefault(record.reason, []).append(record)
        while len(groups) >= 3:
            chosen = sorted(groups, key=lambda reason: (-len(groups[reason]),
                                                        groups[reason][0].id))[:3]
            sources = sorted((groups[reason].pop(0) for reason in chosen), key=lambda r: r.id)
            for reason in chosen:
                if not groups[reason]:
                    del groups[reason]
            record = _automatic(sources, player=player, after_round=after_round,
                                record_id=next_id + len(new), catalogue=catalogue)
            new.append(record)
            if record.penalty >= ESCALATION_CAP:
                return tuple(new)
    return tuple(new)


def _automatic(
    sources: Sequence[PenaltyRecord], *, player: PlayerId, after_round: int, record_id: int,
    catalogue: Catalogue,
) -> PenaltyRecord:
    strength = sources[0].penalty
    penalty = strength.escalated()
    names = [_in_sentence(catalogue.name(r.reason)) for r in sources]
    explanation = Text(
        f"три {strength.genitive_ru} по разным причинам ({', '.join(n.ru for n in names)}): "
        f"в конце матча — {penalty.name_text.ru}",
        f"three {strength.plural_en} for different reasons ({', '.join(n.en for n in names)}): "
        f"{penalty.name_text.en} at the end of the match",
    )
    return PenaltyRecord(
        id=record_id,
        player=player,
        reason=ACCUMULATION,
        penalty=penalty,
        given_at=GivenAt.between_matches(after_round),
        guide_penalty=penalty,
        explanation=explanation,
        sources=tuple(r.id for r in sources),
    )


def stale_automatic(records: Iterable[PenaltyRecord]) -> tuple[PenaltyRecord, ...]:
    """Automatic penalties whose three sources no longer add up (one was withdrawn or changed
    on appeal), and those that depended on them; the caller withdraws them (J-6, appeals)."""
    by_id = {r.id: r for r in records}
    stale: dict[int, PenaltyRecord] = {}
    changed = True
    while changed:
        changed = False
        for record in by_id.values():
            if not record.automatic or not record.active or record.id in stale:
                continue
            sources = [by_id.get(i) for i in record.sources]
            ok = all(
                s is not None and s.active and s.id not in stale
                and s.penalty.escalated() is record.penalty and s.penalty < record.penalty
                for s in sources
            )
            if not ok:
                stale[record.id] = record
                changed = True
    return tuple(sorted(stale.values(), key=lambda r: r.id))
