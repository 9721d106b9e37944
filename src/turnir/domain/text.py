"""Text that people type or files bring: names, logins, search queries, reasons and comments.

One place decides what text may enter the services, so that SQLite and PostgreSQL store and
compare the same thing (PostgreSQL refuses a NUL byte and a string longer than its column;
SQLite would keep both):

- *control characters* (Unicode category ``Cc``: C0, DEL, C1, the NUL byte among them) and
  lone surrogates are refused with a ``BadTextError`` naming the field and the character;
  free text (``clean_text``) may keep line feeds and tabs;
- a *name* (имя: of a player, a tournament, a judge, a club, a city, an account) is put in
  Unicode NFC, loses its invisible *format* characters (category ``Cf``: zero-width space
  U+200B, non-joiner U+200C, joiner U+200D, word joiner U+2060, BOM U+FEFF, soft hyphen,
  bidirectional marks), its surrounding whitespace, and every inner run of whitespace becomes
  one space — so "Анна Кото\\u200bва" and "Анна  Котова" are the same name;
- the *name key* (``name_key``) is what names are compared by: the normal name case-folded and
  in NFKC, so look-alikes that differ only in case, width or ligatures are duplicates;
- the *search key* (``search_key``) is what searches compare: the name key with ё read as е;
  a search finds the names holding every word of the query in any order (``name_matches``);
- lengths are counted in characters after normalisation, and the key must fit too (case
  folding can lengthen a name: "ß" becomes "ss"); the limits are the column lengths.
"""

from __future__ import annotations

import unicodedata

from turnir.errors import NotFoundError, Term, UserError

FIELDS: dict[str, Term] = {term: term for term in (
    Term("name"), Term("city"), Term("club"), Term("note"), Term("reason"), Term("login"),
    Term("person"), Term("player"), Term("tournament"), Term("search"), Term("label"),
    Term("white"), Term("black"), Term("tournament's name"), Term("judge's name"),
    Term("actor's name"), Term("account's name"), Term("surname"), Term("given name"),
    Term("template name"))}
"""The fields named in refusals, translated with the message (an unknown one stays as given)."""


def field_term(field: str) -> str:
    """``field`` as a word translated with its message, when it is a known field."""
    return FIELDS.get(field, field)


class BadTextError(UserError):
    """Text refused: a control character, too long, or empty where a value is needed."""

    code = "bad_text"

    @property
    def field(self) -> str:
        """The field refused (given as ``field=`` with the message's values)."""
        return str(self.params.get("field", ""))


def _refuse_controls(value: str, field: str, *, keep: str = "") -> None:
    for position, char in enumerate(value, start=1):
        if char in keep:
            continue
        category = unicodedata.category(char)
        if category == "Cc":
            raise BadTextError("the {name} contains a control character (U+{char}) at "
                               "position {position}", field=field, name=field_term(field),
                               char=f"{ord(char):04X}", position=position)
        if category == "Cs":
            raise BadTextError("the {name} contains an invalid character (U+{char}) at "
                               "position {position}", field=field, name=field_term(field),
                               char=f"{ord(char):04X}", position=position)


def _check_type(value: object, field: str) -> str:
    if not isinstance(value, str):
        raise BadTextError("the {name} must be text", field=field, name=field_term(field))
    return value


def normal_name(value: str) -> str:
    """The name as stored: NFC, no invisible format characters, single inner spaces, trimmed.
    Never raises (look-ups use it on anything typed); ``clean_name`` also validates."""
    composed = unicodedata.normalize("NFC", value)
    visible = "".join(c for c in composed if unicodedata.category(c) != "Cf")
    return " ".join(visible.split())


def name_key(value: str) -> str:
    """The form names are compared in: the normal name, case-folded, in NFKC."""
    compatible = unicodedata.normalize("NFKC", normal_name(value))
    folded = unicodedata.normalize("NFKC", compatible.casefold())
    return " ".join(folded.split())


