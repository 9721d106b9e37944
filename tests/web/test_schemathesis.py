"""schemathesis against the app's OpenAPI description: for inputs generated from every API
operation (valid ones and invalid ones), as the organizer and as the public, no response is a
5xx, every status code returned is documented, and every body matches its documented schema.

``positive_data_acceptance`` is left out on purpose: a request that fits the schema may still
be refused by the rules (a 3-0 in a best-of-3, an unknown tournament), with a documented 4xx.
The operations run one by one from this test (schemathesis's own pytest plugin does not run
on pytest 9), each with a bounded, derandomized number of examples.
"""

from __future__ import annotations

import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import positive_data_acceptance

from tests.services.builders import ORGANIZER, event, play_round
from tests.web.conftest import PASSWORD, add_account, settings_for
from turnir.services.accounts import AccountRole
from turnir.services.rounds import start_round
from turnir.storage.database import Database
from turnir.web.app import create_app

EXAMPLES = 8


def test_the_api_holds_to_its_description(web_db: Database) -> None:
    add_account(web_db, "org", AccountRole.ORGANIZER)
    tid = event(web_db, 6, rounds=3, top=2)
    play_round(web_db, tid)
    start_round(web_db, tid, actor=ORGANIZER)
    app = create_app(settings_for(web_db, login_failures=100_000), db=web_db)
    with TestClient(app) as client:
        token = client.post("/api/v1/session",
                            json={"login": "org", "password": PASSWORD}).json()["token"]
    who = st.sampled_from([{"authorization": f"Bearer {token}"}, {}])
    schema = schemathesis.openapi.from_asgi("/api/v1/openapi.json", app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 20
    seen: set[int] = set()
    for operation in operations:
        for mode in GenerationMode:

            @given(case=operation.as_strategy(generation_mode=mode), headers=who)
            @settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
                      suppress_health_check=list(HealthCheck), database=None)
            def run(case: schemathesis.Case, headers: dict[str, str]) -> None:
                response = case.call_and_validate(
                    headers=headers, excluded_checks=[positive_data_acceptance])
                seen.add(response.status_code)

            try:
                run()
            except Unsatisfiable:
                # nothing invalid can be sent to an operation without inputs
                assert mode is GenerationMode.NEGATIVE, operation.label
    assert {200, 401, 404, 422} <= seen
