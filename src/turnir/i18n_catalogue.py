"""Keeping the ``errors`` catalogue (``turnir.i18n``) in step with the code.

``python -m turnir.i18n_catalogue`` finds every ``UserError`` template in ``src/turnir`` (the
first argument of each call of ``UserError`` or one of its subclasses, and of the
``super().__init__`` of a subclass with its own constructor, and of each ``Term``), adds the
new ones to ``errors.po`` of both languages (English: the template itself), drops the ones no
longer used, and compiles both ``errors.mo``. ``--fragments DIR`` also takes Russian
translations from the JSON files in ``DIR`` (``{"template": "перевод"}``). A development
tool: nothing at run time imports it.
"""

from __future__ import annotations

import ast
import io
import json
import string
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from turnir.i18n import LOCALES, catalogue_path

SOURCE_ROOT = Path(__file__).resolve().parent
BASE_ERRORS = frozenset({"UserError", "NotFoundError", "ConflictError", "ForbiddenError"})


@dataclass(frozen=True, slots=True)
class Template:
    text: str
    where: str
    """``path:line`` of the call."""


@dataclass(frozen=True, slots=True)
class Problem:
    where: str
    what: str

    def __str__(self) -> str:
        return f"{self.where}: {self.what}"


def source_files(root: Path = SOURCE_ROOT) -> list[Path]:
    return sorted(p for p in root.rglob("*.py") if "migrations" not in p.parts)


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def error_classes(trees: Iterable[ast.Module]) -> tuple[frozenset[str], frozenset[str]]:
    """The names of ``UserError`` and its subclasses, and those of them with an ``__init__``."""
    classes = [node for tree in trees for node in ast.walk(tree)
               if isinstance(node, ast.ClassDef)]
    names = set(BASE_ERRORS)
    grew = True
    while grew:
        grew = False
        for node in classes:
            if node.name not in names and any(_name(b) in names for b in node.bases):
                names.add(node.name)
                grew = True
    custom = {node.name for node in classes if node.name in names and node.name != "UserError"
              and any(isinstance(item, ast.FunctionDef) and item.name == "__init__"
                      for item in node.body)}
    return frozenset(names), frozenset(custom)


def _is_super_init(call: ast.Call) -> bool:
    func = call.func
    return (isinstance(func, ast.Attribute) and func.attr == "__init__"
            and isinstance(func.value, ast.Call) and _name(func.value.func) == "super")


def _fields(template: str) -> set[str]:
    try:
        return {field.split(".")[0].split("[")[0]
                for _, field, _, _ in string.Formatter().parse(template) if field}
    except ValueError:
        return {"\0"}


def _check_call(call: ast.Call, where: str) -> Iterator[Template | Problem]:
    first: ast.expr | None = call.args[0] if call.args else None
    if first is None:
        first = next((k.value for k in call.keywords if k.arg == "message"), None)
    if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
        yield Problem(where, "the message is not a literal template")
        return
    template = first.value
    given = {k.arg for k in call.keywords if k.arg is not None} - {"code", "message"}
    spread = any(k.arg is None for k in call.keywords)
    fields = _fields(template)
    if "\0" in fields:
        yield Problem(where, f"the template {template!r} is not a valid format string")
    elif not spread and fields - given:
        yield Problem(where, f"the template {template!r} has fields without values: "
                             f"{sorted(fields - given)}")
    elif not spread and not fields and given:
        yield Problem(where, f"values {sorted(given)} given to a template without fields")
    yield Template(template, where)


def walk(root: Path = SOURCE_ROOT) -> tuple[list[Template], list[Problem]]:
    """Every template in the code, and every call whose message is not a checkable template."""
    files = source_files(root)
    trees = {path: ast.parse(path.read_text(encoding="utf-8"), str(path)) for path in files}
    names, custom = error_classes(trees.values())
    templates: list[Template] = []
    problems: list[Problem] = []
    for path, tree in trees.items():
        rel = path.relative_to(root.parent)
        for cls in [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]:
            if cls.name in custom:
                for node in ast.walk(cls):
                    if isinstance(node, ast.Call) and _is_super_init(node):
                        for found in _check_call(node, f"{rel}:{node.lineno}"):
                            (templates if isinstance(found, Template) else problems).append(
                                found)  # type: ignore[arg-type]
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _name(node.func) == "Term":
                for found in _check_call(node, f"{rel}:{node.lineno}"):
                    (templates if isinstance(found, Template) else problems).append(
                        found)  # type: ignore[arg-type]
                continue
            if not isinstance(node, ast.Call) or _name(node.func) not in names:
                continue
            if _name(node.func) in custom:
                continue
            for found in _check_call(node, f"{rel}:{node.lineno}"):
                (templates if isinstance(found, Template) else problems).append(
                    found)  # type: ignore[arg-type]
    return templates, problems


def read_catalogue(locale: str) -> Catalog:
    path = catalogue_path(locale)
    if not path.exists():
        return Catalog(locale=locale, domain="errors")
    with path.open("rb") as f:
        return read_po(f, locale=locale, domain="errors")


def fragments(directory: Path | None) -> dict[str, str]:
    found: dict[str, str] = {}
    if directory is None:
        return found
    for path in sorted(directory.glob("*.json")):
        found.update(json.loads(path.read_text(encoding="utf-8")))
    return found


def update(templates: list[Template], extra_ru: dict[str, str]) -> None:
    """Both catalogues: exactly the templates in use, translations kept, then compiled."""
    wanted: dict[str, list[str]] = {}
    for t in templates:
        wanted.setdefault(t.text, []).append(t.where)
    for locale in LOCALES:
        old = read_catalogue(locale)
        new = Catalog(locale=locale, domain="errors", project="turnir",
                      copyright_holder="turnir", fuzzy=False)
        for text in sorted(wanted):
            before = old.get(text)
            translation = before.string if before is not None and before.string else ""
            if locale == "en":
                translation = text
            elif extra_ru.get(text):
                translation = extra_ru[text]
            new.add(text, translation,
                    locations=[(w.rsplit(":", 1)[0], int(w.rsplit(":", 1)[1]))
                               for w in wanted[text][:3]])
        path = catalogue_path(locale)
        path.parent.mkdir(parents=True, exist_ok=True)
        out = io.BytesIO()
        write_po(out, new, width=100, sort_output=True, omit_header=False)
        path.write_bytes(out.getvalue())
        mo = io.BytesIO()
        write_mo(mo, new, use_fuzzy=False)
        catalogue_path(locale, ".mo").write_bytes(mo.getvalue())


def main(argv: list[str]) -> int:
    directory = None
    if argv[:1] == ["--fragments"] and len(argv) > 1:
        directory = Path(argv[1])
    templates, problems = walk()
    for problem in problems:
        print(problem, file=sys.stderr)
    update(templates, fragments(directory))
    missing = [t for t in {t.text for t in templates}
               if not (read_catalogue("ru").get(t) or None)
               or not read_catalogue("ru")[t].string]
    print(f"{len({t.text for t in templates})} templates, {len(problems)} problems, "
          f"{len(missing)} without a Russian translation")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