def search_key(value: str) -> str:
    """The form names are searched in: the name key with ё read as е (people type "Ковалев"
    for "Ковалёв" and the other way round). Only for finding; duplicates use ``name_key``."""
    return name_key(value).replace("\u0451", "\u0435")


def search_words(query: str) -> tuple[str, ...]:
    """The words of a search query in their search form (``search_key``), each once."""
    return tuple(dict.fromkeys(search_key(query).split()))


def name_matches(query: str, name: str) -> bool:
    """Whether ``name`` holds every word of ``query``, in any order, as part of it (case, ё/е
    and spacing ignored): "Ковалев Иван" and "иван ковал" find "Иван Ковалёв". An empty
    query matches nothing."""
    words = search_words(query)
    key = search_key(name)
    return bool(words) and all(word in key for word in words)


def _check_length(value: str, field: str, max_len: int, *, key: str | None = None) -> None:
    longest = max(len(value), len(key) if key is not None else 0)
    if longest > max_len:
        raise BadTextError("the {name} is longer than {max_len} characters ({length})",
                           field=field, name=field_term(field), max_len=max_len,
                           length=longest)


def clean_name(value: str, *, field: str, max_len: int, required: bool = True) -> str:
    """A name ready to store (see the module docstring); ``BadTextError`` names ``field``."""
    text = _check_type(value, field)
    _refuse_controls(text, field)
    name = normal_name(text)
    if required and not name:
        raise BadTextError("the {name} is empty", field=field, name=field_term(field))
    _check_length(name, field, max_len, key=name_key(name))
    return name


def clean_text(value: str, *, field: str, max_len: int, multiline: bool = True) -> str:
    """Free text (a reason, a note, a comment): NFC, trimmed, line ends as ``\\n``; control
    characters refused except line feeds and tabs when ``multiline``. May be empty."""
    text = _check_type(value, field)
    text = unicodedata.normalize("NFC", text.replace("\r\n", "\n"))
    _refuse_controls(text, field, keep="\n\t" if multiline else "")
    text = text.strip()
    _check_length(text, field, max_len)
    return text


def clean_query(value: str, *, field: str = "search", max_len: int = 200) -> str:
    """A search query: normalised as a name; may be empty (then nothing is filtered)."""
    return clean_name(value, field=field, max_len=max_len, required=False)


MAX_ID = 2**31 - 1
"""The largest number a reference can name (ids and numbers are 32-bit integers)."""


def clean_ref(value: str | int, *, field: str, max_len: int = 200) -> int | str:
    """Something named by number (``12``, ``#12``) or by name: the number, or the name as a
    search query (``clean_query``). A number too large for any id names nothing."""
    if isinstance(value, int):
        return value
    text = clean_query(value, field=field, max_len=max_len)
    digits = text.removeprefix("#").strip()
    if digits.isascii() and digits.isdigit():
        if len(digits) > 10 or int(digits) > MAX_ID:
            raise NotFoundError("no {name} #{number}", code=f"unknown_{field}",
                                name=field_term(field), number=digits[:20])
        return int(digits)
    return text.lstrip("#")


def clean_login(value: str, *, field: str = "login", max_len: int = 100) -> str:
    """A login in its stored form: one word, NFC, case-folded."""
    name = clean_name(value, field=field, max_len=max_len)
    if " " in name:
        raise BadTextError("the {name} must be one word, without spaces", field=field,
                           name=field_term(field))
    return unicodedata.normalize("NFC", name.casefold())


NAME_LEN = 200
"""A person's, tournament's, judge's or account's name, and an actor (``String(200)``)."""
PLACE_LEN = 100
"""A city or a club (``String(100)``)."""
LOGIN_LEN = 100
"""An account's login (``String(100)``)."""
REASON_LEN = 500
"""A drop's or a change's reason (``String(500)``)."""
NOTE_LEN = 1000
"""A judge's note on a penalty, an appeal or a ruling (``String(1000)``)."""
QUERY_LEN = 200
"""A search query: no longer than the names it looks for."""
