"""What the command line prints, made safe to show (issue 10 item 9).

A name, a file name or a message can hold terminal control sequences (``ESC[2J`` clears the
screen, ``ESC]8;;…`` makes a link, a C1 ``CSI`` byte does the same on some terminals) or Rich
markup (``[/]`` would even stop the command). Every console of the CLI is a ``SafeConsole``:
markup and emoji codes are off, and every string it renders — a message, a table's title or
cell — has its C0 and C1 control characters (and DEL) shown as visible escapes such as
``\\x1b``; line feeds and tabs stay, since the output is ours and may span lines. Plain
writes (``--json``, reports, CSV) go through ``write``, which does the same.
"""

from __future__ import annotations

import json
import sys
import unicodedata
from collections.abc import Callable
from typing import Any, TextIO, TypeVar

from rich.console import Console
from rich.text import Text

KEEP = "\n\t"
T = TypeVar("T")


def escape_controls(text: str, *, keep: str = KEEP) -> str:
    """``text`` with every control character (Unicode ``Cc``: C0, DEL, C1) but ``keep``
    replaced by its escape (``\\x1b``, ``\\x9b``), so it is seen instead of obeyed."""
    if text.isprintable():
        return text
    return "".join(
        f"\\x{ord(c):02x}" if c not in keep and unicodedata.category(c) == "Cc" else c
        for c in text)


class SafeConsole(Console):
    """A Rich console that never lets text from data steer the terminal (module docstring)."""

    def __init__(self, **options: Any) -> None:
        options.setdefault("markup", False)
        options.setdefault("emoji", False)
        super().__init__(**options)

    def render_str(self, text: str, **options: Any) -> Text:
        return super().render_str(escape_controls(text), **options)


def styled(*parts: str | tuple[str, str]) -> Text:
    """Text from parts, each plain or ``(text, style)``, escaped: styling without markup."""
    return Text.assemble(*(escape_controls(p) if isinstance(p, str)
                           else (escape_controls(p[0]), p[1]) for p in parts))


def error_line(message: str, word: str = "error:") -> Text:
    """``error: message`` with the word in bold red (the message is never markup)."""
    return styled((word, "bold red"), " ", message)


def write(text: str, stream: TextIO | None = None) -> None:
    """Write text we produced around data (JSON, a report, CSV) with controls escaped as
    ``\u001b``: JSON already escapes C0 characters so, and C1 ones stay valid JSON too."""
    if not text.isprintable():
        text = "".join(f"\\u{ord(c):04x}" if c not in KEEP and unicodedata.category(c) == "Cc"
                       else c for c in text)
    (stream or sys.stdout).write(text)


def write_json(data: object) -> None:
    """``data`` as indented JSON (UTF-8 text kept as it is) and a line feed, via ``write``."""
    write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def emit(found: T, *, as_json: bool, json_of: Callable[[T], object],
         render: Callable[[T], None]) -> None:
    """What a command found, as JSON (``--json``: ``json_of``) or for a person (``render``)."""
    if as_json:
        write_json(json_of(found))
    else:
        render(found)
