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


def _plain_tick(value: Decimal) -> str:
    return f"{value:f}"


@dataclass(frozen=True, slots=True)
class ChartFormat:
    """How the chart writes numbers and days, and its text size (a page passes its locale's
    forms and a size readable when the chart is scaled down to a phone's width)."""

    value: Callable[[Decimal], str] = str
    """A rating at a point (and in the titles and the description)."""
    tick: Callable[[Decimal], str] = _plain_tick
    """A value of the y axis."""
    day: Callable[[date], str] = date.isoformat
    font_size: int = 12
    """The size of every text but the title (in the SVG's units)."""


def text_width(content: str, size: float, *, bold: bool = False) -> float:
    """A generous estimate of a text's width in a sans-serif font (no font metrics here)."""
    return len(content) * size * (0.72 if bold else 0.64)


@dataclass(frozen=True, slots=True)
class _Box:
    x0: float
    y0: float
    x1: float
    y1: float

    def hits(self, other: _Box, gap: float = 2) -> bool:
        return not (self.x1 + gap <= other.x0 or other.x1 + gap <= self.x0
                    or self.y1 + gap <= other.y0 or other.y1 + gap <= self.y0)


def _box(x: float, baseline: float, content: str, size: float, anchor: str) -> _Box:
    width = text_width(content, size)
    left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
    return _Box(left, baseline - size, left + width, baseline + size * 0.3)


@dataclass(frozen=True, slots=True)
class _Frame:
    width: int
    height: int
    left: int = 64
    right: int = 24
    top: int = 56
    bottom: int = 64
    font: int = 12

    @property
    def plot_width(self) -> int:
        return self.width - self.left - self.right

    @property
    def plot_height(self) -> int:
        return self.height - self.top - self.bottom


def _frame(width: int, height: int, font: int, tick_labels: Sequence[str]) -> _Frame:
    """Margins wide enough for the tick labels, the axis' name, the title and the legend
    (never narrower than the classic 64/24/56/64 of a 12-unit text)."""
    widest = max((text_width(label, font) for label in tick_labels), default=0)
    return _Frame(width, height, left=max(64, math.ceil(widest + font * 1.6 + 10)),
                  right=max(24, font * 2), top=max(56, math.ceil(font * 4.6)),
                  bottom=max(64, math.ceil(font * 2.4 + 10)), font=font)


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


def rating_chart_svg(points: Sequence[ChartPoint], *, width: int = 720, height: int = 360,
                     text: ChartText | None = None, form: ChartFormat | None = None) -> str:
    """The chart of ``points`` (oldest first) as an SVG document string; no two of its
    texts overlap (a value label that would is left out: it stays in the point's title)."""
    words = text or ChartText()
    form = form or ChartFormat()
    font = form.font_size
    values = [p.professional for p in points] + [p.warlock for p in points
                                                 if p.warlock is not None]
    ticks = nice_ticks(min(values), max(values)) if values else []
    frame = _frame(width, height, font, [form.tick(t) for t in ticks])
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" role="img" aria-labelledby="chart-title '
            f'chart-desc" font-family="sans-serif" font-size="{font}">')
    title_size = round(font * 4 / 3)
    title_y = title_size + 6
    placed = [_Box(frame.left, title_y - title_size,
                   frame.left + text_width(words.title, title_size, bold=True), title_y)]
    parts = [head, f'<title id="chart-title">{escape(words.title)}</title>',
             f'<desc id="chart-desc">{escape(_describe(points, words, form))}</desc>',
             f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>',
             _text(frame.left, title_y, words.title, font_size=str(title_size),
                   font_weight="bold")]
    if not points:
        parts.append(_text(width / 2, height / 2, words.empty, text_anchor="middle",
                           fill="#555555"))
        parts.append("</svg>")
        return "\n".join(parts)
    low, high = ticks[0], ticks[-1]

    def y_of(value: Decimal) -> float:
        share = float((value - low) / (high - low)) if high != low else 0.5
        return frame.top + frame.plot_height * (1 - share)

    def x_of(index: int) -> float:
        if len(points) == 1:
            return frame.left + frame.plot_width / 2
        return frame.left + frame.plot_width * index / (len(points) - 1)

    parts.extend(_legend(frame, words, title_y + round(font * 1.5), placed))
    parts.extend(_axes(frame, ticks, y_of, words, form, placed))
    parts.extend(_x_labels(frame, points, x_of, words, form, placed))
    for kind, name, colour, above in (
            ("professional", words.professional, PROFESSIONAL_COLOUR, True),
            ("warlock", words.warlock, WARLOCK_COLOUR, False)):
        parts.extend(_series(points, kind, _Line(name, colour, dashed=not above,
                                                 label_above=above),
                             x_of, y_of, form, frame, placed))
    parts.append("</svg>")
    return "\n".join(parts)


