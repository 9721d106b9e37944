"""The catalogue of infraction reasons with a default penalty per rules level (J-6, J-7).

Terms (Russian in brackets):

- *infraction* (нарушение): the reason a penalty is given; every penalty records one, and the
  reason is explained to the player (000 Appendix 1, J-7).
- *default penalty* (рекомендуемое пенальти): what the guide recommends for a first offence at
  a rules level; a second offence for the same reason escalates from it (J-6).
- *catalogue* (перечень нарушений): the list of infractions a tournament uses; the organizer may
  edit it (add an infraction, change a default) before the tournament.

**Decided**: the stored original of the penalty guide (000, page 1 of 7) has no infraction
list with default penalties; it only shows, in its example, that swearing is unsporting conduct
penalised with a remark first. ``DEFAULT_CATALOGUE`` is therefore the project's own, modelled on
common card-game practice, and marked as Decided in ``docs/penalties.md``. A suspension is never
a default: only a head judge who is an official representative gives one (J-5).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace

from turnir.domain.model import RulesLevel
from turnir.domain.penalties.ladder import NO_TEXT, Penalty, Text
from turnir.errors import NotFoundError, UserError

ACCUMULATION = "accumulation"
"""The reason of a penalty given automatically for three of one strength (J-6); not editable."""

ACCUMULATION_NAME = Text("накопление пенальти", "accumulated penalties")

_CODE = re.compile(r"^[a-z][a-z0-9_]{1,47}$")


@dataclass(frozen=True, slots=True)
class Infraction:
    """One reason for a penalty, with its default penalty at each rules level."""

    code: str
    """A stable key (``slow_play``), lower case letters, digits and ``_``."""
    name: Text
    """The name shown to players and judges (``Затягивание игры`` / ``Slow play``)."""
    amateur: Penalty
    """The default penalty at Amateur level (a recommendation there, J-7)."""
    professional: Penalty
    """The default penalty at Professional level (binding, J-7)."""
    highest: Penalty
    """The default penalty at Highest level (binding, J-7)."""
    description: Text = NO_TEXT
    """One line on what the infraction covers."""

    def __post_init__(self) -> None:
        if not _CODE.match(self.code) or self.code == ACCUMULATION:
            raise UserError(
                "infraction code {infraction!r}: use 2-48 lower case letters, digits and _, "
                "not {reserved!r}",
                code="bad_infraction", infraction=self.code, reserved=ACCUMULATION,
            )
        if not self.name.ru.strip() or not self.name.en.strip():
            raise UserError(
                "infraction {infraction!r} needs a Russian and an English name",
                code="bad_infraction", infraction=self.code,
            )
        if Penalty.SUSPENSION in (self.amateur, self.professional, self.highest):
            raise UserError(
                "infraction {infraction!r}: a suspension cannot be a default penalty; only a "
                "head judge who is an official representative gives one (J-5)",
                code="bad_infraction", infraction=self.code,
            )

    def default(self, level: RulesLevel) -> Penalty:
        """The default penalty at ``level``."""
        match level:
            case RulesLevel.AMATEUR:
                return self.amateur
            case RulesLevel.PROFESSIONAL:
                return self.professional
            case RulesLevel.HIGHEST:
                return self.highest


@dataclass(frozen=True, slots=True)
class Catalogue:
    """The infractions a tournament uses; edits return a new catalogue."""

    infractions: tuple[Infraction, ...]
    """In display order; codes are unique."""

    def __post_init__(self) -> None:
        seen: set[str] = set()
        for entry in self.infractions:
            if entry.code in seen:
                raise UserError("infraction {infraction!r} is listed twice",
                                code="duplicate_infraction", infraction=entry.code)
            seen.add(entry.code)

    def __iter__(self) -> Iterator[Infraction]:
        return iter(self.infractions)

    def __contains__(self, code: object) -> bool:
        return any(entry.code == code for entry in self.infractions)

    def get(self, code: str) -> Infraction:
        """The infraction ``code``; ``NotFoundError`` names the known ones."""
        for entry in self.infractions:
            if entry.code == code:
                return entry
        known = ", ".join(entry.code for entry in self.infractions)
        raise NotFoundError("no infraction {infraction!r} in the catalogue; known: {known}",
                            code="unknown_infraction", infraction=code, known=known)

    def name(self, code: str) -> Text:
        """The name of ``code``, including the automatic accumulation reason."""
        if code == ACCUMULATION:
            return ACCUMULATION_NAME
        return self.get(code).name

    def with_infraction(self, infraction: Infraction) -> Catalogue:
        """Add ``infraction``, or replace the one with its code (the organizer's edit)."""
        if infraction.code in self:
            return Catalogue(
                tuple(infraction if e.code == infraction.code else e for e in self.infractions)
            )
        return Catalogue((*self.infractions, infraction))

    def with_default(self, code: str, level: RulesLevel, penalty: Penalty) -> Catalogue:
        """Change one default penalty (the organizer's edit)."""
        entry = self.get(code)
        match level:
            case RulesLevel.AMATEUR:
                changed = replace(entry, amateur=penalty)
            case RulesLevel.PROFESSIONAL:
                changed = replace(entry, professional=penalty)
            case RulesLevel.HIGHEST:
                changed = replace(entry, highest=penalty)
        return self.with_infraction(changed)

    def without(self, code: str) -> Catalogue:
        """Remove an infraction (penalties already given keep their reason code)."""
        self.get(code)
        return Catalogue(tuple(e for e in self.infractions if e.code != code))


def _entry(code: str, ru: str, en: str, defaults: tuple[Penalty, Penalty, Penalty],
           about_ru: str, about_en: str) -> Infraction:
    amateur, professional, highest = defaults
    return Infraction(code, Text(ru, en), amateur, professional, highest, Text(about_ru, about_en))


_R, _W, _GL, _ML = Penalty.REMARK, Penalty.WARNING, Penalty.GAME_LOSS, Penalty.MATCH_LOSS
_DQ, _DQWP = Penalty.DISQUALIFICATION, Penalty.DISQUALIFICATION_WITHOUT_PRIZES

DEFAULT_CATALOGUE = Catalogue((
    _entry("unsporting_minor", "Неспортивное поведение", "Unsporting conduct",
           (_R, _R, _W),
           "Брань, грубость, громкие споры (пример из Уложения: ругань за столом).",
           "Swearing, rudeness, loud arguing (the guide's example: swearing at the table)."),
    _entry("slow_play", "Затягивание игры", "Slow play",
           (_R, _W, _W),
           "Игрок действует слишком медленно, без злого умысла.",
           "The player acts too slowly, without intent."),
    _entry("game_rule_error", "Ошибка в игровых правилах", "Game rule error",
           (_R, _W, _W),
           "Неверно применено правило или текст карты.",
           "A game rule or a card text applied wrongly."),
    _entry("looking_at_extra_cards", "Просмотр лишних карт", "Looking at extra cards",
           (_R, _W, _W),
           "Игрок увидел карты, которые не должен был видеть.",
           "The player saw cards they should not have seen."),
    _entry("drawing_extra_cards", "Взятие лишних карт", "Drawing extra cards",
           (_W, _GL, _GL),
           "Игрок взял в руку больше карт, чем положено.",
           "The player took more cards into the hand than allowed."),
    _entry("insufficient_shuffling", "Недостаточное перемешивание колоды",
           "Insufficient shuffling",
           (_W, _W, _GL),
           "Колода перемешана так, что порядок карт можно предсказать.",
           "The deck was shuffled so that the order of cards can be foreseen."),
    _entry("marked_cards", "Крапленые карты или протекторы", "Marked cards or sleeves",
           (_W, _W, _GL),
           "Карты или протекторы можно различить рубашкой вниз.",
           "Cards or sleeves can be told apart face down."),
    _entry("deck_error", "Нарушение при составлении колоды", "Deck or deck list error",
           (_W, _GL, _GL),
           "Колода не соответствует правилам формата или деклисту.",
           "The deck breaks the format's rules or does not match the deck list."),
    _entry("draft_procedure", "Нарушение процедуры драфта", "Draft procedure violation",
           (_R, _W, _W),
           "Неверная передача бустеров, взятие двух карт, подглядывание.",
           "Passing the wrong way, taking two cards, peeking."),
    _entry("tardiness", "Опоздание к началу тура", "Tardiness",
           (_W, _GL, _GL),
           "Игрок не за столом к началу тура (до 10 минут).",
           "The player is not at the table when the round starts (up to 10 minutes)."),
    _entry("no_show", "Неявка на матч", "No-show",
           (_ML, _ML, _ML),
           "Игрок не явился к столу в течение 10 минут после начала тура.",
           "The player did not come to the table within 10 minutes of the round start."),
    _entry("judge_instructions", "Невыполнение указаний судьи",
           "Failure to follow a judge's instructions",
           (_W, _GL, _GL),
           "Игрок не выполнил прямое указание судьи.",
           "The player did not follow a judge's direct instruction."),
    _entry("outside_assistance", "Подсказки и помощь со стороны", "Outside assistance",
           (_GL, _ML, _ML),
           "Игрок получал или давал советы во время матча.",
           "The player received or gave advice during a match."),
    _entry("unsporting_major", "Грубое неспортивное поведение", "Serious unsporting conduct",
           (_GL, _ML, _ML),
           "Оскорбления, угрозы, отказ выполнять решения судьи.",
           "Insults, threats, refusing a judge's ruling."),
    _entry("improper_result", "Сговор о результате или подкуп", "Bribery or fixing a result",
           (_DQ, _DQWP, _DQWP),
           "Предложение выгоды за результат; договорная ничья до тура законна (S-4).",
           "Offering a gain for a result; an intentional draw before the round is legal (S-4)."),
    _entry("cheating", "Мошенничество", "Cheating",
           (_DQ, _DQWP, _DQWP),
           "Намеренное нарушение правил ради выгоды, ложь судье.",
           "Breaking the rules on purpose for a gain, lying to a judge."),
    _entry("aggressive_behaviour", "Агрессивное поведение", "Aggressive behaviour",
           (_DQWP, _DQWP, _DQWP),
           "Угроза физической расправы, порча чужого имущества.",
           "Threatening violence, damaging someone's property."),
    _entry("theft", "Кража турнирных материалов", "Theft of tournament material",
           (_DQWP, _DQWP, _DQWP),
           "Кража карт, бустеров или призов.",
           "Stealing cards, boosters or prizes."),
    _entry("other", "Другое нарушение", "Other infraction",
           (_R, _W, _W),
           "Нарушение, которого нет в перечне; судья описывает его в примечании.",
           "An infraction not in the list; the judge describes it in the note."),
))
"""**Decided**: the shipped catalogue (the original guide's list is not in the stored source)."""
