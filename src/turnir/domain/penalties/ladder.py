"""The penalty ladder, the attached penalties and the rules levels (rules J-1, J-2, J-4, J-7).

Terms (Russian in brackets, 000 Appendix 1 "Значение и сила пенальти"):

- *penalty* (пенальти): what a judge gives a player for an infraction; its *strength* (сила) is
  its place on the ladder, weakest first: *remark* (замечание), *warning* (предупреждение),
  *game loss* (поражение в партии), *match loss* (поражение в матче), *disqualification*
  (дисквалификация), *disqualification without prizes* (дисквалификация без призов),
  *suspension* (приостановление членства).
- *attached penalty* (сопутствующее пенальти): a game loss and a match loss always come with a
  warning; a disqualification (either kind) with a match loss; a suspension with a
  disqualification without prizes (J-2). Attachments are transitive: a disqualification brings
  a match loss and so a warning as well.
- *rules level* (уровень строгости правил): Amateur (любительский), Professional
  (профессиональный), Highest (высший); the penalty guide is binding from Professional up (J-7).

**Decided**: the original's ladder for adding up penalties ("Сложение пенальти") reads remark -
warning - game loss - match loss - disqualification - suspension; the disqualification without
prizes is "a harsher form of disqualification". It sits between the disqualification and the
suspension when penalties are compared, but it is never reached by escalation: one step up from
a match loss is a (plain) disqualification, and nothing goes past a single disqualification
(J-6). A judge may still give it directly.
"""

from __future__ import annotations

from dataclasses import dataclass

from turnir.domain.model import RulesLevel as RulesLevel
from turnir.domain.ordered import OrderedEnum
from turnir.errors import Term


@dataclass(frozen=True, slots=True)
class Text:
    """A text shipped in Russian and English, shown to players and judges."""

    ru: str
    """The Russian text (the tournament's working language)."""
    en: str
    """The English text."""

    def __add__(self, other: Text) -> Text:
        return Text(self.ru + other.ru, self.en + other.en)


NO_TEXT = Text("", "")
"""An empty text."""


class Penalty(OrderedEnum):
    """The penalty ladder, weakest first (J-1); members compare by strength."""

    REMARK = "remark"
    """Замечание: oral, no consequences for the player's career, but it adds up (J-6)."""
    WARNING = "warning"
    """Предупреждение: officially recorded; counts in T-6."""
    GAME_LOSS = "game_loss"
    """Поражение в партии: comes with a warning (J-2); may carry over (J-3)."""
    MATCH_LOSS = "match_loss"
    """Поражение в матче: comes with a warning (J-2); may carry over (J-3)."""
    DISQUALIFICATION = "disqualification"
    """Дисквалификация: comes with a match loss; the player leaves, keeps points and prizes."""
    DISQUALIFICATION_WITHOUT_PRIZES = "disqualification_without_prizes"
    """Дисквалификация без призов: as a disqualification, without prizes, rating reset (J-4)."""
    SUSPENSION = "suspension"
    """Приостановление членства: comes with a disqualification without prizes (J-5)."""

    @property
    def strength(self) -> int:
        """The place on the ladder: 1 for a remark … 7 for a suspension."""
        return self._place() + 1

    @property
    def is_disqualification(self) -> bool:
        """A disqualification of either kind, or a suspension (which brings one)."""
        return self >= Penalty.DISQUALIFICATION

    @property
    def name_text(self) -> Text:
        """The name, e.g. ``поражение в партии`` / ``game loss``."""
        return _NAMES[self][0]

    @property
    def term(self) -> Term:
        """The English name as a word translated inside an error message (``turnir.errors``)."""
        return _TERMS[self]

    @property
    def genitive_ru(self) -> str:
        """The Russian genitive, for "повышено с … до …" and "три …"."""
        return _NAMES[self][1]

    @property
    def plural_en(self) -> str:
        """The English plural, for "three warnings"."""
        return _NAMES[self][2]

    def escalated(self) -> Penalty:
        """One step stronger for escalation (J-6), never past a single disqualification.

        Remark → warning → game loss → match loss → disqualification; a disqualification of
        either kind and a suspension stay where they are.
        """
        if self >= Penalty.DISQUALIFICATION:
            return self
        return _ORDER[self.strength]


_ORDER: tuple[Penalty, ...] = tuple(Penalty)

