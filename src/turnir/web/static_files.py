"""The static files (stylesheet, scripts, icon), cached by the browser as long as their address
holds: a page links ``/static/NAME?v=HASH`` (``templating.static_link``), and the address
changes with the file, so a response to the current address is ``immutable`` for a year. A
phone on the shop's Wi-Fi then loads a page with one request, not one plus six revalidations
(before, no ``Cache-Control``: every page asked again for each file and got a 304). An address
without the current hash (an old page after an upgrade, a hand-typed link) is answered with
``no-cache``, so that it is never pinned to the wrong content.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from urllib.parse import parse_qs

from starlette.responses import Response
from starlette.staticfiles import PathLike, StaticFiles
from starlette.types import Scope

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"


class VersionedStaticFiles(StaticFiles):
    """``StaticFiles`` whose answers say how long a browser may keep them (above)."""

    def __init__(self, *, directory: PathLike, versions: Mapping[str, str]) -> None:
        super().__init__(directory=directory)
        self.versions = dict(versions)

    def file_response(self, full_path: PathLike, stat_result: os.stat_result, scope: Scope,
                      status_code: int = 200) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        name = os.path.basename(os.fspath(full_path))
        asked = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("v", [])
        current = self.versions.get(name)
        fixed = current is not None and asked == [current]
        response.headers["Cache-Control"] = IMMUTABLE if fixed else REVALIDATE
        return response