def _describe(points: Sequence[ChartPoint], words: ChartText, form: ChartFormat) -> str:
    if not points:
        return words.empty
    first, last = points[0], points[-1]
    summary = (f"{words.professional}: {form.value(first.professional)} → "
               f"{form.value(last.professional)} ({len(points) - 1})")
    warlock = [p.warlock for p in points if p.warlock is not None]
    if warlock:
        summary += f"; {words.warlock}: {form.value(warlock[0])} → {form.value(warlock[-1])}"
    return summary


YOf = Callable[[Decimal], float]
XOf = Callable[[int], float]


def _axes(frame: _Frame, ticks: Sequence[Decimal], y_of: YOf, words: ChartText,
          form: ChartFormat, placed: list[_Box]) -> list[str]:
    x0, x1 = frame.left, frame.left + frame.plot_width
    y_bottom = frame.top + frame.plot_height
    font = frame.font
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
        label, baseline = form.tick(tick), y_of(tick) + font / 3
        placed.append(_box(x0 - 6, baseline, label, font, "end"))
        parts.append(_text(x0 - 6, baseline, label, text_anchor="end"))
    parts.append("</g>")
    middle = frame.top + frame.plot_height / 2
    axis_x = font * 7 / 6
    half = text_width(words.axis, font) / 2
    placed.append(_Box(axis_x - font, middle - half, axis_x + font * 0.3, middle + half))
    parts.append(f'<text x="{_number(axis_x)}" y="{_number(middle)}" text-anchor="middle" '
                 f'transform="rotate(-90 {_number(axis_x)} {_number(middle)})">'
                 f'{escape(words.axis)}</text>')
    return parts


def _x_labels(frame: _Frame, points: Sequence[ChartPoint], x_of: XOf, words: ChartText,
              form: ChartFormat, placed: list[_Box]) -> list[str]:
    """The days under the points, as many as fit side by side; the first and the last
    always (the last ends at its point so that it is not cut at the chart's right edge)."""
    font = frame.font
    y = frame.top + frame.plot_height + font * 1.5
    labels = []
    for index, point in enumerate(points):
        label = words.start if point.when is None else form.day(point.when)
        last = index == len(points) - 1 and len(points) > 1
        anchor = "end" if last else "middle"
        box = _box(x_of(index), y, label, font, anchor)
        if box.x0 < 0 or any(box.hits(other) for other in placed):  # the y axis' labels
            anchor, box = "start", _box(x_of(index), y, label, font, "start")
        labels.append((index, label, anchor, box))
    shown = [labels[0]]
    for candidate in labels[1:]:
        if not candidate[3].hits(shown[-1][3], gap=font / 2):
            shown.append(candidate)
    if len(labels) > 1 and shown[-1] is not labels[-1]:
        while len(shown) > 1 and labels[-1][3].hits(shown[-1][3], gap=font / 2):
            shown.pop()
        if labels[-1][3].hits(shown[-1][3], gap=font / 2):
            shown.pop()
        shown.append(labels[-1])
    parts = ['<g class="x-labels" fill="#333333">']
    for index, label, anchor, box in shown:
        placed.append(box)
        parts.append(_text(x_of(index), y, label, text_anchor=anchor))
    parts.append("</g>")
    return parts


