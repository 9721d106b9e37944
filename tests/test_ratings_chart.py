"""The rating-history chart (``turnir.ratings_chart``): a valid, self-contained SVG with axes,
labels and the expected points of both ratings, readable without any script."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import date
from decimal import Decimal

import pytest

from turnir.ratings_chart import ChartPoint, ChartText, nice_ticks, rating_chart_svg

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def circles(root: ET.Element, kind: str) -> list[tuple[float, float, str]]:
    found = []
    for circle in root.findall(f".//{NS}g[@class='series {kind}']/{NS}circle"):
        title = circle.find(f"{NS}title")
        assert title is not None and title.text is not None
        found.append((float(circle.attrib["cx"]), float(circle.attrib["cy"]), title.text))
    return found


POINTS = [
    ChartPoint("start", None, Decimal("100.00"), None),
    ChartPoint("Кубок <1> & Ко", date(2026, 3, 1), Decimal("120.00"), Decimal("100.00")),
    ChartPoint("Кубок 2", date(2026, 4, 5), Decimal("110.00"), Decimal("140.00")),
]


def test_the_chart_is_valid_svg_with_title_desc_axes_and_legend() -> None:
    root = parse(rating_chart_svg(POINTS))
    assert root.tag == f"{NS}svg" and root.attrib["role"] == "img"
    assert root.attrib["viewBox"] == "0 0 720 360"
    assert root.findtext(f"{NS}title") == "Rating history"
    desc = root.findtext(f"{NS}desc")
    assert desc == "Professional: 100.00 → 110.00 (2); Warlock: 100.00 → 140.00"
    assert root.find(f".//{NS}g[@class='axes']") is not None
    assert root.find(f".//{NS}g[@class='legend']") is not None
    assert not root.findall(f".//{NS}script")
    labels = [t.text for t in root.findall(f".//{NS}g[@class='x-labels']/{NS}text")]
    assert labels == ["start", "2026-03-01", "2026-04-05"]
    ticks = [t.text for t in root.findall(f".//{NS}g[@class='y-ticks']/{NS}text")]
    assert ticks == ["100", "110", "120", "130", "140"]


def test_points_are_where_their_values_are() -> None:
    root = parse(rating_chart_svg(POINTS))
    # plot area: x 64..696, y 56..296; the ticks run 100..140
    professional = circles(root, "professional")
    assert [(x, y) for x, y, _ in professional] == [(64.0, 296.0), (380.0, 176.0),
                                                    (696.0, 236.0)]
    warlock = circles(root, "warlock")
    assert [(x, y) for x, y, _ in warlock] == [(380.0, 296.0), (696.0, 56.0)]
    assert professional[1][2] == "Кубок <1> & Ко, 2026-03-01: Professional 120.00"
    polyline = root.find(f".//{NS}g[@class='series warlock']/{NS}polyline")
    assert polyline is not None and polyline.attrib["points"] == "380,296 696,56"
    assert polyline.attrib["stroke-dasharray"] == "6 4"
    values = [t.text for t in root.findall(f".//{NS}g[@class='series professional']/{NS}text")]
    assert values == ["100.00", "120.00", "110.00"]


def test_one_point_empty_and_translated_charts() -> None:
    one = parse(rating_chart_svg(POINTS[:1], text=ChartText(title="История рейтинга",
                                                            start="старт")))
    assert one.findtext(f"{NS}title") == "История рейтинга"
    assert [(x, y) for x, y, _ in circles(one, "professional")] == [(380.0, 176.0)]
    assert circles(one, "warlock") == []
    empty = parse(rating_chart_svg([]))
    assert "No rated tournaments yet" in ET.tostring(empty, encoding="unicode")


def test_many_points_keep_values_in_titles_and_thin_the_labels() -> None:
    points = [ChartPoint(f"T{i}", date(2026, 1, 1 + i), Decimal(100 + i), Decimal(100 + 2 * i))
              for i in range(30)]
    root = parse(rating_chart_svg(points))
    assert len(circles(root, "professional")) == 30 and len(circles(root, "warlock")) == 30
    assert root.findall(f".//{NS}g[@class='series professional']/{NS}text") == []
    labels = root.findall(f".//{NS}g[@class='x-labels']/{NS}text")
    # side by side without overlapping (the old 10 labels of 65 units overlapped)
    assert 6 <= len(labels) <= 16 and labels[-1].text == "2026-01-30"


@pytest.mark.parametrize(("low", "high", "ticks"), [
    ("100", "140", ["100", "110", "120", "130", "140"]),
    ("100", "100", ["95", "100", "105"]),
    ("98.5", "1203.25", ["0", "500", "1000", "1500"]),
    ("100.01", "100.07", ["100", "100.02", "100.04", "100.06", "100.08"]),
])
def test_nice_ticks(low: str, high: str, ticks: list[str]) -> None:
    assert [str(t) for t in nice_ticks(Decimal(low), Decimal(high))] == ticks
