"""Where a game's result goes when it ends: the ``ResultSink`` protocol.

``deliver`` gets every game a robot decision ended; ``deliver_end`` every game that ended by an
event of the game server (mate, resignation, flag fall, agreed draw, a draw by the board's
rules), so that an online tournament gets all its results through the robot. The tournament
services implement it (``turnir.services.online.ServicesResultSink``: the match result, S-2);
here are an in-memory sink (tests, simulations), a webhook sink that POSTs the decision as JSON
to the game server or the tournament site, retrying with exponential backoff, and
``FanOutSink`` to hand every result to several sinks.

Webhook request: ``POST <url>`` with ``Content-Type: application/json``, the header
``Idempotency-Key: <decision id>`` (a receiver may get the same decision twice after a retry)
and the body ``schemas.WebhookPayload``::

    {"event": "robot.game_decided", "game_id": "r3-t12", "result": "0-1",
     "decision": {"id": "r3-t12/first", "rule": "A-1", "verdict": "award", ...}}

A 2xx answer delivers it. A network error, 408, 429 or 5xx is retried (``attempts`` in all,
waiting ``backoff_s`` x 2^n, at most ``max_backoff_s``; a 429's ``Retry-After`` seconds are
honoured within that cap). Any other answer, or the last failed attempt, is logged and kept in
``failed``: nothing is dropped silently.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Protocol

import httpx

from turnir.domain.robot_rules import ChessResult
from turnir.robot.decision import Decision
from turnir.robot.game import GameEnd
from turnir.robot.schemas import DecisionOut, WebhookPayload

log = logging.getLogger(__name__)

RETRY_STATUS = frozenset({408, 429, 500, 502, 503, 504})


class ResultSink(Protocol):
    """Receives the result of every game a robot decision ended."""

    def deliver(self, game_id: str, result: ChessResult, decision: Decision) -> None:
        """Called once per ending decision; must not raise for a delivery problem it can retry
        itself (the decision is already stored)."""
        ...

    def deliver_end(self, game_id: str, end: GameEnd) -> None:
        """Called once per game that ended by an event (no robot decision), same terms."""
        ...


class InMemoryResultSink:
    """Keeps what it was given (tests and simulations)."""

    def __init__(self) -> None:
        self.delivered: list[tuple[str, ChessResult, Decision]] = []
        self._lock = threading.Lock()

        self.ended: list[tuple[str, GameEnd]] = []
        """Games that ended by an event."""

    def deliver(self, game_id: str, result: ChessResult, decision: Decision) -> None:
        with self._lock:
            self.delivered.append((game_id, result, decision))

    def deliver_end(self, game_id: str, end: GameEnd) -> None:
        with self._lock:
            self.ended.append((game_id, end))

    def results(self) -> dict[str, ChessResult]:
        """The results of the games robot decisions ended."""
        with self._lock:
            return {game_id: result for game_id, result, _ in self.delivered}


class FanOutSink:
    """Hands every result to each of ``sinks`` in turn; one failing does not stop the others
    (the failure is logged)."""

    def __init__(self, *sinks: ResultSink) -> None:
        self.sinks = sinks

    def deliver(self, game_id: str, result: ChessResult, decision: Decision) -> None:
        for sink in self.sinks:
            try:
                sink.deliver(game_id, result, decision)
            except Exception:
                log.exception("a result sink failed for decision %s", decision.id)

    def deliver_end(self, game_id: str, end: GameEnd) -> None:
        for sink in self.sinks:
            try:
                sink.deliver_end(game_id, end)
            except Exception:
                log.exception("a result sink failed for the end of game %s", game_id)


class WebhookResultSink:
    """POSTs each ending decision to ``url`` with retries (see the module doc).

    With ``background=True`` deliveries go through a queue and one worker thread, so a slow
    receiver never delays a check; ``close()`` waits for the queue to drain.
    """

    def __init__(self, url: str, *, client: httpx.Client | None = None, attempts: int = 5,
                 backoff_s: float = 0.5, max_backoff_s: float = 10.0, timeout_s: float = 5.0,
                 background: bool = True, headers: dict[str, str] | None = None,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.url = url
        self._client = client or httpx.Client(timeout=timeout_s)
        self._owns_client = client is None
        self.attempts = max(1, attempts)
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        self._headers = dict(headers or {})
        self._sleep = sleep
        self._background = background
        self._queue: queue.Queue[tuple[str, str] | None] = queue.Queue()
        self._worker: threading.Thread | None = None
        self._lock = threading.Lock()
        self.delivered: list[str] = []
        """Decision ids delivered."""
        self.failed: list[tuple[str, str]] = []
        """(decision id, last error) given up on."""

    def deliver_end(self, game_id: str, end: GameEnd) -> None:
        """Not sent: the game server knows how its own games ended."""

    def deliver(self, game_id: str, result: ChessResult, decision: Decision) -> None:
        body = WebhookPayload(game_id=game_id, result=result.value,
                              decision=DecisionOut.build(decision)).model_dump_json()
        if not self._background:
            self._send(decision.id, body)
            return
        with self._lock:
            if self._worker is None:
                self._worker = threading.Thread(target=self._run, name="robot-webhook",
                                                daemon=True)
                self._worker.start()
        self._queue.put((decision.id, body))

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            try:
                if item is None:
                    return
                self._send(*item)
            finally:
                self._queue.task_done()

    def _send(self, decision_id: str, body: str) -> bool:
        headers = {"Content-Type": "application/json", "Idempotency-Key": decision_id,
                   **self._headers}
        error = ""
        for attempt in range(1, self.attempts + 1):
            wait = min(self.backoff_s * 2 ** (attempt - 1), self.max_backoff_s)
            try:
                response = self._client.post(self.url, content=body, headers=headers)
            except httpx.TransportError as exc:
                error = f"{type(exc).__name__}: {exc}"
            else:
                if response.is_success:
                    with self._lock:
                        self.delivered.append(decision_id)
                    return True
                error = f"HTTP {response.status_code}"
                if response.status_code not in RETRY_STATUS:
                    break
                retry_after = response.headers.get("Retry-After", "")
                if response.status_code == 429 and retry_after.isdigit():
                    wait = min(float(retry_after), self.max_backoff_s)
            if attempt < self.attempts:
                log.warning("webhook for %s failed (%s), attempt %d/%d; retrying in %.1f s",
                            decision_id, error, attempt, self.attempts, wait)
                self._sleep(wait)
        log.error("webhook for %s given up: %s", decision_id, error)
        with self._lock:
            self.failed.append((decision_id, error))
        return False

    def flush(self) -> None:
        """Wait until every queued delivery is done (delivered or given up)."""
        self._queue.join()

    def close(self) -> None:
        with self._lock:
            worker = self._worker
            self._worker = None
        if worker is not None:
            self._queue.put(None)
            worker.join()
        if self._owns_client:
            self._client.close()
