"""Enums whose members compare by their place in the declaration, first the least: the rules
levels (J-7) and the penalty ladder (J-1) are both read this way."""

from __future__ import annotations

from enum import Enum


class OrderedEnum(Enum):
    """An enum whose members compare by declaration order; comparing members of two different
    enums (or a member with anything else) is not defined. Put it before ``StrEnum`` in the
    bases of a string enum: ``class RulesLevel(OrderedEnum, StrEnum)``."""

    def _place(self) -> int:
        """The member's place in the declaration, 0 for the first."""
        return type(self)._member_names_.index(self.name)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, type(self)):
            return NotImplemented
        return self._place() < other._place()

    def __le__(self, other: object) -> bool:
        if not isinstance(other, type(self)):
            return NotImplemented
        return self._place() <= other._place()

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, type(self)):
            return NotImplemented
        return self._place() > other._place()

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, type(self)):
            return NotImplemented
        return self._place() >= other._place()
