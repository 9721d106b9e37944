"""The offline tournament file: round trip, JSON Schema, and refusals that name the place."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.domain.builders import tournament
from tests.domain.test_tournament import play
from turnir.domain.tournament import pair_next_round
from turnir.errors import UserError
from turnir.formats.tournament_file import (
    dump_tournament,
    json_schema,
    parse_tournament,
    read_tournament,
    write_tournament,
)


def doc_of(rounds: int = 2) -> dict[str, Any]:
    t = play(tournament(9, rounds=4, top=4), rounds)
    data: dict[str, Any] = json.loads(dump_tournament(t))
    return data


def test_round_trip_is_identical() -> None:
    t = pair_next_round(play(tournament(9, rounds=3, top=2), 3))
    text = dump_tournament(t)
    again = parse_tournament(text)
    assert again == t
    assert dump_tournament(again) == text


def test_schema_describes_the_file() -> None:
    schema = json_schema()
    assert schema["title"].startswith("turnir tournament file")
    assert {"name", "seed", "players"} <= set(schema["required"])
    assert "rounds" in schema["properties"]


def refuse(doc: dict[str, Any], *fragments: str) -> None:
    with pytest.raises(UserError) as info:
        parse_tournament(json.dumps(doc), source="t.json")
    for fragment in fragments:
        assert fragment in info.value.message, info.value.message


def test_unknown_player_is_named_with_its_place() -> None:
    doc = doc_of()
    doc["rounds"][1]["pairings"][0]["b"] = 99
    refuse(doc, "t.json", "rounds[1]", "table 1", "unknown player #99")


def test_result_for_a_bye_is_refused() -> None:
    doc = doc_of()
    line = next(p for p in doc["rounds"][0]["pairings"] if p["b"] is None)
    line["result"] = {"wins_a": 2, "wins_b": 0, "outcome": "a_wins"}
    refuse(doc, "rounds[0]", "bye cannot have a result")


def test_duplicate_name_is_refused() -> None:
    doc = doc_of()
    doc["players"][1]["name"] = doc["players"][0]["name"].upper()
    refuse(doc, "player 2", "already player #1")


def test_drawn_top_match_is_refused() -> None:
    t = pair_next_round(play(tournament(8, rounds=3, top=4), 3))
    doc = json.loads(dump_tournament(t))
    doc["rounds"][3]["pairings"][0]["result"] = {
        "wins_a": 1, "wins_b": 1, "outcome": "draw", "ending": "played"}
    refuse(doc, "rounds[3]", "table 1", "S-3")


def test_rematch_forced_by_hand_is_refused() -> None:
    doc = doc_of(2)
    r0 = doc["rounds"][0]["pairings"]
    r1 = [p for p in doc["rounds"][1]["pairings"] if p["b"] is not None]
    seats = {p[key]: (i, key) for i, p in enumerate(r1) for key in ("a", "b")}
    # a round-1 pairing whose two players both play a match in round 2
    old = next(p for p in r0 if p["b"] is not None and p["a"] in seats and p["b"] in seats)
    (i1, k1), (i2, k2) = seats[old["a"]], seats[old["b"]]
    assert i1 != i2  # the pairer made no rematch
    other = "b" if k1 == "a" else "a"
    r1[i1][other], r1[i2][k2] = r1[i2][k2], r1[i1][other]
    for p in r1:
        p["result"] = {"wins_a": 2, "wins_b": 0, "outcome": "a_wins", "ending": "played"}
    refuse(doc, "rounds[1]", "rematch")


def test_malformed_json_and_shapes_name_the_place() -> None:
    with pytest.raises(UserError, match="line 1"):
        parse_tournament("{not json", source="x.json")
    doc = doc_of()
    doc["players"][0]["id"] = "one"
    refuse(doc, "players[0].id")
    doc = doc_of()
    doc["settings"]["best_of"] = 4
    refuse(doc, "settings.best_of")
    doc = doc_of()
    doc["rounds"][0]["number"] = 5
    refuse(doc, "rounds[0]", "numbered")
    doc = doc_of()
    doc["players"][2]["id"] = doc["players"][1]["id"]
    refuse(doc, "used twice")


def test_write_is_atomic_and_readable(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    t = tournament(6)
    write_tournament(path, t)
    assert read_tournament(path) == t
    assert [p.name for p in tmp_path.iterdir()] == ["t.json"]
    with pytest.raises(UserError, match="no such file"):
        read_tournament(tmp_path / "missing.json")
