"""Result sinks: the webhook POSTs JSON with retries and backoff (httpx MockTransport)."""

from __future__ import annotations

import json

import chess
import httpx

from turnir.domain.robot_rules import CheckStage, ChessResult, LaggerKind, Rule, Verdict
from turnir.robot.decision import CheckFigures, Decision
from turnir.robot.sink import InMemoryResultSink, WebhookResultSink

DECISION = Decision(
    id="g1/first", game_id="g1", white="alice", black="bob", stage=CheckStage.FIRST,
    scheduled_at_ms=450_000, at_ms=450_000, verdict=Verdict.AWARD, rule=Rule.FIRST_AWARD,
    trail=(Rule.FIRST_AWARD,), winner=chess.WHITE, lagger=chess.BLACK,
    figures=CheckFigures(white_clock_ms=60_000, black_clock_ms=50_000, white_mean_lag_ms=300,
                         black_mean_lag_ms=5_000, white_moves=1, black_moves=1,
                         lagger_kind=LaggerKind.ONE))


def sink_with(responses: list[int | Exception], **kwargs: object,
              ) -> tuple[WebhookResultSink, list[httpx.Request], list[float]]:
    seen: list[httpx.Request] = []
    sleeps: list[float] = []
    answers = list(responses)

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        headers = {"Retry-After": "3"} if answer == 429 else {}
        return httpx.Response(answer, headers=headers)

    client = httpx.Client(transport=httpx.MockTransport(handler))
    sink = WebhookResultSink("https://results.example/robot", client=client,
                             sleep=sleeps.append, **kwargs)  # type: ignore[arg-type]
    return sink, seen, sleeps


def test_webhook_posts_the_decision_as_json() -> None:
    sink, seen, sleeps = sink_with([200], background=False)
    sink.deliver("g1", ChessResult.WHITE_WINS, DECISION)
    [request] = seen
    assert request.method == "POST" and request.headers["Idempotency-Key"] == "g1/first"
    body = json.loads(request.content)
    assert (body["event"], body["game_id"], body["result"]) == ("robot.game_decided", "g1",
                                                                 "1-0")
    assert body["decision"]["rule"] == "A-1" and body["decision"]["winner"] == "white"
    assert sink.delivered == ["g1/first"] and sleeps == []


def test_webhook_retries_with_exponential_backoff() -> None:
    sink, seen, sleeps = sink_with(
        [httpx.ConnectError("refused"), 503, 500, 200], background=False, backoff_s=0.5)
    sink.deliver("g1", ChessResult.WHITE_WINS, DECISION)
    assert len(seen) == 4 and sleeps == [0.5, 1.0, 2.0]
    assert sink.delivered == ["g1/first"] and sink.failed == []


def test_webhook_honours_retry_after_within_the_cap() -> None:
    sink, _, sleeps = sink_with([429, 200], background=False, max_backoff_s=2.0)
    sink.deliver("g1", ChessResult.WHITE_WINS, DECISION)
    assert sleeps == [2.0]


def test_webhook_gives_up_loudly() -> None:
    sink, seen, sleeps = sink_with([503] * 3, background=False, attempts=3)
    sink.deliver("g1", ChessResult.WHITE_WINS, DECISION)
    assert len(seen) == 3 and len(sleeps) == 2
    assert sink.failed == [("g1/first", "HTTP 503")]


def test_webhook_does_not_retry_a_refusal() -> None:
    sink, seen, _ = sink_with([400], background=False)
    sink.deliver("g1", ChessResult.WHITE_WINS, DECISION)
    assert len(seen) == 1 and sink.failed == [("g1/first", "HTTP 400")]


def test_webhook_in_the_background_drains_on_close() -> None:
    sink, seen, _ = sink_with([503, 200, 200])
    sink.deliver("g1", ChessResult.WHITE_WINS, DECISION)
    sink.deliver("g2", ChessResult.DRAW, DECISION)
    sink.flush()
    sink.close()
    assert len(seen) == 3 and len(sink.delivered) == 2


def test_in_memory_sink() -> None:
    sink = InMemoryResultSink()
    sink.deliver("g1", ChessResult.DRAW, DECISION)
    assert sink.results() == {"g1": ChessResult.DRAW}