@dataclass(frozen=True, slots=True)
class _Line:
    name: str
    colour: str
    dashed: bool
    label_above: bool


def _value_label(x: float, y: float, label: str, line: _Line, frame: _Frame,
                 placed: list[_Box]) -> str | None:
    """The value beside its point, above or below (the preferred side first), where it
    overlaps no other text and stays inside the chart; ``None`` when neither side does."""
    font = frame.font
    sides = (y - 8, y + 6 + font)
    for baseline in sides if line.label_above else reversed(sides):
        for anchor, at in (("middle", x), ("start", x - 4), ("end", x + 4)):
            box = _box(at, baseline, label, font, anchor)
            if box.x0 < 0 or box.x1 > frame.width or box.y0 < 0:
                continue
            if any(box.hits(other) for other in placed):
                continue
            placed.append(box)
            return _text(at, baseline, label, text_anchor=anchor, fill=line.colour)
    return None


def _series(points: Sequence[ChartPoint], kind: str, line: _Line, x_of: XOf, y_of: YOf,
            form: ChartFormat, frame: _Frame, placed: list[_Box]) -> list[str]:
    located = [(index, point, point.professional if kind == "professional" else point.warlock)
               for index, point in enumerate(points)]
    shown = [(index, point, value) for index, point, value in located if value is not None]
    if not shown:
        return []
    coords = " ".join(f"{_number(x_of(i))},{_number(y_of(v))}" for i, _, v in shown)
    dash = ' stroke-dasharray="6 4"' if line.dashed else ""
    parts = [f'<g class="series {kind}">',
             f'<polyline points="{coords}" fill="none" stroke="{line.colour}" '
             f'stroke-width="2"{dash}/>']
    labelled = len(points) <= _VALUE_LABELS_UP_TO
    for index, point, value in shown:
        x, y = x_of(index), y_of(value)
        when = "" if point.when is None else f", {form.day(point.when)}"
        tip = f"{point.label}{when}: {line.name} {form.value(value)}"
        parts.append(f'<circle cx="{_number(x)}" cy="{_number(y)}" r="4" '
                     f'fill="{line.colour}"><title>{escape(tip)}</title></circle>')
        label = _value_label(x, y, form.value(value), line, frame, placed) if labelled else None
        if label is not None:
            parts.append(label)
    parts.append("</g>")
    return parts


def _legend(frame: _Frame, words: ChartText, y: int, placed: list[_Box]) -> list[str]:
    """Both lines' names, ending at the plot's right edge (from its left edge when that is
    too narrow)."""
    font = frame.font
    first = text_width(words.professional, font)
    second = text_width(words.warlock, font)
    total = 30 + first + font * 1.5 + 30 + second
    x = max(frame.left, frame.left + frame.plot_width - total)
    x2 = x + 30 + first + font * 1.5
    baseline = y + font / 3
    placed.append(_box(x + 30, baseline, words.professional, font, "start"))
    placed.append(_box(x2 + 30, baseline, words.warlock, font, "start"))
    return [
        '<g class="legend">',
        f'<line x1="{_number(x)}" y1="{y}" x2="{_number(x + 24)}" y2="{y}" '
        f'stroke="{PROFESSIONAL_COLOUR}" stroke-width="2"/>',
        _text(x + 30, baseline, words.professional),
        f'<line x1="{_number(x2)}" y1="{y}" x2="{_number(x2 + 24)}" y2="{y}" '
        f'stroke="{WARLOCK_COLOUR}" stroke-width="2" stroke-dasharray="6 4"/>',
        _text(x2 + 30, baseline, words.warlock),
        "</g>",
    ]
