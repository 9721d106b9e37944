"""A worker for the report crash test (``tests/services/test_reports.py``):
``python -m tests.services.report_worker URL TID ROUND TABLE SCORE LOGIN``.

Reports ``SCORE`` (from the player's side) as ``LOGIN``, and kills itself with SIGKILL the
moment the recording of the result reaches its penalty hook (``settle_penalty_losses``, the
last step of recording, after the pairing's update and its audit record): the crash between
"the second report" and "the result recorded". Prints ``recording`` just before dying.
"""

from __future__ import annotations

import os
import signal
import sys

from turnir.domain.results import parse_result
from turnir.services import results
from turnir.services.accounts import find_account
from turnir.services.reports import report_result
from turnir.storage.database import Database


def _die(*args: object, **kwargs: object) -> None:
    sys.stdout.write("recording\n")
    sys.stdout.flush()
    os.kill(os.getpid(), signal.SIGKILL)


def main(url: str, tid: str, round_number: str, table: str, score: str, login: str) -> None:
    db = Database.open(url)
    account = find_account(db, login)
    if account is None:
        raise SystemExit(f"no account {login!r}")
    setattr(results, "settle_penalty_losses", _die)  # noqa: B010 - a test patch
    report_result(db, int(tid), int(round_number), int(table), parse_result(score),
                  account=account)
    sys.stdout.write("returned\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
