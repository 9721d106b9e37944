"""Where the site may send a browser after a login, a language switch or a form: only a path
on this site.

``safe_next`` follows Django's ``url_has_allowed_host_and_scheme`` with no allowed host: a
target is refused (the site's root instead) when it

- is empty, or longer than :data:`MAX_LENGTH`;
- holds a control character (below U+0020, U+007F, any Unicode ``C*`` category such as
  U+0085 or zero-width and direction marks) or any Unicode whitespace: browsers drop tabs and
  newlines from URLs, so ``/\\t/evil.host`` is ``//evil.host`` to them, and a vertical tab in a
  ``Location`` header makes the server drop the connection;
- holds a backslash (browsers read ``/\\evil`` as ``//evil``);
- does not start with ``/``, or starts with ``//`` (scheme-relative: another host);
- has a scheme or a host once split (``urllib.parse.urlsplit``).

What passes is percent-encoded where a URL needs it (non-ASCII letters, quotes, spaces cannot
be there by now), so it is safe in ``Location`` and ``HX-Redirect`` headers alike; ``%`` escapes
already present are kept as they are.
"""

from __future__ import annotations

import unicodedata
from urllib.parse import quote, urlsplit

SAFE_NEXT = "/"
MAX_LENGTH = 2000
URL_SAFE = "/?&=#%:@!$'()*+,;~-._[]"
"""Kept as they are when a target is encoded (``quote`` encodes everything else)."""


def _bad_character(char: str) -> bool:
    return (char < " " or char == "\x7f" or char == "\\" or char.isspace()
            or unicodedata.category(char).startswith("C"))


def safe_next(target: str | None) -> str:
    """``target`` when it is a path on this site (encoded for a header), else ``/``."""
    if not target or len(target) > MAX_LENGTH:
        return SAFE_NEXT
    if any(_bad_character(char) for char in target):
        return SAFE_NEXT
    if not target.startswith("/") or target.startswith("//"):
        return SAFE_NEXT
    try:
        parts = urlsplit(target)
    except ValueError:
        return SAFE_NEXT
    if parts.scheme or parts.netloc:
        return SAFE_NEXT
    return quote(target, safe=URL_SAFE)
