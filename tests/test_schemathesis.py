"""Property-based fuzz of the OpenAPI schema: whatever a client sends, never a 5xx.

Schemathesis reads ``/openapi.json`` and generates requests, valid and not,
for every operation; a bounded number of examples per operation keeps the run
short on a busy CI machine. Every answer must be a success or a JSON error with
a stable code, never a server error or a stack trace.
"""

from __future__ import annotations

from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis", reason="schemathesis (test extra) not installed")

from hypothesis import HealthCheck, settings  # noqa: E402

from api.app import create_app  # noqa: E402
from api.settings import Settings  # noqa: E402

MAX_EXAMPLES = 40
"""Per operation; enough to hit missing, wrong-typed and odd fields of each request."""

app = create_app(Settings())
schema = schemathesis.openapi.from_asgi("/openapi.json", app)


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None,
          suppress_health_check=list(HealthCheck))
def test_no_server_errors(case: Any) -> None:
    response = case.call()
    assert response.status_code < 500, (case.method, case.path, response.text[:500])
    if response.status_code >= 400:
        body = response.json()
        assert set(body) == {"error"}, body
        assert body["error"]["code"] and body["error"]["message"]
        assert "Traceback" not in response.text
