"""Checks every browser test can run on a page (issue 12, item 10 and accessibility):

- :func:`assert_fits`: the page is not wider than its viewport (no horizontal page scroll at
  390×844 nor at 1366×900); on failure it names the elements that stick out;
- :func:`assert_accessible`: axe-core (vendored in ``tests/web/vendor/axe-core``, never
  downloaded) finds no *serious* or *critical* violation; the lesser ones are printed;
- :func:`assert_tap_targets`: on a phone every visible link and button in the header, the tabs
  and the forms is at least 44 px high, unless it is a link inside running text.

Usage::

    from tests.web.pages_check import assert_accessible, assert_fits
    page.goto(url)
    assert_fits(page)
    assert_accessible(page)

The app's Content-Security-Policy forbids inline scripts, so axe's source is evaluated through
the DevTools protocol (``page.evaluate``), which the page's CSP does not govern; the page keeps
its CSP for everything else.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")
"""The axe impacts a page may not have."""
TAP = 44
"""The least height (px) of a tap target on a phone."""
PHONE_WIDTH = 640
"""Viewports up to this width are phones (the stylesheet's ``max-width: 40rem``)."""

_axe_source: str | None = None

_STICKING_OUT = """(width) => {
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.right <= width + 0.5) continue;
    let inside = false;
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (style.overflowX !== 'visible' && up.getBoundingClientRect().right <= width + 0.5) {
        inside = true; break;
      }
    }
    if (inside) continue;
    const id = el.id ? '#' + el.id : '';
    const cls = el.className && typeof el.className === 'string'
      ? '.' + el.className.trim().split(/\\s+/).join('.') : '';
    out.push(`${el.tagName.toLowerCase()}${id}${cls} right=${Math.round(box.right)}`);
    if (out.length >= 8) break;
  }
  return out;
}"""


def page_width(page: Any) -> int:
    """How wide the page is (its scroll width, px)."""
    return int(page.evaluate("document.documentElement.scrollWidth"))


def assert_fits(page: Any, what: str = "") -> None:
    """The page scrolls no wider than its viewport (issue 12, item 10)."""
    viewport = page.viewport_size["width"]
    width = page_width(page)
    if width > viewport:
        sticking = page.evaluate(_STICKING_OUT, viewport)
        raise AssertionError(f"{what or page.url} is {width} px wide at {viewport} px: "
                             f"{'; '.join(sticking)}")


def _inject_axe(page: Any) -> None:
    global _axe_source
    if page.evaluate("typeof window.axe") == "object":
        return
    if _axe_source is None:
        _axe_source = AXE.read_text(encoding="utf-8")
    # an expression (not a function) evaluated over DevTools, so the page's CSP allows it
    page.evaluate(f"(() => {{ {_axe_source}\n;return typeof window.axe; }})()")


def axe_violations(page: Any, *, disabled: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is now (WCAG 2.x A/AA and best practice)."""
    _inject_axe(page)
    options = {"rules": {rule: {"enabled": False} for rule in disabled},
               "resultTypes": ["violations"]}
    result: dict[str, Any] = page.evaluate(
        "(options) => axe.run(document, options).then(r => r.violations.map(v => ({"
        "id: v.id, impact: v.impact, help: v.help, "
        "nodes: v.nodes.map(n => n.target.join(' ') + ' :: ' + n.failureSummary)})))"
        ".then(v => ({violations: v}))", options)
    violations: list[dict[str, Any]] = result["violations"]
    return violations


def _describe(violation: dict[str, Any]) -> str:
    nodes = "\n      ".join(violation["nodes"][:5])
    return f"  [{violation['impact']}] {violation['id']}: {violation['help']}\n      {nodes}"


def assert_accessible(page: Any, what: str = "", *, disabled: tuple[str, ...] = ()) -> None:
    """axe-core finds no serious or critical violation on the page; lesser ones are printed."""
    violations = axe_violations(page, disabled=disabled)
    blocking = [v for v in violations if v["impact"] in BLOCKING]
    others = [v for v in violations if v["impact"] not in BLOCKING]
    if others:
        print(f"axe on {what or page.url} (not blocking):\n"
              + "\n".join(_describe(v) for v in others))
    if blocking:
        raise AssertionError(f"axe on {what or page.url}:\n"
                             + "\n".join(_describe(v) for v in blocking))


_SMALL_TARGETS = """([tap, scope]) => {
  const small = [];
  const seen = new Set();
  for (const el of document.querySelectorAll(scope)) {
    if (seen.has(el)) continue;
    seen.add(el);
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue;
    if (el.type === 'hidden' || el.type === 'checkbox' || el.type === 'radio') continue;
    if (el.closest('p, li.text, td, th, dd, small, .prose, .legend, figure, .bracket')
        && el.tagName === 'A' && !el.closest('nav, header, form')) continue;
    if (box.height + 0.5 < tap) {
      const text = (el.innerText || el.value || el.getAttribute('aria-label') || '').trim();
      small.push(`${el.tagName.toLowerCase()} "${text.slice(0, 30)}" ${Math.round(box.height)}px`);
    }
  }
  return small;
}"""

TAP_SCOPE = ("header a, header button, nav a, nav button, form button, form a, "
             "form input:not([type=hidden]), form select, a.button, a.tap, button.link, "
             "form .link, summary")
"""What must be a tap target on a phone: the header, every nav (the tabs), the forms, the
toggles of the folded parts."""


def assert_tap_targets(page: Any, what: str = "", scope: str = TAP_SCOPE) -> None:
    """On a phone, every visible link/button/field in the header, the tabs and the forms is at
    least :data:`TAP` px high (a link inside running text is exempt)."""
    if page.viewport_size["width"] > PHONE_WIDTH:
        return
    small = page.evaluate(_SMALL_TARGETS, [TAP, scope])
    assert not small, f"tap targets under {TAP} px on {what or page.url}: {'; '.join(small)}"


WATCH_CSP = """
document.addEventListener("securitypolicyviolation", function (e) {
  window.reportViolation(e.violatedDirective + " " + (e.blockedURI || "inline") + " at " +
                         e.sourceFile + ":" + e.lineNumber);
});
"""


def watch_csp(context: Any, problems: list[str]) -> None:
    """Every CSP violation on the browser context's pages is appended to ``problems``."""
    context.expose_binding("reportViolation",
                           lambda _source, text: problems.append(f"CSP: {text}"))
    context.add_init_script(WATCH_CSP)