_NAMES: dict[Penalty, tuple[Text, str, str]] = {
    Penalty.REMARK: (Text("замечание", "remark"), "замечания", "remarks"),
    Penalty.WARNING: (Text("предупреждение", "warning"), "предупреждения", "warnings"),
    Penalty.GAME_LOSS: (
        Text("поражение в партии", "game loss"), "поражения в партии", "game losses"
    ),
    Penalty.MATCH_LOSS: (
        Text("поражение в матче", "match loss"), "поражения в матче", "match losses"
    ),
    Penalty.DISQUALIFICATION: (
        Text("дисквалификация", "disqualification"), "дисквалификации", "disqualifications"
    ),
    Penalty.DISQUALIFICATION_WITHOUT_PRIZES: (
        Text("дисквалификация без призов", "disqualification without prizes"),
        "дисквалификации без призов",
        "disqualifications without prizes",
    ),
    Penalty.SUSPENSION: (
        Text("приостановление членства", "suspension"),
        "приостановления членства",
        "suspensions",
    ),
}

_TERMS: dict[Penalty, Term] = {
    Penalty.REMARK: Term("remark"),
    Penalty.WARNING: Term("warning"),
    Penalty.GAME_LOSS: Term("game loss"),
    Penalty.MATCH_LOSS: Term("match loss"),
    Penalty.DISQUALIFICATION: Term("disqualification"),
    Penalty.DISQUALIFICATION_WITHOUT_PRIZES: Term("disqualification without prizes"),
    Penalty.SUSPENSION: Term("suspension"),
}
"""``name_text.en`` as message ids: the errors catalogue gives their Russian (``name_text.ru``)."""

ESCALATION_CAP = Penalty.DISQUALIFICATION
"""Escalation and accumulation never go past a single disqualification (J-6)."""

_ATTACHED: dict[Penalty, Penalty] = {
    Penalty.GAME_LOSS: Penalty.WARNING,
    Penalty.MATCH_LOSS: Penalty.WARNING,
    Penalty.DISQUALIFICATION: Penalty.MATCH_LOSS,
    Penalty.DISQUALIFICATION_WITHOUT_PRIZES: Penalty.MATCH_LOSS,
    Penalty.SUSPENSION: Penalty.DISQUALIFICATION_WITHOUT_PRIZES,
}


def attached(penalty: Penalty) -> tuple[Penalty, ...]:
    """The penalties that come with ``penalty`` (J-2), transitively, strongest first.

    ``attached(SUSPENSION)`` is (disqualification without prizes, match loss, warning).
    """
    found: list[Penalty] = []
    current = _ATTACHED.get(penalty)
    while current is not None:
        found.append(current)
        current = _ATTACHED.get(current)
    return tuple(found)


def effects(penalty: Penalty) -> tuple[Penalty, ...]:
    """The full set of effects of a penalty: itself, then its attached penalties (J-2)."""
    return (penalty, *attached(penalty))


_LEVEL_NAMES = {
    RulesLevel.AMATEUR: Text("любительский", "Amateur"),
    RulesLevel.PROFESSIONAL: Text("профессиональный", "Professional"),
    RulesLevel.HIGHEST: Text("высший", "Highest"),
}


def level_name(level: RulesLevel) -> Text:
    """The rules level's name in Russian and English (J-7)."""
    return _LEVEL_NAMES[level]


_LEVEL_TERMS = {
    RulesLevel.AMATEUR: Term("Amateur"),
    RulesLevel.PROFESSIONAL: Term("Professional"),
    RulesLevel.HIGHEST: Term("Highest"),
}


def level_term(level: RulesLevel) -> Term:
    """The rules level's English name as a word translated inside an error message."""
    return _LEVEL_TERMS[level]


@dataclass(frozen=True, slots=True)
class DisqualificationEffects:
    """What a disqualification does beyond its match loss (J-4); the caller carries it out."""

    penalty: Penalty
    """The penalty these effects come from (a disqualification of either kind or a suspension)."""
    leaves_at_once: bool
    """The player leaves the tournament at once: the caller drops them (not paired again)."""
    keeps_points: bool
    """The points and the place earned so far stay; standings keep counting them."""
    prize_eligible: bool
    """The player may still receive the prizes of their place (only a plain disqualification)."""
    report_flag: bool
    """The judge's report names the disqualification without prizes (for the rating database)."""
    rating_reset: bool
    """The player's rating drops to the newcomer value (R-4) when the tournament is rated."""
    suspended: bool
    """A suspension register entry must be made (J-5)."""


def disqualification_effects(penalty: Penalty) -> DisqualificationEffects | None:
    """The J-4 effects of ``penalty``, or ``None`` when it disqualifies nobody."""
    if not penalty.is_disqualification:
        return None
    plain = penalty is Penalty.DISQUALIFICATION
    return DisqualificationEffects(
        penalty=penalty,
        leaves_at_once=True,
        keeps_points=True,
        prize_eligible=plain,
        report_flag=not plain,
        rating_reset=not plain,
        suspended=penalty is Penalty.SUSPENSION,
    )
