"""The domain core imports nothing with I/O and reads no clock or global random (STYLE 1)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import turnir.domain

DOMAIN = Path(turnir.domain.__file__).parent
ALLOWED_STDLIB = {
    "__future__", "abc", "bisect", "collections", "dataclasses", "decimal", "enum",
    "fractions", "functools", "heapq", "itertools", "math", "operator", "random", "re",
    "statistics", "types", "typing", "string", "unicodedata",
    "datetime",  # dates and times as values; reading the clock is forbidden below
    "zoneinfo",  # local times of a schedule in its time zone (read-only time zone data)
}
ALLOWED_PROJECT = ("turnir.domain", "turnir.errors")
ALLOWED_THIRD_PARTY = {"chess", "rustworkx", "rapidfuzz"}  # rapidfuzz: card name similarity
FORBIDDEN_CALLS = ("datetime.now", "date.today", "datetime.utcnow", "time.time",
                   "random.random(", "random.shuffle(",
                   "random.choice(", "random.randint(", "open(")


def imported_modules(tree: ast.AST) -> list[str]:
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return names


def test_domain_imports_only_pure_modules() -> None:
    bad: list[str] = []
    files = sorted(DOMAIN.rglob("*.py"))
    assert files
    for path in files:
        for name in imported_modules(ast.parse(path.read_text(encoding="utf-8"))):
            top = name.split(".")[0]
            if name.startswith(ALLOWED_PROJECT) or top in ALLOWED_THIRD_PARTY:
                continue
            if top in ALLOWED_STDLIB and top in sys.stdlib_module_names | {"__future__"}:
                continue
            bad.append(f"{path.relative_to(DOMAIN)} imports {name}")
    assert bad == []


def test_domain_reads_no_clock_and_no_global_random() -> None:
    bad = [
        f"{path.relative_to(DOMAIN)}: {call}"
        for path in sorted(DOMAIN.rglob("*.py"))
        for call in FORBIDDEN_CALLS
        if call in path.read_text(encoding="utf-8")
    ]
    assert bad == []
