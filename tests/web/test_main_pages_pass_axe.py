"""Issue 12, accessibility: axe-core (vendored from the npm package, ``tests/web/vendor``) finds
no serious or critical violation on the main pages of every role, in Debian's Chromium at a
390×844 phone and a 1366×900 screen, in Russian (lesser findings are printed): anonymous (home,
tournament overview, pairings, standings, find my table, ratings, a rating profile with its
chart, a rating report), a player (the tournament, their match card), a floor judge (the
results grid, penalties), the organizer (manage, new tournament, accounts, the audit log, the
staff) and the head judge (give a penalty,
the penalty report). Before, on a phone, the boxes that scroll sideways (the standings, the
penalties, the audit log, the penalty report; the top's bracket) could not be reached from the
keyboard (serious: scrollable-region-focusable); the header's two navigation landmarks had no
names (moderate: landmark-unique)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.demo_like_site import Site, problems_on, site  # noqa: F401
from tests.web.pages_check import assert_accessible


def _main_pages(site: Site) -> dict[str, list[str]]:  # noqa: F811
    t, r = f"/t/{site.tid}", f"/t/{site.rated_tid}"
    return {
        "anonymous": ["/", t, f"{t}/pairings", f"{t}/standings", f"{t}/find",
                      f"{t}/find?q=Кржижановский", "/ratings",
                      f"/ratings/players/{site.person}", f"{r}/rating"],
        "player": [t, "/me"],
        "floor": [f"{t}/results", f"{t}/penalties"],
        "org": [f"{t}/manage", "/new", "/accounts", f"{t}/log", f"{t}/staff"],
        "head": [f"{t}/penalties/give", f"{t}/penalties/report"],
    }


@pytest.mark.parametrize("size", ["phone", "wide"])
def test_no_serious_or_critical_axe_violation_on_the_main_pages(
        site: Site, browser: Any, size: str) -> None:  # noqa: F811
    found = problems_on(site, browser, size, _main_pages(site), assert_accessible)
    assert found == [], "\n".join(found)
