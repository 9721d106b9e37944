"""Issue 12, item 11, in Debian's Chromium at a 390×844 phone and a 1366×900 screen: the
rating chart of a person's profile writes its numbers and days in the page's locale (decimal
comma and "1 дек. 2026 г." in Russian), no two of its texts overlap (the "100.00" over the
date), and every text is at least 11 px as rendered (it was 5 px on the phone)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.services.rating_builders import HEAD, finished_event
from tests.web.conftest import LiveServer
from tests.web.test_ratings_pages import NAMES, two_submitted
from turnir.services.rating_queries import find_person
from turnir.services.ratings import submit_tournament

PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1366, "height": 900}
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

TEXTS = """svg => {
  const scale = svg.getScreenCTM().a;
  return [...svg.querySelectorAll('text')].map(t => {
    const r = t.getBoundingClientRect();
    return {text: t.textContent, x0: r.left, y0: r.top, x1: r.right, y1: r.bottom,
            size: parseFloat(getComputedStyle(t).fontSize) * scale};
  });
}"""


def overlapping(texts: list[dict[str, Any]]) -> list[tuple[str, str]]:
    found = []
    for i, a in enumerate(texts):
        for b in texts[i + 1:]:
            if (min(a["x1"], b["x1"]) - max(a["x0"], b["x0"]) > 0.5
                    and min(a["y1"], b["y1"]) - max(a["y0"], b["y0"]) > 0.5):
                found.append((a["text"], b["text"]))
    return found


@pytest.mark.parametrize("size", [PHONE, WIDE], ids=["phone", "wide"])
def test_item11_the_rating_chart_is_readable_in_the_pages_locale(
        live_server: LiveServer, browser: Any, size: dict[str, int]) -> None:
    db = live_server.db
    two_submitted(db)
    for number in range(3):  # five tournaments: six points, the dates must be thinned
        submit_tournament(db, finished_event(db, NAMES[number % 2:] + NAMES[:number % 2],
                                             name=f"Кубок {number}"), actor=HEAD)
    anna = find_person(db, "Анна").id
    context = browser.new_context(locale="ru-RU", viewport=size)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/ratings/players/{anna}")
    chart = page.locator("#rating-chart svg")
    expect(chart).to_be_visible()
    texts = chart.evaluate(TEXTS)
    numbers = [t["text"] for t in texts if re.fullmatch(r"[\d\s,.\u00a0]+", t["text"])]
    decimals = [n for n in numbers if re.search(r"\d[.,]\d", n)]
    assert decimals and all("," in n and "." not in n for n in decimals), numbers
    days = [t["text"] for t in texts if re.search(r"\d{4}", t["text"])
            and t["text"] not in numbers]
    assert days and all(re.fullmatch(r"\d{1,2}\s\w+\.\s\d{4}\sг\.", d) for d in days), days
    assert not [t for t in texts if re.search(r"\d{4}-\d\d-\d\d", t["text"])]
    assert overlapping(texts) == []
    small = [(t["text"], round(t["size"], 1)) for t in texts if t["size"] < 11]
    assert small == []
    box = chart.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size["width"]
    name = "phone" if size is PHONE else "wide"
    if os.environ.get("TURNIR_SCREENSHOTS") == "1":  # as tests/web/test_browser.py
        SHOTS.mkdir(parents=True, exist_ok=True)
        chart.screenshot(path=str(SHOTS / f"rating-chart-{name}.png"))
    context.close()
