"""Where the time of ``bench/load.py``'s requests goes: the same tournament (round 1 of N
players, each with an account and a session) on a fresh PostgreSQL database, then, in this one
process and one request at a time (no concurrency, so these are service times, not queueing):

- each page of the round as a signed-in player asks for it (the app in-process through
  Starlette's test client), and the public pairings as an anonymous visitor (the cached path);
- each service call the player's match card (``GET /t/{tid}/me``) makes, timed alone.

Run: ``.venv/bin/python bench/load_profile.py [--players 2000]``; the last line is one JSON
object (figures only: the targets are ``bench/load.py``'s).
"""

from __future__ import annotations

import argparse
import json
import os
import time
import warnings
from collections.abc import Callable
from typing import Any

from load import fresh_database, pg_server_url, prepare

from turnir.compose import web_app
from turnir.services.accounts import session_account
from turnir.services.deck_formats import tournament_format
from turnir.services.decks import takes_decks
from turnir.services.player_match import my_match
from turnir.services.round_clock import round_timer
from turnir.services.tournaments import find_tournament
from turnir.storage.database import Database
from turnir.web.settings import WebSettings

REPEAT = 10


def timed(call: Callable[[], object]) -> float:
    call()
    start = time.perf_counter()
    for _ in range(REPEAT):
        call()
    return round((time.perf_counter() - start) / REPEAT * 1000, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--pg-url", default=os.environ.get("TURNIR_LOAD_PG_URL"))
    args = parser.parse_args()
    server = pg_server_url(args.pg_url)
    name = f"turnir_load_profile_{os.getpid()}"
    url = fresh_database(server, name)
    db = Database.open(url)
    try:
        tid, tables, _ = prepare(db, args.players)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from starlette.testclient import TestClient
        client = TestClient(web_app(WebSettings(database_url=url, secret_key="profile"), db=db))
        me = {"Cookie": f"turnir_session={tables[0].a}"}
        pages = {"me (page)": (f"/t/{tid}/me", me), "card (htmx)": (f"/t/{tid}/me",
                 {**me, "HX-Request": "true"}), "pairings": (f"/t/{tid}/pairings", me),
                 "standings": (f"/t/{tid}/standings", me),
                 "pairings (anonymous, cached)": (f"/t/{tid}/pairings", {})}
        figures: dict[str, Any] = {"players": args.players, "pages_ms": {}, "card_calls_ms": {}}
        for label, (path, headers) in pages.items():
            figures["pages_ms"][label] = timed(lambda p=path, h=headers: client.get(p, headers=h))
        account = session_account(db, tables[0].a)
        assert account is not None
        calls: dict[str, Callable[[], object]] = {
            "session_account": lambda: session_account(db, tables[0].a),
            "my_match": lambda: my_match(db, tid, account),
            "round_timer": lambda: round_timer(db, tid, 1),
            "tournament_format": lambda: tournament_format(db, tid),
            "find_tournament": lambda: find_tournament(db, tid),
            "takes_decks": lambda: takes_decks(db, tid),
        }
        for label, call in calls.items():
            figures["card_calls_ms"][label] = timed(call)
    finally:
        db.close()
        fresh_database(server, name, drop_only=True)
    for group in ("pages_ms", "card_calls_ms"):
        for label, ms in figures[group].items():
            print(f"{label:>30}: {ms:7.1f} ms", flush=True)
    print(json.dumps({"bench": "load_profile", "figures": figures, "targets": {}},
                     ensure_ascii=False))


if __name__ == "__main__":
    main()
