"""A player's rating-history chart as a self-contained SVG (R-1, R-5): plain string building,
no JavaScript, no dependencies, readable as it is in any browser or image viewer.

The chart has a title and a text description (``<title>``, ``<desc>``, for screen readers),
a y axis with rounded ticks and grid lines, an x axis labelled with the tournaments' dates,
both ratings as lines with a point per tournament (professional solid, Warlock dashed), each
point carrying its value as a label and a ``<title>`` (shown on hover without any script),
and a legend. The first point is the player's start: the imported rating, or the newcomer's
100 (the Warlock rating starts with the first tournament, R-5).

Words come in ``ChartText`` so a page can pass its own translation.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from xml.sax.saxutils import escape, quoteattr

PROFESSIONAL_COLOUR = "#1f5fa8"
WARLOCK_COLOUR = "#b8541b"
_VALUE_LABELS_UP_TO = 16
"""With more points than this, values are only in the points' titles (hover) and the desc."""


@dataclass(frozen=True, slots=True)
class ChartPoint:
    """A player's ratings after one tournament (or at the start)."""

    label: str
    """The tournament's name, or the start's label."""
    when: date | None
    """The day the tournament ended; ``None`` for the start."""
    professional: Decimal
    warlock: Decimal | None
    """``None`` before the player's first rated tournament."""


@dataclass(frozen=True, slots=True)
class ChartText:
    """The chart's words (English by default)."""

    title: str = "Rating history"
    professional: str = "Professional"
    warlock: str = "Warlock"
    start: str = "start"
    empty: str = "No rated tournaments yet"
    axis: str = "Rating"


@dataclass(frozen=True, slots=True)
class _Frame:
    width: int
    height: int
    left: int = 64
    right: int = 24
    top: int = 56
    bottom: int = 64

    @property
    def plot_width(self) -> int:
        return self.width - self.left - self.right

    @property
    def plot_height(self) -> int:
        return self.height - self.top - self.bottom


