"""Write tests/longest_files.json from a run's JUnit XML: the test files that took longest.

    .venv/bin/pytest -n 2 --dist loadfile --junitxml=/tmp/run.xml
    .venv/bin/python scripts/longest-files.py /tmp/run.xml

``tests/conftest.py`` hands these files to the workers first (longest first), so no long file
starts last and keeps one worker busy while the others wait. Only the order matters; a file
that is missing from the list (a new one) simply goes after them.
"""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "longest_files.json"
LEAST_S = 1.0
"""Files that take less go after the listed ones, in the order collected (the tail of a run is
its quick files: when only the 30 longest were listed, files of 10 to 20 s came last and one
worker ran them while the other waited)."""


def main(junit: str) -> None:
    seconds: Counter[str] = Counter()
    for case in ET.parse(junit).iter("testcase"):
        parts = [p for p in case.get("classname", "").split(".") if not p[:1].isupper()]
        path = "/".join(parts) + ".py"
        if (ROOT / path).is_file():
            seconds[path] += float(case.get("time") or 0)
    longest = {path: max(1, round(s)) for path, s in seconds.most_common() if s >= LEAST_S}
    OUT.write_text(json.dumps(longest, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{OUT.relative_to(ROOT)}: {len(longest)} files, {round(sum(seconds.values()))} s "
          "in all")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: scripts/longest-files.py RUN.xml")
    main(sys.argv[1])
