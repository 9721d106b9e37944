"""The layers stay apart (issue 11): the import-linter contracts of ``pyproject.toml``, no
function over 80 lines, and services that leave every statement to the repositories."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "turnir"
MAX_FUNCTION_LINES = 80


def _lint_imports() -> str:
    found = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    assert found is not None, "import-linter is a dev dependency: pip install -e .[dev]"
    return found


def test_import_contracts_are_kept() -> None:
    done = subprocess.run([_lint_imports(), "--no-cache"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    report = "\n".join(line for line in done.stdout.splitlines() if line.strip())
    assert done.returncode == 0, report
    assert "BROKEN" not in report and "4 kept, 0 broken" in report


def _sources() -> list[Path]:
    return sorted(p for p in SRC.rglob("*.py") if "migrations" not in p.parts)


def test_no_function_is_longer_than_80_lines() -> None:
    long = []
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} "
                                f"({length} lines)")
    assert long == []


def test_services_run_no_statements_themselves() -> None:
    """A service composes repositories; ``.execute(`` on a connection belongs to storage."""
    running = []
    for path in sorted((SRC / "services").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in {"execute", "exec_driver_sql", "scalar", "scalars"}):
                running.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert running == []