def nice_ticks(low: Decimal, high: Decimal, *, count: int = 5) -> list[Decimal]:
    """Round tick values covering ``low..high``: steps of 1, 2 or 5 times a power of ten."""
    if high < low:
        low, high = high, low
    span = high - low
    if span == 0:
        span = max(abs(high) / 10, Decimal(1))
        low, high = low - span / 2, high + span / 2
    raw = float(span) / max(count - 1, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    step_d = Decimal(str(step))
    first = (low / step_d).to_integral_value(rounding="ROUND_FLOOR") * step_d
    last = (high / step_d).to_integral_value(rounding="ROUND_CEILING") * step_d
    ticks = []
    value = first
    while value <= last:
        ticks.append(Decimal(f"{value.normalize():f}"))
        value += step_d
    return ticks


def _number(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _text(x: float, y: float, content: str, **attributes: str) -> str:
    extra = "".join(f" {name.replace('_', '-')}={quoteattr(value)}"
                    for name, value in attributes.items())
    return f'<text x="{_number(x)}" y="{_number(y)}"{extra}>{escape(content)}</text>'


def _tick_label(value: Decimal) -> str:
    return f"{value:f}"


def rating_chart_svg(points: Sequence[ChartPoint], *, width: int = 720, height: int = 360,
                     text: ChartText | None = None) -> str:
    """The chart of ``points`` (oldest first) as an SVG document string."""
    words = text or ChartText()
    frame = _Frame(width, height)
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" role="img" aria-labelledby="chart-title '
            f'chart-desc" font-family="sans-serif" font-size="12">')
    parts = [head, f'<title id="chart-title">{escape(words.title)}</title>',
             f'<desc id="chart-desc">{escape(_describe(points, words))}</desc>',
             f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>',
             _text(frame.left, 22, words.title, font_size="16", font_weight="bold")]
    if not points:
        parts.append(_text(width / 2, height / 2, words.empty, text_anchor="middle",
                           fill="#555555"))
        parts.append("</svg>")
        return "\n".join(parts)
    values = [p.professional for p in points] + [p.warlock for p in points
                                                 if p.warlock is not None]
    ticks = nice_ticks(min(values), max(values))
    low, high = ticks[0], ticks[-1]

    def y_of(value: Decimal) -> float:
        share = float((value - low) / (high - low)) if high != low else 0.5
        return frame.top + frame.plot_height * (1 - share)

    def x_of(index: int) -> float:
        if len(points) == 1:
            return frame.left + frame.plot_width / 2
        return frame.left + frame.plot_width * index / (len(points) - 1)

    parts.extend(_axes(frame, ticks, y_of, words))
    parts.extend(_x_labels(frame, points, x_of, words))
    parts.extend(_series(points, "professional", words.professional, PROFESSIONAL_COLOUR,
                         x_of, y_of, dashed=False, label_above=True))
    parts.extend(_series(points, "warlock", words.warlock, WARLOCK_COLOUR, x_of, y_of,
                         dashed=True, label_above=False))
    parts.extend(_legend(frame, words))
    parts.append("</svg>")
    return "\n".join(parts)


def _describe(points: Sequence[ChartPoint], words: ChartText) -> str:
    if not points:
        return words.empty
    first, last = points[0], points[-1]
    summary = (f"{words.professional}: {first.professional} → {last.professional} "
               f"({len(points) - 1})")
    warlock = [p.warlock for p in points if p.warlock is not None]
    if warlock:
        summary += f"; {words.warlock}: {warlock[0]} → {warlock[-1]}"
    return summary


YOf = Callable[[Decimal], float]
XOf = Callable[[int], float]


def _axes(frame: _Frame, ticks: Sequence[Decimal], y_of: YOf, words: ChartText) -> list[str]:
    x0, x1 = frame.left, frame.left + frame.plot_width
    y_bottom = frame.top + frame.plot_height
    parts = ['<g class="grid" stroke="#dddddd" stroke-width="1">']
    for tick in ticks:
        y = _number(y_of(tick))
        parts.append(f'<line x1="{x0}" y1="{y}" x2="{x1}" y2="{y}"/>')
    parts.append("</g>")
    parts.append('<g class="axes" stroke="#333333" stroke-width="1">')
    parts.append(f'<line x1="{x0}" y1="{frame.top}" x2="{x0}" y2="{y_bottom}"/>')
    parts.append(f'<line x1="{x0}" y1="{y_bottom}" x2="{x1}" y2="{y_bottom}"/>')
    parts.append("</g>")
    parts.append('<g class="y-ticks" fill="#333333">')
    for tick in ticks:
        parts.append(_text(x0 - 6, y_of(tick) + 4, _tick_label(tick), text_anchor="end"))
    parts.append("</g>")
    middle = frame.top + frame.plot_height / 2
    parts.append(f'<text x="14" y="{_number(middle)}" text-anchor="middle" '
                 f'transform="rotate(-90 14 {_number(middle)})">{escape(words.axis)}</text>')
    return parts


def _x_labels(frame: _Frame, points: Sequence[ChartPoint], x_of: XOf, words: ChartText
              ) -> list[str]:
    every = max(1, math.ceil(len(points) / 12))
    y = frame.top + frame.plot_height + 18
    parts = ['<g class="x-labels" fill="#333333">']
    for index, point in enumerate(points):
        if index % every and index != len(points) - 1:
            continue
        label = words.start if point.when is None else point.when.isoformat()
        # the last label ends at its point so that it is not cut at the chart's right edge
        last = index == len(points) - 1 and len(points) > 1
        parts.append(_text(x_of(index), y, label, text_anchor="end" if last else "middle"))
    parts.append("</g>")
    return parts


def _series(points: Sequence[ChartPoint], kind: str, name: str, colour: str, x_of: XOf,
            y_of: YOf, *, dashed: bool, label_above: bool) -> list[str]:
    located = [(index, point, point.professional if kind == "professional" else point.warlock)
               for index, point in enumerate(points)]
    shown = [(index, point, value) for index, point, value in located if value is not None]
    if not shown:
        return []
    coords = " ".join(f"{_number(x_of(i))},{_number(y_of(v))}" for i, _, v in shown)
    dash = ' stroke-dasharray="6 4"' if dashed else ""
    parts = [f'<g class="series {kind}">',
             f'<polyline points="{coords}" fill="none" stroke="{colour}" '
             f'stroke-width="2"{dash}/>']
    labelled = len(points) <= _VALUE_LABELS_UP_TO
    for index, point, value in shown:
        x, y = x_of(index), y_of(value)
        when = "" if point.when is None else f", {point.when.isoformat()}"
        parts.append(f'<circle cx="{_number(x)}" cy="{_number(y)}" r="4" fill="{colour}">'
                     f"<title>{escape(f'{point.label}{when}: {name} {value}')}</title>"
                     "</circle>")
        if labelled:
            parts.append(_text(x, y - 8 if label_above else y + 16, str(value),
                               text_anchor="middle", fill=colour, font_size="10"))
    parts.append("</g>")
    return parts


def _legend(frame: _Frame, words: ChartText) -> list[str]:
    x = frame.left + frame.plot_width - 220
    y = 40
    return [
        '<g class="legend">',
        f'<line x1="{x}" y1="{y}" x2="{x + 24}" y2="{y}" stroke="{PROFESSIONAL_COLOUR}" '
        'stroke-width="2"/>',
        _text(x + 30, y + 4, words.professional),
        f'<line x1="{x + 120}" y1="{y}" x2="{x + 144}" y2="{y}" stroke="{WARLOCK_COLOUR}" '
        'stroke-width="2" stroke-dasharray="6 4"/>',
        _text(x + 150, y + 4, words.warlock),
        "</g>",
    ]
