"""The Python SDK's quickstart, type-checked with ``mypy --strict`` and run against a service in CI
(test/integration/sdk-python.test.ts):

    python quickstart.py            SVC_API_KEY, SVC_BASE_URL, SVC_WEBHOOK_URL: an agent, a webhook
                                    endpoint, a test call polled to its end, its transcript, the calls
                                    page by page, a typed 422; prints what it saw as one JSON line
    python quickstart.py webhook    a delivery's raw body on stdin, SVC_SIGNATURE (its Svc-Signature
                                    header), SVC_WEBHOOK_SECRET: the verified event, typed by its type
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

from svc_assistant import Svc, UnprocessableEntityError, models, webhooks

FINAL = {"completed", "transferred", "busy", "no_answer", "failed", "canceled"}


def place_a_call(svc: Svc) -> dict[str, Any]:
    agent: models.Agent = svc.agents.create(name="Quickstart agent", instructions="You confirm appointments.")
    endpoint = svc.webhook_endpoints.create(url=os.environ["SVC_WEBHOOK_URL"], events=["call.ended"])
    call = svc.calls.create(
        to="+14155550123",
        agent_id=agent.id,
        metadata={"order": "42"},
        simulation={"caller": ["Hi, is my appointment at ten?", "Thanks, bye."]},
        options={"idempotency_key": f"quickstart-{agent.id}"},
    )
    deadline = time.monotonic() + 120
    while call.status not in FINAL:
        if time.monotonic() > deadline:
            raise TimeoutError(f"call {call.id} is still {call.status}")
        time.sleep(0.25)
        call = svc.calls.retrieve(call.id)
    transcript = svc.calls.transcript(call.id)
    return {
        "agent_id": agent.id,
        "call_id": call.id,
        "status": call.status,
        "metadata": call.metadata,
        "turns": [f"{turn.role}: {turn.text}" for turn in transcript.turns],
        "webhook_secret": endpoint.secret,
    }


def page_through_calls(svc: Svc) -> list[str]:
    """Every call, one per page: iterating a list follows ``starting_after`` cursors."""
    return [call.id for call in svc.calls.list(limit=1)]


def typed_error(svc: Svc) -> dict[str, Any]:
    """WhatsApp outside the 24-hour window is refused: 422 ``whatsapp_window_closed``."""
    try:
        svc.messages.send(channel="whatsapp", to="+14155550124", text="Hello out of the blue")
    except UnprocessableEntityError as e:
        return {"status": e.status_code, "code": e.code, "param": e.param, "request_id": e.request_id}
    raise AssertionError("the message was sent")


def verify_webhook(payload: bytes, signature: str, secret: str) -> dict[str, Any]:
    """A delivery verified and typed: ``call.ended`` comes back as a ``CallEvent``."""
    event = webhooks.construct_event(payload, signature, secret)
    if isinstance(event, models.CallEvent):
        return {"model": "CallEvent", "type": event.type, "call_id": event.data.object.id}
    return {"model": type(event).__name__, "type": event.type, "call_id": None}


def main() -> None:
    if sys.argv[1:] == ["webhook"]:
        seen = verify_webhook(sys.stdin.buffer.read(), os.environ["SVC_SIGNATURE"], os.environ["SVC_WEBHOOK_SECRET"])
    else:
        with Svc(api_key=os.environ["SVC_API_KEY"], base_url=os.environ["SVC_BASE_URL"]) as svc:
            seen = {**place_a_call(svc), "call_ids": page_through_calls(svc), "error": typed_error(svc)}
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
