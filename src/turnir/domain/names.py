"""A player's name in its parts: the surname (фамилия) and the given name (имя, with a
patronymic when there is one), kept apart so that lists sort by surname (issue 12).

The name shown on pairings and standings is one string, written as the sources and the
demo write Russian names, the given name first: "Ольга Волкова". When only that one string is
known (a name typed in one field, an older entry, a players file with one name column), its
last word is the surname and the words before it the given name; a one-word name is a
surname alone. When the surname and the given name are typed apart, the name shown is
"given surname" and the surname is kept as typed (a double surname stays one surname).

Lists in name order (the manage page, pairings by name, printables by name) sort by
``surname_order``: the surname, then the given name, compared as searches compare names
(case and ё/е ignored, ``turnir.domain.text.search_key``).
"""

from __future__ import annotations

from turnir.domain.text import search_key


def name_parts(name: str) -> tuple[str, str]:
    """(surname, given name) of a name written given name first: the last word is the
    surname (a trailing number, as "Иван Петров 2", stays with it)."""
    words = name.split()
    if not words:
        return "", ""
    last = len(words) - 1
    while last > 0 and words[last].isdigit():
        last -= 1
    return " ".join(words[last:]), " ".join(words[:last])


def full_name(surname: str, given_name: str) -> str:
    """The name shown for a surname and a given name typed apart: "given surname"."""
    return " ".join(" ".join((given_name, surname)).split())


def surname_order(name: str, surname: str = "") -> tuple[str, str]:
    """The key that sorts names by surname, then given name (``surname``: the surname kept
    apart, when known; otherwise it is read from ``name``)."""
    own = surname or name_parts(name)[0]
    given = name_parts(name)[1] if not surname else _without(name, surname)
    return search_key(own), search_key(given)


def _without(name: str, surname: str) -> str:
    """``name`` without the surname at its end (or at its start), for the given name."""
    if name.endswith(surname):
        return name[: len(name) - len(surname)].strip()
    if name.startswith(surname):
        return name[len(surname):].strip()
    return name
